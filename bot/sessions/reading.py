"""Reading: what callers look up about a table, live or ended, without playing on it.

The public view of a table (by game or by channel), a player's private view, the coach's view
of a seat (on a copy, in a thread), the stored ids of a game's public messages, and a game
rebuilt from its log for a replay. Nothing here changes a game; :meth:`Reading.set_message`
only records where a message of the game was sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.engine import Game, Variant
from db import MessageRef
from db.games import Games

from .door import known_game_id
from .history import Replay, build_replay, hold_of, rebuild
from .session import Session, seat_view
from .tables import Tables
from .views import GameStatus, GameView, PrivateView, Refusal, RefusalReason, level_of

T = TypeVar("T")
Advice = TypeVar("Advice", covariant=True)
R = RefusalReason


class Reading(Generic[Advice]):
    """The read side of the tables (and the coach, ``coach(game, seat)``, if there is one)."""

    def __init__(
        self, games: Games, tables: Tables, coach: Callable[[Game, int], Advice] | None
    ) -> None:
        self._games = games
        self._tables = tables
        self._coach = coach

    def view(self, game_id: int) -> GameView | None:
        """The public view of a live lobby or game (``None`` if not live)."""
        s = self._tables.sessions.get(game_id)
        return None if s is None else s.view()

    def game_in_channel(self, channel_id: int) -> GameView | None:
        """The open lobby or game of a channel, if any."""
        game_id = self._tables.by_channel.get(channel_id)
        return None if game_id is None else self.view(game_id)

    def live_games(self) -> list[GameView]:
        """Every live lobby and game, by game id."""
        sessions = self._tables.sessions
        return [sessions[game_id].view() for game_id in sorted(sessions)]

    def games_of(self, user_id: int) -> list[GameView]:
        """The live lobbies and games where this user holds a seat."""
        sessions = self._tables.sessions.values()
        return [s.view() for s in sessions if s.seat_of(user_id) is not None]

    def private_view(self, game_id: int, user_id: int) -> PrivateView | Refusal:
        """This user's hand, kept cards and legal actions, and the step to put on buttons
        (the same value as the ``hands`` of the last outcome)."""
        seated = self._seated(game_id, user_id)
        if isinstance(seated, Refusal):
            return seated
        s, _ = seated
        if s.game is None:
            return Refusal(R.NOT_STARTED, "The game hasn't started yet.")
        return s.hands()[user_id]

    async def consult(
        self, game_id: int, user_id: int, advisor: Callable[[Game, int], T]
    ) -> T | Refusal:
        """Ask ``advisor(game, seat)`` about this user's position (the coach), in a thread.

        The advisor gets a private copy of the game and must use only what that seat may know
        (``bot.ai`` builds a seat's view from it); the live game is never touched.
        """
        seated = self._seated(game_id, user_id)
        if isinstance(seated, Refusal):
            return seated
        s, seat = seated
        if s.game is None or s.status is not GameStatus.ACTIVE:
            return Refusal(R.NOT_STARTED, "There's no hand to advise on now.")
        return await asyncio.to_thread(advisor, s.game.copy(), seat)

    def _seated(self, game_id: int, user_id: int) -> tuple[Session, int] | Refusal:
        """The live table and this user's seat at it, or why not."""
        s = self._tables.sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        seat = s.seat_of(user_id)
        if seat is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        return s, seat

    async def advise(self, game_id: int, user_id: int) -> Advice | Refusal:
        """The coach's advice on this user's position (see :meth:`consult`)."""
        if self._coach is None:
            return Refusal(R.INVALID, "There's no coach at this table.")
        return await self.consult(game_id, user_id, self._coach)

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game (live or not), by kind."""
        s = self._tables.sessions.get(game_id)
        if s is not None:
            return dict(s.messages)
        if not known_game_id(game_id):
            return {}
        return await self._games.messages(game_id)

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the public message of ``kind`` (e.g. ``"lobby"``, ``"table"``) of a game."""
        if not known_game_id(game_id):
            return  # no such game: nothing to remember
        ref = MessageRef(channel_id, message_id)
        await self._games.set_message(game_id, kind, ref)
        s = self._tables.sessions.get(game_id)
        if s is not None:
            s.messages[kind] = ref
            s.changed()

    async def replay(self, game_id: int, *, allow_active: bool = False) -> Replay | Refusal:
        """A game rebuilt from its log, deal by deal (hands as dealt included).

        Only for games that have ended, unless ``allow_active`` (it reveals every hand).
        """
        record = await self._games.load_game(game_id) if known_game_id(game_id) else None
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if record.seed is None:
            return Refusal(R.NOT_STARTED, "That game never started, so there is nothing to replay.")
        if record.status == "active" and not allow_active:
            return Refusal(R.HIDDEN, "That game is still being played; replay it when it ends.")
        variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        actions = await self._games.load_actions(game_id)
        hold = hold_of(record.state)
        rebuilt = rebuild(variant, record.seed, record.first_dealer, actions, hold=hold)
        seats = tuple(
            seat_view(variant, r.seat, r.user_id, level_of(r.computer)) for r in record.seats
        )
        return build_replay(game_id, seats, rebuilt)
