"""The terminal table: unattended games, a scripted game on stdin, resuming from --db, where a
finished game is kept and the commands that show it again, line editing at a terminal."""

import fcntl
import io
import os
import pty
import re
import select
import shlex
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from bot.app.replay_cli import replay_main
from bot.app.review_cli import review_main
from bot.app.terminal import TERMINAL_DB, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    """Every game lands in this test's own directory (the default database is relative)."""
    monkeypatch.chdir(tmp_path)


def run(argv, script=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(script), stdout=out)
    return code, out.getvalue()


def final_line(text):
    return next(line for line in text.splitlines() if line.startswith("*** "))


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
    assert " won " in final_line(text)


def test_auto_is_reproducible_with_a_seed(tmp_path):
    first = run(["--auto", "--seed", "9", "--target", "61", "--db", str(tmp_path / "a.db")])[1]
    again = run(["--auto", "--seed", "9", "--target", "61", "--db", str(tmp_path / "b.db")])[1]
    assert again == first.replace("a.db", "b.db")


def test_a_scripted_game_on_stdin():
    # Help and scores, then again and again: the coach, the first cards, Enter (to cut).
    script = "h\ns\n" + "?\n1 2\n1\n\n" * 300
    code, text = run(["--seed", "5", "--level", "easy", "--target", "61"], script)
    assert code == 0
    assert text.startswith("Cribbage, 2 players, to 61: you (Player 1) against easy computer")
    assert "Type h for help." in text.splitlines()[0]  # said before the first prompt
    assert "  h         this help" in text
    assert "Your hand: 1) " in text
    assert "Best discards (" in text  # the coach on demand
    assert "Lay the " in text
    assert "Player 1 plays " in text
    assert " won " in final_line(text)


def test_a_scripted_game_is_reproducible_with_a_seed(tmp_path):
    """Enter cuts at random, the same way again with the same --seed."""
    script = "\n1 2\n" + "1\n\n" * 100 + "q\n"
    args = ["--seed", "8", "--target", "61", "--db"]
    first = run([*args, str(tmp_path / "a.db")], script)[1]
    assert "Player 1 cuts " in first
    again = run([*args, str(tmp_path / "b.db")], script)[1]
    assert again == first.replace("a.db", "b.db")


def test_bad_input_is_explained_and_asked_again():
    script = "zz\n9 9\n" + "1 2\n1\n\n" * 300
    code, text = run(["--seed", "2", "--target", "61"], script)
    assert code == 0
    assert "Name cards by their number" in text or "Press Enter to cut" in text


def test_conceding_ends_the_game():
    code, text = run(["--seed", "3"], "q\n")
    assert code == 0
    assert "You conceded the game." in text
    assert f"cribbage-bot replay 1 --db {TERMINAL_DB}" in text


def test_partnerships_need_four_players(capsys):
    assert main(["--players", "2", "--partnerships"]) == 2
    assert "--partnerships needs --players 4" in capsys.readouterr().err
    assert not TERMINAL_DB.exists()


def test_a_game_in_the_database_is_resumed(tmp_path):
    db = tmp_path / "terminal.db"
    code, text = run(["--seed", "6", "--db", str(db)], "\n1 2\n")
    assert code == 1
    assert f"it is kept in {db}; cribbage-bot play --db {db} carries it on" in text
    code, text = run(["--auto", "--db", str(db), "--target", "61"])
    assert code == 0
    assert text.startswith("Resuming game 1 (2 players, to 121).")
    assert " won " in final_line(text)


def test_an_unfinished_game_in_the_default_database_is_resumed():
    code, text = run(["--seed", "6"], "\n")
    assert code == 1
    assert f"it is kept in {TERMINAL_DB}; cribbage-bot play carries it on" in text
    assert TERMINAL_DB.is_file()
    code, text = run(["--seed", "6"], "q\n")
    assert text.startswith("Resuming game 1 (2 players, to 121).")


def commands_printed(text):
    """The replay and review commands the end of a game prints, as argument lists."""
    lines = [line for line in text.splitlines() if line.startswith("  cribbage-bot ")]
    found = {words[1]: words[2:] for words in (shlex.split(line.split("   ")[0]) for line in lines)}
    assert set(found) == {"replay", "review"}, text
    return found


def test_the_end_of_a_game_names_it_and_the_commands_that_show_it(capsys):
    code, text = run(["--auto", "--seed", "4", "--target", "61", "--players", "3"])
    assert code == 0
    lines = text.rstrip().splitlines()
    assert lines[-3] == "This was game 1. To see it again:"
    commands = commands_printed(text)
    assert commands["replay"] == ["1", "--db", str(TERMINAL_DB)]

    capsys.readouterr()
    assert replay_main(commands["replay"]) == 0  # the command as printed shows the game
    assert capsys.readouterr().out.startswith("Game #1 · 3 players, to 61 · ")
    assert review_main(commands["review"]) == 0
    assert "Review of game 1 for Player 1, against the expert" in capsys.readouterr().out


