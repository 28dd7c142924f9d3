"""``python -m bot prune --days N``: old games lose their moves, keep their results; the check
still passes; newer games and games in progress are untouched."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bot.__main__ import main
from bot.app.operations import check
from bot.app.retention import DAY, prune
from db import Store
from tests.support.sessions import play_one, play_to_end, running, started_game


async def two_games(path: Path) -> tuple[int, int]:
    """A finished game and one in progress; their ids."""
    rng = random.Random(3)
    async with running(path, seed_source=lambda: 4242) as manager:
        finished = await started_game(manager, channel_id=1)
        await play_to_end(manager, finished.game_id, rng)
        active = await started_game(manager, channel_id=2)
        for _ in range(10):
            await play_one(manager, active.game_id, rng)
    return finished.game_id, active.game_id


async def facts(path: Path, game_id: int) -> tuple[int, list[object], bool]:
    store = await Store.open(path)
    try:
        actions = await store.games.load_actions(game_id)
        results = await store.games.results(game_id)
        return len(actions), list(results), await store.games.log_pruned(game_id)
    finally:
        await store.close()


def test_prune_drops_old_moves_and_keeps_results(tmp_path):
    path = tmp_path / "cribbage.db"
    finished, active = asyncio.run(two_games(path))
    moves, results, pruned = asyncio.run(facts(path, finished))
    assert moves > 50 and results and not pruned
    active_moves = asyncio.run(facts(path, active))[0]

    # Nothing is older than a day yet: nothing goes.
    assert asyncio.run(prune(path, days=1)) == 0
    assert asyncio.run(facts(path, finished))[2] is False

    # Two days later the finished game's moves go; its results stay; the game in progress keeps
    # every move; the database still checks out.
    assert asyncio.run(prune(path, days=1, now=time.time() + 2 * DAY)) == 1
    moves_after, results_after, pruned_after = asyncio.run(facts(path, finished))
    assert pruned_after and moves_after == 0
    assert results_after == results
    assert asyncio.run(facts(path, active))[0] == active_moves
    assert asyncio.run(check(path)).ok


def test_prune_command_line(tmp_path, capsys):
    path = tmp_path / "cribbage.db"
    asyncio.run(two_games(path))
    assert main(["prune", "--days", "0", "--db", str(path)]) == 0
    assert "Dropped the moves of 1 game that ended more than 0 days ago." in capsys.readouterr().out
    assert main(["prune", "--days", "-1", "--db", str(path)]) == 2
    assert "--days must be 0 or more" in capsys.readouterr().err
    missing = tmp_path / "nowhere" / "x.db"
    assert main(["prune", "--days", "5", "--db", str(missing)]) == 2
    assert "Traceback" not in capsys.readouterr().err
