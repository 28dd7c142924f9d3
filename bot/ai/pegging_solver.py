"""Exact play-outs of a two-handed play with every card known: the solvers the expert's
pegging (:mod:`bot.ai.expert_pegging`) runs on each sampled world of the unseen cards."""

from __future__ import annotations

from bot.engine.pegging import MAX_COUNT, VALUE, after_lay

from .pegging import WIN, peg_points

SolverKey = tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, tuple[int, int] | None
]
"""A position of :class:`TwoHandedSolver`: both hands, the pile, the count, whose turn, and
(near the end) the points each side has made."""


def lay(
    pile: tuple[int, ...],
    count: int,
    rank: int,
    turn: int,
    mine: tuple[int, ...],
    other: tuple[int, ...],
) -> tuple[tuple[int, ...], int, int, int | None]:
    """``turn`` (0 or 1) lays ``rank`` (``mine``/``other``: the hands after it, lowest first):
    the new pile and count, the points made (31, or the go when nobody can follow), who lays
    next (:func:`bot.engine.pegging.after_lay`)."""
    hands = (mine, other) if turn == 0 else (other, mine)
    return after_lay(hands, pile, count, turn, rank, peg_points)


def remove_rank(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """``hand`` without one card of ``rank`` (a sorted hand stays sorted)."""
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


class TwoHandedSolver:
    """Exact minimax of the rest of a two-handed play with every card known.

    Values are points for seat "A" minus points for seat "B". With ``needs`` (points each side
    still needs to win) reaching the target is worth ``WIN`` at once.
    """

    def __init__(self, needs: tuple[int, int] | None = None) -> None:
        self.memo: dict[SolverKey, float] = {}
        self.needs = needs

    def value(
        self,
        a: tuple[int, ...],
        b: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        gained: tuple[int, int] = (0, 0),
    ) -> float:
        key = (a, b, pile, count, turn, gained if self.needs else None)
        memo = self.memo
        if key in memo:
            return memo[key]
        hand = a if turn == 0 else b
        best: float | None = None
        last = -1
        for r in hand:
            if r == last:
                continue
            last = r
            if count + VALUE[r] > MAX_COUNT:
                break
            v = self.after(a, b, pile, count, turn, r, gained)
            if best is None or (v > best if turn == 0 else v < best):
                best = v
        if best is None:
            raise ValueError("The seat to lay holds no card that fits the count")
        memo[key] = best
        return best

    def after(
        self,
        a: tuple[int, ...],
        b: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        rank: int,
        gained: tuple[int, int] = (0, 0),
    ) -> float:
        """The value once ``turn`` lays ``rank`` (which must fit)."""
        if turn == 0:
            a = remove_rank(a, rank)
            mine, other = a, b
        else:
            b = remove_rank(b, rank)
            mine, other = b, a
        pile, count, points, nxt = lay(pile, count, rank, turn, mine, other)
        sign = 1 if turn == 0 else -1
        if self.needs is not None:
            gained = (
                (gained[0] + points, gained[1]) if turn == 0 else (gained[0], gained[1] + points)
            )
            if gained[turn] >= self.needs[turn]:
                return sign * WIN
            if nxt is None:
                return self.terminal(gained)
            return self.value(a, b, pile, count, nxt, gained)
        if nxt is None:
            return sign * points
        return sign * points + self.value(a, b, pile, count, nxt)

    def terminal(self, gained: tuple[int, int]) -> float:
        return gained[0] - gained[1]


class EndgameSolver(TwoHandedSolver):
    """The solver near the end of a game: after the play, the show decides (pone first)."""

    needs: tuple[int, int]

    def __init__(
        self, needs: tuple[int, int], shows: tuple[int, int], pone: int, crib: float
    ) -> None:
        super().__init__(needs)
        self.shows = shows
        self.pone = pone
        self.crib = crib

    def terminal(self, gained: tuple[int, int]) -> float:
        left = [self.needs[0] - gained[0], self.needs[1] - gained[1]]
        pone, dealer = self.pone, 1 - self.pone
        sign_pone = 1 if pone == 0 else -1
        if self.shows[pone] >= left[pone]:
            return sign_pone * WIN
        if self.shows[dealer] >= left[dealer]:
            return -sign_pone * WIN
        if self.shows[dealer] + self.crib >= left[dealer]:
            return -sign_pone * WIN * 0.6
        # Nobody out yet: keep the race (the diff of this deal's points).
        return (
            (gained[0] + self.shows[0])
            - (gained[1] + self.shows[1])
            + (self.crib if dealer == 0 else -self.crib)
        )
