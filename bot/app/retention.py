"""``python -m bot prune --days N``: drop the moves of games that ended more than N days ago.

The optional retention of ``README.md`` ("Keeping old games' moves, or not"): the action logs
(and last snapshots) of finished games older than ``N`` days go; their results, points per deal,
statistics and ratings stay, and ``python -m bot check`` skips the replay of a pruned game.
Games of a match still being played are never pruned. Safe while the bot runs (one short
transaction per 500 games). Exit 0 with what was dropped, or 2 with one paragraph.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.app.config import database_path
from db import Store, StoreError

DAY = 86_400.0


async def prune(path: Path, *, days: float, now: float | None = None) -> int:
    """Drop the logs of the games in ``path`` that ended more than ``days`` days before ``now``;
    how many were dropped."""
    store = await Store.open(path)
    try:
        at = time.time() if now is None else now
        return await store.games.prune_logs(ended_before=at - days * DAY)
    finally:
        await store.close()


def prune_main(argv: Sequence[str]) -> int:
    """``python -m bot prune``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot prune",
        description="Drop the moves of games that ended more than DAYS days ago (their results, "
        "statistics and ratings stay; their replay goes).",
    )
    parser.add_argument("--days", type=float, required=True, help="keep the moves of newer games")
    parser.add_argument("--db", type=Path, help="the database (default: CRIBBAGE_DB)")
    args = parser.parse_args(argv)
    if args.days < 0:
        print("python -m bot prune: --days must be 0 or more.", file=sys.stderr)
        return 2
    path = args.db if args.db is not None else database_path()
    try:
        dropped = asyncio.run(prune(path, days=args.days))
    except StoreError as err:
        print(err, file=sys.stderr)
        return 2
    games = "game" if dropped == 1 else "games"
    print(f"Dropped the moves of {dropped} {games} that ended more than {args.days:g} days ago.")
    return 0
