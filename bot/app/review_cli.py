"""``cribbage-bot review GAME [--db PATH_OR_URL] [--seat N | --user ID]``: a finished game's
summary and one player's review, in words (no token, no Discord: the database only, opened read
only; by default the configured one, as ``cribbage-bot replay``).

The seat: ``--seat N`` (1 = the first seat), or the seat of the Discord user ``--user ID``, or
by default the first seat a person held (else the first seat). The review is the one the
**Review my game** button gives (:func:`bot.ai.review.review`), run here in this process.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.ai.review import review
from bot.app.replay_cli import (
    REFUSED,
    add_database_arguments,
    emit,
    names_of,
    open_game,
)
from bot.engine import rank_name
from bot.render.review_text import review_text
from bot.sessions.history import Replay
from bot.sessions.summary import GameSummary, summarize


def pick_seat(replay: Replay, seat: int | None, user: int | None) -> int | str:
    """The seat to review (0-based), or why not (a message)."""
    players = replay.variant.players
    if seat is not None:
        if not 1 <= seat <= players:
            return f"--seat must be 1 to {players} in this game."
        return seat - 1
    if user is not None:
        found = next((s.seat for s in replay.seats if s.user_id == user), None)
        return f"User {user} did not play in that game." if found is None else found
    return next((s.seat for s in replay.seats if s.user_id is not None), 0)


def summary_lines(summary: GameSummary, names: Sequence[str]) -> list[str]:
    """The summary in a few lines: per side, points by kind, best hand, biggest peg, luck."""
    variant = summary.variant
    lines = [f"Game {summary.game_id} ({variant.name}), {summary.deals} deals"]
    for side in summary.sides:
        who = " & ".join(names[s] for s in side.seats)
        mark = " (won)" if side.won else ""
        skunk = {1: ", skunked", 2: ", double skunked"}.get(side.skunk, "")
        lines.append(
            f"{who}: {side.score}{mark}{skunk} = pegging {side.pegging}, hands {side.hand}, "
            f"crib {side.crib}" + (f", muggins {side.muggins}" if side.muggins else "")
        )
        best = side.best_hand
        if best is not None:
            what = "crib" if best.crib else "hand"
            cards = " ".join(str(c) for c in sorted(best.cards))
            lines.append(
                f"  best {what}: {best.points} ({cards}, starter {best.starter}), deal {best.deal}"
            )
        peg = side.biggest_peg
        if peg is not None:
            card = f" with the {rank_name(peg.card.rank)}" if peg.card is not None else ""
            lines.append(f"  biggest peg: {peg.points} ({peg.reason.value}{card}), deal {peg.deal}")
        luck = side.luck
        lines.append(
            f"  the cards: {luck.expected:.1f} expected over {luck.hands} hands, "
            f"{luck.difference:+.1f} against the average ({luck.per_hand:+.1f} a hand)"
        )
    if summary.skunk_lines:
        lines.append("Skunk lines: " + ", ".join(str(line) for line in summary.skunk_lines))
    lines.append(f"(The cards' value: {summary.luck_method}.)")
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``cribbage-bot review``'s arguments on ``parser``."""
    add_database_arguments(parser)
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, help="the seat to review (1 = the first)")
    who.add_argument("--user", type=int, help="the Discord user id of the player to review")


def run(args: argparse.Namespace) -> int:
    """``cribbage-bot review``; the exit status (0 printed, 1 refused, 2 could not run)."""
    found = open_game(args, "review")
    if not isinstance(found, tuple):
        return found
    replay, _ = found
    seat = pick_seat(replay, args.seat, args.user)
    if isinstance(seat, str):
        print(seat, file=sys.stderr)
        return REFUSED
    names = names_of(replay)
    summary = "\n".join(summary_lines(summarize(replay), names))
    return emit(f"{summary}\n\n{review_text(review(replay, seat), names)}")


def review_main(argv: Sequence[str]) -> int:
    """``cribbage-bot review`` on its own parser; the exit status (see :func:`run`)."""
    parser = argparse.ArgumentParser(
        prog="cribbage-bot review",
        description="A finished game's summary, and one player's decisions against the expert.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))
