"""A bot process for the kill test: plays random games on a database file until it is killed.

    python tests/support/sessions_kill_worker.py --serve

It imports everything once, then serves commands read from stdin, one process per command,
forked from this one (so that each of the test's hundreds of runs starts in milliseconds, yet
is a process of its own, with its own SQLite connection, killed with SIGKILL):

``RUN DB SEED``  forks a player, prints ``CHILD pid``, and when the child has died (the test
                 kills it) ``DEAD pid status``. The child resumes every game (each checked
                 against its log), prints ``RESUMED game step status`` for each live game and
                 ``READY``, then keeps ``GAMES`` games going at once until killed: 2 to 4 seats,
                 some computers, some muggins games, some best-of-3 matches (each next game
                 started by the manager), random legal clicks by the people (claims, muggins
                 calls and let-gos included) and a ticker letting muggins windows go as the
                 cog's loop does.
``CHECK DB``     forks a child that only resumes (starting any match game due) and exits.

What a child prints, each line with one ``os.write`` straight to the pipe after the request
was acknowledged (so a line the test reads was written after its commit):

``ACT game lo hi seat action``  a person's action (JSON): committed at a step in ``(lo, hi]``
                                (``lo`` the step before the request, ``hi`` the step after it
                                and the computer moves it triggered);
``ACK game step``               any other acknowledged outcome (a start, a computer move on
                                resume, a window let go, a forfeit, a match's next game);
``TICK game`` (a window let go by the ticker: its ``ACK`` follows), ``ENDED game step``,
``NEXT game next_game``, ``PROBLEM game``, ``RESUMED game step status``, ``READY``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path

from bot.sessions import AddComputer, Cancel, Forfeit, Join, Move, OpenLobby, ShowHand, Start

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine import Variant  # noqa: E402
from bot.sessions import GameSessionManager, Outcome, PrivateView  # noqa: E402
from db import Store  # noqa: E402
from tests.support.kill_harness import say, serve  # noqa: E402

GAMES = 6
VARIANTS = (
    Variant(2, target=61),
    Variant(2, target=61, muggins=True),
    Variant(3, target=61, muggins=True),
    Variant(4, partnerships=True, target=61),
    Variant(4, partnerships=True, target=61, muggins=True),
    Variant(2, target=121),
)
MATCHES = 0.35  # the share of new tables that are the first game of a best-of-3 match


def acknowledge(outcome: Outcome) -> int | None:
    """Print an acknowledged outcome (and its match's next game); the next game to drive."""
    say("ACK", outcome.game_id, outcome.step)
    if outcome.finished is not None:
        say("ENDED", outcome.game_id, outcome.step)
    following = outcome.next_game
    if following is None:
        return None
    say("NEXT", outcome.game_id, following.game_id)
    return acknowledge(following) or following.game_id


async def new_game(manager: GameSessionManager, rng: random.Random) -> int | None:
    variant = rng.choice(VARIANTS)
    users = [rng.getrandbits(40) + 1 for _ in range(variant.players)]
    humans = rng.randint(1, variant.players)
    lobby = await manager.lobbies.open(
        OpenLobby(
            guild_id=1,
            channel_id=rng.getrandbits(48),
            host_id=users[0],
            variant=variant,
            best_of=3 if rng.random() < MATCHES else 1,
        )
    )
    if not lobby.ok:
        return None
    for user in users[1:humans]:
        await manager.lobbies.join(Join(lobby.game_id, user))
    for _ in range(variant.players - humans):
        await manager.lobbies.add_computer(
            AddComputer(lobby.game_id, users[0], rng.choice(("easy", "expert")))
        )
    outcome = await manager.lobbies.start(Start(lobby.game_id, users[0]))
    assert isinstance(outcome, Outcome), outcome
    acknowledge(outcome)
    return outcome.game_id


async def drive(manager: GameSessionManager, game_id: int, rng: random.Random) -> int | None:
    """Random clicks by the game's people until it ends; the match's next game, if any."""
    idle_since = None
    while (view := manager.live.view(game_id)) is not None:
        if not view.to_act_users:  # a muggins window the ticker will let go
            idle_since = idle_since or time.monotonic()
            assert time.monotonic() - idle_since < 5, f"game {game_id} waits on nobody: {view}"
            await asyncio.sleep(0.005)
            continue
        idle_since = None
        user = rng.choice(view.to_act_users)
        if rng.random() < 0.002:
            outcome = await manager.play.forfeit(Forfeit(game_id, user))
            assert isinstance(outcome, Outcome), outcome
            return acknowledge(outcome)
        mine = manager.hands.private_view(ShowHand(game_id, user))
        assert isinstance(mine, PrivateView), mine
        action = rng.choice(mine.legal_actions)
        lo = view.step
        outcome = await manager.play.act(Move(game_id, user, action, step=mine.step))
        if not outcome.ok:  # the ticker let a window go meanwhile: the button is stale
            continue
        assert isinstance(outcome, Outcome)
        payload = json.dumps(action.to_dict(), separators=(",", ":"), sort_keys=True)
        say("ACT", game_id, lo, outcome.step, mine.seat, payload)
        following = acknowledge(outcome)
        if outcome.finished is not None:
            return following
    return None


async def slot(manager: GameSessionManager, queue: list[int], rng: random.Random) -> None:
    while True:
        game_id = queue.pop() if queue else await new_game(manager, rng)
        while game_id is not None:
            game_id = await drive(manager, game_id, rng)


async def ticker(manager: GameSessionManager, queue: list[int], rng: random.Random) -> None:
    """Let muggins windows go, as the cog's loop does (here as if their time were up); a
    match game it ends hands its next game to the slots."""
    while True:
        await asyncio.sleep(rng.uniform(0.005, 0.05))
        for outcome in await manager.muggins.close_due(now=time.time() + 3600):
            say("TICK", outcome.game_id)
            following = acknowledge(outcome)
            if following is not None:
                queue.append(following)


async def main(path: Path, seed: int, check: bool) -> None:
    store = await Store.open(path)
    try:
        manager = GameSessionManager(store)
        report = await manager.resume(verify=10**9)
        for game_id in report.repaired + report.unreplayable:
            say("PROBLEM", game_id)
        for outcome in report.outcomes:
            acknowledge(outcome)
        active = manager.live.games()
        for view in active:
            say("RESUMED", view.game_id, view.step, view.status.value)
        say("READY", report.active, len(report.verified))
        if check:
            return
        rng = random.Random(seed)
        queue = [v.game_id for v in active if v.status.value == "active"]
        for view in active:
            if view.status.value == "lobby":  # killed before it started
                assert (await manager.lobbies.cancel(Cancel(view.game_id, view.host_id))).ok
        await asyncio.gather(
            ticker(manager, queue, random.Random(rng.random())),
            *(slot(manager, queue, random.Random(rng.random())) for _ in range(GAMES)),
        )
    finally:
        await store.close()


async def run(target: str, seed: int, check: bool) -> None:
    await main(Path(target), seed, check)


if __name__ == "__main__":
    serve(run)
