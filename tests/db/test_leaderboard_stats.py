"""A player's statistics and history equal a hand computation over the games recorded.

Real games are played through the session manager (random legal moves, every variant, a
computer opponent, a forfeit), then every figure of ``/cribbage stats`` is recomputed from the
store's per-game records and compared.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest

from bot.engine import Variant
from bot.ratings import RATER, Rating
from bot.sessions import Forfeit
from tests.support.leaderboard import rated_copy, record_game
from tests.support.sessions import (
    BOB,
    CAROL,
    DAVE,
    HOST,
    open_manager,
    play_one,
    play_to_end,
    started_game,
)


async def _play(path) -> None:
    """HOST's games: 2 against BOB, one 3-handed, one in partnerships, one against a computer,
    a short one against BOB, one forfeited against CAROL (after the first show), one aborted
    against DAVE (DAVE left in the first deal, before any hand was counted) and an abandoned one
    (stats leave those two out)."""
    ticks = itertools.count(1000)
    seeds = random.Random(7)
    store, manager = await open_manager(
        path, clock=lambda: float(next(ticks)), seed_source=lambda: seeds.getrandbits(64)
    )
    await store.standings.enable_ratings(RATER)
    rng = random.Random(3)
    setups: list[dict[str, Any]] = [
        {"humans": (HOST, BOB)},
        {"humans": (BOB, HOST)},
        {"humans": (HOST, CAROL, BOB), "variant": Variant(3, False, 61)},
        {"humans": (HOST, BOB, CAROL, DAVE), "variant": Variant(4, True, 61)},
        {"humans": (HOST,), "computers": ("easy",), "variant": Variant(2, False, 61)},
        {"humans": (HOST, BOB), "variant": Variant(2, False, 61)},
    ]
    for channel, setup in enumerate(setups, start=500):
        started = await started_game(manager, channel_id=channel, **setup)
        await play_to_end(manager, started.view.game_id, rng)
    started = await started_game(manager, humans=(HOST, CAROL), channel_id=600)
    while manager.live.view(started.view.game_id).deal_number < 2:  # past the first show
        await play_one(manager, started.view.game_id, rng)
    assert (await manager.play.forfeit(Forfeit(started.view.game_id, HOST))).ok
    started = await started_game(manager, humans=(HOST, DAVE), channel_id=601)
    for _ in range(4):  # the first deal: the discards, the cut and a card (auto-lays follow)
        await play_one(manager, started.view.game_id, rng)
    assert manager.live.view(started.view.game_id).deal_number == 1
    aborted = await manager.play.forfeit(Forfeit(started.view.game_id, DAVE))
    assert aborted.ok and aborted.finished.reason == "aborted"
    assert aborted.finished.winner_sides == () and aborted.finished.forfeit_seat == 1
    await record_game(store, [HOST, DAVE], [50, 40], abandoned=True, now=float(next(ticks)))
    await store.close()


@pytest.fixture(scope="module")
def played_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("played") / "played.db"
    asyncio.run(_play(path))
    return path


@pytest.fixture(scope="module")
def played_url(postgres_server):
    """The same games played once into a PostgreSQL database (the tests only read them)."""
    url = postgres_server.migrated_url()
    asyncio.run(_play(url))
    yield url
    postgres_server.give_back(url)


@pytest.fixture
def played_source(request, databases, tmp_path):
    """(the file to copy, where): the SQLite file built once, or the PostgreSQL schema."""
    if request.node.callspec.params["databases"] == "postgresql":
        return None, request.getfixturevalue("played_url")
    return request.getfixturevalue("played_file"), tmp_path / "played.db"


@pytest.fixture
async def played(played_source):
    async with rated_copy(*played_source) as store:
        yield store


async def hand_computed(store, user_id: int) -> dict:
    """The figures of /cribbage stats, recomputed game by game from the store's records."""
    games = []
    game_id = 1
    while (record := await store.games.load_game(game_id)) is not None:
        game_id += 1
        seat = next((s.seat for s in record.seats if s.user_id == user_id), None)
        if seat is None or record.status != "finished":
            continue
        results = {r.seat: r for r in await store.games.results(record.id)}
        deals = await store.games.deal_points(record.id)
        games.append((record, results, seat, deals))
    games.sort(key=lambda g: (g[0].ended_at, g[0].id))
    mine = [(rec, res[seat], res, seat, deals) for rec, res, seat, deals in games]
    latest = [r.won for _, r, *_ in reversed(mine)]
    streak = next((i for i, won in enumerate(latest) if won != latest[0]), len(latest))
    rivals: dict[int, list[int]] = {}
    for rec, me, results, _, _ in mine:
        for other in rec.seats:
            if other.user_id is not None and results[other.seat].side != me.side:
                tally = rivals.setdefault(other.user_id, [0, 0])
                tally[0] += 1
                tally[1] += me.won
    rival = min(rivals, key=lambda u: (-rivals[u][0], -rivals[u][1], u))
    best = max(
        (me.best_hand, -rec.ended_at, me.best_hand_cards)
        for rec, me, *_ in mine
        if me.best_hand is not None
    )
    own = [d for _, _, _, seat, deals in mine for d in deals if d.seat == seat]
    return {
        "games": len(mine),
        "wins": sum(me.won for _, me, *_ in mine),
        "forfeits": sum(me.outcome == "forfeited" for _, me, *_ in mine),
        "skunks_given": sum(me.skunk_given > 0 for _, me, *_ in mine),
        "skunks_taken": sum(me.skunk_taken > 0 for _, me, *_ in mine),
        "computer_games": sum(any(s.computer for s in rec.seats) for rec, *_ in mine),
        "computer_wins": sum(me.won and any(s.computer for s in rec.seats) for rec, me, *_ in mine),
        "deals": sum(max((d.deal for d in deals), default=0) for *_, deals in mine),
        "pegging": sum(d.pegging for d in own),
        "hand": sum(d.hand for d in own),
        "crib": sum(d.crib for d in own),
        "heels": sum(d.heels for d in own),
        "best_hand": best[0],
        "best_hand_cards": best[2],
        "streak_won": latest[0],
        "streak": streak,
        "rival": rival,
        "rival_games": rivals[rival][0],
        "rival_wins": rivals[rival][1],
    }


