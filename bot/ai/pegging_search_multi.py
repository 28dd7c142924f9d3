"""The expert's pegging with three or four players: a search over what its seat may know.

The same idea as the two-handed search (:mod:`bot.ai.pegging_search`), for the multi-player go
rules. The seat cannot see the other hands, so it deals them many times over ("worlds",
:func:`bot.ai.inference_multi.weighted_worlds_multi`) and searches the rest of the play as a tree
of *what it will see*:

- at each of its own turns it lays the card that is best on average over every world still
  consistent with what it has seen by then;
- at every other seat's turn (a partner's too: the seat cannot see its partner's cards either)
  each world answers as a ``standard`` player would with that world's cards, from what that seat
  can see (:func:`bot.ai.playouts.model_choice`, its ``other_held`` the cards of the next
  seat that still holds any, as :func:`bot.ai.playouts.multi_rollout` does), and the
  worlds split by the card laid. The expert has that seat read the cards no seat has been
  shown (``unshown``: its own not taken out, the same in every world), so the model scores its
  ranks once a turn for all the worlds; each world's exact view costs a model per world, much of
  the search's time, for no strength that could be measured
  (docs/research/measurements.md, "Three and four players");
- after each card the worlds split by who lays next, since the seat sees who says go.

With a ``depth`` the seat searches only its next few cards and then lays as the model would from
what it can see (the expert searches two: deeper, few worlds are left per branch and the seat
would all but "know" the hands). Likewise with ``least``: at a later turn of its own where fewer
worlds than that are left (the others' cards split them at every turn, three times between two
of its own in a four-handed game), the seat lays as the model would, rather than pick the best
card for a handful of worlds it would then as good as see.

The go rules are the engine's (:meth:`bot.engine.Game._play`; docs/players/rules.md, "The
play"): after a card the turn passes to the first seat to the left that can lay without passing
31 (the seat that laid included, last); a seat that cannot is passed over until the count is
reset. When nobody can lay, the last to lay pegs 1 (the go, or the last card); reaching 31 pegs
2 (in the card's points) and is never also a go. After a reset the seat to the left of the last
to lay leads, skipping seats with no cards.

Everything here works on ranks; suits do not matter in the play. The value is the weighted sum
over the worlds of every seat's pegging points times its weight (the side's own +1, each other
side's ``-1 / (sides - 1)``, as the old play-outs weighed them), divided by the total weight.

What it shares with the two-handed search: the position at a node
(:class:`~bot.ai.pegging_position.Position`), the model's answer (forced ranks included,
:func:`bot.ai.pegging_model.answer`), the pegging helpers of :mod:`bot.ai.pegging`. The trees stay
apart for a reason: two-handed, one opponent holds the same number of cards in every world, so
worlds merge by its hand, a go is the only split, and an ending and the dealer's weight value the
leaves; here any seat may be passed over, the worlds split by who lays next, and ``depth``,
``least`` and the one-world walk (:meth:`_Search.solo`) keep the tree small. One tree for both
would pay for these rules in the two-handed search's inner loop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.engine.pegging import MAX_COUNT, VALUE, after_lay

from .pegging import fitting_ranks, next_holder, peg_points
from .pegging_model import RankScores, Unseen, answer, forced
from .pegging_position import Position
from .pegging_solver import remove_rank

Hands = tuple[tuple[int, ...], ...]
World = tuple[float, Hands, Hands]
"""(weight, per seat its unlaid ranks lowest first (the searching seat's entry is not read),
per seat and rank what that seat cannot see at the root of the search)."""
Steps = Sequence[tuple[int, int]]
"""(seat, rank) for each card laid in the search so far: a position's ``laid``, or the list a
walk through one world extends as it goes."""


def search_values_multi(
    seat: int,
    me: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    worlds: list[World],
    weights: tuple[float, ...],
    ranks: list[int],
    depth: int | None = None,
    least: int = 1,
    unshown: tuple[int, ...] | None = None,
) -> dict[int, float]:
    """Per rank in ``ranks`` (each must fit the count), the weighted average over ``worlds`` of
    ``seat`` laying it now and everyone playing on as the search does (module docstring).

    ``weights``: per seat, what its points count for the seat's side. ``depth``: how many of the
    seat's own cards are searched, this one included (None: all); past it the seat lays as the
    model would from what it can see (its entry of a world's unseen ranks). ``least``: the fewest
    worlds at a later turn of the seat's for the search to choose its card there (fewer: the
    model lays it). ``unshown``: if given, every other seat's model reads it as what that seat
    cannot see at the root, in every world (its own cards not taken out, as the two-handed
    search's model does), instead of its entry of each world's unseen ranks; so at each turn
    it scores its ranks once for all the worlds (:class:`~bot.ai.pegging_model.RankScores`)
    and each world only picks its best, where a world's own view costs a model of its own."""
    total = sum(w for w, _, _ in worlds)
    if not worlds or total <= 0:
        raise ValueError("The search needs at least one world of positive weight")
    n = len(weights)
    hands = worlds[0][1]
    if len(hands) != n:
        raise ValueError("Each world needs a hand for every seat")
    held = tuple(len(me) if s == seat else len(hands[s]) for s in range(n))
    root = Position(me, held, pile, count, () if unshown is None else unshown, (), ())
    search = _Search(seat, weights, depth, least, unshown is not None, len(me))
    return {r: search.lay(root, seat, r, worlds) / total for r in ranks}


class _Search:
    """The tree of what ``seat`` will see: each node a :class:`~bot.ai.pegging_position.Position`
    (numbered by the table's seats; its ``unseen`` the search's ``unshown`` throughout, or
    ``()``; its ``got`` not kept) and the worlds still consistent with it, a separate argument
    since they split at a node while the position after a card is the same for all of them. Each
    method returns a weighted sum over its worlds. A model's rank is checked for being forced
    (:func:`~bot.ai.pegging_model.forced`) before anything is scored: a forced rank needs no
    scores."""

    def __init__(
        self,
        seat: int,
        weights: tuple[float, ...],
        depth: int | None,
        least: int,
        shared: bool,
        dealt: int,
    ) -> None:
        self.seat = seat
        self.weights = weights
        self.n = len(weights)
        self.depth = depth
        self.least = least
        self.shared = shared
        """Whether the other seats' models read the position's ``unseen`` (the search's
        ``unshown``), not each world's view."""
        self.dealt = dealt
        """How many cards the seat held at the root of the search."""

    def searched(self, mover: int, me: tuple[int, ...], worlds: int) -> bool:
        """Whether the seat chooses here by search (``me``: its ranks there): not past
        :attr:`depth` (counted by the cards it has laid since the root), and over at least
        :attr:`least` worlds."""
        if mover != self.seat or worlds < self.least:
            return False
        return self.depth is None or self.dealt - len(me) < self.depth

    def answers(self, pos: Position, mover: int, worlds: list[World]) -> dict[int, list[World]]:
        """The worlds grouped by the rank the model lays in each. The seat's own model reads the
        same cards in every world, and with :attr:`shared` so does every other seat's: its
        ranks are scored once (:class:`~bot.ai.pegging_model.RankScores`) and each world only
        picks its best."""
        held, pile, count, laid = pos.held, pos.pile, pos.count, pos.laid
        if mover == self.seat:
            rank = forced(pos.me, count)
            if rank is None:
                view = _unseen_now(worlds[0][2][mover], mover, laid)
                rank = answer(pos.me, count, _scores(held, pile, count, mover, view))
            return {rank: worlds}
        out: dict[int, list[World]] = {}
        if not self.shared:
            for world in worlds:
                hand = world[1][mover]
                rank = forced(hand, count)
                if rank is None:
                    view = _unseen_now(world[2][mover], mover, laid)
                    rank = answer(hand, count, _scores(held, pile, count, mover, view))
                out.setdefault(rank, []).append(world)
            return out
        view = _unseen_now(pos.unseen, mover, laid)
        scores = _scores(held, pile, count, mover, view)
        for world in worlds:
            out.setdefault(answer(world[1][mover], count, scores), []).append(world)
        return out

    def lay(self, pos: Position, turn: int, rank: int, worlds: list[World]) -> float:
        """``turn`` lays ``rank`` in every world of ``worlds``; then whoever lays next."""
        if len(worlds) == 1:
            world = worlds[0]
            return world[0] * self.solo(pos, world, turn, rank)
        n, seat = self.n, self.seat
        me, unseen = pos.me, pos.unseen
        if turn == seat:
            me = remove_rank(me, rank)
        else:
            worlds = [(w, _without(h, turn, rank), u) for w, h, u in worlds]
        held = pos.held
        held = held[:turn] + (held[turn] - 1,) + held[turn + 1 :]
        laid = pos.laid + ((turn, rank),)
        pile = pos.pile + (rank,)
        count = pos.count + VALUE[rank]
        weight = sum(w for w, _, _ in worlds)
        value = self.weights[turn] * peg_points(pile) * weight
        if count == MAX_COUNT:
            return value + self.lead(Position(me, held, (), 0, unseen, (), laid), turn, worlds)
        room = MAX_COUNT - count
        # Who lays next: the first seat to the left that has a card that fits (the seat itself
        # last). The searching seat's own cards are the same in every world; the others' split.
        groups: dict[int, list[World]] = {}
        for world in worlds:
            hands = world[1]
            nxt = -1
            for step in range(1, n + 1):
                s = (turn + step) % n
                if not held[s]:
                    continue
                low = me[0] if s == seat else hands[s][0]
                if VALUE[low] <= room:
                    nxt = s
                    break
            groups.setdefault(nxt, []).append(world)
        after = Position(me, held, pile, count, unseen, (), laid)
        for nxt, group in groups.items():
            if nxt >= 0:
                value += self.move(after, nxt, group)
            else:  # nobody can lay: the last to lay takes the go (or the last card)
                value += self.weights[turn] * sum(w for w, _, _ in group)
                value += self.lead(Position(me, held, (), 0, unseen, (), laid), turn, group)
        return value

    def lead(self, pos: Position, last: int, worlds: list[World]) -> float:
        """The count is reset (``pos``): the first seat left of ``last`` with cards leads
        (none: done)."""
        held = pos.held
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            if held[s]:
                return self.move(pos, s, worlds)
        return 0.0

    def move(self, pos: Position, mover: int, worlds: list[World]) -> float:
        """``mover`` lays (it has a card that fits in every world of ``worlds``)."""
        if self.searched(mover, pos.me, len(worlds)):
            best = -math.inf
            for r in fitting_ranks(pos.me, pos.count):
                value = self.lay(pos, mover, r, worlds)
                if value > best:
                    best = value
            return best
        value = 0.0
        for rank, group in self.answers(pos, mover, worlds).items():
            value += self.lay(pos, mover, rank, group)
        return value

    def solo(self, pos: Position, world: World, turn: int, rank: int) -> float:
        """:meth:`lay` in a single world (the seat sees every hand from here on), without its
        weight, faster: the hands, the cards held and the path are kept in lists of its own."""
        seat, weights, shared = self.seat, self.weights, self.shared
        w, hands, views = world
        now = list(hands)
        now[seat] = pos.me  # every seat's hand in one list (a world's entry for the seat is unread)
        holding = list(pos.held)
        laid = list(pos.laid)
        unseen = pos.unseen
        pile, count = pos.pile, pos.count
        value = 0.0
        while True:
            now[turn] = remove_rank(now[turn], rank)
            holding[turn] -= 1
            laid.append((turn, rank))
            pile, count, points, nxt = after_lay(now, pile, count, turn, rank, peg_points)
            value += weights[turn] * points
            if nxt is None:
                return value
            if nxt == seat and self.searched(nxt, now[seat], 1):
                after = Position(now[seat], tuple(holding), pile, count, unseen, (), tuple(laid))
                world = (w, tuple(now), views)
                return value + max(
                    self.solo(after, world, nxt, r) for r in fitting_ranks(now[seat], count)
                )
            hand = now[nxt]
            must = forced(hand, count)
            if must is not None:
                rank = must
            else:
                view = _unseen_now(unseen if shared and nxt != seat else views[nxt], nxt, laid)
                rank = answer(hand, count, _scores(holding, pile, count, nxt, view))
            turn = nxt


def _scores(
    held: Sequence[int], pile: tuple[int, ...], count: int, mover: int, view: Unseen
) -> RankScores:
    """What ``mover``'s model weighs at this turn (``view``: what it cannot see), told the cards
    of the next seat that still holds any. The model's choice is not looked up in
    :func:`bot.ai.playouts.model_choice`'s memo: a search asks for it at positions of its own
    (about 4% asked again), where storing each is more work than it saves."""
    return RankScores(pile, count, view, held[next_holder(held, mover)])


def _without(hands: Hands, seat: int, rank: int) -> Hands:
    return hands[:seat] + (remove_rank(hands[seat], rank),) + hands[seat + 1 :]


def _unseen_now(unseen: Unseen, mover: int, path: Steps) -> Unseen:
    """What ``mover`` cannot see once the others have laid their cards of ``path``. Not
    memoized: nearly every call of a search comes with a path of its own."""
    out = list(unseen)
    for s, r in path:
        if s != mover:
            out[r] -= 1
    return tuple(out)
