"""The shape of a game as the renderers read it: structural types, not a class to inherit.

The engine's :class:`~bot.engine.Game` has this shape, and so does any read-only view of a game
with the same names (the cogs render the session manager's public view through one), so the
renderers take plain values and import neither the session manager nor the store.

>>> from bot.engine import Game, Variant
>>> def dealer_of(game: PublicGame) -> int | None:
...     return game.dealer
>>> dealer_of(Game.new(Variant(), seed=7, first_dealer=1))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine import Card, Phase, Variant


class PublicGame(Protocol):
    """What every player at the table may see of a game (never a hidden card)."""

    @property
    def variant(self) -> Variant: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def deal_number(self) -> int: ...

    @property
    def dealer(self) -> int | None: ...

    @property
    def scores(self) -> Sequence[int]:
        """Per side."""
        ...

    @property
    def to_act(self) -> Sequence[int]:
        """The seats that must act now."""
        ...

    @property
    def count(self) -> int: ...

    @property
    def pile(self) -> Sequence[Card]:
        """The cards laid since the count was last reset, in order."""
        ...

    @property
    def starter(self) -> Card | None: ...

    @property
    def winner(self) -> int | None:
        """The winning side, once the game is over."""
        ...


class SeatGame(PublicGame, Protocol):
    """A game as one seat sees it: the public facts and that seat's own cards.

    PRIVATE: whatever reads ``hand`` or ``kept`` belongs in that player's ephemeral message.
    """

    def hand(self, seat: int) -> Sequence[Card]:
        """The cards ``seat`` still holds."""
        ...

    def kept(self, seat: int) -> Sequence[Card]:
        """The cards ``seat`` kept for this deal's show (empty before its discard)."""
        ...
