"""The rules of the play on ranks alone: fast, for the computer players' searches.

Suits never matter in the play, so a card is its rank (1 ace .. 13 king) and a pile is the tuple
of ranks laid since the count was last reset. These are the engine's rules (:meth:`Game._play
<bot.engine.Game>`, :func:`~bot.engine.score_pegging`; docs/players/rules.md, "The play"),
checked equal to them on random deals by ``tests/engine/test_pegging_ranks.py``:

- a card may be laid when the count plus its value is at most :data:`MAX_COUNT`;
- the card laid pegs fifteen and thirty-one (2 each), a pair, pair royal or double pair royal
  (2, 6, 12) and a run of three or more among the last cards laid (:func:`pile_points`);
- after a card the turn passes to the first seat to the left that can lay (the seat that laid
  last); when nobody can, the last to lay pegs 1 (the go, or the last card), unless the count
  stands at 31, which already pegged; then the count is reset and the first seat to the left of
  the last to lay that still holds cards leads (:func:`after_lay`).

>>> pile_points((5, 10))  # fifteen
2
>>> pile_points((3, 5, 4))  # a run of three
3
>>> after_lay([(), (2,)], (10, 10, 10), 30, 0, 1)  # 31 for 2, then seat 1 leads
((), 0, 2, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

MAX_COUNT = 31
"""The count the cards laid may reach and never pass."""

VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Per rank (index 1 to 13; 0 is no card), what it adds to the count."""

GO = 1
"""What the last to lay pegs when nobody can lay on the count (the go, or the last card)."""

Hand = tuple[int, ...]
"""A seat's ranks, lowest first."""


def fits(rank: int, count: int) -> bool:
    """Whether a card of ``rank`` may be laid on ``count``."""
    return count + VALUE[rank] <= MAX_COUNT


def playable_ranks(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The distinct ranks of ``hand`` that may be laid on ``count``, lowest first."""
    room = MAX_COUNT - count
    return tuple(sorted({r for r in hand if VALUE[r] <= room}))


def pile_points(pile: Sequence[int]) -> int:
    """The points the last rank of ``pile`` pegs (the ranks laid since the count was reset):
    fifteen or thirty-one, then a pair or more of its rank, else the longest run it ends."""
    count = 0
    for r in pile:
        count += VALUE[r]
    points = 2 if count in (15, MAX_COUNT) else 0
    last = pile[-1]
    same = 1
    n = len(pile)
    while same < n and pile[-same - 1] == last:
        same += 1
    if same > 1:  # a pair or more: no tail ending in two of a rank is a run
        return points + (0, 0, 2, 6, 12)[same]
    # A run is a tail of distinct ranks: only tails within the longest such are tried.
    distinct = 0
    bits = 0
    for i in range(n - 1, -1, -1):
        bit = 1 << pile[i]
        if bits & bit:
            break
        bits |= bit
        distinct += 1
    for length in range(distinct, 2, -1):
        tail = pile[-length:]
        if max(tail) - min(tail) == length - 1:
            return points + length
    return points


def next_to_lay(hands: Sequence[Hand], turn: int, count: int) -> int | None:
    """After ``turn`` laid, leaving ``count``: the first seat to its left (``turn`` itself last)
    whose lowest card fits (``hands``: every seat's ranks, lowest first), or None (nobody can:
    the go, or the end of the play)."""
    if count >= MAX_COUNT:
        return None
    room = MAX_COUNT - count
    n = len(hands)
    for step in range(1, n + 1):
        seat = (turn + step) % n
        hand = hands[seat]
        if hand and VALUE[hand[0]] <= room:
            return seat
    return None


def leader(hands: Sequence[Hand], last: int) -> int | None:
    """After the count is reset: the first seat left of ``last`` (``last`` itself last) that
    still holds cards, or None (the play is over)."""
    n = len(hands)
    for step in range(1, n + 1):
        seat = (last + step) % n
        if hands[seat]:
            return seat
    return None


def after_lay(
    hands: Sequence[Hand],
    pile: tuple[int, ...],
    count: int,
    turn: int,
    rank: int,
    points_of: Callable[[tuple[int, ...]], int] = pile_points,
) -> tuple[tuple[int, ...], int, int, int | None]:
    """``turn`` lays ``rank`` on ``pile`` and ``count`` (``hands``: every seat's ranks after it,
    lowest first): the pile and count after it (reset when nobody can lay on), the points
    ``turn`` pegs (the card's, plus the go or the last card) and who lays next (None: the play
    is over). ``points_of``: :func:`pile_points`, or a memo of it."""
    pile = pile + (rank,)
    count += VALUE[rank]
    points = points_of(pile)
    nxt = next_to_lay(hands, turn, count)
    if nxt is not None:
        return pile, count, points, nxt
    if count < MAX_COUNT:
        points += GO
    return (), 0, points, leader(hands, turn)
