"""Board position: near the end of a game, getting out first matters more than points.

Two-handed, when either side is within reach of the target this deal, the expert adds to each
discard's expected net points ``WIN_WEIGHT`` times the change in its chance of settling the game
this deal, counted in the order the rules count: the play, then the pone's hand, the dealer's
hand, the crib.

- As pone (counting first), the chance to count out: our pegging plus the hand (exact, starter
  by starter) reaching what we need; less the chance the dealer then counts out with pegging,
  hand and crib (our discard moves the crib).
- As dealer (counting last): our pegging, hand and crib reaching what we need (the pone counting
  out first does not depend on our discard).

The other player's pegging, hand and crib are drawn from distributions measured over 8,000 deals
of ``standard`` against ``standard`` (the constants below; means: dealer pegs 3.2, pone 2.0,
hands 8.0 and 8.1, crib 4.8); a crib's distribution is shifted to the discard's expected crib.
"""

from __future__ import annotations

from functools import cache

from bot.engine import FULL_PACK, Card, show_points

from .discard import DiscardOption
from .view import SeatKnowledge

REACH = 32
"""Points to go within which a side may settle the game this deal."""
WIN_WEIGHT = 30.0
"""How many points of expectation one whole game is worth at the end."""

PEG_DEALER = (0, .2175, .2014, .2147, .1621, .0819, .05, .0318, .0154, .0109, .0071, .0026,
              .0019, .0005, .0003, .0018, .0003)  # fmt: skip
PEG_PONE = (.2075, .3121, .1554, .1633, .0571, .0294, .0306, .024, .0086, .007, .0024, .0009,
            .0003, .0001, .0001, .0009, 0, .0004)  # fmt: skip
HAND = (.0066, .0003, .0624, .0164, .1098, .0365, .1599, .0669, .1722, .0617, .0911, .016, .0981,
        .0076, .0369, .0057, .0325, .008, .001, 0, .0051, .0016, .0004, 0, .0031, 0, 0, 0,
        .0001)  # fmt: skip
CRIB = (.0742, .0061, .241, .0343, .2134, .0571, .1378, .0409, .0843, .0226, .0352, .002, .0356,
        .0013, .0063, .0011, .005, .0005, .0003, 0, .0003, .0006, 0, 0, .0003)  # fmt: skip
CRIB_MEAN = sum(i * p for i, p in enumerate(CRIB))


def _normal(dist: tuple[float, ...]) -> tuple[float, ...]:
    total = sum(dist)
    return tuple(p / total for p in dist)


@cache
def _tail(dist: tuple[float, ...]) -> tuple[float, ...]:
    """tail[x] = P(X >= x) for x = 0..len; beyond the end 0."""
    dist = _normal(dist)
    out = [0.0] * (len(dist) + 1)
    for x in range(len(dist) - 1, -1, -1):
        out[x] = out[x + 1] + dist[x]
    return tuple(out)


def at_least(dist: tuple[float, ...], x: int) -> float:
    """P(X >= x) for a distribution over 0, 1, 2, ..."""
    tail = _tail(dist)
    if x <= 0:
        return 1.0
    return tail[x] if x < len(tail) else 0.0


@cache
def _sum(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """The distribution of X + Y for independent X ~ a, Y ~ b."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                out[i + j] += p * q
    return tuple(out)


def _shifted_crib(mean: float) -> list[tuple[int, float]]:
    """The measured crib distribution moved to ``mean`` (split between neighbouring totals)."""
    shift = mean - CRIB_MEAN
    whole = int(shift // 1)
    frac = shift - whole
    out: dict[int, float] = {}
    for points, p in enumerate(_normal(CRIB)):
        if not p:
            continue
        for value, w in ((points + whole, 1 - frac), (points + whole + 1, frac)):
            if w:
                value = max(0, value)
                out[value] = out.get(value, 0.0) + p * w
    return sorted(out.items())


def _hand_by_starter(option: DiscardOption, hand: tuple[Card, ...]) -> list[int]:
    seen = set(hand)
    kept = list(option.kept)
    return [show_points(kept, s) for s in FULL_PACK if s not in seen]


def settle_chance(option: DiscardOption, view: SeatKnowledge) -> float:
    """Our chance of ending the game this deal minus theirs, with this discard (two-handed)."""
    me, opp = view.seat, 1 - view.seat
    target = view.variant.target
    need_me = target - view.scores[view.side_of(me)]
    need_opp = target - view.scores[view.side_of(opp)]
    hands = _hand_by_starter(option, view.hand)
    n = len(hands)
    crib = _shifted_crib(option.crib)
    if view.dealer == me:
        # The pone counts first: whether it gets out does not depend on our discard.
        pone_out = at_least(_sum(PEG_PONE, HAND), need_opp)
        ours = 0.0
        for h in hands:
            for c, p in crib:
                ours += p * at_least(PEG_DEALER, need_me - h - c)
        return (1 - pone_out) * ours / n
    dealer_total = _sum(PEG_DEALER, HAND)
    theirs_if_not_ours = sum(p * at_least(dealer_total, need_opp - c) for c, p in crib)
    ours = 0.0
    theirs = 0.0
    for h in hands:
        out = at_least(PEG_PONE, need_me - h)
        ours += out
        theirs += (1 - out) * theirs_if_not_ours
    return (ours - theirs) / n


def position_adjusted(options: list[DiscardOption], view: SeatKnowledge) -> list[DiscardOption]:
    """``options`` reordered for the board position (unchanged far from the end)."""
    if view.players != 2:
        return options
    target = view.variant.target
    needs = [target - score for score in view.scores]
    if min(needs) > REACH:
        return options
    scored = []
    for option in options:
        bonus = WIN_WEIGHT * settle_chance(option, view)
        scored.append((option.net + bonus, option))
    scored.sort(key=lambda pair: -pair[0])
    return [option for _, option in scored]
