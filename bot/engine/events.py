"""What happened: the events ``Game.apply`` returns, automatic steps included.

Events are public facts. None of them carries a card that is still hidden: a deal says how many
cards each seat got, a discard how many were laid away; cards appear only when they are cut,
played, or counted in the show.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import Card
from .scoring import Breakdown


class ScoreReason(enum.Enum):
    """Why a side pegged points."""

    HEELS = "his heels"
    PLAY = "the play"  # what a card laid made: fifteen, thirty-one, pairs, runs
    GO = "go"
    LAST_CARD = "last card"
    HAND = "hand"
    CRIB = "crib"
    MUGGINS = "muggins"  # points an opponent missed in their count (docs/players/muggins.md)


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""


@dataclass(frozen=True, slots=True)
class CutForDeal(Event):
    """A seat cut this card in the cut for first deal."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CutTied(Event):
    """These seats cut equal lowest cards and cut again from a fresh shuffle."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """The cut for deal is decided: this seat deals first."""

    seat: int


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The dealer shuffled and dealt ``cards_each`` cards to every seat (deal ``number``)."""

    dealer: int
    number: int
    cards_each: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """A seat laid ``count`` cards away to the crib (face down)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class StarterCut(Event):
    """The pone (``seat``) cut the pack and the starter was turned."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A card was laid; ``count`` is the running count after it, ``breakdown`` what it made."""

    seat: int
    card: Card
    count: int
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class Go(Event):
    """A seat holding cards could not lay one without passing 31."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class CountReset(Event):
    """The count went back to 0 (after a go or 31); ``leader`` lays the next card."""

    leader: int | None


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """A hand (or, with ``crib``, the dealer's crib) was counted with the starter."""

    seat: int
    cards: tuple[Card, ...]
    starter: Card
    crib: bool
    breakdown: Breakdown


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    """Muggins: a seat claimed ``points`` for its hand (or, with ``crib``, the crib).

    Follows the :class:`Shown` of those cards. The true count stays private until the
    :class:`CountSettled` of this claim: a story shows the claim, not the breakdown.
    """

    seat: int
    points: int
    crib: bool


@dataclass(frozen=True, slots=True)
class MugginsCalled(Event):
    """Muggins: ``seat`` called muggins on the open claim, taking ``points`` (0: none missed)."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class CountSettled(Event):
    """Muggins: the window on ``seat``'s claim closed; its true count is public now.

    ``missed``: the points the claimer did not peg (taken by a muggins call, or lost);
    ``claimed``: the claim (above the count: an over-claim; None when not known).
    """

    seat: int
    crib: bool
    breakdown: Breakdown
    missed: int
    claimed: int | None = None


@dataclass(frozen=True, slots=True)
class ReadyForDeal(Event):
    """Between deals (with the hold on): ``seat`` is ready for the next deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """A side pegged ``points`` (seat ``seat`` made them); ``score`` is the side's new total."""

    seat: int
    side: int
    points: int
    reason: ScoreReason
    score: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """A side reached the target. ``skunks`` per side: 0 none, 1 skunk, 2 double skunk."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[int, ...]
