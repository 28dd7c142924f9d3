"""The summary of a finished game: where each side's points came from, and how its cards ran.

Everything is read from the replay's events (the engine's own record of the game): the points
by :class:`~bot.engine.ScoreReason`, the shows counted, the biggest single peg; and from the
hands as dealt, what they were worth (:mod:`bot.ai.luck`). Nothing here is hidden once a game
has ended.

>>> SKUNK_NEAR
10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.luck import METHOD, average_for, dealt_value
from bot.engine import (
    Card,
    Played,
    Scored,
    ScoreReason,
    Shown,
    StarterCut,
    Variant,
)

from .history import Replay, ReplayStep

PEGGING_REASONS = (ScoreReason.HEELS, ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)
SKUNK_NEAR = 10
"""A skunk line matters when a losing side ended below it or less than this many points above."""


@dataclass(frozen=True, slots=True)
class BestHand:
    """The best show of a side: its four cards (the crib's with ``crib``) and the starter."""

    points: int
    cards: tuple[Card, ...]
    starter: Card
    crib: bool
    seat: int
    deal: int


@dataclass(frozen=True, slots=True)
class BiggestPeg:
    """The most points pegged at once: a card laid (``PLAY``), a go, the last card, his heels.

    ``card``: the card laid that made them (for a go or the last card, the last card laid; for
    his heels, the starter); ``count``: the count after it (``None`` for his heels).
    """

    points: int
    seat: int
    deal: int
    reason: ScoreReason
    card: Card | None
    count: int | None


@dataclass(frozen=True, slots=True)
class Luck:
    """How the cards ran for a side: the expected value of the hands it was dealt (each played
    with its best discard) against the average for the same positions (:mod:`bot.ai.luck`)."""

    expected: float
    average: float
    hands: int

    @property
    def difference(self) -> float:
        """Above the average (good cards) when positive."""
        return self.expected - self.average

    @property
    def per_hand(self) -> float:
        return self.difference / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class SideSummary:
    side: int
    seats: tuple[int, ...]
    score: int
    won: bool
    pegging: int
    """His heels, the play, goes and last cards."""
    hand: int
    crib: int
    muggins: int
    """Points taken from the others' counts (muggins games)."""
    best_hand: BestHand | None
    biggest_peg: BiggestPeg | None
    luck: Luck
    skunk: int
    """0 none, 1 skunked, 2 double skunked."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: int
    variant: Variant
    sides: tuple[SideSummary, ...]
    winner: int | None
    deals: int
    skunk_lines: tuple[int, ...]
    """The skunk lines that matter, highest first (see :data:`SKUNK_NEAR`); else empty."""
    luck_method: str


@dataclass(slots=True)
class _Tally:
    points: dict[ScoreReason, int]
    best_hand: BestHand | None = None
    biggest_peg: BiggestPeg | None = None
    expected: float = 0.0
    average: float = 0.0
    hands: int = 0


def summarize(replay: Replay) -> GameSummary:
    """The summary of ``replay`` (a game that has ended; see the module doc)."""
    variant = replay.variant
    tallies = [_Tally({reason: 0 for reason in ScoreReason}) for _ in range(variant.sides)]
    scores = [0] * variant.sides
    _count(tallies, scores, replay.opening, variant, 0)
    for deal in replay.deals:
        _count(tallies, scores, deal.steps, variant, deal.number)
        for seat, hand in enumerate(deal.hands):
            side = variant.side_of(seat)
            own = variant.side_of(deal.dealer) == side
            tally = tallies[side]
            tally.expected += dealt_value(
                hand, own=own, players=variant.players, partnerships=variant.partnerships
            )
            tally.average += average_for(variant.players, variant.partnerships, own)
            tally.hands += 1
    skunks = variant.skunks(replay.scores, replay.winner)
    sides = tuple(
        SideSummary(
            side=side,
            seats=tuple(variant.seats_of(side)),
            score=replay.scores[side],
            won=replay.winner == side,
            pegging=sum(t.points[r] for r in PEGGING_REASONS),
            hand=t.points[ScoreReason.HAND],
            crib=t.points[ScoreReason.CRIB],
            muggins=t.points[ScoreReason.MUGGINS],
            best_hand=t.best_hand,
            biggest_peg=t.biggest_peg,
            luck=Luck(t.expected, t.average, t.hands),
            skunk=skunks[side],
        )
        for side, t in enumerate(tallies)
    )
    return GameSummary(
        game_id=replay.game_id,
        variant=variant,
        sides=sides,
        winner=replay.winner,
        deals=len(replay.deals),
        skunk_lines=skunk_lines(variant, replay.scores, replay.winner),
        luck_method=METHOD,
    )


def skunk_lines(variant: Variant, scores: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """The lines a losing side ended below, or less than :data:`SKUNK_NEAR` points above.

    >>> skunk_lines(Variant(), (121, 95), 0), skunk_lines(Variant(), (121, 55), 0)
    ((91,), (91, 61))
    >>> skunk_lines(Variant(target=61), (45, 61), 1), skunk_lines(Variant(), (121, 110), 0)
    ((), ())
    """
    if winner is None:
        return ()
    lines = [variant.skunk_line]
    if variant.double_skunk_line is not None:
        lines.append(variant.double_skunk_line)
    losers = [score for side, score in enumerate(scores) if side != winner]
    return tuple(line for line in lines if any(score < line + SKUNK_NEAR for score in losers))


def _count(
    tallies: list[_Tally],
    scores: list[int],
    steps: Sequence[ReplayStep],
    variant: Variant,
    deal: int,
) -> None:
    """Add the points, shows and pegs of ``steps`` (one deal's) to the sides' tallies.

    The points by kind are those that went on the board (``scores``: each side's so far): the
    count that takes a side past the target adds only what it needed, so they add up to the
    score; the best hand and the biggest peg are what was made."""
    last: Played | None = None
    starter: Card | None = None
    for step in steps:
        for event in step.events:
            if isinstance(event, StarterCut):
                starter = event.card
            elif isinstance(event, Played):
                last = event
            elif isinstance(event, Shown):
                tally = tallies[variant.side_of(event.seat)]
                points = event.breakdown.total
                if tally.best_hand is None or points > tally.best_hand.points:
                    tally.best_hand = BestHand(
                        points, tuple(event.cards), event.starter, event.crib, event.seat, deal
                    )
            elif isinstance(event, Scored):
                tally = tallies[event.side]
                tally.points[event.reason] += event.score - scores[event.side]
                scores[event.side] = event.score
                if event.reason in PEGGING_REASONS:
                    peg = tally.biggest_peg
                    if peg is None or event.points > peg.points:
                        heels = event.reason is ScoreReason.HEELS
                        card = starter if heels else (last.card if last else None)
                        count = None if heels or last is None else last.count
                        tally.biggest_peg = BiggestPeg(
                            event.points, event.seat, deal, event.reason, card, count
                        )
