"""Playing through the manager: turns, refusals, computer seats, endings, results, replays."""

from __future__ import annotations

import functools
import random

import pytest

from bot.engine import (
    Card,
    Cut,
    Discarded,
    Game,
    Phase,
    Play,
    Variant,
)
from bot.sessions import (
    STALE_MESSAGE,
    Forfeit,
    GameStatus,
    Move,
    OpenLobby,
    PrivateView,
    Refusal,
    RefusalReason,
    ShowHand,
    SweepReport,
)
from tests.support.postgres import connect
from tests.support.sessions import (
    BOB,
    CAROL,
    DAVE,
    EVE,
    HOST,
    assert_durable,
    dump_database,
    play_one,
    play_past_first_show,
    play_to_end,
    running,
    started_game,
    stored_deal_points,
)

R = RefusalReason


async def cut_both(manager, game_id):
    """Both humans cut for the deal (re-cutting ties) until the cards are dealt."""
    for _ in range(10):
        view = manager.live.view(game_id)
        if view.phase is not Phase.CUT_FOR_DEAL:
            return view
        for user in view.to_act_users:
            mine = manager.hands.private_view(ShowHand(game_id, user))
            assert (await manager.play.act(Move(game_id, user, Cut(10), step=mine.step))).ok
    raise AssertionError("the cut for deal never ended")


# ---------------------------------------------------------------------- acting


@pytest.mark.sqlite_only
async def test_acting_commits_then_answers_with_tagged_events(setup):
    manager, path = setup
    start = await started_game(manager)
    game_id = start.game_id
    assert start.step == 0 and set(start.to_act_users) == {HOST, BOB}
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    outcome = await manager.play.act(Move(game_id, HOST, Cut(7), step=mine.step))
    assert outcome.ok and outcome.step == 1
    assert [e.step for e in outcome.events] == [1]
    assert outcome.to_act_users == (BOB,)
    assert_durable(path, game_id, manager)
    view = await cut_both(manager, game_id)
    assert view.phase is Phase.DISCARD and view.hand_sizes == (6, 6)
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_the_private_view_holds_only_that_players_cards(setup):
    manager, _ = setup
    game_id = (await started_game(manager)).game_id
    await cut_both(manager, game_id)
    mine, theirs = (
        manager.hands.private_view(ShowHand(game_id, HOST)),
        manager.hands.private_view(ShowHand(game_id, BOB)),
    )
    assert isinstance(mine, PrivateView) and len(mine.hand) == 6
    assert not set(mine.hand) & set(theirs.hand)
    assert len(mine.legal_actions) == 15 and mine.must_act and mine.phase is Phase.DISCARD
    assert manager.hands.private_view(ShowHand(game_id, CAROL)).reason is R.NOT_SEATED
    assert manager.hands.private_view(ShowHand(999, HOST)).reason is R.UNKNOWN_GAME
    view = manager.live.view(game_id)
    assert not any(str(card) in repr(view) for card in mine.hand + theirs.hand)


@pytest.mark.sqlite_only
async def test_a_discard_button_stays_valid_while_the_other_player_discards(setup):
    manager, _ = setup
    game_id = (await started_game(manager)).game_id
    await cut_both(manager, game_id)
    mine, theirs = (
        manager.hands.private_view(ShowHand(game_id, HOST)),
        manager.hands.private_view(ShowHand(game_id, BOB)),
    )
    assert (await manager.play.act(Move(game_id, HOST, mine.legal_actions[0], step=mine.step))).ok
    outcome = await manager.play.act(Move(game_id, BOB, theirs.legal_actions[3], step=theirs.step))
    assert outcome.ok and outcome.view.phase is Phase.CUT_FOR_STARTER
    assert [type(e.event) for e in outcome.events] == [Discarded]


# ---------------------------------------------------------------------- refusals


@pytest.fixture
async def mid_game(setup):
    """A game in the play, HOST to lay a card; returns (manager, path, game_id)."""
    manager, path = setup
    game_id = (await started_game(manager)).game_id
    rng = random.Random(3)
    for _ in range(50):
        view = manager.live.view(game_id)
        if view.phase is Phase.PLAY and view.to_act_users == (HOST,) and view.count > 0:
            return manager, path, game_id
        await play_one(manager, game_id, rng)
    raise AssertionError("never reached the play with HOST to act")


async def assert_refused(manager, path, game_id, call, reason, text):
    before_db, before_view = dump_database(path), manager.live.view(game_id)
    before_hands = {u: manager.hands.private_view(ShowHand(game_id, u)) for u in (HOST, BOB)}
    refusal = await call()
    assert isinstance(refusal, Refusal) and not refusal.ok
    assert refusal.reason is reason and text in refusal.message
    assert dump_database(path) == before_db
    assert manager.live.view(game_id) == before_view
    assert {
        u: manager.hands.private_view(ShowHand(game_id, u)) for u in (HOST, BOB)
    } == before_hands


