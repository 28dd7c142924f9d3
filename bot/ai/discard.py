"""Choosing what to lay away: every option valued by its expected hand and expected crib.

``hand`` is exact: the average show of the four kept cards over every starter the player has
not seen (46 in a two-handed game, 47 otherwise). ``crib`` is the expected total of the crib:
from the shipped tables (``standard``), or (``expert``) from a card-removal model that knows
which cards we keep and what the other seats tend to throw (two-handed, for our own crib:
``crib_expectation_removal``; with three or four players, in every role:
``multi_crib_values``). The crib is added when it is ours (our deal, or our partner's) and
subtracted when it is not; with three or four players each for themselves, giving one opponent
points costs us about 1/(n-1) of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.engine import Card

from .config import EXPERT, ExpertConfig
from .crib import (
    crib_expectation_removal,
    crib_value,
    crib_weight,
    multi_crib_values,
    table_key,
)
from .handvalue import hand_total, static_points, unseen_counts
from .pegging_prospects import multi_prospect, pegging_prospect


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to lay away: what is kept, its expected hand, the expected crib, the net."""

    discard: tuple[Card, ...]
    kept: tuple[Card, ...]
    hand: float
    crib: float
    crib_weight: float
    """+1 when the crib is ours, -1 (or -1/(n-1) with more opponents) when it is not."""
    extra: float = 0.0
    """Anything else the level weighs (pegging prospects, board position)."""

    @property
    def net(self) -> float:
        return self.hand + self.crib_weight * self.crib + self.extra


def discards_count(players: int) -> int:
    return 2 if players == 2 else 1


def split(hand: Sequence[Card], discard: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for c in hand if c not in discard)


def evaluate(
    hand: Sequence[Card],
    *,
    crib: Callable[[tuple[Card, ...], tuple[Card, ...]], float],
    weight: float,
    extra: Callable[[tuple[Card, ...], tuple[Card, ...]], float] | None = None,
) -> list[DiscardOption]:
    """Every discard of ``hand`` valued (best first; ties keep the order of the combinations).

    ``crib(discard, kept)`` gives the expected crib; ``extra(discard, kept)`` any adjustment.
    """
    hand = tuple(sorted(hand))
    k = 2 if len(hand) == 6 else 1
    by_rank, by_suit, n = unseen_counts(hand)
    options = []
    for discard in combinations(hand, k):
        kept = split(hand, discard)
        expected = hand_total(kept, by_rank, by_suit, n) / n
        adjust = extra(discard, kept) if extra is not None else 0.0
        options.append(DiscardOption(discard, kept, expected, crib(discard, kept), weight, adjust))
    options.sort(key=lambda o: -o.net)
    return options


def table_options(
    hand: Sequence[Card], *, own: bool, players: int = 2, partnerships: bool = False
) -> list[DiscardOption]:
    """Options valued with the exact hand and the shipped crib tables (the ``standard`` way)."""
    key = table_key(players, partnerships)
    return evaluate(
        hand,
        crib=lambda discard, kept: crib_value(discard, key=key, own=own),
        weight=crib_weight(players, partnerships, own),
    )


def removal_options(
    hand: Sequence[Card],
    *,
    own: bool,
    players: int = 2,
    partnerships: bool = False,
    pegging: bool = False,
    dealer: bool | None = None,
    offset: int | None = None,
    config: ExpertConfig = EXPERT,
) -> list[DiscardOption]:
    """Options with the card-removal crib model where it helps (our own crib, two-handed),
    else the tables.

    In our own crib the removal model chooses better than the table; in the opponent's crib it
    chose worse, so there the table decides (docs/research/measurements.md, "The discards").

    With ``pegging`` (two-handed) each option also carries the kept cards' pegging prospects
    (:func:`~bot.ai.pegging_prospects.pegging_prospect`; ``dealer``: whether we deal; by
    default, whether the crib is ours); with 3 or 4 players when the seat's ``offset`` after
    the dealer is given (:func:`~bot.ai.pegging_prospects.multi_prospect`); each weighed by
    ``config``'s ``pegging_weight`` (in partnerships ``pegging_weight_partners``).
    """
    if players != 2:
        return multi_options(
            hand,
            own=own,
            players=players,
            partnerships=partnerships,
            offset=offset if pegging else None,
            config=config,
        )
    hand = tuple(sorted(hand))
    deals = own if dealer is None else dealer
    key = table_key(players, partnerships)

    def crib(discard: tuple[Card, ...], kept: tuple[Card, ...]) -> float:
        if own:
            return crib_expectation_removal(discard, hand, own=True)
        return crib_value(discard, key=key, own=False)

    return evaluate(
        hand,
        crib=crib,
        weight=crib_weight(players, partnerships, own),
        extra=(lambda discard, kept: config.pegging_weight * pegging_prospect(kept, deals))
        if pegging
        else None,
    )


def multi_options(
    hand: Sequence[Card],
    *,
    own: bool,
    players: int,
    partnerships: bool = False,
    offset: int | None = None,
    config: ExpertConfig = EXPERT,
) -> list[DiscardOption]:
    """The expert's options with 3 or 4 players: the exact hand, and the crib from
    ``multi_crib_values`` (our kept cards known, the other seats' cards drawn from what their
    roles lay away), + for our own or our team's crib, - (weighted) for an opponent's; with the
    seat's ``offset`` after the dealer, the kept cards' pegging prospects too (in partnerships
    at ``config``'s ``pegging_weight_partners``: they trade show for play, about level in all at
    a full point; "The discards")."""
    key = table_key(players, partnerships)
    prospects = None
    if offset is not None:
        seat = offset
        worth = config.pegging_weight_partners if partnerships else 1.0

        def prospects(discard: tuple[Card, ...], kept: tuple[Card, ...]) -> float:
            return worth * multi_prospect(kept, key, seat)

    hand = tuple(sorted(hand))
    values = multi_crib_values(hand, key=key, own=own)
    return evaluate(
        hand,
        crib=lambda discard, kept: values[discard[0]],
        weight=crib_weight(players, partnerships, own),
        extra=prospects,
    )


def easy_discard(hand: Sequence[Card], players: int = 2) -> tuple[Card, ...]:
    """The beginner's way: keep the four cards that look best, never minding the crib."""
    hand = tuple(sorted(hand))
    k = discards_count(players)
    best = max(combinations(hand, k), key=lambda d: static_points(split(hand, d)))
    return best
