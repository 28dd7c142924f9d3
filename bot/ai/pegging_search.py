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
opponent's model (:func:`~bot.ai.pegging_model.answer` over ranks scored once a turn) and the
pegging helpers; why their trees stay apart is said there.
"""

from __future__ import annotations

from typing import Protocol

from bot.engine.pegging import MAX_COUNT, VALUE

from .memo import memo
from .pegging import WIN, fitting_ranks, peg_points
from .pegging_model import RankScores, Unseen, answer
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
    held = len(worlds[0][1])
    worlds = _merged(worlds)
    return {
        r: search.after_mine(me, held, pile, count, r, worlds, unseen, (0, 0), ()) / total
        for r in ranks
    }


class _Search:
    """The tree of what the seat will see. Each method returns the weighted sum over its worlds
    of the points diff from here on (the opponent's points counted ``against`` times); with an
    ending, the points made so far (``got``) are checked against the needs, and the end of the
    play adds what the ending says beyond them."""

    def __init__(self, ending: Ending | None, against: float = 1.0) -> None:
        self.ending = ending
        self.against = against

    def residual(self, weight: float, got: Got, laid: tuple[int, ...], out: int | None) -> float:
        """At an end (``out``: the side that reached the target, or None at the end of the
        play): what the ending adds beyond the points diff (nothing without an ending)."""
        ending = self.ending
        if ending is None:
            return 0.0
        final = ending.value(got, laid) if out is None else (WIN if out == 0 else -WIN)
        return weight * (final - (got[0] - got[1]))

    def out(self, got: Got) -> int | None:
        ending = self.ending
        if ending is None:
            return None
        if got[0] >= ending.needs[0]:
            return 0
        if got[1] >= ending.needs[1]:
            return 1
        return None

    def mine(
        self,
        me: tuple[int, ...],
        held: int,
        pile: tuple[int, ...],
        count: int,
        worlds: list[World],
        unseen: Unseen,
        got: Got,
        laid: tuple[int, ...],
    ) -> float:
        """The seat to lay (it has a card that fits): the best of its cards over ``worlds``."""
        return max(
            self.after_mine(me, held, pile, count, r, worlds, unseen, got, laid)
            for r in fitting_ranks(me, count)
        )

    def after_mine(
        self,
        me: tuple[int, ...],
        held: int,
        pile: tuple[int, ...],
        count: int,
        r: int,
        worlds: list[World],
        unseen: Unseen,
        got: Got,
        laid: tuple[int, ...],
    ) -> float:
        """The seat lays ``r`` (the opponent sees it); the worlds split by whether the opponent
        can follow (a go is seen). ``held``: how many cards the opponent holds (the same in
        every world)."""
        me = remove_rank(me, r)
        unseen = _without(unseen, r)
        pile = pile + (r,)
        count += VALUE[r]
        points = peg_points(pile)
        if points:
            got = (got[0] + points, got[1])
            if (out := self.out(got)) is not None:
                weight = sum([w for w, _ in worlds])
                return weight * points + self.residual(weight, got, laid, out)
        if count == MAX_COUNT:
            weight = sum([w for w, _ in worlds])
            rest = self.next(me, held, (), 0, worlds, unseen, got, laid, opp_first=True)
            return weight * points + rest
        room = MAX_COUNT - count
        follow, stuck, weight, stuck_weight = _split(worlds, held, room)
        value = weight * points
        if follow:
            value += self.theirs(me, held, pile, count, follow, unseen, got, laid)
        if stuck:
            if me and VALUE[me[0]] <= room:
                value += self.mine(me, held, pile, count, stuck, unseen, got, laid)
            else:  # nobody can lay: the seat takes the go
                got = (got[0] + 1, got[1])
                value += stuck_weight
                if (out := self.out(got)) is not None:
                    value += self.residual(stuck_weight, got, laid, out)
                else:
                    value += self.next(me, held, (), 0, stuck, unseen, got, laid, opp_first=True)
        return value

    def next(
        self,
        me: tuple[int, ...],
        held: int,
        pile: tuple[int, ...],
        count: int,
        worlds: list[World],
        unseen: Unseen,
        got: Got,
        laid: tuple[int, ...],
        *,
        opp_first: bool,
    ) -> float:
        """After a reset: the player after the last to lay leads if it has cards, else the
        other; with no cards left, the end of the play."""
        if opp_first and held:
            return self.theirs(me, held, pile, count, worlds, unseen, got, laid)
        if me:
            return self.mine(me, held, pile, count, worlds, unseen, got, laid)
        if held:
            return self.theirs(me, held, pile, count, worlds, unseen, got, laid)
        if self.ending is None:
            return 0.0
        return self.residual(sum([w for w, _ in worlds]), got, laid, None)

    def theirs(
        self,
        me: tuple[int, ...],
        held: int,
        pile: tuple[int, ...],
        count: int,
        worlds: list[World],
        unseen: Unseen,
        got: Got,
        laid: tuple[int, ...],
    ) -> float:
        """The opponent lays (it has a card that fits in every world): each world answers as
        ``standard`` would, and the worlds split by the card laid."""
        answers: dict[int, list[World]] = {}
        scores = RankScores(pile, count, unseen, len(me))
        for world in worlds:
            rank = answer(world[1], count, scores)
            group = answers.get(rank)
            if group is None:
                answers[rank] = [world]
            else:
                group.append(world)
        value = 0.0
        for rank, group in answers.items():
            value += self.after_theirs(me, held, pile, count, rank, group, unseen, got, laid)
        return value

    def after_theirs(
        self,
        me: tuple[int, ...],
        held: int,
        pile: tuple[int, ...],
        count: int,
        rank: int,
        worlds: list[World],
        unseen: Unseen,
        got: Got,
        laid: tuple[int, ...],
    ) -> float:
        held -= 1
        worlds = _merged([(w, remove_rank(h, rank)) for w, h in worlds])
        if self.ending is not None:
            laid = laid + (rank,)
        pile = pile + (rank,)
        count += VALUE[rank]
        points = peg_points(pile)
        if points:
            got = (got[0], got[1] + points)
            if (out := self.out(got)) is not None:
                weight = sum([w for w, _ in worlds])
                return -self.against * weight * points + self.residual(weight, got, laid, out)
        if count == MAX_COUNT:
            weight = sum([w for w, _ in worlds])
            rest = self.next(me, held, (), 0, worlds, unseen, got, laid, opp_first=False)
            return -self.against * weight * points + rest
        room = MAX_COUNT - count
        if me and VALUE[me[0]] <= room:
            weight = sum([w for w, _ in worlds])
            value = -self.against * weight * points
            return value + self.mine(me, held, pile, count, worlds, unseen, got, laid)
        # The seat says go: the opponent lays on while it can, else takes the go.
        on, stuck, weight, stuck_weight = _split(worlds, held, room)
        value = -self.against * weight * points
        if on:
            value += self.theirs(me, held, pile, count, on, unseen, got, laid)
        if stuck:
            got = (got[0], got[1] + 1)
            value -= self.against * stuck_weight
            if (out := self.out(got)) is not None:
                value += self.residual(stuck_weight, got, laid, out)
            else:
                value += self.next(me, held, (), 0, stuck, unseen, got, laid, opp_first=False)
        return value


def _split(
    worlds: list[World], held: int, room: int
) -> tuple[list[World], list[World], float, float]:
    """The worlds where the opponent can lay on ``room`` and those where it cannot (it says go:
    the seat sees which), with the weight of all and of the second."""
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
def _without(unseen: Unseen, rank: int) -> Unseen:
    """``unseen`` once the opponent has seen a card of ``rank``."""
    out = list(unseen)
    out[rank] -= 1
    return tuple(out)
