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
points minus the opponent's over the rest of the deal, weighted and summed over the worlds.
"""

from __future__ import annotations

from .expert_pegging import model_choice
from .memo import memo
from .pegging import VALUE, peg_points
from .pegging_solver import remove_rank
from .view import MAX_COUNT

World = tuple[float, tuple[int, ...], tuple[int, ...]]
"""(weight, the opponent's unlaid ranks lowest first, per rank what the opponent cannot see at
the root of the search)."""


def search_values(
    me: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    ranks: list[int],
) -> dict[int, float]:
    """Per rank in ``ranks`` (each must fit the count), the weighted average over ``worlds`` of
    laying it now and playing on as the search does: the seat's points minus the opponent's."""
    total = sum(w for w, _, _ in worlds)
    if not worlds or total <= 0:
        raise ValueError("The search needs at least one world of positive weight")
    held = len(worlds[0][1])
    return {r: _after_mine(me, held, pile, count, r, worlds, ()) / total for r in ranks}


def _mine(
    me: tuple[int, ...],
    held: int,
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    laid: tuple[int, ...],
) -> float:
    """The seat to lay (it has a card that fits): the best of its cards over ``worlds``."""
    best: float | None = None
    last = -1
    room = MAX_COUNT - count
    for r in me:
        if r == last:
            continue
        last = r
        if VALUE[r] > room:
            break
        value = _after_mine(me, held, pile, count, r, worlds, laid)
        if best is None or value > best:
            best = value
    if best is None:
        raise ValueError("The seat to lay holds no card that fits the count")
    return best


def _after_mine(
    me: tuple[int, ...],
    held: int,
    pile: tuple[int, ...],
    count: int,
    r: int,
    worlds: list[World],
    laid: tuple[int, ...],
) -> float:
    """The seat lays ``r``; the worlds split by whether the opponent can follow (a go is
    seen). ``held``: how many cards the opponent holds (the same in every world)."""
    me = remove_rank(me, r)
    laid = laid + (r,)
    pile = pile + (r,)
    count += VALUE[r]
    points = peg_points(pile)
    weight = sum(w for w, _, _ in worlds)
    if count == MAX_COUNT:
        return weight * points + _next(me, held, (), 0, worlds, laid, opp_first=True)
    room = MAX_COUNT - count
    follow = [w for w in worlds if VALUE[w[1][0]] <= room] if held else []
    if len(follow) == len(worlds):
        return weight * points + _theirs(me, held, pile, count, worlds, laid)
    stuck = [w for w in worlds if not (held and VALUE[w[1][0]] <= room)]
    value = weight * points
    if follow:
        value += _theirs(me, held, pile, count, follow, laid)
    stuck_weight = weight - sum(w for w, _, _ in follow)
    if me and VALUE[me[0]] <= room:
        value += _mine(me, held, pile, count, stuck, laid)
    else:  # nobody can lay: the seat takes the go
        value += stuck_weight + _next(me, held, (), 0, stuck, laid, opp_first=True)
    return value


def _next(
    me: tuple[int, ...],
    held: int,
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    laid: tuple[int, ...],
    *,
    opp_first: bool,
) -> float:
    """After a reset: the player after the last to lay leads if it has cards, else the other."""
    if opp_first and held:
        return _theirs(me, held, pile, count, worlds, laid)
    if me:
        return _mine(me, held, pile, count, worlds, laid)
    if held:
        return _theirs(me, held, pile, count, worlds, laid)
    return 0.0


def _theirs(
    me: tuple[int, ...],
    held: int,
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    laid: tuple[int, ...],
) -> float:
    """The opponent lays (it has a card that fits in every world): each world answers as
    ``standard`` would, and the worlds split by the card laid."""
    room = MAX_COUNT - count
    answers: dict[int, list[World]] = {}
    for world in worlds:
        hand = world[1]
        top = hand[0]
        for q in hand:
            if VALUE[q] <= room:
                top = q
        if hand[0] == top:
            rank = top
        else:
            rank = model_choice(hand, pile, count, list(_unseen_now(world[2], laid)), len(me))
        answers.setdefault(rank, []).append(world)
    value = 0.0
    for rank, group in answers.items():
        value += _after_theirs(me, held, pile, count, rank, group, laid)
    return value


def _after_theirs(
    me: tuple[int, ...],
    held: int,
    pile: tuple[int, ...],
    count: int,
    rank: int,
    worlds: list[World],
    laid: tuple[int, ...],
) -> float:
    held -= 1
    worlds = [(w, remove_rank(h, rank), u) for w, h, u in worlds]
    pile = pile + (rank,)
    count += VALUE[rank]
    points = peg_points(pile)
    weight = sum(w for w, _, _ in worlds)
    value = -weight * points
    if count == MAX_COUNT:
        return value + _next(me, held, (), 0, worlds, laid, opp_first=False)
    room = MAX_COUNT - count
    if me and VALUE[me[0]] <= room:
        return value + _mine(me, held, pile, count, worlds, laid)
    # The seat says go: the opponent lays on while it can, else takes the go.
    on = [w for w in worlds if held and VALUE[w[1][0]] <= room]
    if on:
        value += _theirs(me, held, pile, count, on, laid)
    if len(on) < len(worlds):
        stuck = [w for w in worlds if not (held and VALUE[w[1][0]] <= room)]
        stuck_weight = sum(w for w, _, _ in stuck)
        value += -stuck_weight + _next(me, held, (), 0, stuck, laid, opp_first=False)
    return value


@memo(1 << 16)
def _unseen_now(unseen: tuple[int, ...], laid: tuple[int, ...]) -> tuple[int, ...]:
    """What the opponent cannot see once the seat has laid ``laid`` in the search."""
    out = list(unseen)
    for r in laid:
        out[r] -= 1
    return tuple(out)
