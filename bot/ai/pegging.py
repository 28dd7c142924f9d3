"""The play (pegging): what each level lays, and why.

Suits never matter in the play, so everything here works on ranks (1..13).

- ``easy``: takes an obvious fifteen or thirty-one, else lays its first "safe" card (one that
  does not leave the count at 5 or 21).
- ``standard``: greedy with simple defence: the points a card makes now, minus the points the
  next player can expect to make on it (from how many cards of each rank are still unseen and
  how many the next player holds).
- ``expert``: searches what its seat may know. It deals the unseen cards to the other seats
  many times over ("worlds"), consistent with everything known (what each laid, when they said
  go and, two-handed, that the four the opponent kept are what a sound player keeps from six),
  weighted by how well each world explains the cards the opponent chose to lay. Two-handed it
  then searches the rest of the play over those worlds (:mod:`bot.ai.pegging_search`): at its
  own turns the card best over every world still consistent with what it will have seen, at
  the opponent's each world answering as ``standard`` would. With three or four players the
  same search runs with the multi-player go rules (:mod:`bot.ai.pegging_search_multi`), its
  later cards searched only where enough worlds are left. Near the end of a game it plays for
  the win: two-handed, reaching the target wins at once and the show settles the rest in
  counting order (:class:`EndgameSolver`, and the chance-to-win table); in partnerships it plays
  each card out in every world, valued likewise (:mod:`bot.ai.team_ending`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from bot.engine import Card
from bot.engine.pegging import MAX_COUNT, VALUE, pile_points, playable_ranks

from .memo import memo
from .view import SeatKnowledge

WIN = 1000


# --------------------------------------------------------------------------- scoring


@memo(1 << 18)
def peg_points(pile: tuple[int, ...]) -> int:
    """Points for the last rank of ``pile`` (the ranks laid since the count was reset):
    :func:`bot.engine.pegging.pile_points`, memoized for the searches that ask again and again."""
    return pile_points(pile)


@memo(1 << 14)
def fitting_ranks(hand: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The distinct ranks of ``hand`` (lowest first) that may be laid on ``count``; raises if
    none may (a seat is only asked to lay when one fits)."""
    ranks = playable_ranks(hand, count)
    if not ranks:
        raise ValueError("The seat to lay holds no card that fits the count")
    return ranks


def describe(pile: tuple[int, ...], count_after: int, go: bool = False) -> list[str]:
    """Names of what laying the last rank of ``pile`` makes ('fifteen', 'a pair', ...)."""
    names = []
    if count_after == 15:
        names.append("fifteen")
    if count_after == MAX_COUNT:
        names.append("thirty-one")
    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-same - 1] == last:
        same += 1
    if same >= 2:
        names.append({2: "a pair", 3: "a pair royal", 4: "a double pair royal"}[same])
    for length in range(len(pile), 2, -1):
        tail = pile[-length:]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            names.append(f"a run of {length}")
            break
    if go:
        names.append("the go")
    return names


# --------------------------------------------------------------------------- view helpers


@dataclass(frozen=True, slots=True)
class PlayCandidate:
    """A card the seat may lay, with what the level thought of it."""

    card: Card
    score: float
    points: int
    """Points the card makes at once (fifteen, pairs, runs, 31; plus a go it takes)."""
    count_after: int
    reply: float = 0.0
    """The points the next player can be expected to make on it (standard's defence)."""


def legal_cards(view: SeatKnowledge) -> list[Card]:
    return [c for c in view.hand if view.count + c.value <= MAX_COUNT]


def distinct_by_rank(cards: list[Card]) -> list[Card]:
    seen = set()
    out = []
    for card in cards:
        if card.rank not in seen:
            seen.add(card.rank)
            out.append(card)
    return out


def pile_ranks(view: SeatKnowledge) -> tuple[int, ...]:
    return tuple(c.rank for c in view.pile)


