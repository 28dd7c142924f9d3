"""The pause between deals through the manager: every new game holds after a show;
Next deal clicks, computers ready at once, the pause running out, a pause of 0, restarts, and
the turn timers and the idle sweep around it."""

from __future__ import annotations

import random

import pytest

from bot.engine import Dealt, NextDeal, Phase, ReadyForDeal, Variant
from bot.sessions import GameStatus, Move, Outcome, PrivateView, RefusalReason, ShowHand, TurnReport
from tests.support.sessions import (
    BOB,
    HOST,
    assert_durable,
    open_manager,
    play_one,
    running,
    started_game,
)

R = RefusalReason
GUILD = 1  # the guild of tests.support.sessions.started_game
SHORT = Variant(2, False, 61)


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(databases):
    clock = Clock()
    path = databases("deals")
    store, manager = await open_manager(path, clock=clock, seed_source=lambda: 5)
    yield manager, clock, path
    await store.close()


async def to_the_pause(manager, game_id: int, rng: random.Random) -> Outcome:
    """People play random legal moves until the game waits between deals; the last outcome."""
    last = None
    for _ in range(300):
        view = manager.live.view(game_id)
        if view.phase is Phase.NEXT_DEAL:
            assert last is not None
            return last
        last = await play_one(manager, game_id, rng)
    raise AssertionError("no show came")


def kinds(outcome: Outcome) -> list[tuple[str, bool]]:
    return [(type(e.event).__name__, e.automatic) for e in outcome.events]


@pytest.mark.sqlite_only
async def test_a_show_holds_until_every_person_clicks_next_deal(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager, variant=SHORT)).game_id
    shown = await to_the_pause(manager, game_id, random.Random(1))
    view = shown.view
    assert view.status is GameStatus.ACTIVE and view.phase is Phase.NEXT_DEAL
    assert view.to_act_users == (HOST, BOB) and view.deal_number == 1
    assert [len(h) for h in view.shown_kept] == [4, 4] and len(view.shown_crib) == 4
    for user in (HOST, BOB):
        mine = shown.hands[user]
        assert mine.phase is Phase.NEXT_DEAL and mine.must_act
        assert mine.legal_actions == (NextDeal(),) and len(mine.kept) == 4

    mine = manager.hands.private_view(ShowHand(game_id, BOB))
    first = await manager.play.act(Move(game_id, BOB, NextDeal(), step=mine.step))
    assert isinstance(first, Outcome)
    assert [e.event for e in first.events] == [ReadyForDeal(1)]
    assert first.view.to_act_users == (HOST,) and first.view.phase is Phase.NEXT_DEAL
    again = await manager.play.act(Move(game_id, BOB, NextDeal(), step=first.step))
    assert again.reason is R.NOT_YOUR_TURN and again.message == (
        "You're already ready for the next deal."
    )

    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    dealt = await manager.play.act(Move(game_id, HOST, NextDeal(), step=mine.step))
    assert isinstance(dealt, Outcome)
    assert kinds(dealt)[:2] == [("ReadyForDeal", False), ("Dealt", False)]
    assert dealt.view.phase is Phase.DISCARD and dealt.view.deal_number == 2
    assert dealt.view.shown_kept == () and dealt.view.shown_crib == ()
    late = await manager.play.act(Move(game_id, BOB, NextDeal(), step=dealt.step))
    assert late.reason in (R.ILLEGAL, R.STALE)
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_computers_are_ready_at_once(timed):
    manager, _, _ = timed
    game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
    shown = await to_the_pause(manager, game_id, random.Random(2))
    assert shown.view.to_act == (0,)  # the computer (seat 1) said ready in the same request
    assert ("ReadyForDeal", False) in kinds(shown)
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    dealt = await manager.play.act(Move(game_id, HOST, NextDeal(), step=mine.step))
    assert any(isinstance(e.event, Dealt) for e in dealt.events)


