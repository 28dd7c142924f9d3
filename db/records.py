"""Plain records the store reads and writes. No engine types: the store knows rows, not rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

GameStatusText = Literal["lobby", "active", "finished", "abandoned", "cancelled"]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A taken seat: a Discord user (``user_id``) or a computer (``computer`` = its level)."""

    seat: int
    user_id: int | None = None
    computer: str | None = None
    team: int | None = None


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A public message the cogs keep editing (e.g. the lobby or the table message)."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game row with its seats, message ids and (once started) its latest snapshot."""

    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatusText
    players: int
    partnerships: bool
    target: int
    seed: int | None
    first_dealer: int | None
    host_id: int
    step: int
    created_at: float
    updated_at: float
    warned_at: float | None
    ended_at: float | None
    end_reason: str | None
    winner_side: int | None
    forfeit_seat: int | None
    seats: tuple[SeatRecord, ...] = ()
    messages: dict[str, MessageRef] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    snapshot_seq: int | None = None
    ready: tuple[int, ...] | None = None
    last_seq: int = 0  # the highest seq in the action log
    muggins: bool = False  # the variant's muggins flag (docs/players/muggins.md)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be created: a lobby (the host alone, or seated as a rematch) or a
    match's next game, started at once. :meth:`record` is the one place that builds the
    :class:`GameRecord` of a game just created.

    >>> host = SeatRecord(0, user_id=3)
    >>> lobby = NewGame(None, 2, 3, 2, False, 121, seats=(host,), first_dealer=None)
    >>> record = lobby.record(1, status="lobby", now=0.0)
    >>> record.status, record.seats, record.state, record.step
    ('lobby', (SeatRecord(seat=0, user_id=3, computer=None, team=None),), None, 0)
    """

    guild_id: int | None
    channel_id: int
    host_id: int
    players: int
    partnerships: bool
    target: int
    seats: tuple[SeatRecord, ...]
    first_dealer: int | None
    muggins: bool = False

    def record(
        self,
        game_id: int,
        *,
        status: Literal["lobby", "active"],
        now: float,
        seed: int | None = None,
        state: dict[str, Any] | None = None,
        ready: tuple[int, ...] | None = None,
    ) -> GameRecord:
        """The record of this game as just created (a lobby, or started with ``state``)."""
        return GameRecord(
            id=game_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            status=status,
            players=self.players,
            partnerships=self.partnerships,
            target=self.target,
            seed=seed,
            first_dealer=self.first_dealer,
            host_id=self.host_id,
            step=0,
            created_at=now,
            updated_at=now,
            warned_at=None,
            ended_at=None,
            end_reason=None,
            winner_side=None,
            forfeit_seat=None,
            seats=self.seats,
            state=state,
            snapshot_seq=0 if state is not None else None,
            ready=ready,
            muggins=self.muggins,
        )


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of the append-only action log."""

    game_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class DealPoints:
    """What one seat made in one deal (a delta when written, a total when read)."""

    deal: int
    seat: int
    pegging: int = 0
    hand: int = 0
    crib: int = 0
    heels: int = 0
    hand_value: int | None = None  # the shown hand's count (uncapped), once shown
    hand_cards: str | None = None  # e.g. "5H 5C 5S JD|5D" (hand | starter), once shown
    crib_value: int | None = None
    crib_cards: str | None = None


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How an ended game went for one seat (the store adds the point sums and best hand)."""

    seat: int
    side: int
    outcome: Literal["won", "lost", "forfeited", "abandoned"]
    final_score: int
    skunk_given: int = 0  # the worst skunk this seat's side inflicted: 0, 1 or 2 (double)
    skunk_taken: int = 0  # 0, 1 or 2 for this seat's side

    @property
    def won(self) -> bool:
        return self.outcome == "won"


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of a game: its final status, why, who won, and one :class:`SeatOutcome` per seat."""

    status: Literal["finished", "abandoned"]
    end_reason: Literal["won", "forfeit", "abandoned", "aborted"]  # aborted: stored as abandoned
    winner_side: int | None
    seats: tuple[SeatOutcome, ...]
    forfeit_seat: int | None = None


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """Everything one applied action makes durable, in one transaction."""

    game_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    state: dict[str, Any]
    ready: tuple[int, ...]
    at: float
    deal_points: tuple[DealPoints, ...] = ()
    finish: Finish | None = None


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """A row of ``results``."""

    game_id: int
    seat: int
    side: int
    outcome: str
    won: bool
    final_score: int
    skunk_given: int
    skunk_taken: int
    pegging: int
    hand: int
    crib: int
    heels: int
    best_hand: int | None
    best_hand_cards: str | None
