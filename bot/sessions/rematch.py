"""Rematches: the same table again, dealt first by the loser, once everyone has said yes.

``rematch(game_id, user_id)`` — a player of an ended game asks for a rematch:

* a lobby opens in the same channel with **every seat as it was** (people and computers, same
  variant; the same match length when the game ended a match), the clicker as its host;
* its first dealer is planned: the loser of a two-handed game (``Game.next_first_dealer``; after
  a forfeit, the one who forfeited), with more players the player to the left of the last
  game's first dealer; a game that never got past the cut for deal cuts again;
* the clicker has accepted by asking; every other **person** seated accepts with
  :meth:`accept_rematch` (computers always do). The game starts by itself as soon as the last
  one accepts — at once when the clicker is the only person at the table;
* any of them may :meth:`decline_rematch`: the rematch is called off (the lobby is cancelled).

Refused: people who did not play that game, a game still being played (or one whose match
goes on), and a channel that already has a lobby or game. Acceptances are stored, so a
rematch lobby survives a restart like any lobby (and is abandoned like one when left idle).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game
from db import Conflict, GameRecord, SeatRecord, Store
from db.matches import OPEN_MATCH, NewGame

from .matches import MatchOperations, _Match
from .matchplay import RematchView
from .session import Session
from .views import GameStatus, GameView, Outcome, Refusal, RefusalReason, ResumeReport

log = logging.getLogger("bot.sessions")
R = RefusalReason


@dataclass(slots=True)
class _Pending:
    of_game: int
    accepted: set[int] = field(default_factory=set)


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


class RematchOperations(MatchOperations):
    """The rematch part of :class:`~bot.sessions.GameSessionManager`."""

    def __init__(self, store: Store, **options: Any) -> None:
        super().__init__(store, **options)
        self._rematches: dict[int, _Pending] = {}  # open rematch lobbies, by game id

    def rematch_view(self, game_id: int) -> RematchView | None:
        """Who has accepted the rematch lobby ``game_id`` and who it waits for (or ``None``)."""
        pending = self._rematches.get(game_id)
        s = self._sessions.get(game_id)
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

    async def rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        """``user_id`` asks for a rematch of the ended game ``game_id``.

        Returns the started game's :class:`Outcome` when nobody else has to accept, else the
        rematch lobby (see :meth:`rematch_view`), or a :class:`Refusal`.
        """
        if game_id in self._sessions:
            return Refusal(R.ALREADY_STARTED, "That game is still being played.")
        record = await self._store.load_game(game_id)
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if user_id not in {seat.user_id for seat in record.seats}:
            return Refusal(R.NOT_SEATED, "Only the players of that game can ask for a rematch.")
        if record.status not in ("finished", "abandoned"):
            return Refusal(R.INVALID, "That table never got to play a game.")
        match = await self._match_rows.match_of_game(game_id)
        if match is not None and match.status in OPEN_MATCH:
            return Refusal(
                R.INVALID, "That game is part of a match still being played: play on there."
            )
        busy = self._busy(record.channel_id, game_id)
        if busy is not None:
            return busy
        first = rematch_dealer(record)
        seats = tuple(SeatRecord(x.seat, x.user_id, x.computer) for x in record.seats)
        spec = NewGame(
            record.guild_id,
            record.channel_id,
            user_id,
            record.players,
            record.partnerships,
            record.target,
            seats,
            first,
            record.muggins,
        )
        best_of = match.best_of if match is not None else 1
        self._claimed_channels.add(record.channel_id)
        try:
            now = self._clock()
            new_id, match_id = await self._match_rows.open_rematch(
                game_id, spec, accepted=user_id, best_of=best_of, now=now
            )
        except Conflict:
            return Refusal(R.CHANNEL_BUSY, "There's already a cribbage game in this channel.")
        finally:
            self._claimed_channels.discard(record.channel_id)
        s = Session(spec.record(new_id, status="lobby", now=now))
        if match_id is not None:
            self._track(_Match(match_id, best_of, "forming", 0, [new_id]), s)
        pending = self._rematches[new_id] = _Pending(game_id, {user_id})
        log.info("game %d: rematch of game %d asked by user %d", new_id, game_id, user_id)
        async with s.lock:
            self._register(s)
            if self._waiting(s, pending):
                return s.view()
            return await self._start_game(s)

    def _busy(self, channel_id: int, game_id: int) -> Refusal | None:
        other = self._by_channel.get(channel_id)
        if other is None and channel_id not in self._claimed_channels:
            return None
        pending = self._rematches.get(other) if other is not None else None
        if pending is not None and pending.of_game == game_id:
            text = "A rematch of this game is already waiting for its players: accept it there."
        else:
            text = (
                "There's already a cribbage game in this channel: finish it first, or start "
                "one in another channel."
            )
        return Refusal(R.CHANNEL_BUSY, text)

    @staticmethod
    def _waiting(s: Session, pending: _Pending) -> list[int]:
        people = [v.user_id for v in s.seats.values() if v.user_id is not None]
        return [u for u in people if u not in pending.accepted]

    async def accept_rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        """A player accepts the rematch; the last one to accept starts the game (its outcome)."""
        pending = self._rematches.get(game_id)
        if pending is None:
            return await self._not_a_rematch(game_id)

        async def accept(s: Session) -> Outcome | GameView | Refusal:
            if s.seat_of(user_id) is None:
                return Refusal(R.NOT_SEATED, "This rematch is for the players of the last game.")
            if user_id in pending.accepted and self._waiting(s, pending):
                return Refusal(R.ALREADY_SEATED, "You've accepted; waiting for the others.")
            if user_id not in pending.accepted:
                await self._match_rows.accept_rematch(s.id, user_id, now=self._touch(s))
                pending.accepted.add(user_id)
                s.changed()
            if self._waiting(s, pending):
                return s.view()
            return await self._start_game(s)

        return await self._in_lobby(game_id, accept)  # type: ignore[attr-defined]

    async def decline_rematch(self, game_id: int, user_id: int) -> GameView | Refusal:
        """A player turns the rematch down: it is called off."""
        if game_id not in self._rematches:
            return await self._not_a_rematch(game_id)

        async def decline(s: Session) -> GameView | Refusal:
            if s.seat_of(user_id) is None:
                return Refusal(R.NOT_SEATED, "This rematch is for the players of the last game.")
            log.info("game %d: rematch declined by user %d", s.id, user_id)
            return await self._close_lobby(s, "cancelled")

        return await self._in_lobby(game_id, decline)  # type: ignore[attr-defined]

    async def _not_a_rematch(self, game_id: int) -> Refusal:
        s = self._sessions.get(game_id)
        if s is None:
            return await self._missing(game_id)
        if s.status is GameStatus.ACTIVE:
            return Refusal(R.ALREADY_STARTED, "The rematch has already started.")
        return Refusal(R.INVALID, "That table is not a rematch.")

    # ------------------------------------------------------------------ lobby rules kept

    async def start(
        self, game_id: int, user_id: int, *, first_dealer: int | None = None
    ) -> Outcome | Refusal:
        pending = self._rematches.get(game_id)
        s = self._sessions.get(game_id)
        if pending is not None and s is not None and self._waiting(s, pending):
            return Refusal(R.SEATS_EMPTY, "The rematch starts when every player has accepted.")
        return await super().start(game_id, user_id, first_dealer=first_dealer)  # type: ignore[misc]

    async def leave(self, game_id: int, user_id: int) -> GameView | Refusal:
        if game_id in self._rematches:
            return await self.decline_rematch(game_id, user_id)
        return await super().leave(game_id, user_id)  # type: ignore[misc]

    async def _start_game(self, s: Session, first_dealer: int | None = None) -> Outcome | Refusal:
        outcome = await super()._start_game(s, first_dealer)
        if isinstance(outcome, Outcome):
            self._rematches.pop(s.id, None)
        return outcome

    async def _close_lobby(self, s: Session, status: str) -> GameView:
        self._rematches.pop(s.id, None)
        return await super()._close_lobby(s, status)

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        for pending in await self._match_rows.pending_rematches():
            self._rematches[pending.game_id] = _Pending(pending.of_game, set(pending.accepted))
        return await super().resume(verify=verify)