@pytest.mark.sqlite_only
async def test_the_pause_runs_out_and_the_deal_starts(timed):
    manager, clock, path = timed
    game_id = (await started_game(manager, variant=SHORT)).game_id
    assert manager.deals.due_at(game_id) is None
    await to_the_pause(manager, game_id, random.Random(3))
    entered = clock.now
    assert manager.deals.due_at(game_id) == entered + 20  # the default pause
    clock.now += 12  # a click later in the pause does not restart it
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    assert (await manager.play.act(Move(game_id, HOST, NextDeal(), step=mine.step))).ok
    assert manager.deals.due_at(game_id) == entered + 20
    assert await manager.deals.start_due(entered + 19.9) == []
    (outcome,) = await manager.deals.start_due(entered + 20)
    assert kinds(outcome)[:2] == [("ReadyForDeal", True), ("Dealt", True)]  # one step
    assert outcome.view.phase is Phase.DISCARD and outcome.view.to_act_users == (HOST, BOB)
    assert manager.deals.due_at(game_id) is None
    assert await manager.deals.start_due(entered + 100) == []
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_the_servers_pause_applies_and_a_pause_of_0_deals_at_once(timed):
    manager, clock, path = timed
    await manager.settings.update_server(GUILD, next_deal_seconds=45)
    game_id = (await started_game(manager, variant=SHORT)).game_id
    await to_the_pause(manager, game_id, random.Random(4))
    assert manager.deals.due_at(game_id) == clock.now + 45
    await manager.settings.update_server(GUILD, next_deal_seconds=0)  # applies to the pause running
    assert manager.deals.due_at(game_id) == clock.now
    (outcome,) = await manager.deals.start_due()
    assert outcome.view.deal_number == 2

    rng = random.Random(4)  # from now on the request that ends a show also deals
    for _ in range(300):
        outcome = await play_one(manager, game_id, rng)
        assert outcome.view.phase is not Phase.NEXT_DEAL
        ready = [e for e in outcome.events if isinstance(e.event, ReadyForDeal)]
        if ready:
            assert len(ready) == 2 and all(e.automatic for e in ready)
            assert any(isinstance(e.event, Dealt) for e in outcome.events)
            break
    else:
        raise AssertionError("no show")
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_turn_timers_never_time_the_pause_and_the_idle_sweep_still_works(databases):
    clock = Clock()
    async with running(
        databases("idle"), clock=clock, idle_warn_after=3600, idle_abandon_after=7200
    ) as manager:
        game_id = (await started_game(manager, variant=SHORT)).game_id
        await to_the_pause(manager, game_id, random.Random(5))
        assert await manager.timers.turns(game_id) == ()
        clock.now += 24 * 3600  # no turn runs out in the pause (start_due_deals was not run)
        assert await manager.timers.sweep() == TurnReport()
        assert manager.live.view(game_id).phase is Phase.NEXT_DEAL
        (warning,) = (await manager.idle.sweep()).warnings
        assert set(warning.user_ids) == {HOST, BOB}
        clock.now += 7200
        (abandoned,) = (await manager.idle.sweep()).abandoned
        assert abandoned.finished.reason == "abandoned"


async def test_the_pause_survives_a_restart(databases):
    clock = Clock()
    path = databases("restart")
    async with running(path, clock=clock) as manager:
        game_id = (await started_game(manager, variant=SHORT)).game_id
        await to_the_pause(manager, game_id, random.Random(6))
        clock.now += 5
        mine = manager.hands.private_view(ShowHand(game_id, BOB))
        assert (await manager.play.act(Move(game_id, BOB, NextDeal(), step=mine.step))).ok
        last_step_at = clock.now
    clock.now += 3
    async with running(path, clock=clock) as manager:
        view = manager.live.view(game_id)
        assert view.phase is Phase.NEXT_DEAL and view.to_act_users == (HOST,)
        assert await manager.loader.verify(game_id) == "ok"  # the log replays with the hold
        assert manager.deals.due_at(game_id) == last_step_at + 20  # from the last step
        assert isinstance(manager.hands.private_view(ShowHand(game_id, HOST)), PrivateView)
        (outcome,) = await manager.deals.start_due(last_step_at + 20)
        assert outcome.view.deal_number == 2
        assert_durable(path, game_id, manager)


async def test_a_replay_shows_the_pauses(databases):
    async with running(databases("replay")) as manager:
        game_id = (await started_game(manager, variant=SHORT)).game_id
        rng = random.Random(7)
        while (outcome := await play_one(manager, game_id, rng)).finished is None:
            pass
        replay = await manager.records.replay(game_id)
        assert len(replay.deals) == outcome.view.deal_number
        steps = [s for d in replay.deals for s in d.steps]
        assert sum(isinstance(s.action, NextDeal) for s in steps) == 2 * (len(replay.deals) - 1)