def laid_on(view: SeatKnowledge) -> list[tuple[tuple[int, ...], int]]:
    """For each card of ``view.played`` in order, the pile (ranks) and count it was laid on.

    The count was reset before a card when it stood at 31, or when the card would have passed
    31 (nobody could lay on it: someone took the go)."""
    out: list[tuple[tuple[int, ...], int]] = []
    pile: tuple[int, ...] = ()
    count = 0
    for _, card in view.played:
        if count == MAX_COUNT or count + card.value > MAX_COUNT:
            pile, count = (), 0
        out.append((pile, count))
        pile += (card.rank,)
        count += card.value
    return out


def unshown_rank_counts(view: SeatKnowledge) -> list[int]:
    """Per rank (index 1..13), the cards neither the starter nor the play has shown: what no
    seat has seen but in its own hand and discard."""
    counts = [4] * 14
    counts[0] = 0
    if view.starter is not None:
        counts[view.starter.rank] -= 1
    for _, card in view.played:
        counts[card.rank] -= 1
    return counts


def unseen_by_seat(
    unshown: Sequence[int], hands: Sequence[tuple[int, ...]]
) -> tuple[tuple[int, ...], ...]:
    """Per seat, what it cannot see: ``unshown`` (:func:`unshown_rank_counts`) less the ranks of
    its own ``hands`` entry."""
    out = []
    for hand in hands:
        u = list(unshown)
        for r in hand:
            u[r] -= 1
        out.append(tuple(u))
    return tuple(out)


def next_holder(held: Sequence[int], seat: int) -> int:
    """The first seat after ``seat`` whose ``held`` count is not 0 (``seat`` itself if none):
    the one a layer's model expects to answer its card."""
    n = len(held)
    after = (seat + 1) % n
    while not held[after] and after != seat:
        after = (after + 1) % n
    return after


def unseen_rank_counts(view: SeatKnowledge) -> list[int]:
    counts = [4] * 14
    counts[0] = 0
    for card in view.known_cards():
        counts[card.rank] -= 1
    return counts


# --------------------------------------------------------------------------- easy


def easy_play(view: SeatKnowledge) -> Card:
    """An obvious fifteen or 31, else the first card that does not leave 5 or 21."""
    legal = legal_cards(view)
    for card in legal:
        if view.count + card.value in (15, MAX_COUNT):
            return card
    for card in legal:
        if view.count + card.value not in (5, 21):
            return card
    return legal[0]


# --------------------------------------------------------------------------- standard


_COMB = [[float(comb(n, k)) for k in range(14)] for n in range(53)]


def holding_chances(unseen: list[int], held: int, floor: int = 1) -> tuple[float, ...]:
    """Per rank, the chance a player holding ``held`` unseen cards has at least one of it.

    Cards worth less than ``floor`` are out (the player said go when they would have fitted).
    """
    return _holding_chances(tuple(unseen), held, floor)


_NO_CHANCES = (0.0,) * 14


def chances_of_holding(unseen: tuple[int, ...], held: int) -> tuple[float, ...]:
    """Per rank, the chance that ``held`` cards drawn from ``unseen`` (per rank, index 0 no
    rank) include one. Not memoized: the models inside the searches, its main callers, seldom
    ask twice for the same cards, and building the answer costs about what a lookup would."""
    total = sum(unseen) - unseen[0]
    if held <= 0 or total <= 0:
        return _NO_CHANCES
    return tuple(map(_copies_chances(total, min(held, total, 13)).__getitem__, unseen))


@memo(1 << 16)
def _holding_chances(unseen: tuple[int, ...], held: int, floor: int) -> tuple[float, ...]:
    if floor <= 1:
        return chances_of_holding(unseen, held)
    total = 0
    for r in range(1, 14):
        if VALUE[r] >= floor:
            total += unseen[r]
    if held <= 0 or total <= 0:
        return _NO_CHANCES
    of_copies = _copies_chances(total, min(held, total, 13))
    return tuple([of_copies[u] if VALUE[r] >= floor else 0.0 for r, u in enumerate(unseen)])


