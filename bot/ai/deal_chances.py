"""The chance to win over one deal of a two-handed game, decision by decision, from the shipped
table and measured distributions of :mod:`bot.ai.chance_tables`: what the expert weighs near the end
(:func:`discard_chance`, :func:`play_chances`) and what the after-game review reports.

A deal is valued stage by stage in the order it is scored (docs/players/rules.md, "Winning"): the
pegging as measured in self-play (who reaches first while both do: even odds), then the pone's hand,
then the dealer's hand and crib, then the table's chance for the next deal.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import product

from bot.engine import Card

from .chance_tables import Dist, chance, measured, pegging
from .config import EXPERT, ExpertConfig
from .pegging import WIN
from .pegging_solver import EndgameSolver
from .view import SeatKnowledge

Cells = tuple[tuple[int, int, float], ...]
"""(pone's pegging, dealer's pegging, probability), as :func:`bot.ai.chance_tables.pegging`."""


def show_chance(
    pone_at: float,
    dealer_at: float,
    first: Sequence[Dist],
    last: Dist,
    target: int,
    kind: str = "2p",
) -> float:
    """The dealer's (side's) chance from these scores after the play: the hands of ``first`` in
    counting order, the pone's (side's) first and the sides alternating (each puts its side out,
    or adds its mean below the need), then ``last``, the dealer's hand and crib whole (out, or
    the next deal's chance from the table of ``kind``, the pone dealing)."""
    now = [pone_at, dealer_at]
    alive, won = 1.0, 0.0
    for k, hand in enumerate(first):
        who = k % 2
        out, mean = hand.split(target - now[who])
        won += alive * out * who
        alive *= 1.0 - out
        now[who] += mean
    total = 0.0
    for v, p in enumerate(last.probs):  # each total: the chance is not linear in points
        if p:
            total += p * chance(now[1] + v + last.shift, now[0], False, target, kind)
    return won + alive * total / sum(last.probs)


def _shifted(cells: Cells, shift: float, i_deal: bool) -> Cells:
    """The pegging ``cells`` with my points up by half of ``shift`` and the other's down by half
    (each split between the two nearest whole points; none below 0)."""
    half = shift / 2
    whole = math.floor(half)
    frac = half - whole
    steps = [(s, w) for s, w in ((whole, 1.0 - frac), (whole + 1, frac)) if w]
    moved: dict[tuple[int, int], float] = {}
    for p, d, prob in cells:
        for (up, wu), (down, wd) in product(steps, steps):
            if i_deal:
                key = (max(0, p - down), max(0, d + up))
            else:
                key = (max(0, p + up), max(0, d - down))
            moved[key] = moved.get(key, 0.0) + prob * wu * wd
    return tuple((p, d, prob) for (p, d), prob in moved.items())


def deal_chance(
    scores: tuple[int, int],
    i_deal: bool,
    my_hand: Dist,
    crib: Dist,
    target: int,
    *,
    peg_shift: float = 0.0,
) -> float:
    """My chance to win over this deal from its start: the measured pegging (who reaches first
    while both do: even odds), then the show with ``my_hand`` and ``crib`` as given and the other
    hand as measured."""
    other = measured("pone_hand" if i_deal else "dealer_hand")
    pone, dealer = (other, my_hand.plus(crib)) if i_deal else (my_hand, other.plus(crib))
    total = 0.0
    cells = _shifted(pegging(), peg_shift, i_deal) if peg_shift else pegging()
    for p, d, prob in cells:
        mine, theirs = (d, p) if i_deal else (p, d)
        a, b = scores[0] + mine, scores[1] + theirs
        if a >= target or b >= target:
            total += prob * (0.5 if a >= target and b >= target else float(a >= target))
        else:
            at = (b, a) if i_deal else (a, b)
            won = show_chance(at[0], at[1], (pone,), dealer, target)
            total += prob * (won if i_deal else 1.0 - won)
    return total


