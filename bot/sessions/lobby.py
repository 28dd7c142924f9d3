"""Lobbies: open one in a channel, join, leave, seat computers, pick the variant, start.

Each request (:mod:`.requests`) is checked by the :class:`~bot.sessions.guard.Guard` (a lobby
request is also let in from the channel of the lobby message), then run under the game's lock
(:meth:`Lobbies.in_lobby`). A lobby opened with ``best_of`` 3 or 5 is the first game of a match
(:mod:`.matches`); a rematch lobby (:mod:`.pending_rematches`) starts only once everyone has
accepted, and leaving it declines the rematch.

A lobby that starts tells the ``started`` listeners (the match it opens begins); one that is
cancelled or abandoned tells the ``lobby_closed`` listeners (:class:`.TableEvents`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.engine import Variant
from db import Conflict, NewGame, SeatRecord
from db.lobbies import Lobbies as LobbyRows

from .guard import OTHER_PROCESS, Guard
from .matches import OpenMatches
from .matchplay import BEST_OF
from .pending_rematches import PendingRematches
from .play import GamePlay
from .requests import (
    AddComputer,
    Cancel,
    ChangeVariant,
    Join,
    Leave,
    OpenLobby,
    RemoveComputer,
    Start,
)
from .session import Session
from .tables import Tables, over
from .views import (
    LEVELS,
    GameStatus,
    GameView,
    Level,
    Outcome,
    Refusal,
    RefusalReason,
    StepEvent,
)

log = logging.getLogger("bot.sessions")
R = RefusalReason
T = TypeVar("T")

CHANNEL_BUSY = (
    "There's already a cribbage game in this channel. Join it, or start one in another channel."
)


class Lobbies:
    """Lobbies and their start (see the module docstring), stored through ``rows``
    (``store.lobbies``)."""

    def __init__(
        self,
        rows: LobbyRows,
        tables: Tables,
        play: GamePlay,
        guard: Guard,
        matches: OpenMatches,
        rematches: PendingRematches,
    ) -> None:
        self._rows = rows
        self._tables = tables
        self._play = play
        self._guard = guard
        self._matches = matches
        self._rematches = rematches

    async def open(self, request: OpenLobby) -> GameView | Refusal:
        """Open a lobby in a channel, the host in seat 0. One open lobby or game per channel.
        With ``best_of`` 3 or 5 it is the first game of a match."""
        if request.best_of not in BEST_OF:
            return Refusal(R.INVALID, "A match is played over 1, 3 or 5 games.")
        if not self._tables.owns(request.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        channel_id, host_id = request.channel_id, request.host_id
        if self._tables.busy(channel_id):
            return Refusal(R.CHANNEL_BUSY, CHANNEL_BUSY)
        variant = request.variant or Variant()
        lobby = NewGame(
            request.guild_id,
            channel_id,
            host_id,
            variant.players,
            variant.partnerships,
            variant.target,
            seats=(SeatRecord(0, user_id=host_id),),
            first_dealer=None,
            muggins=variant.muggins,
        )
        with self._tables.holding(channel_id):
            now = self._tables.now()
            try:
                game_id = await self._rows.create_lobby(
                    guild_id=request.guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    players=variant.players,
                    partnerships=variant.partnerships,
                    target=variant.target,
                    now=now,
                    muggins=variant.muggins,
                )
            except Conflict:
                return Refusal(R.CHANNEL_BUSY, "There's already a cribbage game in this channel.")
        session = Session(lobby.record(game_id, status="lobby", now=now))
        self._tables.register(session)
        log.info("game %d: lobby opened in channel %d by user %d", game_id, channel_id, host_id)
        if request.best_of == 1:
            return session.view()
        return await self._matches.open(session, request.best_of)

    async def join(self, request: Join) -> GameView | Refusal:
        """Take a free seat (the lowest, or ``seat``) in a lobby."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        user_id, seat = request.user_id, request.seat
        return await self.in_lobby(request.game_id, lambda s: self._sit(s, user_id, seat, None))

    async def add_computer(self, request: AddComputer) -> GameView | Refusal:
        """The host seats a computer player of ``level`` ("easy", "standard" or "expert")."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        level, seat = request.level, request.seat
        if level not in LEVELS:
            return Refusal(R.INVALID, f"A computer plays at level {', '.join(LEVELS)}.")
        return await self.in_lobby(
            request.game_id, lambda s: self._sit(s, None, seat, level), host=request.user_id
        )

    async def _sit(
        self, s: Session, user_id: int | None, seat: int | None, level: Level | None
    ) -> GameView | Refusal:
        if user_id is not None and s.seat_of(user_id) is not None:
            return Refusal(R.ALREADY_SEATED, "You're already in this game.")
        free = [i for i in range(s.variant.players) if i not in s.seats]
        if not free:
            return Refusal(R.LOBBY_FULL, "Every seat of this game is taken.")
        if seat is not None and seat not in free:
            return Refusal(R.SEAT_TAKEN, f"Seat {seat + 1} is not free.")
        chosen = free[0] if seat is None else seat
        await self._rows.add_seat(
            s.id, SeatRecord(chosen, user_id=user_id, computer=level), now=self._tables.touch(s)
        )
        s.sit(chosen, user_id, level)
        return s.view()

    async def leave(self, request: Leave) -> GameView | Refusal:
        """Leave a lobby. A leaving host hands over to the next player, or closes the lobby.
        Leaving a rematch lobby declines the rematch."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        user_id = request.user_id
        if request.game_id in self._rematches:
            return await self.in_lobby(request.game_id, lambda s: self.decline(s, user_id))

        async def leave(s: Session) -> GameView | Refusal:
            seat = s.seat_of(user_id)
            if seat is None:
                return Refusal(R.NOT_SEATED, "You're not in this game.")
            others = [
                v.user_id
                for v in sorted(s.seats.values(), key=lambda v: v.seat)
                if v.user_id is not None and v.user_id != user_id
            ]
            if user_id == s.host_id and not others:
                return await self.close(s, "cancelled")
            await self._rows.remove_seat(s.id, seat, now=self._tables.touch(s))
            del s.seats[seat]
            if user_id == s.host_id:
                await self._rows.update_lobby(s.id, host_id=others[0], now=self._tables.touch(s))
                s.host_id = others[0]
            s.changed()
            return s.view()

        return await self.in_lobby(request.game_id, leave)

    async def remove_computer(self, request: RemoveComputer) -> GameView | Refusal:
        """The host frees a computer's seat."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        seat = request.seat

        async def remove(s: Session) -> GameView | Refusal:
            if seat not in s.seats or not s.seats[seat].is_computer:
                return Refusal(R.INVALID, f"Seat {seat + 1} has no computer player.")
            await self._rows.remove_seat(s.id, seat, now=self._tables.touch(s))
            del s.seats[seat]
            s.changed()
            return s.view()

        return await self.in_lobby(request.game_id, remove, host=request.user_id)

    async def set_variant(self, request: ChangeVariant) -> GameView | Refusal:
        """The host picks the variant (2–4 players, partnerships, 121 or 61 points)."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        variant = request.variant

        async def change(s: Session) -> GameView | Refusal:
            if any(seat >= variant.players for seat in s.seats):
                return Refusal(
                    R.INVALID,
                    f"More than {variant.players} seats are taken; free the extra seats first.",
                )
            await self._rows.update_lobby(
                s.id,
                players=variant.players,
                partnerships=variant.partnerships,
                target=variant.target,
                muggins=variant.muggins,
                now=self._tables.touch(s),
            )
            s.set_variant(variant)
            return s.view()

        return await self.in_lobby(request.game_id, change, host=request.user_id)

    async def cancel(self, request: Cancel) -> GameView | Refusal:
        """The host closes a lobby that has not started (a started game is forfeited instead)."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        return await self.in_lobby(
            request.game_id, lambda s: self.close(s, "cancelled"), host=request.user_id
        )

    async def start(self, request: Start) -> Outcome | Refusal:
        """The host starts a full lobby: the seats cut for the deal (computers at once). With
        ``first_dealer`` (or the dealer a rematch lobby planned) there is no cut: that seat deals
        the first hand at once. A rematch starts by itself once everyone has accepted."""
        if refused := self._guard.place(request, lobby=True):
            return refused
        s = self._tables.sessions.get(request.game_id)
        if s is not None and self._rematches.waits(s):
            return Refusal(R.SEATS_EMPTY, "The rematch starts when every player has accepted.")
        first_dealer = request.first_dealer
        return await self.in_lobby(
            request.game_id, lambda s: self.start_game(s, first_dealer), host=request.user_id
        )

    # ------------------------------------------------------------------ for the other parts

    async def start_game(self, s: Session, first_dealer: int | None = None) -> Outcome | Refusal:
        """Start the full lobby ``s`` (its lock held); see :meth:`start`. Once the computers
        have moved, the ``started`` listeners hear of it."""
        missing = s.variant.players - len(s.seats)
        if missing:
            who = "player" if missing == 1 else "players"
            return Refusal(
                R.SEATS_EMPTY,
                f"Waiting for {missing} more {who}: wait for them to join, or add computers.",
            )
        dealer = s.first_dealer if first_dealer is None else first_dealer
        if dealer is not None and dealer not in range(s.variant.players):
            return Refusal(R.INVALID, f"There is no seat {dealer + 1} to deal.")
        game = self._play.new_game(s.variant, dealer)
        ready = tuple(0 for _ in range(s.variant.players))
        teams = {i: v.side if s.variant.partnerships else None for i, v in s.seats.items()}
        await self._rows.start_game(
            s.id,
            seed=game.seed,
            first_dealer=dealer,
            teams=teams,
            state=(state := game.to_dict()),
            ready=ready,
            now=self._tables.touch(s),
        )
        s.set_game(game, state)
        s.status, s.seed, s.step, s.ready = GameStatus.ACTIVE, game.seed, 0, ready
        s.first_dealer = dealer
        log.info("game %d: started (%s)", s.id, s.variant.name)
        events = [StepEvent(0, e) for e in game.last_events]
        await self._play.advance(s, events)
        for listener in self._tables.events.started:
            await listener(s)
        return await self._play.outcome(s, events)

    async def decline(self, s: Session, user_id: int) -> GameView | Refusal:
        """``user_id`` turns the rematch lobby ``s`` down (its lock held): it is cancelled."""
        if s.seat_of(user_id) is None:
            return Refusal(R.NOT_SEATED, "This rematch is for the players of the last game.")
        log.info("game %d: rematch declined by user %d", s.id, user_id)
        return await self.close(s, "cancelled")

    async def close(self, s: Session, status: str) -> GameView:
        """Close the lobby ``s`` (its lock held) as ``cancelled`` or ``abandoned``; the
        ``lobby_closed`` listeners hear of it."""
        await self._rows.close_lobby(s.id, status=status, now=self._tables.touch(s))
        s.status = GameStatus(status)
        self._tables.unregister(s)
        log.info("game %d: lobby %s", s.id, status)
        s.changed()
        for listener in self._tables.events.lobby_closed:
            await listener(s)
        return s.view()

    async def in_lobby(
        self,
        game_id: int,
        operation: Callable[[Session], Awaitable[T | Refusal]],
        *,
        host: int | None = None,
    ) -> T | Refusal:
        """Run ``operation(session)`` under the game lock if the game is a lobby (and ``host``,
        when given, is its host)."""
        s = self._tables.sessions.get(game_id)
        if s is None:
            return await self._tables.missing(game_id)
        async with s.lock:
            if s.status is not GameStatus.LOBBY:
                if s.status is GameStatus.ACTIVE:
                    return Refusal(R.ALREADY_STARTED, "This game has already started.")
                return over(s.status)
            if host is not None and host != s.host_id:
                return Refusal(R.NOT_HOST, "Only the host of this game can do that.")
            return await operation(s)