def test_play_replay_and_review_name_the_seats_alike(tmp_path, capsys):
    db = tmp_path / "names.db"
    code, text = run(["--auto", "--seed", "4", "--target", "61", "--players", "3", "--db", str(db)])
    assert code == 0
    names = ["Player 1", "Computer 2 (standard)", "Computer 3 (standard)"]
    capsys.readouterr()
    assert replay_main(["1", "--db", str(db)]) == 0
    replay = capsys.readouterr().out
    assert review_main(["1", "--db", str(db)]) == 0
    review = capsys.readouterr().out
    for name in names:
        assert f"{name} deals" in text or f"{name} plays" in text
        assert f"\n{name}: " in replay  # the hands as dealt
        assert f"\n{name}: " in review  # the summary's line per seat
    for output in (text, replay, review):
        # every seat name is one of the three: no 'Player', 'user 1' or 'computer (standard)'
        assert not re.search(r"\bcomputer \(|\buser 1\b|\bPlayer (?!1\b)", output), output


class AtATerminal:
    """``cribbage-bot play`` run at a pseudo-terminal, as a person at a keyboard runs it."""

    def __init__(self, directory):
        self.main_fd, seat_fd = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "PYTHONPATH": str(ROOT)}
        code = "from bot.app.terminal import main; raise SystemExit(main(['--seed', '3']))"
        self.child = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=seat_fd,
            stdout=seat_fd,
            stderr=seat_fd,
            cwd=directory,
            env=env,
            close_fds=True,
            start_new_session=True,  # the terminal's own session: Ctrl-C signals the child
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
        )
        os.close(seat_fd)
        self.seen = b""

    def type(self, keys):
        os.write(self.main_fd, keys)

    def read_until(self, marker, count=1):
        """Whether ``marker`` has been shown ``count`` times within a minute."""
        deadline = time.monotonic() + 60
        while self.seen.count(marker) < count and time.monotonic() < deadline:
            ready, _, _ = select.select([self.main_fd], [], [], 1)
            if ready:
                try:
                    self.seen += os.read(self.main_fd, 4096)
                except OSError:  # the child has closed the terminal
                    break
        return self.seen.count(marker) >= count

    def close(self):
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        os.close(self.main_fd)


@pytest.fixture
def terminal(tmp_path):
    at = AtATerminal(tmp_path)
    yield at
    at.close()


def test_line_editing_and_history_at_a_terminal(terminal):
    """At a terminal the arrows edit the line: Up brings back the last line typed (h)."""
    assert terminal.read_until(b"Cut for the deal"), terminal.seen
    terminal.type(b"h\r")
    assert terminal.read_until(b"this help"), terminal.seen
    assert terminal.read_until(b"Cut for the deal", 2), terminal.seen
    terminal.type(b"\x1b[A\r")  # Up: the line before again
    assert terminal.read_until(b"this help", 2), terminal.seen
    terminal.type(b"q\r")
    assert terminal.read_until(b"cribbage-bot review 1"), terminal.seen
    assert terminal.child.wait(timeout=30) == 0
    assert b"Press Enter to cut" not in terminal.seen  # the arrow was never read as text


def test_ctrl_c_at_the_prompt_stops_the_game_at_once(terminal):
    assert terminal.read_until(b"Cut for the deal"), terminal.seen
    terminal.type(b"x")  # shown back once the prompt reads keys
    assert terminal.read_until(b"): x"), terminal.seen
    # A person's Ctrl-C comes a while after the key shown back, not as readline writes it and
    # turns to waiting for the next (Python checks for a signal while it waits, not between).
    time.sleep(0.5)
    terminal.type(b"\x03")  # Ctrl-C, with no Enter after it
    assert terminal.read_until(b"Interrupted; it is kept in cribbage-terminal.db"), terminal.seen
    assert terminal.child.wait(timeout=30) == 130
    assert b"Traceback" not in terminal.seen


def test_help_says_cribbage_bot_play(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith("usage: cribbage-bot play ")


def test_the_commands_printed_are_quoted_for_the_shell(tmp_path):
    db = tmp_path / "two words.db"
    code, text = run(["--seed", "3", "--db", str(db)], "q\n")
    assert code == 0
    assert f"cribbage-bot replay 1 --db {shlex.quote(str(db))}" in text
    assert commands_printed(text)["review"] == ["1", "--db", str(db)]
