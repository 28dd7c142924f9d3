"""``python -m bot review DB GAME``: the summary and one player's review, in words."""

from __future__ import annotations

import random

import pytest

from bot.__main__ import main
from bot.engine import Variant
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


def test_the_review_in_the_terminal(games, capsys):
    path, ended, live = games
    assert main(["review", str(path), str(ended), "--user", str(BOB)]) == 0
    out = capsys.readouterr().out
    assert f"Game {ended} (2 players, to 61)" in out
    assert f"user {HOST}: " in out and "pegging" in out
    assert "best hand" in out or "best crib" in out  # whichever counted more
    assert f"Review of game {ended} for user {BOB}, against the expert" in out
    assert "Points given away:" in out and "Deal 1 (" in out

    assert main(["review", str(path), str(ended)]) == 0  # default: the first person's seat
    assert f"for user {HOST}," in capsys.readouterr().out

    assert main(["review", str(path), str(live)]) == 1  # in progress: for nobody
    assert "still being played" in capsys.readouterr().err
    assert main(["review", str(path), str(ended), "--seat", "3"]) == 1
    assert "--seat must be 1 to 2" in capsys.readouterr().err
    assert main(["review", str(path), str(ended), "--user", "42"]) == 1
    assert main(["review", str(path), "999"]) == 1
    assert main(["review", str(path.parent / "missing.db"), "1"]) == 2
