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

What it shares with the two-handed search: the model's answer (forced ranks included,
:func:`bot.ai.pegging_model.answer`), the pegging helpers of :mod:`bot.ai.pegging`. The trees stay
apart for a reason: two-handed, one opponent holds the same number of cards in every world, so
worlds merge by its hand, a go is the only split, and an ending and the dealer's weight value the
leaves; here any seat may be passed over, the worlds split by who lays next, and ``depth``,
``least`` and the one-world walk (:meth:`_Search.solo`) keep the tree small. One tree for both
would pay for these rules in the two-handed search's inner loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.pegging import MAX_COUNT, VALUE, after_lay

from .pegging import fitting_ranks, next_holder, peg_points
from .pegging_model import RankScores, answer, forced
from .pegging_solver import remove_rank

Hands = tuple[tuple[int, ...], ...]
World = tuple[float, Hands, Hands]
"""(weight, per seat its unlaid ranks lowest first (the searching seat's entry is not read),
per seat and rank what that seat cannot see at the root of the search)."""
Path = tuple[tuple[int, int], ...]
"""(seat, rank) for each card laid in the search so far (the same in every world of a node)."""
Laid = Sequence[tuple[int, int]]
"""A :data:`Path`, or the list a play-out of one world extends as it goes."""


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
    search = _Search(seat, weights, depth, least, unshown)
    return {r: search.lay(me, held, pile, count, seat, r, worlds, ()) / total for r in ranks}


