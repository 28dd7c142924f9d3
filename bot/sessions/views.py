"""What the session manager hands to its callers: read-only views, outcomes and refusals.

Everything here is a frozen value: a cog can keep it, render it and pass it around without
ever changing a live game. :class:`GameView` and an :class:`Outcome`'s events hold only what
every player at the table may see; a player's own cards come from :class:`PrivateView` (one per
person in ``Outcome.hands``, each for its own user's eyes only).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal, cast

from bot.ai.config import LEVELS as AI_LEVELS
from bot.engine import Action, Card, Event, Phase, Variant
from db import MessageRef, PlayerSettings
from db.settings import ServerSettings

from .matchplay import MatchView

log = logging.getLogger("bot.sessions")

Level = Literal["easy", "standard", "expert"]
LEVELS = cast(tuple[Level, ...], tuple(level.value for level in AI_LEVELS))
"""The computer levels (:class:`bot.ai.Level`), as the stored names ``Level`` types."""


def level_of(computer: str | None) -> Level | None:
    """The level of a computer seat as the store keeps it (text), ``None`` for a person.

    >>> level_of("expert"), level_of(None)
    ('expert', None)

    Levels are checked when a computer sits down, so any other text comes from a database
    written by something else: that computer plays at ``"standard"``.
    """
    if computer is None:
        return None
    for level in LEVELS:
        if computer == level:
            return level
    log.warning("unknown computer level %r; playing at 'standard'", computer)
    return "standard"


class GameStatus(enum.Enum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """A lobby or a game in progress (it holds its channel)."""
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


class RefusalReason(enum.Enum):
    """Why the manager said no; the matching :class:`Refusal` carries a message for the user."""

    UNKNOWN_GAME = "unknown game"
    GAME_OVER = "game over"
    NOT_STARTED = "not started"
    ALREADY_STARTED = "already started"
    NOT_SEATED = "not seated"
    STALE = "stale"
    NOT_YOUR_TURN = "not your turn"
    ILLEGAL = "illegal"
    NOT_HOST = "not host"
    CHANNEL_BUSY = "channel busy"
    ALREADY_SEATED = "already seated"
    LOBBY_FULL = "lobby full"
    SEAT_TAKEN = "seat taken"
    SEATS_EMPTY = "seats empty"
    INVALID = "invalid"
    HIDDEN = "hidden"
    WRONG_CHANNEL = "wrong channel"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the manager turned down; nothing changed. Show ``message`` to that user only."""

    reason: RefusalReason
    message: str
    ok: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """Who sits in a seat: a Discord user, or a computer of some level."""

    seat: int
    user_id: int | None
    level: Level | None
    side: int

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameView:
    """A public, read-only snapshot of a lobby or game (no hidden card is in it).

    ``seats`` has one entry per seat of the variant (``None`` = still empty in a lobby).
    The engine fields (``phase`` … ``skunks``) describe the game once it has started.
    """

    game_id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    variant: Variant
    host_id: int
    step: int
    seats: tuple[SeatView | None, ...]
    messages: Mapping[str, MessageRef]
    phase: Phase | None = None
    dealer: int | None = None
    pone: int | None = None
    deal_number: int = 0
    scores: tuple[int, ...] = ()
    to_act: tuple[int, ...] = ()
    count: int = 0
    pile: tuple[Card, ...] = ()
    played: tuple[tuple[int, Card], ...] = ()
    starter: Card | None = None
    hand_sizes: tuple[int, ...] = ()
    cut_cards: tuple[tuple[int, Card], ...] = ()
    winner: int | None = None
    skunks: tuple[int, ...] = ()
    end_reason: str | None = None
    match: MatchView | None = None  # the match this game belongs to (best of 3 or 5)
    # muggins (docs/players/muggins.md): the seat whose claim is open to a muggins call (None:
    # no window), whether that claim is for the crib, and the opponent seats that may still call
    # or pass
    muggins_claimer: int | None = None
    muggins_crib: bool = False
    muggins_waiting: tuple[int, ...] = ()
    # the seat whose count is next in the show (None: every count is claimed, or no show); it
    # may claim now unless the game's rules make it wait for a window (then it is not to act)
    muggins_counter: int | None = None
    # between deals (Phase.NEXT_DEAL, the seats not ready yet in ``to_act``): the deal just
    # shown, public now: each seat's four kept cards, and the crib
    shown_kept: tuple[tuple[Card, ...], ...] = ()
    shown_crib: tuple[Card, ...] = ()
    ok: ClassVar[bool] = True

    @property
    def user_ids(self) -> tuple[int, ...]:
        """The Discord users seated, in seat order."""
        return tuple(s.user_id for s in self.seats if s is not None and s.user_id is not None)

    @property
    def to_act_users(self) -> tuple[int, ...]:
        """The Discord users who must act now."""
        return tuple(u for seat in self.to_act if (u := self.seat_user(seat)) is not None)

    @property
    def is_full(self) -> bool:
        return all(s is not None for s in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user holds, or ``None``."""
        for s in self.seats:
            if s is not None and s.user_id == user_id:
                return s.seat
        return None

    def seat_user(self, seat: int) -> int | None:
        """The Discord user in ``seat`` (``None`` for a computer or an empty seat)."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return None if s is None else s.user_id


@dataclass(frozen=True, slots=True)
class StepEvent:
    """An engine event, tagged with the step (action number) that produced it.

    ``automatic``: the manager made that step for a person without their click: their last
    card (or only legal card) laid by itself, or their Next deal after the pause between deals
    (or at once when the server's pause is 0). A computer's moves and the moves the turn timers
    make for a person out of time (see ``Outcome.timeouts``) are not automatic.
    """

    step: int
    event: Event
    automatic: bool = False


@dataclass(frozen=True, slots=True)
class Finished:
    """How a game ended: ``reason`` is ``'won'``, ``'forfeit'``, ``'abandoned'`` or
    ``'aborted'`` (a forfeit before the first show: not rated)."""

    reason: Literal["won", "forfeit", "abandoned", "aborted"]
    winner_sides: tuple[int, ...]
    winner_users: tuple[int, ...]
    scores: tuple[int, ...]
    skunks: tuple[int, ...]
    forfeit_seat: int | None = None


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A player's turn ran out (see :meth:`~bot.sessions.timers.TurnTimers.sweep`).

    ``step``: the move the computer made for them (``None`` when they forfeited instead);
    ``expiries``: how many of their turns have run out in this game, this one included;
    ``forfeit_after``: how many make them forfeit.
    """

    seat: int
    user_id: int
    step: int | None
    expiries: int
    forfeit_after: int

    @property
    def forfeited(self) -> bool:
        return self.step is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a successful request did, once it is durable.

    ``events``: every engine event in order, the computer moves it triggered included;
    ``to_act_users``: who must act now; ``finished``: set when the game ended;
    ``timeouts``: players whose time ran out, in the order their moves were made for them;
    ``next_game``: the next game of a match, started as soon as this one ended;
    ``hands``: the :class:`PrivateView` of every person seated, by user id, as
    ``private_view`` gives it after this request (private: show each one to its own user
    only; left out of ``repr`` so that no log line shows a hand);
    ``settings``: the settings of the game's server; ``players``: the :class:`PlayerSettings`
    of every person seated, by user id (``notify``: whether they may be pinged).
    """

    game_id: int
    events: tuple[StepEvent, ...]
    step: int
    view: GameView
    to_act_users: tuple[int, ...]
    finished: Finished | None = None
    timeouts: tuple[TimedOut, ...] = ()
    next_game: Outcome | None = None
    hands: Mapping[int, PrivateView] = field(kw_only=True, repr=False)
    settings: ServerSettings = field(kw_only=True)
    players: Mapping[int, PlayerSettings] = field(kw_only=True, default_factory=dict)
    ok: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PrivateView:
    """One player's own view: their cards, what they may do, and the step to put on buttons."""

    game_id: int
    seat: int
    step: int
    phase: Phase
    hand: tuple[Card, ...]
    kept: tuple[Card, ...]
    legal_actions: tuple[Action, ...]  # empty once the game has ended
    must_act: bool
    counting: tuple[Card, ...] = ()  # muggins: the cards this seat must count now (hand or crib)
    counting_crib: bool = False
    ok: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class IdleWarning:
    """A game idle for a while: warn these users that it will be abandoned at ``abandon_at``."""

    game_id: int
    channel_id: int
    user_ids: tuple[int, ...]
    idle_since: float
    abandon_at: float


@dataclass(frozen=True, slots=True)
class SweepReport:
    """What :meth:`~bot.sessions.idle.IdleSweep.sweep` did: warnings to send, games it ended, and
    computer moves it made in games that were waiting on a computer."""

    warnings: tuple[IdleWarning, ...] = ()
    abandoned: tuple[Outcome, ...] = ()
    resumed: tuple[Outcome, ...] = ()


@dataclass(frozen=True, slots=True)
class ResumeReport:
    """What :meth:`GameSessionManager.resume` loaded and checked.

    ``verified``: games whose snapshot matched a replay of their log; ``repaired``: games whose
    snapshot did not (the log wins, the snapshot was rewritten); ``unreplayable``: games whose
    log could not be replayed (kept as the snapshot says); ``outcomes``: computer moves made
    for games that were waiting on a computer.
    """

    lobbies: int
    active: int
    verified: tuple[int, ...]
    repaired: tuple[int, ...]
    unreplayable: tuple[int, ...]
    outcomes: tuple[Outcome, ...]
