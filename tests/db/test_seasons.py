"""Seasons in the store, on both backends: a season's standings, statistics and history count
only the games of its server that ended while it was open; a soft season starts each player
from their server rating with a wider sigma, a reset one from a new player's; ending closes it
and it stays readable by name."""

from __future__ import annotations

import pytest

from bot.ratings import DEFAULT_RATING, RATER
from db import Store
from db.errors import Conflict
from db.seasons import SOFT_WIDEN, scope_of
from tests.support.leaderboard import record_game

ALICE, BOB, CAROL = 11, 12, 13
GUILD, OTHER = 5, 6


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    await store.standings.enable_ratings(RATER)
    yield store
    await store.close()


async def board(store: Store, scope: int):
    page = await store.standings.leaderboard(scope=scope, page_size=100)
    return {row.player: row for row in page.rows}


async def test_a_season_counts_only_its_servers_games_while_open(store):
    await record_game(store, [ALICE, BOB], [121, 90], winner=0, guild_id=GUILD, now=10.0)
    season = await store.seasons.start(GUILD, "Spring", carry="reset", started_by=ALICE, now=20)
    assert season.open and season.scope == scope_of(season.id) < 0
    assert await board(store, season.scope) == {}

    await record_game(store, [BOB, CAROL], [121, 80], winner=0, guild_id=GUILD, now=30.0)
    await record_game(store, [ALICE, CAROL], [121, 80], winner=0, guild_id=OTHER, now=31.0)
    rows = await board(store, season.scope)
    assert sorted(rows) == [BOB, CAROL]  # alice played only before, and in another server
    assert (rows[BOB].games, rows[BOB].wins, rows[CAROL].games) == (1, 1, 1)
    server = await board(store, GUILD)
    assert server[BOB].games == 2 and server[ALICE].games == 1  # the server counts them all

    bob = await store.standings.player_stats(BOB, scope=season.scope)
    assert (bob.games, bob.wins, bob.rated_games, bob.rank, bob.ranked_players) == (1, 1, 1, 1, 2)
    alice = await store.standings.player_stats(ALICE, scope=season.scope)
    assert alice.games == 0 and alice.rating is None
    (entry,) = await store.standings.player_history(BOB, scope=season.scope)
    assert entry.outcome == "won" and entry.rating_after is not None
    assert len(await store.standings.player_history(BOB, scope=GUILD)) == 2

    ended = await store.seasons.end(GUILD, now=40.0)
    assert ended is not None and ended.id == season.id and not ended.open
    assert await store.seasons.current(GUILD) is None
    await record_game(store, [BOB, CAROL], [121, 80], winner=1, guild_id=GUILD, now=50.0)
    rows = await board(store, season.scope)  # the past season is as it was left
    assert rows[BOB].games == 1 and rows[CAROL].wins == 0
    assert len(await store.standings.player_history(CAROL, scope=season.scope)) == 1
    assert await store.seasons.named(GUILD, "  spring ") == ended
    assert await store.seasons.end(GUILD, now=60.0) is None  # nothing open: nothing ended


async def test_reset_starts_new_and_soft_carries_the_server_rating_widened(store):
    for now in (1.0, 2.0, 3.0):
        await record_game(store, [ALICE, BOB], [121, 70], winner=0, guild_id=GUILD, now=now)
    server = await board(store, GUILD)
    await store.seasons.start(GUILD, "Reset", carry="reset", started_by=ALICE, now=10.0)
    await record_game(store, [ALICE, BOB], [121, 100], winner=0, guild_id=GUILD, now=11.0)
    reset = (await store.seasons.end(GUILD, now=12.0)).scope
    (change,) = await store.standings.rating_history(ALICE, scope=reset)
    assert change.before == (DEFAULT_RATING.mu, DEFAULT_RATING.sigma)

    server = await board(store, GUILD)  # the server's ratings when the soft season starts
    soft = await store.seasons.start(GUILD, "Soft", carry="soft", started_by=ALICE, now=20.0)
    await record_game(store, [ALICE, BOB], [121, 100], winner=0, guild_id=GUILD, now=21.0)
    for player in (ALICE, BOB):
        (change,) = await store.standings.rating_history(player, scope=soft.scope)
        mu, sigma = server[player].mu, server[player].sigma
        widened = min(DEFAULT_RATING.sigma, sigma * SOFT_WIDEN)
        assert change.before == pytest.approx((mu, widened))
        assert sigma < widened <= DEFAULT_RATING.sigma
    (first,) = await store.standings.rating_history(CAROL, scope=soft.scope) or [None]
    assert first is None
    # a newcomer to the server starts a soft season as a new player
    await record_game(store, [CAROL, BOB], [121, 100], winner=0, guild_id=GUILD, now=22.0)
    (carol,) = await store.standings.rating_history(CAROL, scope=soft.scope)
    assert carol.before == (DEFAULT_RATING.mu, DEFAULT_RATING.sigma)
    rows = await board(store, soft.scope)
    assert rows[ALICE].mu > server[ALICE].mu  # a win moved her on from where she carried


async def test_one_open_season_per_server_and_names_are_unique(store):
    await store.seasons.start(GUILD, "Winter 2026", carry="soft", started_by=ALICE, now=1.0)
    with pytest.raises(Conflict, match="already has an open season"):
        await store.seasons.start(GUILD, "Another", carry="soft", started_by=ALICE, now=2.0)
    other = await store.seasons.start(OTHER, "Winter 2026", carry="reset", started_by=BOB, now=2)
    assert other.guild_id == OTHER  # another server's names are its own
    await store.seasons.end(GUILD, now=3.0)
    with pytest.raises(Conflict, match="already had a season named"):
        await store.seasons.start(GUILD, "winter  2026", carry="soft", started_by=ALICE, now=4)
    for bad in ("", "   ", "x" * 51):
        with pytest.raises(ValueError, match="1 to 50 characters"):
            await store.seasons.start(GUILD, bad, carry="soft", started_by=ALICE, now=5.0)
    with pytest.raises(ValueError, match="No carry"):
        await store.seasons.start(GUILD, "Odd", carry="keep", started_by=ALICE, now=5.0)  # type: ignore[arg-type]
    assert await store.seasons.current(GUILD) is None  # the refusals opened nothing
    names = [s.name for s in await store.seasons.of_guild(GUILD)]
    assert names == ["Winter 2026"]


async def test_a_game_caught_up_later_counts_in_the_season_it_ended_in(database):
    """Games that ended while no rater was set are rated later in the season open when they
    ended, not the one open when they are rated."""
    store = await Store.open(database)
    try:
        first = await store.seasons.start(GUILD, "One", carry="reset", started_by=ALICE, now=10)
        await record_game(store, [ALICE, BOB], [121, 90], winner=0, guild_id=GUILD, now=11.0)
        await store.seasons.end(GUILD, now=15.0)
        second = await store.seasons.start(GUILD, "Two", carry="reset", started_by=ALICE, now=16)
        assert await store.standings.enable_ratings(RATER) == 1
        assert sorted(await board(store, first.scope)) == [ALICE, BOB]
        assert await board(store, second.scope) == {}
    finally:
        await store.close()
