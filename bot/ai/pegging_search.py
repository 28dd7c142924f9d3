"""The expert's two-handed pegging: a search over what its seat may know.

The seat cannot see the opponent's cards, so it deals them many times over ("worlds",
:func:`bot.ai.inference.weighted_worlds`: consistent with the opponent's discard, its goes, and
weighted by how well each explains the cards it chose to lay). It then searches the rest of the
play as a tree of *what it will see*: at each of its own turns it lays the card that is best on
average over every world still consistent with what it has seen by then; at the opponent's
turns each world answers as a ``standard`` player would with those cards (from what the
opponent can see), and the worlds split by the answer (the card laid, or a go), since the seat
will see it. Unlike play-outs with a fixed policy, every later choice of the seat's own is
searched too, and unlike solving each world with every card face up, it never lays a card
because it "knows" the opponent's hand.

Each world follows one line of answers, so the work per world is about the number of orders in
which the seat can lay its own cards (at most 24): a few hundred worlds fit in a decision.

Everything here works on ranks; suits do not matter in the play. Values are the seat's pegging
points minus the opponent's (which the expert's dealer counts at a weight:
:data:`bot.ai.expert_pegging.DEALER_AGAINST`) over the rest of the deal, weighted and summed over
the worlds; near the end of a game an :class:`Ending` values the play instead: reaching the
target wins at once (:data:`~bot.ai.pegging.WIN`), and a play that ends with nobody out is valued
by the show.

With three or four players :mod:`bot.ai.pegging_search_multi` searches instead: the two share the
position at a node (:class:`~bot.ai.pegging_position.Position`), the opponent's model
(:func:`~bot.ai.pegging_model.answer` over ranks scored once a turn) and the pegging helpers; why
their trees stay apart is said there.
"""

from __future__ import annotations

import math
from typing import Protocol

from bot.engine.pegging import MAX_COUNT, VALUE

from .memo import memo
from .pegging import WIN, fitting_ranks, peg_points
from .pegging_model import RankScores, Unseen, answer, forced
from .pegging_position import Laid, Position
from .pegging_solver import remove_rank

World = tuple[float, tuple[int, ...]]
"""(weight, the opponent's unlaid ranks lowest first). What the opponent cannot see (``unseen``,
per rank) is the same in every world: the cards it holds itself are not taken out, and worlds
holding the same cards are searched once. The model then lays a little otherwise than
``standard`` would, which changed nothing measurable against an exact view that is far slower:
the worlds' weights already read the opponent's plays from its exact view
(:func:`bot.ai.inference.play_likelihood`; docs/research/measurements.md, "The opponent model")."""

Got = tuple[int, int]
"""Points the seat and the opponent have made since the search began."""

SEAT, OPPONENT = 0, 1
"""The two-handed search's numbers for the seats (in a position's ``held``, ``got``, ``laid``)."""


class Ending(Protocol):
    """How the search values the play near the end of a game."""

    needs: tuple[int, int]
    """Points the seat and the opponent still need: reaching it wins at once."""

    def value(self, got: Got, laid: tuple[int, ...]) -> float:
        """The play over with nobody out: ``got`` the points each side made in the search,
        ``laid`` the ranks the opponent laid in it (every world that gets here held them)."""
        ...


def search_values(
    me: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    unseen: Unseen,
    ranks: list[int],
    ending: Ending | None = None,
    against: float = 1.0,
) -> dict[int, float]:
    """Per rank in ``ranks`` (each must fit the count), the weighted average over ``worlds`` of
    laying it now and playing on as the search does: the seat's points minus ``against`` times
    the opponent's, or with ``ending`` the value it gives (``WIN`` for reaching the target
    first; ``against`` must then be 1: the ending values the points as they are)."""
    if ending is not None and against != 1.0:
        raise ValueError("Near the end the search values the chance to win, not weighted points")
    total = sum(w for w, _ in worlds)
    if not worlds or total <= 0:
        raise ValueError("The search needs at least one world of positive weight")
    search = _Search(ending, against)
    root = Position(me, (len(me), len(worlds[0][1])), pile, count, unseen, (0, 0), ())
    worlds = _merged(worlds)
    return {r: search.after_mine(root, r, worlds) / total for r in ranks}


