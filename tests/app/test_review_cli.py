"""``cribbage-bot review GAME [--db PATH_OR_URL]``: the summary and one player's review, in
words."""

from __future__ import annotations

import random

import pytest

from bot.app.review_cli import review_main
from bot.engine import Variant
from tests.app.test_replay_cli import run_into_a_closed_pipe
from tests.support.sessions import BOB, HOST, play_to_end, running, started_game


@pytest.fixture
async def games(tmp_path):
    """A database with an ended 61-point game and one in progress: (path, ended, live)."""
    path = tmp_path / "review.db"
    async with running(path, seed_source=iter(range(7, 99)).__next__) as manager:  # fixed deals
        ended = await started_game(manager, variant=Variant(target=61))
        final = await play_to_end(manager, ended.view.game_id, random.Random(3))
        live = await started_game(manager, channel_id=501)
    return path, final.view.game_id, live.view.game_id


@pytest.fixture(autouse=True)
def _configured(tmp_path, monkeypatch):
    """The configured database is the fixture's file (none from a .env or the environment)."""
    monkeypatch.setenv("CRIBBAGE_DATABASE_URL", "")
    monkeypatch.setenv("CRIBBAGE_DB", str(tmp_path / "review.db"))


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
def test_the_review_in_the_terminal(games, capsys):
    path, ended, live = games
    assert review_main([str(ended), "--db", str(path), "--user", str(BOB)]) == 0
    out = capsys.readouterr().out
    assert f"Game {ended} (2 players, to 61)" in out
    assert f"\nPlayer 1 (user {HOST}): " in out and "pegging" in out
    assert "best hand" in out or "best crib" in out  # whichever counted more
    assert f"Review of game {ended} for Player 2 (user {BOB}), against the expert" in out
    assert "Points given away:" in out and "Deal 1 (" in out

    assert review_main([str(ended), "--db", str(path)]) == 0  # the first person's seat
    assert f"for Player 1 (user {HOST})," in capsys.readouterr().out

    assert review_main([str(live), "--db", str(path)]) == 1  # in progress: for nobody
    assert "still being played" in capsys.readouterr().err
    assert review_main([str(ended), "--db", str(path), "--seat", "3"]) == 1
    assert "--seat must be 1 to 2" in capsys.readouterr().err
    assert review_main([str(ended), "--db", str(path), "--user", "42"]) == 1
    assert review_main(["999", "--db", str(path)]) == 1


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
def test_the_configured_database_is_the_default(games, capsys):
    path, ended, _ = games
    assert review_main([str(ended), "--db", str(path), "--seat", "2"]) == 0
    chosen = capsys.readouterr().out
    assert review_main([str(ended), "--seat", "2"]) == 0  # CRIBBAGE_DB names the fixture's file
    assert capsys.readouterr().out == chosen
    assert review_main([str(path), str(ended), "--seat", "2"]) == 0  # the older DB GAME form
    assert capsys.readouterr().out == chosen


def test_a_missing_database_is_named_and_not_created(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "missing.db"
    monkeypatch.setenv("CRIBBAGE_DB", str(missing))
    assert review_main(["1"]) == 2
    assert f"no database at {missing} (CRIBBAGE_DB, default cribbage.db)" in capsys.readouterr().err
    assert not missing.exists()


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
def test_a_reader_that_goes_away_ends_it_quietly(games):
    path, ended, _ = games
    code, err = run_into_a_closed_pipe("review", [str(ended), "--db", str(path)])
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 1
