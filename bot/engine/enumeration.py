"""Exhaustive enumeration of every 4-card hand with every starter (12,994,800 combinations).

Used by the distribution test, the scoring benchmark and the computer players' tables.
Each combination is scored: the rank part (fifteens, pairs, runs) is memoized per multiset of
five ranks, suits add the flush and his nobs per combination.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations

from .cards import FULL_PACK
from .scoring import rank_points

COMBINATIONS = 12_994_800  # C(52, 4) * 48


def _distribution_for_first_cards(
    first_indexes: tuple[int, ...],
) -> tuple[Counter[int], Counter[int]]:
    """Hand and crib score counts for every hand whose lowest card index is in the list."""
    hand_counts: Counter[int] = Counter()
    crib_counts: Counter[int] = Counter()
    pack = FULL_PACK
    ranks_of = [c.rank for c in pack]
    suits_of = [int(c.suit) for c in pack]
    for first in first_indexes:
        for rest in combinations(range(first + 1, 52), 3):
            hand = (first, *rest)
            hand_ranks = sorted(ranks_of[i] for i in hand)
            hand_suits = {suits_of[i] for i in hand}
            flush_suit = next(iter(hand_suits)) if len(hand_suits) == 1 else -1
            nobs_suits = [suits_of[i] for i in hand if ranks_of[i] == 11]
            # The rank part for each possible starter rank (13 values, memoized by rank_points).
            by_starter_rank = [0] + [
                rank_points(tuple(sorted([*hand_ranks, r]))) for r in range(1, 14)
            ]
            for starter in range(52):
                if starter in hand:
                    continue
                suit = suits_of[starter]
                base = by_starter_rank[ranks_of[starter]]
                if suit in nobs_suits:
                    base += nobs_suits.count(suit)
                if flush_suit < 0:
                    hand_counts[base] += 1
                    crib_counts[base] += 1
                elif suit == flush_suit:
                    hand_counts[base + 5] += 1
                    crib_counts[base + 5] += 1
                else:
                    hand_counts[base + 4] += 1
                    crib_counts[base] += 1
    return hand_counts, crib_counts


def score_distribution(workers: int = 2) -> tuple[dict[int, int], dict[int, int]]:
    """The number of combinations at each score, as a hand and as a crib."""
    # Interleave the first-card indexes so each worker gets a similar share of the work.
    shares = [tuple(range(w, 49, workers)) for w in range(workers)]
    hand: Counter[int] = Counter()
    crib: Counter[int] = Counter()
    if workers <= 1:
        results = [_distribution_for_first_cards(shares[0])]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_distribution_for_first_cards, shares))
    for h, c in results:
        hand.update(h)
        crib.update(c)
    return dict(sorted(hand.items())), dict(sorted(crib.items()))
