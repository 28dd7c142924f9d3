"""Lobbies: open one in a channel, join, leave, seat computers, pick the variant, start."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.engine import Game, Variant
from db import Conflict, GameRecord, SeatRecord

from .core import ManagerCore
from .session import Session
from .views import (
    LEVELS,
    GameStatus,
    GameView,
    Level,
    Outcome,
    Refusal,
    RefusalReason,
    SeatView,
    StepEvent,
)

log = logging.getLogger("bot.sessions")
R = RefusalReason
T = TypeVar("T")


class LobbyOperations(ManagerCore):
    """The lobby half of :class:`~bot.sessions.GameSessionManager`."""

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        variant: Variant | None = None,
    ) -> GameView | Refusal:
        """Open a lobby in a channel, the host in seat 0. One open lobby or game per channel."""
        variant = variant or Variant()
        if channel_id in self._by_channel or channel_id in self._claimed_channels:
            return Refusal(
                R.CHANNEL_BUSY,
                "There's already a cribbage game in this channel. Join it, or start one in "
                "another channel.",
            )
        self._claimed_channels.add(channel_id)
        try:
            now = self._clock()
            game_id = await self._store.create_lobby(
                guild_id=guild_id,
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
        finally:
            self._claimed_channels.discard(channel_id)
        record = GameRecord(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            status="lobby",
            players=variant.players,
            partnerships=variant.partnerships,
            target=variant.target,
            muggins=variant.muggins,
            seed=None,
            first_dealer=None,
            host_id=host_id,
            step=0,
            created_at=now,
            updated_at=now,
            warned_at=None,
            ended_at=None,
            end_reason=None,
            winner_side=None,
            forfeit_seat=None,
            seats=(SeatRecord(0, user_id=host_id),),
        )
        session = Session(record)
        self._register(session)
        log.info("game %d: lobby opened in channel %d by user %d", game_id, channel_id, host_id)
        return session.view()

    async def join(
        self, game_id: int, user_id: int, *, seat: int | None = None
    ) -> GameView | Refusal:
        """Take a free seat (the lowest, or ``seat``) in a lobby."""
        return await self._in_lobby(game_id, lambda s: self._join(s, user_id, seat, None))

    async def add_computer(
        self, game_id: int, user_id: int, level: Level = "standard", *, seat: int | None = None
    ) -> GameView | Refusal:
        """The host seats a computer player of ``level`` ("easy", "standard" or "expert")."""
        if level not in LEVELS:
            return Refusal(R.INVALID, f"A computer plays at level {', '.join(LEVELS)}.")
        return await self._in_lobby(
            game_id, lambda s: self._join(s, None, seat, level), host=user_id
        )

    async def _join(
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
        await self._store.add_seat(
            s.id, SeatRecord(chosen, user_id=user_id, computer=level), now=self._touch(s)
        )
        s.seats[chosen] = SeatView(chosen, user_id, level, s.side_of(chosen))
        s.changed()
        return s.view()

    async def leave(self, game_id: int, user_id: int) -> GameView | Refusal:
        """Leave a lobby. A leaving host hands over to the next player, or closes the lobby."""

        async def leave(s: Session) -> GameView | Refusal:
            seat = s.seat_of(user_id)
            if seat is None:
                return Refusal(R.NOT_SEATED, "You're not in this game.")
            others = [v.user_id for v in sorted(s.seats.values(), key=lambda v: v.seat)]
            others = [u for u in others if u is not None and u != user_id]
            if user_id == s.host_id and not others:
                return await self._close_lobby(s, "cancelled")
            await self._store.remove_seat(s.id, seat, now=self._touch(s))
            del s.seats[seat]
            if user_id == s.host_id:
                await self._store.update_lobby(s.id, host_id=others[0], now=self._touch(s))
                s.host_id = others[0]
            s.changed()
            return s.view()

        return await self._in_lobby(game_id, leave)

    async def remove_computer(self, game_id: int, user_id: int, seat: int) -> GameView | Refusal:
        """The host frees a computer's seat."""

        async def remove(s: Session) -> GameView | Refusal:
            if seat not in s.seats or not s.seats[seat].is_computer:
                return Refusal(R.INVALID, f"Seat {seat + 1} has no computer player.")
            await self._store.remove_seat(s.id, seat, now=self._touch(s))
            del s.seats[seat]
            s.changed()
            return s.view()

        return await self._in_lobby(game_id, remove, host=user_id)

    async def set_variant(self, game_id: int, user_id: int, variant: Variant) -> GameView | Refusal:
        """The host picks the variant (2–4 players, partnerships, 121 or 61 points)."""

        async def change(s: Session) -> GameView | Refusal:
            if any(seat >= variant.players for seat in s.seats):
                return Refusal(
                    R.INVALID,
                    f"More than {variant.players} seats are taken; free the extra seats first.",
                )
            await self._store.update_lobby(
                s.id,
                players=variant.players,
                partnerships=variant.partnerships,
                target=variant.target,
                muggins=variant.muggins,
                now=self._touch(s),
            )
            s.variant = variant
            s.seats = {i: SeatView(i, v.user_id, v.level, s.side_of(i)) for i, v in s.seats.items()}
            s.changed()
            return s.view()

        return await self._in_lobby(game_id, change, host=user_id)

    async def cancel(self, game_id: int, user_id: int) -> GameView | Refusal:
        """The host closes a lobby that has not started (a started game is forfeited instead)."""
        return await self._in_lobby(
            game_id, lambda s: self._close_lobby(s, "cancelled"), host=user_id
        )

    async def start(
        self, game_id: int, user_id: int, *, first_dealer: int | None = None
    ) -> Outcome | Refusal:
        """The host starts a full lobby: the seats cut for the deal (computers at once).

        With ``first_dealer`` (or the dealer a rematch lobby planned) there is no cut: that seat
        deals the first hand at once.
        """
        return await self._in_lobby(
            game_id, lambda s: self._start_game(s, first_dealer), host=user_id
        )

    async def _start_game(self, s: Session, first_dealer: int | None = None) -> Outcome | Refusal:
        """Start the full lobby ``s`` (its lock held); see :meth:`start`."""
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
        seed = self._seed_source()
        game = Game.new(s.variant, seed=seed, first_dealer=dealer)
        ready = tuple(0 for _ in range(s.variant.players))
        teams = {i: (s.side_of(i) if s.variant.partnerships else None) for i in s.seats}
        await self._store.start_game(
            s.id,
            seed=seed,
            first_dealer=dealer,
            teams=teams,
            state=(state := game.to_dict()),
            ready=ready,
            now=self._touch(s),
        )
        s.set_game(game, state)
        s.status, s.seed, s.step, s.ready = GameStatus.ACTIVE, seed, 0, ready
        s.first_dealer = dealer
        s.changed()
        log.info("game %d: started (%s)", s.id, s.variant.name)
        events = [StepEvent(0, e) for e in game.last_events]
        await self._run_computers(s, events)
        return self._outcome(s, events)

    async def _in_lobby(
        self,
        game_id: int,
        operation: Callable[[Session], Awaitable[T | Refusal]],
        *,
        host: int | None = None,
    ) -> T | Refusal:
        """Run ``operation(session)`` under the game lock if the game is a lobby (and ``host``,
        when given, is its host)."""
        s = self._sessions.get(game_id)
        if s is None:
            return await self._missing(game_id)
        async with s.lock:
            if s.status is not GameStatus.LOBBY:
                if s.status is GameStatus.ACTIVE:
                    return Refusal(R.ALREADY_STARTED, "This game has already started.")
                return self._over(s.status)
            if host is not None and host != s.host_id:
                return Refusal(R.NOT_HOST, "Only the host of this game can do that.")
            return await operation(s)
