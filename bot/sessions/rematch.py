"""Rematches: the same table again, dealt first by the loser, once everyone has said yes.

:meth:`RematchLobbies.ask` — a player of an ended game asks for a rematch, where it was played:

* a lobby opens in the same channel with **every seat as it was** (people and computers, same
  variant; the same match length when the game ended a match), the clicker as its host;
* its first dealer is planned: the loser of a two-handed game (``Game.next_first_dealer``; after
  a forfeit, the one who forfeited), with more players the player to the left of the last
  game's first dealer; a game that never got past the cut for deal cuts again;
* the clicker has accepted by asking; every other **person** seated accepts with
  :meth:`~RematchLobbies.accept` (computers always do). The game starts by itself as soon as
  the last one accepts — at once when the clicker is the only person at the table;
* any of them may :meth:`~RematchLobbies.decline` (or leave the lobby): the rematch is called
  off (the lobby is cancelled).

Refused: people who did not play that game, a game still being played (or one whose match
goes on), and a channel that already has a lobby or game. Acceptances are stored, so a
rematch lobby survives a restart like any lobby (and is abandoned like one when left idle).
The lobbies waiting for their players are kept in :mod:`.pending_rematches`.
"""

from __future__ import annotations

import logging

from bot.engine import Game
from db import Conflict, GameRecord, NewGame, SeatRecord
from db.games import Games
from db.matches import OPEN_MATCH
from db.matches import Matches as MatchRows

from .guard import Guard
from .lobby import Lobbies
from .matches import OpenMatches
from .matchplay import RematchView
from .pending_rematches import PendingRematch, PendingRematches
from .requests import AcceptRematch, AskRematch, DeclineRematch, known_game_id
from .session import Session
from .tables import Tables
from .views import GameStatus, GameView, Outcome, Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason


def rematch_dealer(record: GameRecord) -> int | None:
    """Who deals first in a rematch of the ended game ``record`` (``None``: cut for it)."""
    if record.state is None:
        return None
    game = Game.from_dict(record.state)
    if game.next_first_dealer is not None:
        return game.next_first_dealer
    if game.players == 2:
        return record.forfeit_seat  # the one who forfeited lost; nobody lost an abandoned game
    if game.first_dealer is None:
        return None
    return (game.first_dealer + 1) % game.players