async def test_stats_equal_a_hand_computation(played):
    stats = await played.standings.player_stats(HOST)
    expected = await hand_computed(played, HOST)
    assert {name: getattr(stats, name) for name in expected} == expected
    assert stats.games == 7 and stats.forfeits == 1 and stats.computer_games == 1
    assert stats.streak_won is False  # the forfeit was the last game counted
    assert stats.rival == BOB
    assert stats.hand > 0 and stats.pegging > 0 and stats.deals > 10
    # every other player too
    for user in (BOB, CAROL, DAVE):
        stats = await played.standings.player_stats(user)
        expected = await hand_computed(played, user)
        assert {name: getattr(stats, name) for name in expected} == expected


async def test_stats_carry_the_rating_and_rank_among_people(played):
    stats = await played.standings.player_stats(HOST)
    board = await played.standings.leaderboard(player=HOST)
    assert stats.rating == (board.me.mu, board.me.sigma)
    assert stats.rank == board.me.rank and stats.ranked_players == board.total == 4
    assert stats.rated_games == 6  # the computer game counts apart; the abandoned one not at all
    history = await played.standings.rating_history(HOST)
    assert Rating(*history[-1].after) == Rating(*stats.rating)


async def test_an_aborted_game_is_neither_rated_nor_counted(played):
    """A forfeit before the first show was a rated win. DAVE left HOST's game in its
    first deal: neither has a rating change, a win, a loss or a forfeit from it."""
    dave = await played.standings.player_stats(DAVE)
    assert dave.games == 1 and dave.forfeits == 0  # his partnership game only
    abandoned, game, partnership = await played.standings.player_history(DAVE)
    assert partnership.partnerships and abandoned.end_reason == "abandoned"
    assert game.end_reason == "aborted" and game.forfeit_seat == game.seat
    dave_changes = [c.game_id for c in await played.standings.rating_history(DAVE)]
    host_changes = [c.game_id for c in await played.standings.rating_history(HOST)]
    assert dave_changes and game.game_id not in dave_changes + host_changes
    record = await played.games.load_game(game.game_id)
    assert (record.status, record.end_reason, record.winner_side) == (
        "abandoned",
        "abandoned",
        None,
    )
    assert record.forfeit_seat == 1
    assert {r.outcome for r in await played.games.results(game.game_id)} == {"abandoned"}


async def test_stats_of_a_server_and_of_a_stranger(played):
    # every game was in guild 1
    assert (await played.standings.player_stats(HOST, scope=1)).games == 7
    assert (await played.standings.player_stats(HOST, scope=2)).games == 0
    nobody = await played.standings.player_stats(999)
    assert (nobody.games, nobody.rating, nobody.rank, nobody.streak_won) == (0, None, None, None)
    assert nobody.best_hand is None and nobody.rival is None


async def test_history_lists_the_last_games_newest_first(played):
    history = await played.standings.player_history(HOST, limit=20)
    assert len(history) == 9  # the aborted and the abandoned games are history too
    assert [h.ended_at for h in history] == sorted((h.ended_at for h in history), reverse=True)
    abandoned, aborted, forfeited = history[0], history[1], history[2]
    assert abandoned.outcome == "abandoned" and abandoned.rating_after is None
    assert abandoned.end_reason == "abandoned" and abandoned.forfeit_seat is None
    assert (aborted.outcome, aborted.end_reason, aborted.status) == (
        "abandoned",
        "aborted",
        "abandoned",
    )
    assert aborted.forfeit_seat == 1 and aborted.seat == 0  # DAVE left; HOST sat first
    assert aborted.rating_before is None and aborted.rating_after is None
    assert forfeited.outcome == "forfeited" and forfeited.end_reason == "forfeit"
    assert [p.user_id for p in forfeited.opponents] == [CAROL]
    assert forfeited.rating_after[0] < forfeited.rating_before[0]
    partnership = next(h for h in history if h.partnerships)
    assert [p.user_id for p in partnership.partners] == [CAROL]
    assert sorted(p.user_id for p in partnership.opponents) == [BOB, DAVE]
    computer = next(h for h in history if any(p.computer for p in h.opponents))
    assert computer.opponents[0].computer == "easy"
    assert len(await played.standings.player_history(HOST, limit=3)) == 3
    for entry in history:
        results = {r.seat: r for r in await played.games.results(entry.game_id)}
        mine = next(r for r in results.values() if r.side == entry.side)
        assert entry.score == mine.final_score
