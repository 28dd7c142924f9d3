"""``python -m bot replay DB GAME [--deal K]``: a finished game deal by deal, in words."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.__main__ import main
from bot.engine import Played, Variant
from db import Store
from tests.support.sessions import BOB, HOST, play_to_end, running, started_game


@pytest.fixture
async def games(tmp_path):
    """A database with an ended 61-point game and one in progress: (path, ended, live, its
    replay)."""
    path = tmp_path / "replay.db"
    async with running(path) as manager:
        ended = await started_game(manager, variant=Variant(target=61))
        final = await play_to_end(manager, ended.view.game_id, random.Random(3))
        live = await started_game(manager, channel_id=501)
        replay = await manager.replay(final.view.game_id)
    return path, final.view.game_id, live.view.game_id, replay


def test_the_replay_in_the_terminal(games, capsys):
    path, ended, live, replay = games
    deals = len(replay.deals)
    assert main(["replay", str(path), str(ended)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Game #{ended} · 2 players, to 61 · {deals} deals")
    assert out.count("=== Deal ") == deals and "**" not in out
    assert f"user {HOST}: " in out and f"user {BOB}: " in out
    plays = [e for s in replay.steps for e in s.events if isinstance(e, Played)]
    assert out.count(" plays ") == len(plays)

    assert main(["replay", str(path), str(ended), "--deal", "2"]) == 0
    one = capsys.readouterr().out
    assert one.count("=== Deal ") == 1 and f"=== Deal 2 of {deals} ===" in one

    assert main(["replay", str(path), str(live)]) == 1  # in progress: for nobody
    assert "still being played" in capsys.readouterr().err
    assert main(["replay", str(path), str(ended), "--deal", str(deals + 1)]) == 1
    assert f"--deal must be 1 to {deals}" in capsys.readouterr().err
    assert main(["replay", str(path), "999"]) == 1
    assert main(["replay", str(path.parent / "missing.db"), "1"]) == 2
    assert not (path.parent / "missing.db").exists()


def test_a_pruned_game_says_its_moves_are_gone(games, capsys):
    path, ended, _, _ = games

    async def prune() -> None:
        store = await Store.open(path)
        try:
            await store.games.prune_logs(ended_before=time.time() + 10)
        finally:
            await store.close()

    asyncio.run(prune())
    assert main(["replay", str(path), str(ended)]) == 1
    assert "no longer kept" in capsys.readouterr().err