class RematchLobbies:
    """Asking for, accepting and declining rematches (see the module docstring)."""

    def __init__(
        self,
        rows: MatchRows,
        games: Games,
        tables: Tables,
        guard: Guard,
        lobbies: Lobbies,
        matches: OpenMatches,
        pending: PendingRematches,
    ) -> None:
        self._rows = rows
        self._games = games
        self._tables = tables
        self._guard = guard
        self._lobbies = lobbies
        self._matches = matches
        self._pending = pending

    def view(self, game_id: int) -> RematchView | None:
        """Who has accepted the rematch lobby ``game_id`` and who it waits for (or ``None``)."""
        pending = self._pending.get(game_id)
        s = self._tables.sessions.get(game_id)
        if pending is None or s is None:
            return None
        people = [v.user_id for v in sorted(s.seats.values(), key=lambda v: v.seat)]
        return RematchView(
            game_id=game_id,
            of_game=pending.of_game,
            first_dealer=s.first_dealer,
            accepted=tuple(u for u in people if u is not None and u in pending.accepted),
            waiting=tuple(u for u in people if u is not None and u not in pending.accepted),
        )

    async def ask(self, request: AskRematch) -> Outcome | GameView | Refusal:
        """A player asks for a rematch of the ended game ``request.game_id``, where it was
        played. Returns the started game's :class:`Outcome` when nobody else has to accept, else
        the rematch lobby (see :meth:`view`), or a :class:`Refusal`."""
        if refused := await self._guard.place_of_ended(request):
            return refused
        game_id, user_id = request.game_id, request.user_id
        if game_id in self._tables.sessions:
            return Refusal(R.ALREADY_STARTED, "That game is still being played.")
        record = await self._games.load_game(game_id) if known_game_id(game_id) else None
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if user_id not in {seat.user_id for seat in record.seats}:
            return Refusal(R.NOT_SEATED, "Only the players of that game can ask for a rematch.")
        if record.status not in ("finished", "abandoned"):
            return Refusal(R.INVALID, "That table never got to play a game.")
        match = await self._rows.match_of_game(game_id)
        if match is not None and match.status in OPEN_MATCH:
            return Refusal(
                R.INVALID, "That game is part of a match still being played: play on there."
            )
        busy = self._busy(record.channel_id, game_id)
        if busy is not None:
            return busy
        spec = NewGame(
            record.guild_id,
            record.channel_id,
            user_id,
            record.players,
            record.partnerships,
            record.target,
            tuple(SeatRecord(x.seat, x.user_id, x.computer) for x in record.seats),
            rematch_dealer(record),
            record.muggins,
        )
        best_of = match.best_of if match is not None else 1
        with self._tables.holding(record.channel_id):
            now = self._tables.now()
            try:
                new_id, match_id = await self._rows.open_rematch(
                    game_id, spec, accepted=user_id, best_of=best_of, now=now
                )
            except Conflict:
                return Refusal(R.CHANNEL_BUSY, "There's already a cribbage game in this channel.")
        s = Session(spec.record(new_id, status="lobby", now=now))
        if match_id is not None:
            self._matches.forming(match_id, best_of, s)
        pending = self._pending[new_id] = PendingRematch(game_id, {user_id})
        log.info("game %d: rematch of game %d asked by user %d", new_id, game_id, user_id)
        async with s.lock:
            self._tables.register(s)
            if pending.waiting(s):
                return s.view()
            return await self._lobbies.start_game(s)

    def _busy(self, channel_id: int, game_id: int) -> Refusal | None:
        if not self._tables.busy(channel_id):
            return None
        other = self._tables.by_channel.get(channel_id)
        pending = self._pending.get(other) if other is not None else None
        if pending is not None and pending.of_game == game_id:
            text = "A rematch of this game is already waiting for its players: accept it there."
        else:
            text = (
                "There's already a cribbage game in this channel: finish it first, or start "
                "one in another channel."
            )
        return Refusal(R.CHANNEL_BUSY, text)

    async def accept(self, request: AcceptRematch) -> Outcome | GameView | Refusal:
        """A player accepts the rematch; the last one to accept starts the game (its outcome)."""
        if refused := self._guard.place(request):
            return refused
        game_id, user_id = request.game_id, request.user_id
        pending = self._pending.get(game_id)
        if pending is None:
            return await self._not_a_rematch(game_id)

        async def accept(s: Session) -> Outcome | GameView | Refusal:
            if s.seat_of(user_id) is None:
                return Refusal(R.NOT_SEATED, "This rematch is for the players of the last game.")
            if user_id in pending.accepted and pending.waiting(s):
                return Refusal(R.ALREADY_SEATED, "You've accepted; waiting for the others.")
            if user_id not in pending.accepted:
                await self._rows.accept_rematch(s.id, user_id, now=self._tables.touch(s))
                pending.accepted.add(user_id)
                s.changed()
            if pending.waiting(s):
                return s.view()
            return await self._lobbies.start_game(s)

        return await self._lobbies.in_lobby(game_id, accept)

    async def decline(self, request: DeclineRematch) -> GameView | Refusal:
        """A player turns the rematch down: it is called off."""
        if refused := self._guard.place(request):
            return refused
        if request.game_id not in self._pending:
            return await self._not_a_rematch(request.game_id)
        user_id = request.user_id
        return await self._lobbies.in_lobby(
            request.game_id, lambda s: self._lobbies.decline(s, user_id)
        )

    async def _not_a_rematch(self, game_id: int) -> Refusal:
        s = self._tables.sessions.get(game_id)
        if s is None:
            return await self._tables.missing(game_id)
        if s.status is GameStatus.ACTIVE:
            return Refusal(R.ALREADY_STARTED, "The rematch has already started.")
        return Refusal(R.INVALID, "That table is not a rematch.")