class _Search:
    """The tree of what the seat will see: each node a :class:`~bot.ai.pegging_position.Position`
    (seat 0 the searching seat, 1 the opponent) and the worlds still consistent with it, a
    separate argument since they split at a node while the position after a card is the same
    for all of them. Each method returns the weighted sum over its worlds of the points diff
    from here on (the opponent's points counted ``against`` times); with an ending, the points
    made so far (the position's ``got``) are checked against the needs, and the end of the
    play adds what the ending says beyond them."""

    def __init__(self, ending: Ending | None, against: float = 1.0) -> None:
        self.ending = ending
        self.against = against

    def residual(self, weight: float, got: Got, laid: Laid, out: int | None) -> float:
        """At an end (``out``: the side that reached the target, or None at the end of the
        play): what the ending adds beyond the points diff (nothing without an ending)."""
        ending = self.ending
        if ending is None:
            return 0.0
        if out is None:
            final = ending.value(got, tuple(r for s, r in laid if s == OPPONENT))
        else:
            final = WIN if out == SEAT else -WIN
        return weight * (final - (got[0] - got[1]))

    def out(self, got: Got) -> int | None:
        ending = self.ending
        if ending is None:
            return None
        if got[0] >= ending.needs[0]:
            return SEAT
        if got[1] >= ending.needs[1]:
            return OPPONENT
        return None

    def mine(self, pos: Position, worlds: list[World]) -> float:
        """The seat to lay (it has a card that fits): the best of its cards over ``worlds``."""
        ranks = fitting_ranks(pos.me, pos.count)
        if len(ranks) == 1:
            return self.after_mine(pos, ranks[0], worlds)
        best = -math.inf
        for r in ranks:
            value = self.after_mine(pos, r, worlds)
            if value > best:
                best = value
        return best

    def after_mine(self, pos: Position, r: int, worlds: list[World]) -> float:
        """The seat lays ``r`` (the opponent sees it); the worlds split by whether the opponent
        can follow (a go is seen). The opponent holds as many cards in every world."""
        me = remove_rank(pos.me, r)
        mine, held = pos.held
        unseen = _shown(pos.unseen, r)
        pile = pos.pile + (r,)
        count = pos.count + VALUE[r]
        got = pos.got
        laid = pos.laid
        if self.ending is not None:
            laid = laid + ((SEAT, r),)
        points = peg_points(pile)
        if points:
            got = (got[0] + points, got[1])
            if (out := self.out(got)) is not None:
                weight = _weight(worlds)
                return weight * points + self.residual(weight, got, laid, out)
        if count == MAX_COUNT:
            weight = _weight(worlds)
            after = Position(me, (mine - 1, held), (), 0, unseen, got, laid)
            return weight * points + self.next(after, worlds, True)
        room = MAX_COUNT - count
        follow, stuck, weight, stuck_weight = _split(worlds, held, room)
        value = weight * points
        lays_on = bool(me) and VALUE[me[0]] <= room
        if follow or lays_on:
            after = Position(me, (mine - 1, held), pile, count, unseen, got, laid)
            if follow:
                value += self.theirs(after, follow)
            if stuck and lays_on:
                value += self.mine(after, stuck)
        if stuck and not lays_on:  # nobody can lay: the seat takes the go
            got = (got[0] + 1, got[1])
            value += stuck_weight
            if (out := self.out(got)) is not None:
                value += self.residual(stuck_weight, got, laid, out)
            else:
                after = Position(me, (mine - 1, held), (), 0, unseen, got, laid)
                value += self.next(after, stuck, True)
        return value

    def next(self, pos: Position, worlds: list[World], opp_first: bool) -> float:
        """After a reset: the player after the last to lay leads if it has cards, else the
        other; with no cards left, the end of the play."""
        held = pos.held[OPPONENT]
        if opp_first and held:
            return self.theirs(pos, worlds)
        if pos.me:
            return self.mine(pos, worlds)
        if held:
            return self.theirs(pos, worlds)
        if self.ending is None:
            return 0.0
        got = pos.got
        return self.residual(_weight(worlds), (got[SEAT], got[OPPONENT]), pos.laid, None)

    def theirs(self, pos: Position, worlds: list[World]) -> float:
        """The opponent lays (it has a card that fits in every world): each world answers as
        ``standard`` would, and the worlds split by the card laid."""
        count = pos.count
        if len(worlds) == 1:  # most nodes; and its card often forced, with nothing to score
            hand = worlds[0][1]
            rank = forced(hand, count)
            if rank is None:
                rank = answer(hand, count, RankScores(pos.pile, count, pos.unseen, len(pos.me)))
            return self.after_theirs(pos, rank, worlds)
        scores = RankScores(pos.pile, count, pos.unseen, len(pos.me))
        answers: dict[int, list[World]] = {}
        for world in worlds:
            rank = answer(world[1], count, scores)
            group = answers.get(rank)
            if group is None:
                answers[rank] = [world]
            else:
                group.append(world)
        value = 0.0
        for rank, group in answers.items():
            value += self.after_theirs(pos, rank, group)
        return value

    def after_theirs(self, pos: Position, rank: int, worlds: list[World]) -> float:
        mine, held = pos.held
        held -= 1
        if len(worlds) == 1:  # most nodes: the worlds split at nearly every card
            w, hand = worlds[0]
            worlds = [(w, remove_rank(hand, rank))]
        else:
            worlds = _merged([(w, remove_rank(h, rank)) for w, h in worlds])
        laid = pos.laid
        if self.ending is not None:
            laid = laid + ((OPPONENT, rank),)
        me = pos.me
        unseen = pos.unseen
        pile = pos.pile + (rank,)
        count = pos.count + VALUE[rank]
        got = pos.got
        points = peg_points(pile)
        if points:
            got = (got[0], got[1] + points)
            if (out := self.out(got)) is not None:
                weight = _weight(worlds)
                return -self.against * weight * points + self.residual(weight, got, laid, out)
        if count == MAX_COUNT:
            weight = _weight(worlds)
            after = Position(me, (mine, held), (), 0, unseen, got, laid)
            rest = self.next(after, worlds, False)
            return -self.against * weight * points + rest
        room = MAX_COUNT - count
        if me and VALUE[me[0]] <= room:
            weight = _weight(worlds)
            value = -self.against * weight * points
            return value + self.mine(
                Position(me, (mine, held), pile, count, unseen, got, laid), worlds
            )
        # The seat says go: the opponent lays on while it can, else takes the go.
        on, stuck, weight, stuck_weight = _split(worlds, held, room)
        value = -self.against * weight * points
        if on:
            value += self.theirs(Position(me, (mine, held), pile, count, unseen, got, laid), on)
        if stuck:
            got = (got[0], got[1] + 1)
            value -= self.against * stuck_weight
            if (out := self.out(got)) is not None:
                value += self.residual(stuck_weight, got, laid, out)
            else:
                after = Position(me, (mine, held), (), 0, unseen, got, laid)
                value += self.next(after, stuck, False)
        return value


