"""Turn timers in the session manager, on a fake clock: reminders, moves made for absent players,
forfeits, several people on their own clocks, restarts."""

from __future__ import annotations

import random

import pytest

from bot.engine import Phase, Variant
from bot.sessions import Forfeit, GameStatus, Move, OpenLobby, PrivateView, ShowHand, TurnReport
from tests.support.postgres import connect
from tests.support.sessions import (
    BOB,
    HOST,
    open_manager,
    play_one,
    replay_from_database,
    running,
    started_game,
)

START = 1000.0
TURN = 300.0  # the default: five minutes
GUILD = 1  # the guild of tests.support.sessions.started_game


class Clock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(database):
    clock = Clock()
    store, manager = await open_manager(database, clock=clock, seed_source=lambda: 7)
    yield manager, clock, database
    await store.close()


async def sweep(manager, clock: Clock, at: float) -> TurnReport:
    clock.now = at
    return await manager.timers.sweep()


async def reach(manager, game_id: int, phase: Phase, rng: random.Random) -> None:
    """People play random legal moves until the game is in ``phase`` (at the current time)."""
    for _ in range(200):
        if manager.live.view(game_id).phase is phase:
            return
        await play_one(manager, game_id, rng)
    raise AssertionError(f"never reached {phase}")


def log_of(path, game_id: int) -> list[tuple[int, int]]:
    conn = connect(path)
    try:
        return conn.execute(
            "SELECT seq, seat FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()


def assert_replayable(path, game_id: int, manager) -> None:
    replayed, snapshot, actions = replay_from_database(path, game_id)
    assert replayed.to_dict() == snapshot
    view = manager.live.view(game_id)
    assert view is None or view.step == actions


# ---------------------------------------------------------------------- reminders


async def test_a_reminder_at_half_time_once_per_turn(timed):
    manager, clock, _ = timed
    game_id = (await started_game(manager)).game_id  # both cut for the deal: two turns
    turns = await manager.timers.turns(game_id)
    assert {(t.user_id, t.started, t.deadline) for t in turns} == {
        (HOST, START, START + TURN),
        (BOB, START, START + TURN),
    }
    assert await sweep(manager, clock, START + TURN / 2 - 1) == TurnReport()

    report = await sweep(manager, clock, START + TURN / 2)
    assert {r.user_id for r in report.reminders} == {HOST, BOB}
    assert {(r.deadline, r.expiries, r.forfeit_after) for r in report.reminders} == {
        (START + TURN, 0, 3)
    }
    assert report.reminders[0].channel_id == manager.live.view(game_id).channel_id
    assert await sweep(manager, clock, START + TURN / 2 + 10) == TurnReport()  # once


async def test_a_move_starts_a_fresh_turn(timed):
    manager, clock, _ = timed
    game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
    clock.now = START + 250
    await reach(manager, game_id, Phase.DISCARD, random.Random(1))
    (turn,) = await manager.timers.turns(game_id)
    assert (turn.user_id, turn.started) == (HOST, START + 250)
    assert (await sweep(manager, clock, START + TURN + 1)).expired == ()  # not due any more
    assert (await sweep(manager, clock, START + 250 + TURN / 2)).reminders


# ---------------------------------------------------------------------- running out


async def test_a_turn_that_runs_out_is_played_for_the_player_and_logged(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager, humans=(HOST,), computers=("standard",))).game_id
    await reach(manager, game_id, Phase.PLAY, random.Random(2))
    while manager.live.view(game_id).to_act_users != (HOST,):
        await play_one(manager, game_id, random.Random(3))
    before = manager.live.view(game_id)
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    assert isinstance(mine, PrivateView) and mine.legal_actions

    report = await sweep(manager, clock, START + TURN)
    assert report.reminders == () and report.forfeits == ()
    (outcome,) = report.expired
    (notice,) = outcome.timeouts
    assert (notice.user_id, notice.seat, notice.expiries, notice.forfeited) == (HOST, 0, 1, False)
    assert notice.step == before.step + 1
    first = next(e for e in outcome.events if e.step == notice.step)
    assert first.event.seat == 0 and first.event.card in {a.card for a in mine.legal_actions}
    assert log_of(path, game_id)[notice.step - 1] == (notice.step, 0)  # a normal logged move
    assert_replayable(path, game_id, manager)
    assert outcome.view.status is GameStatus.ACTIVE


