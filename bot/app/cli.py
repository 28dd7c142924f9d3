"""The command line of ``cribbage-bot`` (and ``python -m bot``, the same program).

``cribbage-bot`` alone, or ``cribbage-bot run``, starts the Discord bot; the other commands
need no token: ``play`` (a game in the terminal, :mod:`bot.app.terminal`), ``replay`` and
``review`` (a finished game, :mod:`bot.app.replay_cli`, :mod:`bot.app.review_cli`), and the
operator's ``backup``, ``check``, ``migrate`` (:mod:`bot.app.operations`) and ``prune``
(:mod:`bot.app.retention`). Each command's module registers its arguments
(``add_arguments(parser)``) and runs it (``run(args)``, the exit status); it is imported only
when that command runs or shows its help, so that starting any one stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import cast

PROG = "cribbage-bot"
DISTRIBUTION = "cribbage-bot"


@dataclass(frozen=True)
class Command:
    name: str
    help: str  # one line, in the list of commands
    description: str  # the command's own --help
    module: str  # where its functions are, imported when it runs
    add: str | None = "add_arguments"  # the module's function registering its arguments
    run: str = "run"  # the module's function running it: the exit status


COMMANDS: tuple[Command, ...] = (
    Command(
        "run",
        "start the Discord bot (the default): reads DISCORD_TOKEN and the database settings "
        "from the environment and .env",
        "Start the Discord bot: the token (DISCORD_TOKEN), the database (CRIBBAGE_DATABASE_URL, "
        "else CRIBBAGE_DB) and the rest of the configuration come from the environment and "
        ".env. It runs until SIGINT or SIGTERM, then stops cleanly.",
        "bot.app.cli",
        add=None,
        run="run_bot",
    ),
    Command(
        "play",
        "play cribbage in the terminal against the computer (no token needed)",
        "Play cribbage in the terminal against computer players; the game is kept in a "
        "database, and an unfinished one is resumed.",
        "bot.app.terminal",
    ),
    Command(
        "replay",
        "a finished game, deal by deal",
        "Show a finished game deal by deal: the hands, the discards, the play and the show.",
        "bot.app.replay_cli",
    ),
    Command(
        "review",
        "a player's review of a finished game: the costliest decisions",
        "Review one player's decisions in a finished game, the costliest first.",
        "bot.app.review_cli",
    ),
    Command(
        "backup",
        "back the database up (safe while the bot runs)",
        "Back the configured database up: SQLite's online backup into a new file, or pg_dump "
        "of the PostgreSQL schema. Safe while the bot runs. Restore: docs/admin/operations.md.",
        "bot.app.operations",
        add="add_backup_arguments",
        run="run_backup",
    ),
    Command(
        "check",
        "check the database and replay every game against what is stored",
        "Check the configured database: SQLite's integrity check, then every game's moves "
        "replayed against its stored state and results. Read only; safe while the bot runs. "
        "Exit status 0: all well; 1: problems found (each named); 2: the database cannot be "
        "used.",
        "bot.app.operations",
        add="add_check_arguments",
        run="run_check",
    ),
    Command(
        "prune",
        "drop the moves of games that ended more than DAYS days ago",
        "Drop the moves of the games that ended more than DAYS days ago: their results, "
        "statistics and ratings stay; their replay and review go. Safe while the bot runs.",
        "bot.app.retention",
    ),
    Command(
        "migrate",
        "create the database, or upgrade its schema, as the bot's start does",
        "Apply the schema's migrations to the configured database, as the bot's start does "
        "(creating it when there is none), and print its schema version before and after.",
        "bot.app.operations",
        add="add_migrate_arguments",
        run="run_migrate",
    ),
)
BY_NAME = {command.name: command for command in COMMANDS}
DEFAULT = "run"


def version() -> str:
    """The installed distribution's version."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "(not installed: pip install .)"


def _function(command: Command, name: str) -> Callable[..., object]:
    return cast("Callable[..., object]", getattr(importlib.import_module(command.module), name))


def build_parser(detailed: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``cribbage-bot``: every command, with the arguments of those named in
    ``detailed`` (default: all of them, importing their modules)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A self-hosted Discord bot for games of cribbage. Without a command it "
        "starts the bot (cribbage-bot run).",
        epilog=f"{PROG} COMMAND --help shows a command's arguments.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help, description=command.description)
        if command.add is not None and (detailed is None or command.name in detailed):
            _function(command, command.add)(sub)
    return parser


def _named(argv: Sequence[str]) -> set[str]:
    """The command ``argv`` names (its first word that is not an option), if it is one."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return {first} if first in BY_NAME else set()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``cribbage-bot`` with ``argv`` (default: the process's); the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_named(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error (status 2)
        return done.code if isinstance(done.code, int) else 0
    command = BY_NAME[args.command or DEFAULT]
    status = _function(command, command.run)(args)
    assert isinstance(status, int)
    return status


def run_bot(args: argparse.Namespace) -> int:
    """``cribbage-bot run``: start the Discord bot (:func:`bot.app.client.run`, which sets up
    the logs first)."""
    from bot.app.config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
    from bot.app.client import run

    return run(config)
