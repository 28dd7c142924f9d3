"""The door of the session manager: a person's requests, checked for where they come from.

A click or a command reaches the bot with the ids it carries: the game's from the button's
custom id (which a modified client may forge), the server's and channel's from Discord. The
manager's own methods trust the game id they are given (the terminal and the manager's parts
call them); a request made by a person comes in through :meth:`GameSessionManager.at
<bot.sessions.GameSessionManager.at>`, which returns a :class:`Door` for the :class:`Place`
of the interaction. The door has the same request methods as the manager, and refuses, before
anything is read or written:

* a game id outside ``1 .. 2**63 - 1`` (SQLite's integers): ``UNKNOWN_GAME``, as for any game
  that does not exist; a user id outside it (no Discord account has one yet): ``NOT_SEATED``;
* a game of another server or channel than the request's: ``WRONG_CHANNEL``, "That button
  belongs to a game in another channel." (a lobby, a game, or for a rematch the ended game);
* any request from a server this process does not serve (the bot runs as several shard
  processes, and Discord sent this one to the wrong one): ``UNKNOWN_GAME``,
  :data:`OTHER_PROCESS`. Its games are not loaded here, so nothing here may touch them.

A game moved to a thread (:meth:`GameSessionManager.move_game
<bot.sessions.GameSessionManager.move_game>`) lives there: its moves, hand and forfeit are
taken only from the thread. A lobby request (join, leave, seat or free a computer, the variant,
cancel, start) is also let in from the channel of the game's lobby message, so a late click on
the lobby gets the manager's own answer ("This game has already started.").

>>> known_game_id(1), known_game_id(2**63 - 1), known_game_id(2**63), known_game_id(0)
(True, True, False, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from bot.engine import Action, Variant

from .views import GameView, Level, Outcome, PrivateView, Refusal, RefusalReason

if TYPE_CHECKING:
    from db.games import Games

    from .manager import GameSessionManager
    from .tables import Tables

Advice = TypeVar("Advice", covariant=True)
R = RefusalReason

MAX_GAME_ID = 2**63 - 1  # the largest integer SQLite stores
UNKNOWN_GAME = "I can't find that game."
ELSEWHERE = "That button belongs to a game in another channel."
OTHER_PROCESS = "Another of the bot's processes serves this server: please try again."


def known_game_id(game_id: object) -> bool:
    """Whether ``game_id`` can name a game at all (an int SQLite can store, from 1)."""
    return (
        isinstance(game_id, int) and not isinstance(game_id, bool) and 1 <= game_id <= MAX_GAME_ID
    )


@dataclass(frozen=True, slots=True)
class Place:
    """Where a request was made: the server (``None`` in a DM) and the channel."""

    guild_id: int | None
    channel_id: int


class Door(Generic[Advice]):
    """The manager's requests, made at ``where``: refused for a game that lives elsewhere."""

    def __init__(
        self, manager: GameSessionManager[Advice], tables: Tables, games: Games, where: Place
    ) -> None:
        self._manager = manager
        self._tables = tables
        self._games = games
        self.where = where

    def refuse(self, game_id: int, user_id: int, *, lobby: bool = False) -> Refusal | None:
        """Why a request of ``user_id`` on ``game_id`` made here is refused at once (``None``:
        let it in). A game that is not live is left to the manager (over, or unknown).
        ``lobby``: a lobby request, also let in from the channel of the lobby message."""
        if not known_game_id(game_id):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN_GAME)
        if not self._tables.owns(self.where.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(user_id):  # the same bounds: the store keeps players by id
            return Refusal(R.NOT_SEATED, "This account can't take a seat here.")
        s = self._tables.sessions.get(game_id)
        if s is None or s.guild_id != self.where.guild_id:
            return None if s is None else Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        channels = {s.channel_id}
        if lobby and "lobby" in s.messages:
            channels.add(s.messages["lobby"].channel_id)
        if self.where.channel_id not in channels:
            return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return None

    # ------------------------------------------------------------------ reading

    def private_view(self, game_id: int, user_id: int) -> PrivateView | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return self._manager.private_view(game_id, user_id)

    async def advise(self, game_id: int, user_id: int) -> Advice | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return await self._manager.advise(game_id, user_id)

    # ------------------------------------------------------------------ playing

    async def act(
        self, game_id: int, user_id: int, action: Action, *, step: int
    ) -> Outcome | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return await self._manager.act(game_id, user_id, action, step=step)

    async def forfeit(self, game_id: int, user_id: int) -> Outcome | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return await self._manager.forfeit(game_id, user_id)

    # ------------------------------------------------------------------ lobbies

    async def join(
        self, game_id: int, user_id: int, *, seat: int | None = None
    ) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.join(game_id, user_id, seat=seat)

    async def add_computer(
        self, game_id: int, user_id: int, level: Level = "standard", *, seat: int | None = None
    ) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.add_computer(game_id, user_id, level, seat=seat)

    async def leave(self, game_id: int, user_id: int) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.leave(game_id, user_id)

    async def remove_computer(self, game_id: int, user_id: int, seat: int) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.remove_computer(game_id, user_id, seat)

    async def set_variant(self, game_id: int, user_id: int, variant: Variant) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.set_variant(game_id, user_id, variant)

    async def cancel(self, game_id: int, user_id: int) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.cancel(game_id, user_id)

    async def start(
        self, game_id: int, user_id: int, *, first_dealer: int | None = None
    ) -> Outcome | Refusal:
        if refused := self.refuse(game_id, user_id, lobby=True):
            return refused
        return await self._manager.start(game_id, user_id, first_dealer=first_dealer)

    # ------------------------------------------------------------------ rematches

    async def rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        """A rematch of an ended game, asked where that game was played."""
        if refused := self.refuse(game_id, user_id):
            return refused
        if game_id not in self._tables.sessions:  # ended: where it was played is stored
            record = await self._games.load_game(game_id)
            if record is not None and (record.guild_id, record.channel_id) != (
                self.where.guild_id,
                self.where.channel_id,
            ):
                return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return await self._manager.rematch(game_id, user_id)

    async def accept_rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return await self._manager.accept_rematch(game_id, user_id)

    async def decline_rematch(self, game_id: int, user_id: int) -> GameView | Refusal:
        if refused := self.refuse(game_id, user_id):
            return refused
        return await self._manager.decline_rematch(game_id, user_id)