async def test_the_third_turn_to_run_out_forfeits(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
    at = START
    for expected in (1, 2):
        at += TURN
        (outcome,) = (await sweep(manager, clock, at)).expired
        assert outcome.timeouts[0].expiries == expected
        at = clock.now
    at += TURN
    report = await sweep(manager, clock, at)
    assert report.expired == ()
    (ended,) = report.forfeits
    assert ended.timeouts[0].forfeited and ended.timeouts[0].expiries == 3
    # in the first deal, before any hand was counted: the forfeit aborts the game
    assert ended.finished.reason == "aborted" and ended.finished.forfeit_seat == 0
    assert ended.view.status is GameStatus.ABANDONED and manager.live.view(game_id) is None
    conn = connect(path)
    assert conn.execute(
        "SELECT seat, outcome FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall() == [(0, "abandoned"), (1, "abandoned")]
    assert conn.execute(
        "SELECT end_reason, forfeit_seat FROM games WHERE id = ?", (game_id,)
    ).fetchone() == ("abandoned", 0)
    conn.close()
    assert await sweep(manager, clock, at + 10 * TURN) == TurnReport()


# ---------------------------------------------------------------------- several people at once


async def test_in_the_discard_each_person_has_their_own_clock(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager)).game_id
    clock.now = START + 10
    await reach(manager, game_id, Phase.DISCARD, random.Random(4))
    dealt = clock.now
    clock.now = dealt + 100
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    assert (await manager.play.act(Move(game_id, HOST, mine.legal_actions[0], step=mine.step))).ok
    (turn,) = await manager.timers.turns(game_id)
    assert (turn.user_id, turn.started) == (BOB, dealt)  # HOST's move did not reset BOB's clock

    report = await sweep(manager, clock, dealt + TURN / 2)
    assert [r.user_id for r in report.reminders] == [BOB]
    report = await sweep(manager, clock, dealt + TURN)
    (outcome,) = report.expired
    assert [(t.user_id, t.expiries) for t in outcome.timeouts] == [(BOB, 1)]
    assert manager.live.view(game_id).phase is Phase.CUT_FOR_STARTER
    assert_replayable(path, game_id, manager)


async def test_two_absent_people_run_out_together_in_one_outcome(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager)).game_id
    report = await sweep(manager, clock, START + TURN)
    (outcome,) = report.expired
    assert sorted(t.user_id for t in outcome.timeouts) == [HOST, BOB]
    assert [t.step for t in outcome.timeouts] == [1, 2]
    assert_replayable(path, game_id, manager)


async def test_computer_turns_are_never_timed(timed):
    manager, clock, _ = timed
    game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
    assert [t.user_id for t in await manager.timers.turns(game_id)] == [HOST]  # seat 1 cut at once
    report = await sweep(manager, clock, START + TURN)
    assert [t.user_id for o in report.expired for t in o.timeouts] == [HOST]


# ---------------------------------------------------------------------- settings


async def test_turn_time_off_disables_the_timers(timed):
    manager, clock, _ = timed
    game_id = (await started_game(manager)).game_id
    await manager._store.settings.update(GUILD, turn_minutes=None)
    assert await manager.timers.turns(game_id) == ()
    assert await sweep(manager, clock, START + 100 * TURN) == TurnReport()
    await manager._store.settings.update(GUILD, turn_minutes=1)
    (outcome,) = (await sweep(manager, clock, START + 100 * TURN)).expired
    assert len(outcome.timeouts) == 2


async def test_the_servers_turn_time_is_used(timed):
    manager, clock, _ = timed
    await manager._store.settings.update(GUILD, turn_minutes=2)
    game_id = (await started_game(manager)).game_id
    assert {t.deadline for t in await manager.timers.turns(game_id)} == {START + 120}
    assert (await sweep(manager, clock, START + 60)).reminders
    assert (await sweep(manager, clock, START + 120)).expired


# ---------------------------------------------------------------------- restarts


async def test_deadlines_and_counts_survive_a_restart(databases):
    path = databases("restart")
    clock = Clock()
    async with running(path, clock=clock, seed_source=lambda: 11) as manager:
        game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
        (outcome,) = (await sweep(manager, clock, START + TURN)).expired
        assert outcome.timeouts[0].expiries == 1
        clock.now = START + TURN + 30
        await reach(manager, game_id, Phase.DISCARD, random.Random(5))
        (turn,) = await manager.timers.turns(game_id)
        assert (await sweep(manager, clock, turn.half_time)).reminders

    async with running(path, clock=clock, seed_source=lambda: 11) as manager:
        assert await manager.timers.turns(game_id) == (turn,)  # the same deadline, from the log
        assert await sweep(manager, clock, turn.half_time + 1) == TurnReport()  # reminded already
        (outcome,) = (await sweep(manager, clock, turn.deadline)).expired
        assert outcome.timeouts[0].expiries == 2
        (turn,) = await manager.timers.turns(game_id)

    clock.now = turn.deadline + 3600  # the bot was down when the third turn ran out
    async with running(path, clock=clock, seed_source=lambda: 11) as manager:
        report = await manager.timers.sweep()
        (ended,) = report.forfeits
        assert ended.timeouts[0].expiries == 3
        assert ended.finished.reason == "aborted"  # in the first deal: see bookkeeping.py
    assert replay_from_database(path, game_id)[2] == ended.step


async def test_a_turn_marked_out_of_time_before_a_crash_is_not_counted_twice(databases):
    path = databases("crash")
    clock = Clock()
    async with running(path, clock=clock, seed_source=lambda: 11) as manager:
        game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
        (turn,) = await manager.timers.turns(game_id)
        # as if the process died after marking the turn, before making the move
        await manager._store.turns.mark(
            game_id, turn.seat, turn.turn_step, expired_at=turn.deadline
        )
    async with running(path, clock=clock, seed_source=lambda: 11) as manager:
        (outcome,) = (await sweep(manager, clock, turn.deadline)).expired
        assert outcome.timeouts[0].expiries == 1


async def test_a_lobby_and_an_ended_game_are_not_timed(timed):
    manager, clock, _ = timed
    lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=901, host_id=HOST))
    game_id = (
        await started_game(manager, humans=(BOB,), computers=("easy",), variant=Variant(target=61))
    ).game_id
    assert (await manager.play.forfeit(Forfeit(game_id, BOB))).ok
    assert (
        await manager.timers.turns(lobby.game_id) == ()
        and await manager.timers.turns(game_id) == ()
    )
    assert await sweep(manager, clock, START + 10 * TURN) == TurnReport()
