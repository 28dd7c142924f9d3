"""``cribbage-bot prune --days N``: drop the moves of games that ended more than N days ago.

The optional retention (docs/admin/operations.md): the action logs (and last snapshots) of
finished games older than ``N`` days go; their results, points per deal, statistics and ratings
stay, and ``cribbage-bot check`` skips the replay of a pruned game. Games of a match still
being played are never pruned. It works on the configured database (SQLite or PostgreSQL) or on
``--db``, as :mod:`bot.app.operations`' commands do, and creates none: a missing file or schema
is refused, and so is an older schema (``cribbage-bot migrate`` first). Safe while the bot runs
(one short transaction per 500 games). Exit 0 with what was dropped, or 2 with one paragraph.
"""

from __future__ import annotations

import argparse
import sys
import time

from bot.app.config import database_label
from bot.app.operations import (
    CANNOT_RUN,
    OK,
    Target,
    add_db_argument,
    open_existing,
    require_current,
    run_on_database,
)
from db import Store

DAY = 86_400.0


async def prune(target: Target, *, days: float, now: float | None = None) -> int:
    """Drop the logs of the games in ``target`` that ended more than ``days`` days before
    ``now``; how many were dropped. Refuses (:class:`~bot.app.operations.OperationError`) a
    database that does not exist, or whose schema is older than this version's."""
    existing = await open_existing(target)
    await existing.close()
    require_current(existing, database_label(target))
    store = await Store.open(target)
    try:
        at = time.time() if now is None else now
        return await store.games.prune_logs(ended_before=at - days * DAY)
    finally:
        await store.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--days",
        type=float,
        required=True,
        help="keep the moves of the games that ended fewer than DAYS days ago",
    )
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    """``cribbage-bot prune``; the exit status."""
    if args.days < 0:
        print("cribbage-bot prune: --days must be 0 or more.", file=sys.stderr)
        return CANNOT_RUN

    async def work(target: Target) -> int:
        dropped = await prune(target, days=args.days)
        games = "game" if dropped == 1 else "games"
        print(
            f"Dropped the moves of {dropped} {games} that ended more than {args.days:g} days ago."
        )
        return OK

    return run_on_database(args.db, work)