async def test_refusals_change_nothing(mid_game):
    manager, path, game_id = mid_game
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    theirs = manager.hands.private_view(ShowHand(game_id, BOB))
    card = mine.legal_actions[0]
    cases = [
        (
            lambda: manager.play.act(Move(game_id, CAROL, card, step=mine.step)),
            R.NOT_SEATED,
            "not playing",
        ),
        (
            lambda: manager.play.act(Move(game_id, BOB, Play(theirs.hand[0]), step=theirs.step)),
            R.NOT_YOUR_TURN,
            "not your turn",
        ),
        (
            lambda: manager.play.act(Move(game_id, HOST, card, step=mine.step - 1)),
            R.STALE,
            "out of date",
        ),
        (
            lambda: manager.play.act(Move(game_id, HOST, card, step=mine.step + 1)),
            R.STALE,
            "out of date",
        ),
        (
            lambda: manager.play.act(Move(game_id, HOST, Play(theirs.hand[0]), step=mine.step)),
            R.ILLEGAL,
            "You don't hold",
        ),
        (
            lambda: manager.play.act(Move(game_id, HOST, Cut(5), step=mine.step)),
            R.ILLEGAL,
            "play a card",
        ),
        (
            lambda: manager.play.act(Move(game_id + 50, HOST, card, step=1)),
            R.UNKNOWN_GAME,
            "can't find",
        ),
        (lambda: manager.play.forfeit(Forfeit(game_id, CAROL)), R.NOT_SEATED, "not playing"),
    ]
    for call, reason, text in cases:
        await assert_refused(manager, path, game_id, call, reason, text)
    assert STALE_MESSAGE.startswith("That button is out of date")
    assert (await manager.play.act(Move(game_id, HOST, card, step=mine.step))).ok


@pytest.mark.sqlite_only
async def test_a_card_that_passes_31_is_refused_with_the_engines_reason(setup):
    manager, path = setup
    game_id = (await started_game(manager)).game_id
    rng = random.Random(7)
    for _ in range(400):
        view = manager.live.view(game_id)
        if view.phase is Phase.PLAY:
            user = view.to_act_users[0]
            mine = manager.hands.private_view(ShowHand(game_id, user))
            too_big = [c for c in mine.hand if view.count + c.value > 31]
            if too_big:
                move = Move(game_id, user, Play(too_big[0]), step=mine.step)
                call = functools.partial(manager.play.act, move)
                await assert_refused(manager, path, game_id, call, R.ILLEGAL, "past 31")
                return
        await play_one(manager, game_id, rng)
    raise AssertionError("no card over 31 came up with these seeds: try others")


@pytest.mark.sqlite_only
async def test_a_finished_game_refuses_everything(setup):
    manager, path = setup
    game_id = (await started_game(manager, variant=Variant(target=61))).game_id
    final = await play_to_end(manager, game_id, random.Random(1))
    assert final.finished is not None and final.view.status is GameStatus.FINISHED
    before = dump_database(path)
    for user in (HOST, BOB):
        refusal = await manager.play.act(Move(game_id, user, Cut(4), step=final.step))
        assert refusal.reason is R.GAME_OVER and "over" in refusal.message
        assert (await manager.play.forfeit(Forfeit(game_id, user))).reason is R.GAME_OVER
    assert manager.live.view(game_id) is None and manager.live.in_channel(500) is None
    assert dump_database(path) == before


# ---------------------------------------------------------------------- endings and results


