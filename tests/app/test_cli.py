"""``cribbage-bot`` (``python -m bot``): one argparse program whose commands each have their
``--help`` and are listed in the program's; ``--version``; no command means ``run``; an
unknown command is argparse's usage error; the help imports none of the commands' modules."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from bot.__main__ import build_parser, main
from bot.app import cli

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("run", "play", "replay", "review", "backup", "check", "prune", "migrate")


def test_the_commands_are_the_documented_ones():
    assert tuple(command.name for command in cli.COMMANDS) == NAMES


def test_the_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: cribbage-bot [-h] [--version] COMMAND ...")
    listed = out.split("commands:", 1)[1]
    for command in cli.COMMANDS:
        assert f"    {command.name:<10}{command.help[:30]}" in listed


@pytest.mark.parametrize("name", NAMES)
def test_each_command_has_its_help(capsys, name):
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: cribbage-bot {name} [-h]")
    assert cli.BY_NAME[name].description[:40] in " ".join(out.split())


@pytest.mark.parametrize(
    ("name", "argument"),
    [
        ("play", "--players"),
        ("replay", "--deal"),
        ("review", "--seat"),
        ("backup", "--force"),
        ("check", "--db PATH_OR_URL"),
        ("prune", "--days DAYS"),
        ("migrate", "--db PATH_OR_URL"),
    ],
)
def test_each_command_help_shows_its_own_arguments(capsys, name, argument):
    assert main([name, "--help"]) == 0
    assert argument in capsys.readouterr().out


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"cribbage-bot {metadata.version('cribbage-bot')}\n"


def test_run_is_the_default(tmp_path, monkeypatch, capsys):
    """With no command the bot starts: here it stops at once for want of a token, as `run`."""
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "CRIBBAGE_DB", "CRIBBAGE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert main([]) == 2
    alone = capsys.readouterr().err
    assert main(["run"]) == 2
    assert capsys.readouterr().err == alone and alone.startswith("DISCORD_TOKEN is not set")
    started = []
    monkeypatch.setattr(cli, "run_bot", lambda args: started.append(args.command) or 0)
    assert main([]) == 0 and main(["run"]) == 0
    assert started == [None, "run"]
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_command_is_a_usage_error(capsys):
    assert main(["chekc"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: cribbage-bot")
    assert "invalid choice: 'chekc'" in err


def test_the_full_parser_has_every_command_with_its_arguments():
    """What the documentation's reference page is written from."""
    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert tuple(commands.choices) == NAMES
    backup = commands.choices["backup"]
    assert {"--db", "--force"} <= {o for a in backup._actions for o in a.option_strings}


def test_the_help_imports_no_command(tmp_path):
    """Asking for the help (or starting any command) costs no import of the others."""
    probe = (
        "import sys\n"
        "from bot.__main__ import main\n"
        "assert main(['--help']) == 0\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'db', 'aiosqlite',"
        " 'asyncpg') or m.startswith(('bot.engine', 'bot.app.operations', 'bot.app.terminal')))\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout


def test_python_m_bot_is_the_same_program(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--help"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: cribbage-bot migrate")
