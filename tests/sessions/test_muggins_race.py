"""A muggins window let go while the game ends another way (found by the kill test).

The cog's loop lets open windows go (``close_muggins_windows``) while people click. If a player
forfeits while the loop waits for the game's lock, the loop must find the game over once it has
the lock, and let nothing go: a ``LetGo`` written for an ended game is refused by the store
(``Conflict``), which broke the loop and left the game to reload.
"""

from __future__ import annotations

import asyncio
import random

from bot.engine import Variant
from bot.engine.muggins import window_waiting
from bot.sessions import Forfeit, Outcome
from tests.support.sessions import BOB, HOST, play_one, running, started_game

MUGGINS_2 = Variant(2, target=61, muggins=True)


async def test_a_forfeit_while_the_loop_waits_for_the_lock_lets_nothing_go(databases):
    async with running(databases("race")) as manager:
        game_id = (await started_game(manager, variant=MUGGINS_2)).game_id
        rng = random.Random(5)
        for _ in range(500):
            if window_waiting(manager.live[game_id].game):
                break
            await play_one(manager, game_id, rng)
        else:
            raise AssertionError("no muggins window opened")
        forfeit = asyncio.ensure_future(manager.play.forfeit(Forfeit(game_id, HOST)))
        await asyncio.sleep(0)  # the forfeit holds the game's lock, writing its result
        closed = await manager.muggins.close_due(now=manager.tables.now() + 3600)
        ended = await forfeit
        assert isinstance(ended, Outcome) and ended.finished is not None
        assert ended.finished.reason == "forfeit" and BOB in ended.finished.winner_users
        assert closed == []
        assert manager.live.view(game_id) is None
