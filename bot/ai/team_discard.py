"""Near the end of a partnership game, the chance to win of a way to lay away (four players in
two sides), from the partnership table of :mod:`bot.ai.chance_tables`.

The deal is valued in the order it is scored (docs/players/rules.md, "Winning"), as
:mod:`bot.ai.deal_chances` does for two players: the play as measured in partnership self-play (each
side's pegging; who reaches first while both do: even odds), moved by the kept cards' pegging
prospects; then the hands in counting order, to the dealer's left first, so the sides alternate (the
pone side's, the dealer side's, the pone side's, the dealer's with the crib): the seat's own hand
exactly over every starter it has not seen, the others' as measured; each of the first three either
puts its side out or adds its mean below the need, the dealer's hand and crib are read point by
point; a game nobody wins goes on from the table, the pone side dealing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from bot.engine import FULL_PACK, Card, show_points

from .chance_tables import Dist, measured, pegging
from .deal_chances import _shifted, show_chance
from .view import SeatKnowledge

KIND = "partners"


def team_discard_chance(
    view: SeatKnowledge,
    kept: Sequence[Card],
    crib_mean: float,
    *,
    peg_shift: float = 0.0,
) -> float:
    """The side's chance to win over this deal after keeping ``kept`` (the crib as measured,
    moved to ``crib_mean``; the pegging moved by ``peg_shift`` for the seat's side, as
    :func:`bot.ai.deal_chances.deal_chance` does)."""
    if view.dealer is None:
        raise ValueError("A discard is made once the dealer is known")
    seen = set(view.hand)
    points = Counter(show_points(kept, s) for s in FULL_PACK if s not in seen)
    mine = Dist(tuple(points[v] for v in range(max(points) + 1)))
    offset = (view.seat - view.dealer) % view.players  # 0: the dealer
    hands = [_one_hand("pone"), _one_hand("dealer"), _one_hand("pone"), _one_hand("dealer")]
    hands[(offset - 1) % 4] = mine
    last = hands[3].plus(measured("crib", crib_mean, kind=KIND))
    my_side = 1 if view.crib_is_ours else 0  # 1: the dealer's side
    dealer_side = view.side_of(view.dealer)
    scores = (view.scores[1 - dealer_side], view.scores[dealer_side])  # (pone side, dealer side)
    target = view.variant.target
    cells = pegging(kind=KIND)
    if peg_shift:
        cells = _shifted(cells, peg_shift, my_side == 1)
    won = 0.0  # the dealer side's chance
    for p, d, prob in cells:
        at = [scores[0] + p, scores[1] + d]
        if at[0] >= target or at[1] >= target:
            won += prob * (0.5 if min(at) >= target else float(at[1] >= target))
            continue
        won += prob * show_chance(float(at[0]), float(at[1]), hands[:3], last, target, KIND)
    return won if my_side == 1 else 1.0 - won


@cache
def _one_hand(role: str) -> Dist:
    return measured(f"{role}_side_hand", kind=KIND)
