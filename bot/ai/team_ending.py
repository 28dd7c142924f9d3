"""The end of a partnership play-out near the end of the game, in chances to win.

Near the end of a partnership game (:func:`bot.ai.expert_pegging.near_the_end`) a point is not worth
a point: a side that reaches the target wins at once (docs/players/rules.md, "Winning"), and the
show goes in counting order, the hand to the dealer's left first, so the sides' hands alternate (the
pone side's, the dealer side's, the pone side's, the dealer's, then the crib). The expert's
partnership play-outs (:func:`bot.ai.playouts.multi_rollout`) then stop when a side reaches its
need, and a play that ends with nobody out is valued by :class:`WorldEnding`:

- every hand is known in the world being played out (the seat's own exactly; the others' ranks,
  laid and unlaid, without the suits: a flush or his nobs is not counted for them), so the show
  is counted in its order and the first side to reach its need wins;
- the crib, unseen, is the measured distribution of a partnership crib (the self-play behind the
  table), each of its points read separately;
- a game nobody wins in this deal goes on with the other side dealing, read from the partnership
  table of :mod:`bot.ai.chance_tables` (``python -m bot.ai.winchance --kind partners``).

Values are the chance to win of the seat's side (0 to 1).
"""

from __future__ import annotations

from functools import cache

from .chance_tables import dealer_chance, measured
from .handvalue import rank_show
from .view import SeatKnowledge, kept_show

KIND = "partners"


class TeamEnding:
    """What a partnership play-out near the end needs from the seat's view, shared by every
    world of one decision (:meth:`world` adds a world's hands)."""

    def __init__(self, view: SeatKnowledge) -> None:
        if view.dealer is None or view.starter is None or not view.variant.partnerships:
            raise ValueError("The ending of a partnership play needs the dealer and the starter")
        n = view.players
        target = view.variant.target
        self.seat = view.seat
        self.side = view.side
        self.sides = tuple(view.side_of(s) for s in range(n))
        self.needs = tuple(target - score for score in view.scores)
        self.dealer_side = view.side_of(view.dealer)
        self.order = tuple((view.dealer + k) % n for k in range(1, n + 1))
        self.starter = view.starter.rank
        self.my_show = kept_show(view)
        laid: list[list[int]] = [[] for _ in range(n)]
        for s, card in view.played:
            laid[s].append(card.rank)
        self.laid = tuple(tuple(r) for r in laid)
        self.after_show: dict[tuple[int, int], float] = {}

    def world(self, hands: list[tuple[int, ...]]) -> WorldEnding:
        """The ending of one world: ``hands`` per seat, the ranks each still holds."""
        shows = tuple(
            self.my_show
            if s == self.seat
            else rank_show(tuple(sorted(self.laid[s] + hands[s])), self.starter)
            for s in range(len(hands))
        )
        return WorldEnding(self, shows)

    def after_the_hands(self, left: tuple[int, int]) -> float:
        """The side's chance once the hands are counted with nobody out (``left``: what each
        side still needs): the crib, then the next deal, dealt by the other side."""
        known = self.after_show.get(left)
        if known is not None:
            return known
        dealer = self.dealer_side
        pone = 1 - dealer
        won = 0.0
        for points, p in enumerate(_crib()):
            if not p:
                continue
            if points >= left[dealer]:
                won += p
            else:  # the pone side deals next, needing left[pone]; the dealer side the rest
                won += p * (1.0 - dealer_chance(left[pone], left[dealer] - points, KIND))
        mine = won if self.side == dealer else 1.0 - won
        self.after_show[left] = mine
        return mine


class WorldEnding:
    """The ending of one world's play-out (:class:`TeamEnding` plus every seat's show)."""

    __slots__ = ("team", "shows", "sides", "needs")

    def __init__(self, team: TeamEnding, shows: tuple[int, ...]) -> None:
        self.team = team
        self.shows = shows
        self.sides = team.sides
        self.needs = team.needs

    def won(self, side: int) -> float:
        """``side`` reached its need in the play."""
        return 1.0 if side == self.team.side else 0.0

    def terminal(self, got: list[int]) -> float:
        """The play is over with nobody out, each side having pegged ``got``: the show decides."""
        team = self.team
        left = [self.needs[0] - got[0], self.needs[1] - got[1]]
        for seat in team.order:
            side = self.sides[seat]
            left[side] -= self.shows[seat]
            if left[side] <= 0:
                return self.won(side)
        return team.after_the_hands((left[0], left[1]))


@cache
def _crib() -> tuple[float, ...]:
    dist = measured("crib", kind=KIND)
    total = sum(dist.probs)
    return tuple(p / total for p in dist.probs)
