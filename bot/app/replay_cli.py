"""``cribbage-bot replay GAME [--db PATH_OR_URL] [--deal K]``: a finished game deal by deal, in
words (no token, no Discord: the database only, opened read only; by default the configured one,
:func:`bot.app.config.database_target`).

The same pages as ``/cribbage replay`` (:mod:`bot.render.replay`), made plain: every hand as
dealt and what each seat laid away, the starter, the play card by card with the count, the show
with each count's breakdown, the scores after each deal. The seats are named as
``cribbage-bot play`` names them (:func:`seat_names`). A game in progress is refused (as on
Discord, for anyone).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.app.config import ConfigError, database_target
from bot.render.replay import replay_text
from bot.sessions import GameSessionManager
from bot.sessions.history import Replay
from bot.sessions.views import Refusal, SeatView
from db import Store, StoreError
from db.pg import is_url

OK, REFUSED, CANNOT_RUN = 0, 1, 2
PRUNED = "The moves of game {game} are no longer kept (cribbage-bot prune dropped them)."


async def load(path: Path | str, game_id: int) -> Replay | Refusal:
    """The game rebuilt from its log, as the bot's manager rebuilds it (ended games only)."""
    store = await Store.open(path, read_only=True)
    try:
        return await GameSessionManager(store).records.replay(game_id)
    finally:
        await store.close()


TERMINAL_PLAYER = 1
"""The user id ``cribbage-bot play`` seats its player under (no Discord account has it)."""
TERMINAL_DB = Path("cribbage-terminal.db")
"""Where ``cribbage-bot play`` keeps its games unless ``--db`` names another database: a file
of its own, so that the games played in the terminal stay out of the bot's standings and live
tables."""


def seat_names(seats: Sequence[SeatView | None]) -> list[str]:
    """What play, replay and review call each seat, numbered as ``--seat`` counts them:
    'Player 1' (the terminal's player), 'Player 2 (user 123)' (a Discord user, known here by
    id only), 'Computer 3 (expert)'."""
    names = []
    for number, seat in enumerate(seats, 1):
        if seat is None:
            names.append(f"Seat {number}")
        elif seat.user_id is None:
            names.append(f"Computer {number} ({seat.level or 'standard'})")
        elif seat.user_id == TERMINAL_PLAYER:
            names.append(f"Player {number}")
        else:
            names.append(f"Player {number} (user {seat.user_id})")
    return names


def names_of(replay: Replay) -> list[str]:
    """The names of ``replay``'s seats (:func:`seat_names`)."""
    return seat_names(replay.seats)


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    """The game's number, and ``--db`` (replay and review alike)."""
    parser.add_argument(
        "game",
        metavar="GAME",
        help="the game's number (/cribbage history and the end of cribbage-bot play show it)",
    )
    parser.add_argument("legacy_game", nargs="?", help=argparse.SUPPRESS)  # the old DB GAME form
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="the database (default: the configured one, CRIBBAGE_DATABASE_URL else "
        "CRIBBAGE_DB, default cribbage.db)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``cribbage-bot replay``'s arguments on ``parser``."""
    add_database_arguments(parser)
    parser.add_argument("--deal", type=int, help="only this deal (1 = the first)")


def run(args: argparse.Namespace) -> int:
    """``cribbage-bot replay``; the exit status (0 printed, 1 refused, 2 could not run)."""
    found = open_game(args, "replay")
    if not isinstance(found, tuple):
        return found
    replay, game = found
    if not replay.steps or not replay.deals:
        print(PRUNED.format(game=game), file=sys.stderr)
        return REFUSED
    deals = len(replay.deals)
    if args.deal is not None and not 1 <= args.deal <= deals:
        print(f"--deal must be 1 to {deals} in game {game}.", file=sys.stderr)
        return REFUSED
    return emit(replay_text(replay, names_of(replay), deal=args.deal))


def emit(text: str) -> int:
    """Print ``text`` to stdout: :data:`OK`, or :data:`REFUSED` when the reader went away
    first (``| head``). Then stdout is pointed at the null device, as Python's documentation
    recommends (the note on SIGPIPE in :mod:`signal`), so that the flush at exit does not
    fail again with a traceback."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return REFUSED
    return OK


def open_game(args: argparse.Namespace, command: str) -> tuple[Replay, int] | int:
    """The game ``args`` names, rebuilt, and its number; or the exit status after saying why
    not on stderr."""
    db, game_text = args.db, args.game
    if args.legacy_game is not None:
        if db is not None:
            print(f"cribbage-bot {command}: give the database once (--db).", file=sys.stderr)
            return CANNOT_RUN
        db, game_text = args.game, args.legacy_game
    if not game_text.isdigit():
        print(
            f"cribbage-bot {command}: GAME is a game's number, not {game_text!r}.", file=sys.stderr
        )
        return CANNOT_RUN
    game = int(game_text)
    try:
        target = database_target() if db is None else (db if is_url(db) else Path(db))
    except ConfigError as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    if isinstance(target, Path) and not target.is_file():
        where = "given with --db" if db is not None else "CRIBBAGE_DB, default cribbage.db"
        print(
            f"cribbage-bot {command}: no database at {target} ({where}). Name one with "
            f"--db PATH_OR_URL (cribbage-bot play keeps its games in {TERMINAL_DB}).",
            file=sys.stderr,
        )
        return CANNOT_RUN
    try:
        replay = asyncio.run(load(target, game))
    except StoreError as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    if isinstance(replay, Refusal):
        print(replay.message, file=sys.stderr)
        return REFUSED
    return replay, game


def replay_main(argv: Sequence[str]) -> int:
    """``cribbage-bot replay`` on its own parser; the exit status (see :func:`run`)."""
    parser = argparse.ArgumentParser(
        prog="cribbage-bot replay",
        description="A finished game deal by deal: the hands, the discards, the play, the show.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))
