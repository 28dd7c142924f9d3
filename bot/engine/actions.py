"""What a seat can do: cut the pack, lay away discards, play a card; with muggins, claim a count,
call muggins, or let a claim go; with the hold between deals, say it is ready for the next deal.

Go is not an action: a seat that cannot play is passed automatically.

>>> Discard([Card.parse("KH"), Card.parse("5C")])
Discard(5♣ K♥)
>>> action_from_dict(Play(Card.parse("7D")).to_dict())
Play(7♦)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_from_code

ActionData = dict[str, str | int | list[str]]
"""An action as plain JSON data: ``{"type": "play", "card": "7D"}``."""


@dataclass(frozen=True, slots=True)
class Cut:
    """Cut the pack ``depth`` cards deep; the top card of the lower part is turned."""

    depth: int

    def to_dict(self) -> ActionData:
        return {"type": "cut", "depth": self.depth}

    def __repr__(self) -> str:
        return f"Cut({self.depth})"


@dataclass(frozen=True, slots=True, init=False)
class Discard:
    """Lay away all of a seat's discards to the crib at once (kept sorted)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        object.__setattr__(self, "cards", tuple(sorted(cards)))

    def to_dict(self) -> ActionData:
        return {"type": "discard", "cards": [c.code for c in self.cards]}

    def __repr__(self) -> str:
        return f"Discard({' '.join(str(c) for c in self.cards)})"


@dataclass(frozen=True, slots=True)
class Play:
    """Lay one card in the play (pegging)."""

    card: Card

    def to_dict(self) -> ActionData:
        return {"type": "play", "card": self.card.code}

    def __repr__(self) -> str:
        return f"Play({self.card})"


@dataclass(frozen=True, slots=True)
class Claim:
    """Muggins: claim ``points`` for the hand (or crib) being counted now."""

    points: int

    def to_dict(self) -> ActionData:
        return {"type": "claim", "points": self.points}

    def __repr__(self) -> str:
        return f"Claim({self.points})"


@dataclass(frozen=True, slots=True)
class Muggins:
    """Muggins: take the points an opponent missed in every claim open to this seat."""

    def to_dict(self) -> ActionData:
        return {"type": "muggins"}

    def __repr__(self) -> str:
        return "Muggins()"


@dataclass(frozen=True, slots=True)
class LetGo:
    """Muggins: let the open claims stand (this seat will not call muggins on them); with a
    ``position``, only the claim of the count at that place in counting order (0 the pone's
    hand, ``players`` the crib)."""

    position: int | None = None

    def to_dict(self) -> ActionData:
        if self.position is None:
            return {"type": "let_go"}
        return {"type": "let_go", "position": self.position}

    def __repr__(self) -> str:
        return "LetGo()" if self.position is None else f"LetGo({self.position})"


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Between deals (with the hold on): this seat is ready for the next deal."""

    def to_dict(self) -> ActionData:
        return {"type": "next_deal"}

    def __repr__(self) -> str:
        return "NextDeal()"


Action = Cut | Discard | Play | Claim | Muggins | LetGo | NextDeal


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild an action stored with ``action.to_dict()``."""
    kind = data.get("type")
    if kind == "cut":
        return Cut(int(data["depth"]))
    if kind == "discard":
        return Discard(card_from_code(c) for c in data["cards"])
    if kind == "play":
        return Play(card_from_code(data["card"]))
    if kind == "claim":
        return Claim(int(data["points"]))
    if kind == "muggins":
        return Muggins()
    if kind == "let_go":
        position = data.get("position")
        return LetGo(None if position is None else int(position))
    if kind == "next_deal":
        return NextDeal()
    raise ValueError(f"Unknown action: {data!r}")