def assert_results_add_up(path, game_id):
    conn = connect(path)
    rows = conn.execute(
        "SELECT seat, side, won, final_score, pegging + hand + crib + heels, skunk_given, "
        "skunk_taken FROM results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    per_deal: dict[int, int] = {}  # rows, or the archive once it ended
    for _, seat, pegging, hand, crib, heels, *_ in stored_deal_points(conn, game_id):
        per_deal[seat] = per_deal.get(seat, 0) + pegging + hand + crib + heels
    conn.close()
    by_side: dict[int, int] = {}
    for _, side, _, _, points, _, _ in rows:
        by_side[side] = by_side.get(side, 0) + points
    for _, side, _, final, _, _, _ in rows:
        assert by_side[side] == final  # every point pegged is accounted for, once
    assert {s: p for s, p in per_deal.items() if p} == {r[0]: r[4] for r in rows if r[4]}
    return rows


async def test_a_won_game_records_results_and_deal_points(setup):
    manager, path = setup
    game_id = (await started_game(manager, computers=("easy",), humans=(HOST,))).game_id
    final = await play_to_end(manager, game_id, random.Random(2))
    finished = final.finished
    assert finished.reason == "won" and len(finished.winner_sides) == 1
    assert max(finished.scores) == 121 and final.view.winner == finished.winner_sides[0]
    rows = assert_results_add_up(path, game_id)
    assert [r[2] for r in rows] == [int(r[1] == finished.winner_sides[0]) for r in rows]
    loser = next(r for r in rows if not r[2])
    assert loser[6] == finished.skunks[loser[1]]
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_computer_moves_are_applied_in_order_each_with_its_step(setup):
    manager, path = setup
    start = await started_game(
        manager, humans=(HOST,), computers=("standard", "expert"), variant=Variant(players=3)
    )
    game_id = start.game_id
    outcome = start
    rng = random.Random(4)
    for _ in range(30):
        outcome = await play_one(manager, game_id, rng)
        steps = [e.step for e in outcome.events]
        assert steps == sorted(steps) and steps[-1] == outcome.step
        assert outcome.to_act_users in ((HOST,), ())
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_a_failing_or_cheating_strategy_falls_back_to_a_legal_move(databases, caplog):
    calls = []

    def flaky(game: Game, seat: int, level: str):
        calls.append(level)
        if len(calls) % 2:
            raise RuntimeError("the AI tripped")
        return Play(Card.parse("AS")) if game.phase is Phase.PLAY else Cut(1)  # never legal

    async with running(databases("flaky"), strategy=flaky) as manager:
        game_id = (await started_game(manager, humans=(HOST,), computers=("expert",))).game_id
        for _ in range(20):
            assert await play_one(manager, game_id, random.Random(5)) is not None
        assert len(calls) >= 10 and set(calls) == {"expert"}
        assert "strategy failed" in caplog.text and "illegal action" in caplog.text


@pytest.mark.sqlite_only
async def test_forfeit_ends_the_game_for_the_other_sides(setup):
    manager, path = setup
    game_id = (
        await started_game(
            manager, humans=(HOST, BOB, CAROL), variant=Variant(players=3), channel_id=600
        )
    ).game_id
    await play_past_first_show(manager, game_id, random.Random(2))  # before it: aborted
    outcome = await manager.play.forfeit(Forfeit(game_id, BOB))
    assert outcome.finished.reason == "forfeit" and outcome.finished.forfeit_seat == 1
    assert outcome.finished.winner_sides == (0, 2)
    assert set(outcome.finished.winner_users) == {HOST, CAROL}
    assert outcome.view.status is GameStatus.FINISHED and outcome.to_act_users == ()
    conn = connect(path)
    assert conn.execute(
        "SELECT status, end_reason, forfeit_seat, winner_side FROM games WHERE id = ?", (game_id,)
    ).fetchone() == ("finished", "forfeit", 1, None)
    assert conn.execute(
        "SELECT seat, outcome, won FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall() == [(0, "won", 1), (1, "forfeited", 0), (2, "won", 1)]
    conn.close()


@pytest.mark.sqlite_only
async def test_a_partner_forfeits_for_the_team(setup):
    manager, _ = setup
    game_id = (
        await started_game(
            manager,
            humans=(HOST, BOB, CAROL, DAVE),
            variant=Variant(players=4, partnerships=True),
            channel_id=700,
        )
    ).game_id
    await play_past_first_show(manager, game_id, random.Random(2))  # before it: aborted
    outcome = await manager.play.forfeit(Forfeit(game_id, CAROL))  # seat 2, partner of HOST
    assert outcome.finished.winner_sides == (1,)
    assert set(outcome.finished.winner_users) == {BOB, DAVE}


# ---------------------------------------------------------------------- idle games


async def test_an_idle_game_is_warned_then_abandoned(database):
    now = [1000.0]
    async with running(
        database, clock=lambda: now[0], idle_warn_after=100, idle_abandon_after=150
    ) as manager:
        game_id = (await started_game(manager)).game_id
        lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=900, host_id=EVE))
        assert (await manager.idle.sweep(1050.0)) == SweepReport()

        report = await manager.idle.sweep(1100.0)
        warned = {w.game_id: w for w in report.warnings}
        assert set(warned) == {game_id, lobby.game_id} and report.abandoned == ()
        assert set(warned[game_id].user_ids) == {HOST, BOB} and warned[game_id].abandon_at == 1150.0
        assert (await manager.idle.sweep(1120.0)).warnings == ()  # warned once

        now[0] = 1130.0  # HOST acts: the game is not idle any more
        mine = manager.hands.private_view(ShowHand(game_id, HOST))
        assert (await manager.play.act(Move(game_id, HOST, Cut(4), step=mine.step))).ok
        report = await manager.idle.sweep(1160.0)
        assert [o.game_id for o in report.abandoned] == [lobby.game_id]
        assert report.abandoned[0].view.status is GameStatus.ABANDONED

        report = await manager.idle.sweep(1230.0)
        assert [w.game_id for w in report.warnings] == [game_id]
        assert warned[game_id].user_ids != report.warnings[0].user_ids == (BOB,)  # who must act
        report = await manager.idle.sweep(1280.0)
        (abandoned,) = report.abandoned
        assert abandoned.finished.reason == "abandoned" and abandoned.finished.winner_sides == ()
        assert (await manager.play.act(Move(game_id, BOB, Cut(4), step=1))).reason is R.GAME_OVER
    conn = connect(database)
    assert conn.execute(
        "SELECT outcome, won FROM results WHERE game_id = ?", (game_id,)
    ).fetchall() == [("abandoned", 0), ("abandoned", 0)]
    conn.close()
