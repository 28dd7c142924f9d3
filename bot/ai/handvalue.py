"""Exact expected show value of a kept hand over every starter the holder has not seen.

The rank part of a show (fifteens, pairs, runs) depends only on the five ranks, so for each kept
hand we tabulate it once per starter rank (13 values, memoized) and weight each by how many
cards of that rank are still unseen. Suits add the flush and his nobs per unseen suit.

>>> from bot.engine import parse_cards
>>> hand = parse_cards("5H 5C JD QS 2C 3D")
>>> by_rank, by_suit, n = unseen_counts(hand)
>>> round(hand_total(hand[:4], by_rank, by_suit, n) / n, 3)
12.674
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from bot.engine import Card
from bot.engine.scoring import rank_points

RANKS = range(1, 14)


@cache
def rank_row(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """``rank_points`` of ``ranks`` plus one starter of each rank: index 1..13 (0 unused)."""
    return (0,) + tuple(rank_points(tuple(sorted((*ranks, r)))) for r in RANKS)


def rank_show(ranks: tuple[int, ...], starter: int) -> int:
    """The show of four kept ``ranks`` (sorted) with the ``starter``'s rank, without the suits
    (no flush, no his nobs): what a hand seen only by its ranks is worth; 0 unless four."""
    if len(ranks) != 4:
        return 0
    return rank_row(ranks)[starter]


def unseen_counts(seen: Iterable[Card]) -> tuple[list[int], list[int], int]:
    """Per rank (index 1..13) and per suit, how many cards are not in ``seen``; and in all."""
    by_rank = [4] * 14
    by_suit = [13] * 4
    n = 52
    for card in seen:
        by_rank[card.rank] -= 1
        by_suit[card.suit] -= 1
        n -= 1
    by_rank[0] = 0
    return by_rank, by_suit, n


def hand_total(
    kept: Sequence[Card], by_rank: Sequence[int], by_suit: Sequence[int], n: int, crib: bool = False
) -> int:
    """The sum of the show over the ``n`` unseen starters (``by_rank``/``by_suit`` counts).

    ``kept`` must be among the seen cards. Divide by ``n`` for the expectation.
    """
    row = rank_row(tuple(sorted(c.rank for c in kept)))
    total = 0
    for r in RANKS:
        total += by_rank[r] * row[r]
    suit = kept[0].suit
    if all(c.suit == suit for c in kept):
        total += by_suit[suit] * 5 if crib else 4 * n + by_suit[suit]
    for card in kept:
        if card.rank == 11:
            total += by_suit[card.suit]
    return total


def static_points(cards: Sequence[Card]) -> int:
    """What a hand 'looks like' before the starter: its fifteens, pairs, runs and flush."""
    points = rank_points(tuple(sorted(c.rank for c in cards)))
    if len(cards) >= 4 and len({c.suit for c in cards}) == 1:
        points += len(cards)
    return points
