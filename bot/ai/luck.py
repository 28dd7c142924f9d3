"""How the cards ran: what a dealt hand was worth against the average for its position.

A hand's worth is its best discard's expected net (:func:`dealt_value`): the exact expected hand
over every unseen starter plus the expected crib from the shipped tables, added when the crib is
the seat's side's and subtracted (or a share of it, three or four each for themselves) when it is
not: the coach's evaluator (:func:`bot.ai.discard.table_options`). The average for a position
(the game, and whether the crib is ours) is the mean of that value over random deals:
:data:`AVERAGE_DEALT`, computed by :func:`average_dealt` with ``seed`` :data:`SEED` over
:data:`SAMPLES` hands each (``python -m bot.ai.luck`` prints them again; their standard error is
about 0.03 points).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from bot.engine import FULL_PACK, Card

from .crib import table_key
from .discard import table_options

SEED = 17
SAMPLES = 20_000

AVERAGE_DEALT: dict[tuple[str, bool], float] = {
    ("2", True): 12.742,
    ("2", False): 3.400,
    ("3", True): 10.972,
    ("3", False): 4.434,
    ("4", True): 10.838,
    ("4", False): 5.239,
    ("4p", True): 10.991,
    ("4p", False): 2.186,
}
"""(table key '2', '3', '4' or '4p'; the crib is ours) -> the mean best net of a dealt hand."""

METHOD = (
    "the best discard's expected hand and crib (the coach's tables), against the average of "
    f"{SAMPLES:,} random deals for the same seat (seed {SEED})"
)


def dealt_value(
    hand: Sequence[Card], *, own: bool, players: int = 2, partnerships: bool = False
) -> float:
    """The expected net points of ``hand`` (as dealt) played with its best discard."""
    return table_options(hand, own=own, players=players, partnerships=partnerships)[0].net


def average_for(players: int, partnerships: bool, own: bool) -> float:
    """The average :func:`dealt_value` of a hand dealt to that position."""
    return AVERAGE_DEALT[(table_key(players, partnerships), own)]


def average_dealt(
    players: int, partnerships: bool, own: bool, *, samples: int = SAMPLES, seed: int = SEED
) -> float:
    """The mean :func:`dealt_value` over ``samples`` random hands (seeded)."""
    rng = random.Random(f"{seed}:{players}:{partnerships}:{own}")
    size = 6 if players == 2 else 5
    total = 0.0
    for _ in range(samples):
        hand = rng.sample(FULL_PACK, size)
        total += dealt_value(hand, own=own, players=players, partnerships=partnerships)
    return total / samples


POSITIONS = ((2, False), (3, False), (4, False), (4, True))


def main() -> int:
    for players, partnerships in POSITIONS:
        for own in (True, False):
            key = table_key(players, partnerships)
            print(f"    ({key!r}, {own}): {average_dealt(players, partnerships, own):.3f},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
