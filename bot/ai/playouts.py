"""Play-outs with a fixed policy: every seat lays as ``standard`` would (:func:`model_choice`,
ranks only, from what each seat can see). The expert's partnership play-outs, the pegging
prospects of kept cards (:mod:`bot.ai.pegging_prospects`), the models inside the searches and
the Monte Carlo yardstick (``benchmarks/yardstick.py``) all play the rest of a deal out here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine.pegging import after_lay, leader

from .memo import memo
from .pegging import WIN, fitting_ranks, peg_points
from .pegging_model import RankScores, answer
from .pegging_solver import EndgameSolver, lay, remove_rank


class SideEnding(Protocol):
    """The end of a play-out near the end of a game with sides (:mod:`bot.ai.team_ending`)."""

    sides: tuple[int, ...]
    """Per seat, its side."""
    needs: tuple[int, ...]
    """Per side, the points it needs to win."""

    def won(self, side: int) -> float:
        """The value when ``side`` reaches its need in the play."""
        ...

    def terminal(self, got: list[int]) -> float:
        """The value when the play ends with nobody out, each side having pegged ``got``."""
        ...


def multi_rollout(
    hands: list[tuple[int, ...]],
    pile: tuple[int, ...],
    count: int,
    turn: int,
    rank: int,
    unseen: Sequence[Sequence[int]],
    weights: tuple[float, ...],
    end: SideEnding | None = None,
) -> float:
    """``turn`` lays ``rank``, then every seat lays as ``standard`` would; the weighted points,
    or with ``end`` (near the end of the game) its value: the first side to reach its need wins
    at once, and ``end.terminal`` values a play that ends with nobody out."""
    n = len(hands)
    hands = list(hands)
    hidden = [list(u) for u in unseen]  # per seat, what it cannot see as the cards fall
    value = 0.0
    got = [0] * len(end.needs) if end is not None else []
    while True:
        hands[turn] = remove_rank(hands[turn], rank)
        for s in range(n):
            if s != turn:
                hidden[s][rank] -= 1
        pile, count, points, nxt = after_lay(hands, pile, count, turn, rank, peg_points)
        value += weights[turn] * points
        if end is not None:
            side = end.sides[turn]
            got[side] += points
            if got[side] >= end.needs[side]:
                return end.won(side)
            if nxt is None:
                return end.terminal(got)
        if nxt is None:
            return value
        turn = nxt
        mine = hands[turn]
        fits = fitting_ranks(mine, count)
        if len(fits) == 1:
            rank = fits[0]
        else:
            after = leader(hands, turn)  # the next seat that still holds cards (turn at last)
            other_held = len(hands[after]) if after is not None else 0
            rank = model_choice(mine, pile, count, hidden[turn], other_held)


def model_choice(
    hand: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    unseen: Sequence[int],
    other_held: int,
) -> int:
    """The rank ``standard`` lays from ``hand`` (two-handed, ranks only): what it makes now
    minus the points the other player can be expected to make on it. (``tuple()`` of a tuple
    is the tuple itself: a caller holding one pays no copy.)"""
    return _model_choice(hand, pile, count, tuple(unseen), other_held)


@memo(1 << 17)
def _model_choice(
    hand: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    unseen: tuple[int, ...],
    other_held: int,
) -> int:
    return answer(hand, count, RankScores(pile, count, unseen, other_held))


def rollout(
    a: tuple[int, ...],
    b: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    turn: int,
    unseen_a: list[int],
    unseen_b: list[int],
    end: EndgameSolver | None = None,
    gained: tuple[int, int] = (0, 0),
) -> float:
    """Play the rest out with both seats laying as ``standard`` would; A's points minus B's.

    ``unseen_a``/``unseen_b``: per rank, what each seat cannot see now (updated as cards fall).
    With ``end`` (near the end of the game), reaching the target wins at once and the show
    decides the rest (see :class:`EndgameSolver`); ``gained``: points already made.
    """
    unseen_a = list(unseen_a)
    unseen_b = list(unseen_b)
    diff = gained[0] - gained[1]
    got = list(gained)
    hands = [a, b]
    unseen = [unseen_a, unseen_b]
    while True:
        mine, other = hands[turn], hands[1 - turn]
        fits = fitting_ranks(mine, count)
        if len(fits) == 1:
            rank = fits[0]
        else:
            rank = model_choice(mine, pile, count, unseen[turn], len(other))
        mine = remove_rank(mine, rank)
        hands[turn] = mine
        unseen[1 - turn][rank] -= 1  # the other seat now sees it
        pile, count, points, nxt = lay(pile, count, rank, turn, mine, other)
        diff += points if turn == 0 else -points
        if end is not None:
            got[turn] += points
            if got[turn] >= end.needs[turn]:
                return WIN if turn == 0 else -WIN
            if nxt is None:
                return end.terminal((got[0], got[1]))
        if nxt is None:
            return diff
        turn = nxt


def first_then_rollout(
    a: tuple[int, ...],
    b: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    rank: int,
    unseen_a: list[int],
    unseen_b: list[int],
    end: EndgameSolver | None = None,
) -> float:
    """A lays ``rank`` now, then both play on as ``standard`` would (A's points minus B's)."""
    a = remove_rank(a, rank)
    pile, count, points, nxt = lay(pile, count, rank, 0, a, b)
    if end is not None:
        if points >= end.needs[0]:
            return WIN
        if nxt is None:
            return end.terminal((points, 0))
        return rollout(a, b, pile, count, nxt, unseen_a, unseen_b, end, (points, 0))
    if nxt is None:
        return points
    return points + rollout(a, b, pile, count, nxt, unseen_a, unseen_b)
