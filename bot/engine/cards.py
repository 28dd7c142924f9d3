"""Playing cards: the 52-card pack, ranks A(1)..K(13), four suits.

>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("as")), Card.parse("QD").value
('A♠', 10)
>>> sorted([Card.parse("5S"), Card.parse("5C"), Card.parse("AH")])
[Card.parse('AH'), Card.parse('5C'), Card.parse('5S')]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import total_ordering


class Suit(enum.IntEnum):
    """The four suits, in bridge order (used only to sort cards of equal rank)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "CDHS"[self]


RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_FROM_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_RANK_FROM_TEXT.update({str(n): n for n in range(2, 11)})
_SUIT_FROM_TEXT = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}
# Some keyboards emit the outlined (white) suit symbols.
_SUIT_FROM_TEXT |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}


def rank_name(rank: int) -> str:
    """'A', '2' … '10', 'J', 'Q', 'K'."""
    return RANK_NAMES.get(rank, str(rank))


@total_ordering  # <=, >, >= from < and == (a sort asks only <)
@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """An immutable playing card. Cards sort by rank, then suit.

    Cards are compared, sorted and hashed by their ``index`` alone (one int: rank, then suit),
    not by the dataclass's tuple of fields, whose hash goes through the suit enum's Python-level
    ``__hash__``: scoring, legality checks and replays hash and sort cards millions of times.
    """

    rank: int
    suit: Suit
    code: str = field(init=False, repr=False)
    """A plain-ASCII code that ``Card.parse`` reads back, e.g. ``'10H'`` (computed once)."""
    index: int = field(init=False, repr=False)
    """0..51, unique per card (useful as a compact key): ``(rank - 1) * 4 + suit``."""
    value: int = field(init=False, repr=False)
    """The counting value: ace 1, pips at face value, J Q K 10."""

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise ValueError(f"A card's rank is 1 (ace) to 13 (king), not {self.rank!r}")
        if not isinstance(self.suit, Suit):
            object.__setattr__(self, "suit", Suit(self.suit))
        object.__setattr__(self, "code", rank_name(self.rank) + self.suit.letter)
        object.__setattr__(self, "index", (self.rank - 1) * 4 + int(self.suit))
        object.__setattr__(self, "value", min(self.rank, 10))

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.index == other.index
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index < other.index
        return NotImplemented

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``"10H"``, ``"as"``, ``"QD"``, ``"5♠"`` or ``"TC"``."""
        if not isinstance(text, str):
            raise ValueError(f"Not a card: {text!r}")
        cleaned = text.strip().upper()
        rank = _RANK_FROM_TEXT.get(cleaned[:-1])
        suit = _SUIT_FROM_TEXT.get(cleaned[-1:])
        if rank is None or suit is None:
            raise ValueError(f"Not a card: {text!r} (write rank then suit, like 10H, AS, QD or 5♠)")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return FULL_PACK[index]

    def __str__(self) -> str:
        return rank_name(self.rank) + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


FULL_PACK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in Suit)
"""The 52 cards in order of ``Card.index``."""


def new_pack() -> list[Card]:
    """A fresh, ordered 52-card pack (shuffle it yourself)."""
    return list(FULL_PACK)


def parse_cards(text: str) -> list[Card]:
    """Read several cards separated by spaces or commas: ``parse_cards("5H 5C JD")``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


_BY_CODE: dict[str, Card] = {card.code: card for card in FULL_PACK}


def card_from_code(code: str) -> Card:
    """Fast inverse of ``Card.code`` for stored data (falls back to ``Card.parse``)."""
    card = _BY_CODE.get(code)
    return card if card is not None else Card.parse(code)
