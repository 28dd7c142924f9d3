"""Races: double clicks apply once; games never wait on each other."""

from __future__ import annotations

import asyncio
import itertools
import random
import threading

import pytest

from bot.engine import Cut, Phase, Variant
from bot.sessions import Move, Outcome, RefusalReason, ShowHand, simple_strategy
from tests.support.postgres import connect
from tests.support.sessions import (
    BOB,
    CAROL,
    HOST,
    play_one,
    play_to_end,
    replay_from_database,
    running,
    started_game,
)

R = RefusalReason


def logged_actions(path, game_id: int) -> int:
    conn = connect(path)
    try:
        return conn.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("phase", [Phase.CUT_FOR_DEAL, Phase.DISCARD, Phase.PLAY])
async def test_a_double_click_applies_once(databases, phase):
    path = databases("double")
    async with running(path) as manager:
        game_id = (await started_game(manager)).game_id
        rng = random.Random(11)
        while manager.live.view(game_id).phase is not phase:
            await play_one(manager, game_id, rng)
        user = manager.live.view(game_id).to_act_users[0]
        mine = manager.hands.private_view(ShowHand(game_id, user))
        before = logged_actions(path, game_id)
        action = mine.legal_actions[len(mine.legal_actions) // 2]
        results = await asyncio.gather(
            *(manager.play.act(Move(game_id, user, action, step=mine.step)) for _ in range(12))
        )
        applied = [r for r in results if r.ok]
        assert len(applied) == 1
        assert {r.reason for r in results if not r.ok} <= {R.STALE, R.NOT_YOUR_TURN}
        assert applied[0].events[0].step == mine.step + 1
        assert logged_actions(path, game_id) == before + len({e.step for e in applied[0].events})
        replayed, snapshot, count = replay_from_database(path, game_id)
        assert replayed.to_dict() == snapshot and count == manager.live.view(game_id).step


async def test_a_slow_computer_in_one_game_does_not_hold_up_another(databases):
    path = databases("slow")
    seeds = itertools.count(1000)
    gate, thinking = threading.Event(), threading.Event()
    slow_seed: list[int | None] = [None]

    def strategy(game, seat, level):
        if game.seed == slow_seed[0]:
            thinking.set()
            assert gate.wait(10), "the test never released the slow computer"
        return simple_strategy(game, seat, level)

    async with running(path, strategy=strategy, seed_source=lambda: next(seeds)) as manager:
        slow = (await started_game(manager, humans=(HOST,), computers=("expert",))).game_id
        fast = (await started_game(manager, humans=(BOB, CAROL), channel_id=501)).game_id
        slow_seed[0] = 1000
        try:
            await race_a_slow_computer(manager, path, slow, fast, gate, thinking)
        finally:
            gate.set()  # never leave the worker thread waiting


async def race_a_slow_computer(manager, path, slow, fast, gate, thinking):
    mine = manager.hands.private_view(ShowHand(slow, HOST))
    first = asyncio.create_task(manager.play.act(Move(slow, HOST, Cut(4), step=mine.step)))
    assert await asyncio.to_thread(thinking.wait, 10)  # the computer is thinking in game A
    again = asyncio.create_task(manager.play.act(Move(slow, HOST, Cut(4), step=mine.step)))

    rng = random.Random(12)
    for _ in range(15):  # game B plays on meanwhile
        assert isinstance(await play_one(manager, fast, rng), Outcome)
    assert not first.done() and not again.done()
    # The human's cut is committed (and visible) before the computer finished thinking.
    assert logged_actions(path, slow) == 2 and manager.live.view(slow).step == 2

    gate.set()
    outcome, refusal = await first, await again
    assert outcome.ok and outcome.step > 2 and outcome.to_act_users == (HOST,)
    assert refusal.reason is R.STALE  # the lock was held: the second click saw the new state


async def test_many_games_at_once_stay_consistent(databases):
    path = databases("many")
    async with running(path) as manager:
        games = []
        for channel in range(12):
            humans = (HOST + 10 * channel, BOB + 10 * channel)
            variant = Variant(players=2, target=61)
            computers: tuple[str, ...] = ("easy",) if channel % 3 == 0 else ()
            if computers:
                variant = Variant(players=3, target=61)
            outcome = await started_game(
                manager, humans=humans, computers=computers, variant=variant, channel_id=channel
            )
            games.append(outcome.game_id)
        finals = await asyncio.gather(*(play_to_end(manager, g, random.Random(g)) for g in games))
    assert all(f.finished is not None for f in finals)
    for game_id, final in zip(games, finals, strict=True):
        replayed, snapshot, count = replay_from_database(path, game_id)
        assert replayed.to_dict() == snapshot and count == final.step and replayed.is_over