@memo(1 << 10)
def _copies_chances(total: int, held: int) -> tuple[float, ...]:
    """Per number of copies ``u`` (0 to 4) of a rank among ``total`` unseen cards, the chance
    that ``held`` of them drawn at random include one."""
    row_total = _COMB[total][held]
    return (0.0,) + tuple(1.0 - _COMB[max(total - u, 0)][held] / row_total for u in range(1, 5))


@memo(1 << 17)
def reply_points(pile: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(points, rank) for every rank that scores when laid on ``pile``, best first. (Most of
    the thirteen piles it tries are never laid: their points are not memoized.)"""
    count = 0
    for r in pile:
        count += VALUE[r]
    room = MAX_COUNT - count
    out = [
        (pile_points(pile + (r,)), r)
        for r in range(1, 14)
        if VALUE[r] <= room and pile.count(r) < 4
    ]
    return tuple(sorted((x for x in out if x[0]), reverse=True))


@memo(1 << 17)
def laid_and_replies(
    pile: tuple[int, ...],
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """:func:`peg_points` and :func:`reply_points` of ``pile`` in one lookup (the models inside
    the searches ask both of every card they weigh, about 12,000 times a partnership decision)."""
    return peg_points(pile), reply_points(pile)


def _reply_expectation(replies: tuple[tuple[int, int], ...], chances: tuple[float, ...]) -> float:
    """The next player's expected best immediate points on a pile whose scoring replies are
    ``replies`` (:func:`reply_points`), holding rank r with probability ``chances[r]``
    (independently)."""
    expected = 0.0
    still = 1.0
    for points, r in replies:
        p = chances[r]
        if p:
            expected += points * p * still
            still *= 1.0 - p
    return expected


def standard_candidates(view: SeatKnowledge) -> list[PlayCandidate]:
    """Every legal card (one per rank) scored greedily with simple defence, best first."""
    pile = pile_ranks(view)
    unseen = unseen_rank_counts(view)
    held = view.held_counts()
    floors = view.go_floors()
    out = []
    for card in distinct_by_rank(legal_cards(view)):
        after = pile + (card.rank,)
        count_after = view.count + card.value
        points = peg_points(after)
        held_after = list(held)
        held_after[view.seat] -= 1
        rest = [c for c in view.hand if c is not card]
        # Who can lay next: the first seat to the left that holds a card that fits.
        nxt = None
        if count_after < MAX_COUNT:
            for step in range(1, view.players + 1):
                seat = (view.seat + step) % view.players
                if seat == view.seat:
                    if any(c.value <= MAX_COUNT - count_after for c in rest):
                        nxt = seat
                    break
                if held_after[seat] > 0 and _may_fit(floors.get(seat, 1), count_after, unseen):
                    nxt = seat
                    break
        reply = 0.0
        if count_after == MAX_COUNT:
            pass
        elif nxt is None:
            points += 1  # nobody else can lay and we cannot either: the go (or last card)
        elif nxt != view.seat:
            chances = holding_chances(unseen, held_after[nxt], floors.get(nxt, 1))
            reply = _reply_expectation(reply_points(after), chances)
            if view.side_of(nxt) == view.side:
                reply = -reply  # a partner's points are ours
        # Hold low cards for later (they take goes and thirty-ones): lay high ones first.
        tie = 0.01 * card.value
        out.append(PlayCandidate(card, points - reply + tie, points, count_after, reply))
    out.sort(key=lambda c: -c.score)
    return out


def _may_fit(floor: int, count: int, unseen: list[int]) -> bool:
    """Could a seat whose cards are all worth ``floor`` or more lay on ``count``?"""
    room = MAX_COUNT - count
    return any(unseen[r] for r in range(1, 14) if floor <= VALUE[r] <= room)


def standard_play(view: SeatKnowledge) -> Card:
    return standard_candidates(view)[0].card