# --------------------------------------------------------------------------- decisions


def discard_chance(
    view: SeatKnowledge,
    discard: Sequence[Card],
    kept: Sequence[Card],
    *,
    peg_shift: float = 0.0,
) -> float:
    """The chance to win over this deal after laying away ``discard``: the kept hand's points
    over every starter the seat has not seen (exact), the crib measured but moved to the
    table's expected crib for this discard, the other hand and the pegging as measured."""
    from bot.engine import FULL_PACK, show_points

    from .crib import crib_value

    seen = set(view.hand)
    points = Counter(show_points(kept, s) for s in FULL_PACK if s not in seen)
    hand = Dist(tuple(points[v] for v in range(max(points) + 1)))
    crib = measured("crib", crib_value(discard, key="2", own=view.crib_is_ours))
    scores = (view.scores[view.side], view.scores[1 - view.side])
    return deal_chance(
        scores, view.dealer == view.seat, hand, crib, view.variant.target, peg_shift=peg_shift
    )


class _ChanceEnd(EndgameSolver):
    """The expert's endgame solver valued in chances: reaching the target is ``WIN``; a play that
    ends with nobody out goes to the show (both hands known in the world, the crib measured) and
    the next deal's chance from the table, as ``WIN * (2 * chance - 1)``."""

    def __init__(
        self, needs: tuple[int, int], shows: tuple[int, int], pone: int, crib: Dist, target: int
    ) -> None:
        super().__init__(needs, shows, pone, crib.mean())
        self.crib_dist = crib
        self.target = target
        self.ends: dict[tuple[int, int], float] = {}

    def terminal(self, gained: tuple[int, int]) -> float:
        done = self.ends.get(gained)
        if done is None:
            done = self.ends[gained] = WIN * (2.0 * self._chance(gained) - 1.0)
        return done

    def _chance(self, gained: tuple[int, int]) -> float:
        t = self.target
        scores = [float(t - self.needs[0] + gained[0]), float(t - self.needs[1] + gained[1])]
        pone, dealer = self.pone, 1 - self.pone
        for who in (pone, dealer):
            scores[who] += self.shows[who]
            if scores[who] >= t:
                return 1.0 if who == 0 else 0.0
        crib, total = self.crib_dist, 0.0  # each crib (its chance is not linear in points)
        for v, p in enumerate(crib.probs):
            got = (v + crib.shift, 0.0) if dealer == 0 else (0.0, v + crib.shift)
            total += p * chance(scores[0] + got[0], scores[1] + got[1], pone == 0, t)
        return total / sum(crib.probs)


def play_chances(
    view: SeatKnowledge,
    legal: Sequence[Card],
    rng: random.Random,
    rounds: int,
    config: ExpertConfig = EXPERT,
) -> dict[int, float]:
    """Per rank of ``legal``, the chance to win after laying it: the expert's search over what
    the seat may know (:mod:`bot.ai.pegging_search`) on ``rounds`` times its worlds,
    :class:`_ChanceEnd` valuing the end."""
    from .crib import crib_value
    from .expert_pegging import ShowEnding, searched

    target = view.variant.target
    thrown = view.discards or ()
    own = view.crib_is_ours
    crib = measured("crib", crib_value(thrown, key="2", own=own) if len(thrown) == 2 else None)

    def solver(needs: tuple[int, int], shows: tuple[int, int], pone: int) -> _ChanceEnd:
        return _ChanceEnd(needs, shows, pone, crib, target)

    ending = ShowEnding(view, solver)
    clear = 2 * WIN * config.search_clear_chance  # the values are WIN * (2 * chance - 1)
    worlds = rounds * config.search_worlds_end
    values = searched(view, rng, list(legal), ending, clear=clear, worlds=worlds, config=config)
    return {r: min(1.0, max(0.0, (v / WIN + 1.0) / 2.0)) for r, v in values.items()}  # rounding
