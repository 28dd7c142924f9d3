"""The terminal table: unattended games, a scripted game on stdin, resuming from --db."""

import io

import pytest

from bot.app.terminal import main


def run(argv, script=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(script), stdout=out)
    return code, out.getvalue()


@pytest.mark.parametrize(
    "extra",
    [
        ["--level", "expert"],
        ["--players", "3", "--level", "standard"],
        ["--players", "4", "--partnerships", "--level", "easy"],
    ],
)
def test_auto_plays_a_whole_game(extra):
    code, text = run(["--auto", "--seed", "4", "--target", "61", *extra])
    assert code == 0
    assert "=== Deal 1:" in text
    assert "count 15 - fifteen for two" in text or "fifteen two" in text
    assert text.rstrip().splitlines()[-1].startswith("*** ")
    assert " won " in text.rstrip().splitlines()[-1]


def test_auto_is_reproducible_with_a_seed():
    first = run(["--auto", "--seed", "9", "--target", "61"])[1]
    assert run(["--auto", "--seed", "9", "--target", "61"])[1] == first


def test_a_scripted_game_on_stdin():
    # Help and scores, then again and again: the coach, the first cards, Enter (to cut).
    script = "h\ns\n" + "?\n1 2\n1\n\n" * 300
    code, text = run(["--seed", "5", "--level", "easy", "--target", "61"], script)
    assert code == 0
    assert "Your hand: 1) " in text
    assert "Best discards (" in text  # the coach on demand
    assert "Lay the " in text
    assert "Player plays " in text
    assert " won " in text.rstrip().splitlines()[-1]


def test_bad_input_is_explained_and_asked_again():
    script = "zz\n9 9\n" + "1 2\n1\n\n" * 300
    code, text = run(["--seed", "2", "--target", "61"], script)
    assert code == 0
    assert "Name cards by their number" in text or "Press Enter to cut" in text


def test_conceding_ends_the_game():
    code, text = run(["--seed", "3"], "q\n")
    assert code == 0
    assert "You conceded the game." in text


def test_a_game_in_the_database_is_resumed(tmp_path):
    db = tmp_path / "terminal.db"
    code, text = run(["--seed", "6", "--db", str(db)], "\n1 2\n")
    assert code == 1
    assert f"saved in {db}" in text
    code, text = run(["--auto", "--db", str(db), "--target", "61"])
    assert code == 0
    assert text.startswith("Resuming game 1 (2 players, to 121).")
    assert " won " in text.rstrip().splitlines()[-1]
