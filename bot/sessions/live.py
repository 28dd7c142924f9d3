"""The live tables, read-only: what callers (and tests) may look at without touching a game.

``manager.live`` is a :class:`~collections.abc.Mapping` from game id to a frozen
:class:`TableView` (a copy of the engine's game included: hidden cards and all, so it is for
tests and tools, never for a channel), and it answers the public questions about the live tables:
:meth:`LiveTables.view`, :meth:`~LiveTables.in_channel`, :meth:`~LiveTables.games`,
:meth:`~LiveTables.games_in`, :meth:`~LiveTables.games_of`. Nothing read here can change a live
table.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from bot.engine import Game

from .tables import Tables
from .views import GameStatus, GameView


@dataclass(frozen=True, slots=True)
class TableView:
    """A live table as its record stands now: ``game`` is a private copy of the engine's game
    (``None`` in a lobby), ``step`` the last committed step, ``ready`` the step since which
    each seat's buttons are current, ``updated_at`` its last activity on the manager's clock."""

    game_id: int
    status: GameStatus
    step: int
    ready: tuple[int, ...]
    updated_at: float
    game: Game | None


class LiveTables(Mapping[int, TableView]):
    """The live lobbies and games by id, read-only (see the module docstring)."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables

    def __getitem__(self, game_id: int) -> TableView:
        s = self._tables.sessions[game_id]
        game = None if s.game is None else s.game.copy()
        return TableView(s.id, s.status, s.step, s.ready, s.updated_at, game)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._tables.sessions))

    def __len__(self) -> int:
        return len(self._tables.sessions)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._tables.sessions

    @property
    def held(self) -> frozenset[int]:
        """The channels held while a table is set up in them (or between games of a match)."""
        return frozenset(self._tables.held)

    def view(self, game_id: int) -> GameView | None:
        """The public view of a live lobby or game (``None`` if not live)."""
        s = self._tables.sessions.get(game_id)
        return None if s is None else s.view()

    def in_channel(self, channel_id: int) -> GameView | None:
        """The open lobby or game of a channel, if any."""
        game_id = self._tables.by_channel.get(channel_id)
        return None if game_id is None else self.view(game_id)

    def games(self) -> list[GameView]:
        """Every live lobby and game, by game id."""
        sessions = self._tables.sessions
        return [sessions[game_id].view() for game_id in sorted(sessions)]

    def games_in(self, guild_id: int | None) -> list[GameView]:
        """The live lobbies and games of one server, by game id (a caller finds there, say,
        the games in the threads of a channel: which channel a thread hangs from is Discord's
        to know, not the manager's)."""
        sessions = self._tables.sessions
        return [
            sessions[game_id].view()
            for game_id in sorted(sessions)
            if sessions[game_id].guild_id == guild_id
        ]

    def games_of(self, user_id: int) -> list[GameView]:
        """The live lobbies and games where this user holds a seat."""
        sessions = self._tables.sessions.values()
        return [s.view() for s in sessions if s.seat_of(user_id) is not None]
