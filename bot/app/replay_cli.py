"""``python -m bot replay DB GAME [--deal K]``: a finished game deal by deal, in words (no token,
no Discord: the database only, opened read only).

The same pages as ``/cribbage replay`` (:mod:`bot.render.replay`), made plain: every hand as
dealt and what each seat laid away, the starter, the play card by card with the count, the show
with each count's breakdown, the scores after each deal. People are named by their Discord user
id, computers by level. A game in progress is refused (as on Discord, for anyone).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.render.replay import replay_text
from bot.sessions import GameSessionManager
from bot.sessions.history import Replay
from bot.sessions.views import Refusal
from db import Store, StoreError

OK, REFUSED, CANNOT_RUN = 0, 1, 2
PRUNED = "The moves of game {game} are no longer kept (python -m bot prune dropped them)."


async def load(path: Path, game_id: int) -> Replay | Refusal:
    """The game rebuilt from its log, as the bot's manager rebuilds it (ended games only)."""
    store = await Store.open(path, read_only=True)
    try:
        return await GameSessionManager(store).replay(game_id)
    finally:
        await store.close()


def names_of(replay: Replay) -> list[str]:
    """'user 123', 'computer (expert)' per seat."""
    return [
        f"user {s.user_id}" if s.user_id is not None else f"computer ({s.level or 'standard'})"
        for s in replay.seats
    ]


def replay_main(argv: Sequence[str]) -> int:
    """``python -m bot replay``; the exit status (0 printed, 1 refused, 2 could not run)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot replay",
        description="A finished game deal by deal: the hands, the discards, the play, the show.",
    )
    parser.add_argument("db", type=Path, help="the database file")
    parser.add_argument("game", type=int, help="the game's id (/cribbage history shows them)")
    parser.add_argument("--deal", type=int, help="only this deal (1 = the first)")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        print(f"python -m bot replay: no database at {args.db}.", file=sys.stderr)
        return CANNOT_RUN
    try:
        replay = asyncio.run(load(args.db, args.game))
    except StoreError as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    if isinstance(replay, Refusal):
        print(replay.message, file=sys.stderr)
        return REFUSED
    if not replay.steps or not replay.deals:
        print(PRUNED.format(game=args.game), file=sys.stderr)
        return REFUSED
    deals = len(replay.deals)
    if args.deal is not None and not 1 <= args.deal <= deals:
        print(f"--deal must be 1 to {deals} in game {args.game}.", file=sys.stderr)
        return REFUSED
    print(replay_text(replay, names_of(replay), deal=args.deal))
    return OK
