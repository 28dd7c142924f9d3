"""``cribbage-bot replay GAME [--db PATH_OR_URL] [--deal K]``: a finished game deal by deal, in
words."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.app.replay_cli import replay_main
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
        replay = await manager.records.replay(final.view.game_id)
    return path, final.view.game_id, live.view.game_id, replay


@pytest.fixture(autouse=True)
def _configured(tmp_path, monkeypatch):
    """The configured database is the fixture's file (none from a .env or the environment)."""
    monkeypatch.setenv("CRIBBAGE_DATABASE_URL", "")
    monkeypatch.setenv("CRIBBAGE_DB", str(tmp_path / "replay.db"))


def test_the_replay_in_the_terminal(games, capsys):
    path, ended, live, replay = games
    deals = len(replay.deals)
    assert replay_main([str(ended), "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Game #{ended} · 2 players, to 61 · {deals} deals")
    assert out.count("=== Deal ") == deals and "**" not in out
    assert f"\nPlayer 1 (user {HOST}): " in out and f"\nPlayer 2 (user {BOB}): " in out
    plays = [e for s in replay.steps for e in s.events if isinstance(e, Played)]
    assert out.count(" plays ") == len(plays)

    assert replay_main([str(ended), "--db", str(path), "--deal", "2"]) == 0
    one = capsys.readouterr().out
    assert one.count("=== Deal ") == 1 and f"=== Deal 2 of {deals} ===" in one

    assert replay_main([str(live), "--db", str(path)]) == 1  # in progress: for nobody
    assert "still being played" in capsys.readouterr().err
    assert replay_main([str(ended), "--db", str(path), "--deal", str(deals + 1)]) == 1
    assert f"--deal must be 1 to {deals}" in capsys.readouterr().err
    assert replay_main(["999", "--db", str(path)]) == 1


def test_the_configured_database_is_the_default(games, capsys):
    path, ended, _, _ = games
    assert replay_main([str(ended), "--db", str(path)]) == 0
    chosen = capsys.readouterr().out
    assert replay_main([str(ended)]) == 0  # CRIBBAGE_DB names the fixture's file
    assert capsys.readouterr().out == chosen
    assert replay_main([str(path), str(ended)]) == 0  # the older DB GAME form
    assert capsys.readouterr().out == chosen


def test_a_missing_database_is_named_and_not_created(games, tmp_path, monkeypatch, capsys):
    missing = tmp_path / "missing.db"
    assert replay_main(["1", "--db", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"no database at {missing} (given with --db)" in err and "Traceback" not in err
    monkeypatch.setenv("CRIBBAGE_DB", str(missing))
    assert replay_main(["1"]) == 2
    assert f"no database at {missing} (CRIBBAGE_DB, default cribbage.db)" in capsys.readouterr().err
    assert not missing.exists()


def test_bad_arguments_are_explained(games, capsys):
    path, ended, _, _ = games
    assert replay_main(["first", "--db", str(path)]) == 2
    assert "GAME is a game's number, not 'first'" in capsys.readouterr().err
    assert replay_main([str(path), str(ended), "--db", str(path)]) == 2
    assert "give the database once" in capsys.readouterr().err


def run_into_a_closed_pipe(command, args):
    """Run ``cribbage-bot COMMAND ARGS`` with its stdout a pipe nobody reads any more (``| head``
    once head has gone): its exit status and what it wrote to stderr."""
    reader, writer = os.pipe()
    os.close(reader)
    root = Path(__file__).resolve().parents[2]
    code = (
        f"import sys; from bot.app.{command}_cli import {command}_main; "
        f"sys.exit({command}_main(sys.argv[1:]))"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            stdout=writer,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(root)},
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    return done.returncode, done.stderr.decode()


def test_a_reader_that_goes_away_ends_it_quietly(games):
    path, ended, _, _ = games
    code, err = run_into_a_closed_pipe("replay", [str(ended), "--db", str(path)])
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 1


def test_a_pruned_game_says_its_moves_are_gone(games, capsys):
    path, ended, _, _ = games

    async def prune() -> None:
        store = await Store.open(path)
        try:
            await store.games.prune_logs(ended_before=time.time() + 10)
        finally:
            await store.close()

    asyncio.run(prune())
    assert replay_main([str(ended), "--db", str(path)]) == 1
    assert "no longer kept" in capsys.readouterr().err
