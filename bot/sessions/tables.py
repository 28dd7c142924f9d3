"""The live tables: every open lobby and game by id and by channel, and what happens to them.

A table may move to another channel (:meth:`Tables.move`: a thread opened for the game).

When the bot runs as several processes (one per set of gateway shards), each serves the
servers it *owns* (:attr:`Tables.owns`): it loads, sweeps and answers only their tables, and
refuses a request from another server (:data:`~.guard.OTHER_PROCESS`: Discord sends those to
the other process). When ``owns`` is a shard set's, the database picks the tables to load
(:attr:`Tables.shards`, :meth:`db.games.Games.load_active_games`).

A *table* is one lobby or game in a channel. :class:`Tables` holds the live ones (a channel
holds at most one, or is *held* while a table is being set up in it), stamps their activity
with the manager's clock, and answers for a table that is not live (missing or over).

:class:`TableEvents` is how the parts hear of each other's work without knowing each other:
the part that does a thing calls the listeners the manager subscribed (see
:class:`~bot.sessions.GameSessionManager`):

* ``registered(session)``: a table became live (opened, loaded at resume, or started by a match);
* ``started(session)``: a lobby's game started (its computers have moved);
* ``lobby_closed(session)``: a lobby was cancelled or abandoned;
* ``ended(session, finish)``: a game ended (won, forfeited or abandoned);
* ``follow(outcome)``: every outcome a part hands back passes through it, once the game's lock
  is released (the matches start the next game of a match there: ``outcome.next_game``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field

from db import Conflict, Finish
from db.games import Games

from .requests import known_game_id
from .session import Session
from .views import GameStatus, GameView, Outcome, Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason
CHANNEL_TAKEN = "That channel already has a cribbage game."
Clock = Callable[[], float]
Owns = Callable[[int | None], bool]
"""``owns(guild_id)``: whether this process serves that server's tables (``None``: a DM)."""


def everything(guild_id: int | None) -> bool:
    """One process serves every server (the default)."""
    return True


def shards_of(owns: Owns) -> tuple[int, tuple[int, ...]] | None:
    """``(shard_count, shard_ids)`` when ``owns`` is the ``owns`` method of a shard set (an
    object with an int ``count`` and a tuple of int ``ids``, as :class:`bot.app.shards.Shards`):
    the database then picks the games of the owned servers itself. ``None`` for any other
    ``owns`` (every game is loaded and ``owns`` picks).

    >>> class Two:
    ...     count, ids = 2, (1,)
    ...     def owns(self, guild_id): return True
    >>> shards_of(Two().owns), shards_of(everything)
    ((2, (1,)), None)
    """
    shards = getattr(owns, "__self__", None)
    count, ids = getattr(shards, "count", None), getattr(shards, "ids", None)
    if isinstance(count, int) and isinstance(ids, tuple) and all(isinstance(i, int) for i in ids):
        return count, ids
    return None


async def _unchanged(outcome: Outcome) -> Outcome:
    return outcome


@dataclass(slots=True)
class TableEvents:
    """The listeners of each table event, called in the order they were subscribed."""

    registered: list[Callable[[Session], None]] = field(default_factory=list)
    started: list[Callable[[Session], Awaitable[None]]] = field(default_factory=list)
    lobby_closed: list[Callable[[Session], Awaitable[None]]] = field(default_factory=list)
    ended: list[Callable[[Session, Finish], None]] = field(default_factory=list)
    follow: Callable[[Outcome], Awaitable[Outcome]] = _unchanged

    async def follow_all(self, outcomes: Iterable[Outcome]) -> list[Outcome]:
        """Every outcome after :attr:`follow`, in order."""
        return [await self.follow(o) for o in outcomes]


class Tables:
    """The live lobbies and games (see the module docstring).

    ``clock`` is the manager's clock, read by every part through :meth:`now`; ``owns``, which
    servers' tables this process serves (default: all).
    """

    def __init__(self, games: Games, clock: Clock, owns: Owns | None = None) -> None:
        self._games = games
        self.clock = clock
        self.owns: Owns = owns or everything
        #: ``(shard_count, shard_ids)`` behind ``owns`` (:func:`shards_of`), or ``None``.
        self.shards = shards_of(self.owns)
        self.events = TableEvents()
        self.sessions: dict[int, Session] = {}
        self.by_channel: dict[int, int] = {}
        self.held: set[int] = set()  # channels where a table is being set up (or a match's next)

    def now(self) -> float:
        return self.clock()

    def touch(self, s: Session) -> float:
        """Someone did something at ``s``: it is not idle (any idle warning is forgotten)."""
        s.updated_at, s.warned_at = self.clock(), None
        return s.updated_at

    # ------------------------------------------------------------------ channels

    def busy(self, channel_id: int) -> bool:
        """The channel has a live table, or one is being set up in it."""
        return channel_id in self.by_channel or channel_id in self.held

    @contextlib.contextmanager
    def holding(self, channel_id: int) -> Iterator[None]:
        """Hold the channel while a table is set up in it (released on the way out)."""
        self.held.add(channel_id)
        try:
            yield
        finally:
            self.held.discard(channel_id)

    # ------------------------------------------------------------------ live tables

    def register(self, s: Session) -> None:
        """``s`` is live: findable by id and by channel. Tells the ``registered`` listeners."""
        self.sessions[s.id] = s
        self.by_channel[s.channel_id] = s.id
        for listener in self.events.registered:
            listener(s)

    async def move(self, game_id: int, channel_id: int) -> GameView | Refusal:
        """The live table ``game_id`` now lives in ``channel_id`` (a thread of its channel):
        stored, found there by channel, and its old channel free for another table. Its
        message ids stay (the lobby message is still in the old channel)."""
        s = self.sessions.get(game_id)
        if s is None:
            return await self.missing(game_id)
        async with s.lock:
            if not s.status.is_open:
                return over(s.status)
            if s.channel_id == channel_id:
                return s.view()
            if self.busy(channel_id):
                return Refusal(R.CHANNEL_BUSY, CHANNEL_TAKEN)
            try:
                await self._games.move_channel(s.id, channel_id)
            except Conflict:
                return Refusal(R.CHANNEL_BUSY, CHANNEL_TAKEN)
            if self.by_channel.get(s.channel_id) == s.id:
                del self.by_channel[s.channel_id]
            log.info("game %d: moved from channel %d to %d", s.id, s.channel_id, channel_id)
            s.channel_id = channel_id
            self.by_channel[channel_id] = s.id
            s.changed()
            return s.view()

    def unregister(self, s: Session) -> None:
        self.sessions.pop(s.id, None)
        if self.by_channel.get(s.channel_id) == s.id:
            del self.by_channel[s.channel_id]

    # ------------------------------------------------------------------ tables not live

    async def missing(self, game_id: int) -> Refusal:
        """The refusal for a request on a game that is not live (unknown, or over)."""
        if not known_game_id(game_id):  # no such game can exist: nothing to look up
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        status = await self._games.game_status(game_id)
        if status is None or status in ("lobby", "active"):
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        return over(GameStatus(status))


def over(status: GameStatus) -> Refusal:
    """The refusal for a request on a game that has ended (``status``)."""
    text = {
        GameStatus.FINISHED: "This game is over.",
        GameStatus.ABANDONED: "This game was abandoned.",
        GameStatus.CANCELLED: "This game was cancelled.",
    }[status]
    return Refusal(R.GAME_OVER, text)
