"""A bot process for the kill test: plays random games on a database file until it is killed.

    python tests/support/sessions_kill_worker.py DB SEED [--check]

It resumes every game (each one checked against its action log), prints ``RESUMED game step``
for each active game and ``READY``, then keeps ``GAMES`` games going at once, humans clicking
random legal buttons and computer seats. After every acknowledged (committed) request it prints
``ACK game step``. Lines are written with one ``os.write`` each, straight to the pipe, so a line
the parent reads was written after its commit. With ``--check`` it only resumes, prints the
report, and exits.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine import Variant  # noqa: E402
from bot.sessions import GameSessionManager, Outcome, PrivateView  # noqa: E402
from db import Store  # noqa: E402

GAMES = 6
VARIANTS = (
    Variant(2, target=61),
    Variant(3, target=61),
    Variant(4, partnerships=True, target=61),
    Variant(2, target=121),
)


def say(*words: object) -> None:
    os.write(1, (" ".join(str(w) for w in words) + "\n").encode())


async def new_game(manager: GameSessionManager, rng: random.Random) -> int | None:
    variant = rng.choice(VARIANTS)
    channel = rng.getrandbits(48)
    users = [rng.getrandbits(40) + 1 for _ in range(variant.players)]
    humans = rng.randint(1, variant.players)
    lobby = await manager.create_lobby(
        guild_id=1, channel_id=channel, host_id=users[0], variant=variant
    )
    if not lobby.ok:
        return None
    for user in users[1:humans]:
        await manager.join(lobby.game_id, user)
    for _ in range(variant.players - humans):
        await manager.add_computer(lobby.game_id, users[0], rng.choice(("easy", "expert")))
    outcome = await manager.start(lobby.game_id, users[0])
    assert isinstance(outcome, Outcome), outcome
    say("ACK", outcome.game_id, outcome.step)
    return outcome.game_id


async def drive(manager: GameSessionManager, game_id: int, rng: random.Random) -> None:
    """Random clicks by the game's humans until it ends."""
    while (view := manager.view(game_id)) is not None:
        if not view.to_act_users:
            raise AssertionError(f"game {game_id}: nobody human to act: {view}")
        user = rng.choice(view.to_act_users)
        if rng.random() < 0.002:
            outcome = await manager.forfeit(game_id, user)
        else:
            mine = manager.private_view(game_id, user)
            assert isinstance(mine, PrivateView), mine
            action = rng.choice(mine.legal_actions)
            outcome = await manager.act(game_id, user, action, step=mine.step)
        assert isinstance(outcome, Outcome), outcome
        say("ACK", game_id, outcome.step)
        if outcome.finished is not None:
            say("ENDED", game_id, outcome.step)


async def slot(manager: GameSessionManager, queue: list[int], rng: random.Random) -> None:
    while True:
        game_id = queue.pop() if queue else await new_game(manager, rng)
        if game_id is not None:
            await drive(manager, game_id, rng)


async def main(path: Path, seed: int, check: bool) -> int:
    store = await Store.open(path)
    try:
        manager = GameSessionManager(store)
        report = await manager.resume(verify=10**9)
        for game_id in report.repaired + report.unreplayable:
            say("PROBLEM", game_id)
        for outcome in report.outcomes:
            say("ACK", outcome.game_id, outcome.step)
            if outcome.finished is not None:
                say("ENDED", outcome.game_id, outcome.step)
        active = manager.live_games()
        for view in active:
            say("RESUMED", view.game_id, view.step, view.status.value)
        say("READY", report.active, len(report.verified))
        if check:
            return 0
        rng = random.Random(seed)
        queue = [v.game_id for v in active if v.status.value == "active"]
        for view in active:
            if view.status.value == "lobby":  # killed before it started
                assert (await manager.cancel(view.game_id, view.host_id)).ok
        await asyncio.gather(
            *(slot(manager, queue, random.Random(rng.random())) for _ in range(GAMES))
        )
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    raise SystemExit(asyncio.run(main(Path(args[0]), int(args[1]), "--check" in args)))