def _weight(worlds: list[World]) -> float:
    """The weight of ``worlds``, added in their order (one world, most often: its own)."""
    return worlds[0][0] if len(worlds) == 1 else sum([w for w, _ in worlds])


def _split(
    worlds: list[World], held: int, room: int
) -> tuple[list[World], list[World], float, float]:
    """The worlds where the opponent can lay on ``room`` and those where it cannot (it says go:
    the seat sees which), with the weight of all and of the second."""
    if len(worlds) == 1:  # most nodes
        weight = worlds[0][0]
        if held and VALUE[worlds[0][1][0]] <= room:
            return worlds, [], weight, 0.0
        return [], worlds, weight, weight
    follow: list[World] = []
    stuck: list[World] = []
    weight = stuck_weight = 0.0
    for world in worlds:
        weight += world[0]
        if held and VALUE[world[1][0]] <= room:
            follow.append(world)
        else:
            stuck.append(world)
            stuck_weight += world[0]
    return follow, stuck, weight, stuck_weight


def _merged(worlds: list[World]) -> list[World]:
    """Worlds where the opponent holds the same cards play alike from here on: one world with
    their weights summed (every world at a node has laid the same cards to get there)."""
    if len(worlds) < 2:
        return worlds
    weights: dict[tuple[int, ...], float] = {}
    for w, h in worlds:
        weights[h] = weights.get(h, 0.0) + w
    if len(weights) == len(worlds):
        return worlds
    return [(w, h) for h, w in weights.items()]


@memo(1 << 12)
def _shown(unseen: Unseen, rank: int) -> Unseen:
    """``unseen`` once the opponent has seen a card of ``rank``."""
    out = list(unseen)
    out[rank] -= 1
    return tuple(out)
