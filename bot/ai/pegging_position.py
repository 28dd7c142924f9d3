"""The position at a node of the expert's two pegging searches: one type for both.

The two-handed search (:mod:`bot.ai.pegging_search`) and the search with three or four players
(:mod:`bot.ai.pegging_search_multi`) walk a tree of *what the searching seat will see*: each
node is a :class:`Position` (what the seat knows there) and the worlds still consistent with it
(the hands the others may hold, each with a weight). The worlds are not part of the position:
they split at nearly every node (by the card each world's model lays, by who can follow) while
the position after a card is the same for all of them, so a search builds the next position
once per card laid and hands each group of worlds its share.

A search makes a position for every card laid in it, thousands a decision, so it is a class
with ``__slots__`` built positionally: in CPython 3.11 that is built faster than a
``NamedTuple`` (whose ``__new__`` is a Python function) and its fields are read as fast as local
names; a frozen dataclass is built several times slower. Its fields are ``Final``: the type
checker refuses a search that would change a position another branch still reads.

What else the two searches do alike (group the worlds by the card a model lays, pick the seat's
best card) stays in each: it runs once per world or per card in their inner loops, where a
call into a shared function measured slower than the loop written out; and their go rules
differ (:mod:`bot.ai.pegging_search_multi` says why their trees stay apart). The opponents'
model they share is :mod:`bot.ai.pegging_model`.
"""

from __future__ import annotations

from typing import Final

from .pegging_model import Unseen

Laid = tuple[tuple[int, int], ...]
"""(seat, rank) of each card laid since the search began, in order."""


class Position:
    """What the searching seat knows at a node of its search.

    ``me``: its unlaid ranks, lowest first. ``held``: per seat, how many cards it still holds
    (seats numbered as the search numbers them: the table's seats with three or four players;
    two-handed, 0 the searching seat and 1 its opponent). ``pile`` and ``count``: the ranks laid
    since the count was last reset, and their count. ``laid``: (seat, rank) of the cards laid
    since the search began; the two-handed search keeps it only for an ending, its only reader
    there (``()`` without one).

    ``unseen``: per rank, what the other seats' models start from: the cards no seat had been
    shown when the search began, less what the search has taken out as it went. Two-handed it
    takes out the seat's cards as they are laid, so it is the opponent's whole view (its own
    cards are not taken out). With three or four players it stays as it was at the root, and
    each seat's model takes out what the others laid (``laid``); it is ``()`` when every world
    carries each seat's own view instead.

    ``got``: per seat, the points made since the search began, which the two-handed search
    checks against an ending's needs; the multi-player search adds each card's points to its
    value as the card is laid, and keeps ``()``.
    """

    __slots__ = ("me", "held", "pile", "count", "unseen", "got", "laid")

    def __init__(
        self,
        me: tuple[int, ...],
        held: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        unseen: Unseen,
        got: tuple[int, ...],
        laid: Laid,
    ) -> None:
        self.me: Final = me
        self.held: Final = held
        self.pile: Final = pile
        self.count: Final = count
        self.unseen: Final = unseen
        self.got: Final = got
        self.laid: Final = laid

    def __repr__(self) -> str:
        return (
            f"Position(me={self.me}, held={self.held}, pile={self.pile}, count={self.count}, "
            f"got={self.got}, laid={self.laid})"
        )