class _Search:
    """The tree of what ``seat`` will see; each method returns a weighted sum over its worlds."""

    def __init__(
        self,
        seat: int,
        weights: tuple[float, ...],
        depth: int | None,
        least: int,
        unshown: tuple[int, ...] | None,
    ) -> None:
        self.seat = seat
        self.weights = weights
        self.n = len(weights)
        self.depth = depth
        self.least = least
        self.unshown = unshown

    def searched(self, mover: int, path: Laid, worlds: int) -> bool:
        """Whether the seat chooses here by search: not past :attr:`depth`, and over at least
        :attr:`least` worlds."""
        if mover != self.seat or worlds < self.least:
            return False
        return self.depth is None or sum(s == mover for s, _ in path) < self.depth

    def answer(
        self,
        hand: tuple[int, ...],
        held: Sequence[int],
        pile: tuple[int, ...],
        count: int,
        mover: int,
        unseen: tuple[int, ...],
        path: Laid,
    ) -> int:
        """The rank the model lays from ``hand`` (``mover``'s; ``unseen``: what it could not see
        at the root), told the cards of the next seat that still holds any."""
        must = forced(hand, count)  # before the scores: a forced rank needs none
        if must is not None:
            return must
        # model_choice's choice, not looked up in its memo: a search asks for it at positions
        # of its own (about 4% asked again), where storing each is more work than it saves.
        return answer(hand, count, self.scores(held, pile, count, mover, unseen, path))

    def scores(
        self,
        held: Sequence[int],
        pile: tuple[int, ...],
        count: int,
        mover: int,
        unseen: tuple[int, ...],
        path: Laid,
    ) -> RankScores:
        """What ``mover``'s model weighs at this turn (``unseen``: what it could not see at the
        root), told the cards of the next seat that still holds any."""
        now = _unseen_now(unseen, mover, path)
        return RankScores(pile, count, now, held[next_holder(held, mover)])

    def answers(
        self,
        me: tuple[int, ...],
        held: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        mover: int,
        worlds: list[World],
        path: Path,
    ) -> dict[int, list[World]]:
        """The worlds grouped by the rank the model lays in each. The seat's own model reads the
        same cards in every world, and with :attr:`unshown` so does every other seat's: its
        ranks are scored once (:class:`~bot.ai.pegging_model.RankScores`) and each world only
        picks its best."""
        if mover == self.seat:
            return {self.answer(me, held, pile, count, mover, worlds[0][2][mover], path): worlds}
        out: dict[int, list[World]] = {}
        if self.unshown is None:
            for world in worlds:
                rank = self.answer(world[1][mover], held, pile, count, mover, world[2][mover], path)
                out.setdefault(rank, []).append(world)
            return out
        scores = self.scores(held, pile, count, mover, self.unshown, path)
        for world in worlds:
            out.setdefault(answer(world[1][mover], count, scores), []).append(world)
        return out

    def lay(
        self,
        me: tuple[int, ...],
        held: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        rank: int,
        worlds: list[World],
        path: Path,
    ) -> float:
        """``turn`` lays ``rank`` in every world of ``worlds``; then whoever lays next."""
        if len(worlds) == 1:
            w, hands, unseen = worlds[0]
            return w * self.solo(me, hands, unseen, held, pile, count, turn, rank, path)
        n, seat = self.n, self.seat
        if turn == seat:
            me = remove_rank(me, rank)
        else:
            worlds = [(w, _without(h, turn, rank), u) for w, h, u in worlds]
        held = held[:turn] + (held[turn] - 1,) + held[turn + 1 :]
        path = path + ((turn, rank),)
        pile = pile + (rank,)
        count += VALUE[rank]
        weight = sum(w for w, _, _ in worlds)
        value = self.weights[turn] * peg_points(pile) * weight
        if count == MAX_COUNT:
            return value + self.lead(me, held, turn, worlds, path)
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
        for nxt, group in groups.items():
            if nxt >= 0:
                value += self.move(me, held, pile, count, nxt, group, path)
            else:  # nobody can lay: the last to lay takes the go (or the last card)
                value += self.weights[turn] * sum(w for w, _, _ in group)
                value += self.lead(me, held, turn, group, path)
        return value

    def lead(
        self,
        me: tuple[int, ...],
        held: tuple[int, ...],
        last: int,
        worlds: list[World],
        path: Path,
    ) -> float:
        """The count is reset: the first seat left of ``last`` with cards leads (none: done)."""
        for step in range(1, self.n + 1):
            s = (last + step) % self.n
            if held[s]:
                return self.move(me, held, (), 0, s, worlds, path)
        return 0.0

    def move(
        self,
        me: tuple[int, ...],
        held: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        mover: int,
        worlds: list[World],
        path: Path,
    ) -> float:
        """``mover`` lays (it has a card that fits in every world of ``worlds``)."""
        if self.searched(mover, path, len(worlds)):
            return max(
                self.lay(me, held, pile, count, mover, r, worlds, path)
                for r in fitting_ranks(me, count)
            )
        value = 0.0
        for rank, group in self.answers(me, held, pile, count, mover, worlds, path).items():
            value += self.lay(me, held, pile, count, mover, rank, group, path)
        return value

    def solo(
        self,
        me: tuple[int, ...],
        hands: Hands,
        unseen: Hands,
        held: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        rank: int,
        path: Path,
    ) -> float:
        """:meth:`lay` in a single world (the seat sees every hand from here on), faster: the
        hands, the cards held and the path are kept in lists of its own."""
        seat, weights = self.seat, self.weights
        now = list(hands)
        now[seat] = me  # every seat's hand in one list (a world's entry for the seat is unread)
        holding = list(held)
        laid = list(path)
        value = 0.0
        while True:
            now[turn] = remove_rank(now[turn], rank)
            holding[turn] -= 1
            laid.append((turn, rank))
            pile, count, points, nxt = after_lay(now, pile, count, turn, rank, peg_points)
            value += weights[turn] * points
            if nxt is None:
                return value
            if self.searched(nxt, laid, 1):
                hands, held, path = tuple(now), tuple(holding), tuple(laid)
                return value + max(
                    self.solo(now[seat], hands, unseen, held, pile, count, nxt, r, path)
                    for r in fitting_ranks(now[seat], count)
                )
            reads = self.unshown if self.unshown is not None and nxt != seat else unseen[nxt]
            rank = self.answer(now[nxt], holding, pile, count, nxt, reads, laid)
            turn = nxt


def _without(hands: Hands, seat: int, rank: int) -> Hands:
    return hands[:seat] + (remove_rank(hands[seat], rank),) + hands[seat + 1 :]


def _unseen_now(unseen: tuple[int, ...], mover: int, path: Laid) -> tuple[int, ...]:
    """What ``mover`` cannot see once the others have laid their cards of ``path``. Not
    memoized: nearly every call of a search comes with a path of its own."""
    out = list(unseen)
    for s, r in path:
        if s != mover:
            out[r] -= 1
    return tuple(out)
