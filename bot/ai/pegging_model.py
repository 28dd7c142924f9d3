"""The ``standard`` player's choice in the play, fast, for the searches that ask it again and
again (:mod:`bot.ai.pegging_search`, :mod:`bot.ai.inference`).

What ``standard`` lays (:func:`bot.ai.playouts.model_choice`) is the best of its cards
by a score that, but for one term, does not depend on the rest of its hand: the points the
card makes minus the points the next player can be expected to make on it. So a search scores
each rank once at a turn (:class:`RankScores`), and each world of the unseen cards only picks
its best (:func:`answer`).
"""

from __future__ import annotations

from bot.engine.pegging import MAX_COUNT, VALUE

from .pegging import _reply_expectation, chances_of_holding, laid_and_replies

Unseen = tuple[int, ...]
"""Per rank, how many cards the player cannot see."""

NO_CARD = MAX_COUNT + 1
"""A value no card has, beyond any room on the count."""


def lowest_value(unseen: Unseen) -> int:
    """The value of the lowest rank ``unseen`` counts a card of (:data:`NO_CARD` if none). Not
    memoized: the loop mostly stops at the aces, sooner than a lookup would hash the key."""
    for q in range(1, 14):
        if unseen[q]:
            return VALUE[q]
    return NO_CARD


class RankScores:
    """What ``standard`` weighs in laying each rank on ``pile`` (worked out when first asked):
    the points it makes, the points the next player can be expected to make on it, and whether
    the other player may follow it (else the go may be the layer's)."""

    __slots__ = ("pile", "count", "unseen", "other_held", "lowest", "chances", "known")

    def __init__(self, pile: tuple[int, ...], count: int, unseen: Unseen, other_held: int):
        self.pile = pile
        self.count = count
        self.unseen = unseen
        self.other_held = other_held
        # The lowest value the next player may hold (NO_CARD: none): values rise with the
        # ranks, so one of its cards may fit a room exactly when that one does.
        self.lowest = lowest_value(unseen) if other_held > 0 else NO_CARD
        # Per rank, the chance the next player holds one (worked out when first needed).
        self.chances: tuple[float, ...] | None = None
        self.known: dict[int, tuple[int, float, bool]] = {}

    def work_out(self, r: int) -> tuple[int, float, bool]:
        """(points, expected reply, followed) of laying ``r``; :func:`answer` keeps it in
        :attr:`known`."""
        count_after = self.count + VALUE[r]
        points, replies = laid_and_replies(self.pile + (r,))
        if count_after == MAX_COUNT:
            return points, 0.0, True
        if self.lowest <= MAX_COUNT - count_after:
            chances = self.chances
            if chances is None:
                chances = self.chances = chances_of_holding(self.unseen, self.other_held)
            return points, _reply_expectation(replies, chances), True
        return points, 0.0, False


def forced(hand: tuple[int, ...], count: int) -> int | None:
    """The rank ``hand`` (lowest first, its lowest fits) must lay when it holds no other rank
    that fits the count, else None (the model chooses)."""
    low = hand[0]
    for q in hand:
        if q != low:  # the next rank up: the only other one that could fit
            return None if VALUE[q] <= MAX_COUNT - count else low
    return low


def answer(hand: tuple[int, ...], count: int, scores: RankScores) -> int:
    """The rank ``standard`` lays from ``hand`` (lowest first, a card fits): the same as
    :func:`bot.ai.playouts.model_choice`. A forced rank (:func:`forced`) is laid unscored; the
    check is written out here, not called, since both searches ask this of every world."""
    low = hand[0]
    for q in hand:
        if q != low:
            if VALUE[q] > MAX_COUNT - count:
                return low
            break
    else:
        return low
    best = -1
    best_score = -1e9
    last = -1
    for i, r in enumerate(hand):
        if r == last:
            continue
        last = r
        if count + VALUE[r] > MAX_COUNT:
            break
        known = scores.known.get(r)
        if known is None:
            known = scores.known[r] = scores.work_out(r)
        points, reply, followed = known
        if not followed:  # nobody else can lay: the go is ours unless we can lay on
            rest = hand[:i] + hand[i + 1 :]
            if not (rest and VALUE[rest[0]] <= MAX_COUNT - count - VALUE[r]):
                points += 1
        score = points - reply + 0.01 * VALUE[r]
        if score > best_score:
            best, best_score = r, score
    return best
