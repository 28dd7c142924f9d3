"""Matches of 3 or 5 games: the manager keeps the tally and starts each next game itself.

A lobby opened with ``best_of`` 3 or 5 is the first game of a match (status ``forming`` until
it starts). When a game of the match ends, the tally is updated (:mod:`.matchplay`: a skunk
counts two games, a double skunk three); if no side holds a majority yet, the next game starts
at once in the same channel with the same seats and variant, dealt first by the loser
(``Game.next_first_dealer``), and comes back to the caller as ``outcome.next_game``. The
channel is held from the moment a game ends until its successor is registered, so nobody can
open another table in between. A forfeit concedes the match; an abandoned game abandons it.

Durability: the finished game is committed first (its results are the source of truth), then
the next game is created together with the match's new tally in one transaction. After a crash
in between, :meth:`resume` recomputes the tally from the results and carries the match on.

Every request that can end a game passes its outcome through :meth:`_next_in_match`: ``act``
and ``forfeit`` (manager.py), and here :meth:`resume`, :meth:`sweep_idle`,
:meth:`sweep_turns` and :meth:`close_muggins_windows`. A path that forgets is still caught:
each idle sweep starts the next game of any match left waiting (``_continue_due``).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game
from db import SeatRecord, Store
from db.matches import OPEN_MATCH, Matches, NewGame

from .core import ManagerCore
from .matchplay import BEST_OF, GameResult, MatchStatus, MatchView, tally
from .session import Session
from .views import (
    GameView,
    Outcome,
    Refusal,
    RefusalReason,
    ResumeReport,
    StepEvent,
    SweepReport,
)

log = logging.getLogger("bot.sessions")
R = RefusalReason


@dataclass(slots=True)
class _Match:
    """A match still forming or being played (internal)."""

    id: int
    best_of: int
    status: MatchStatus
    sides: int
    games: list[int]
    results: list[GameResult] = field(default_factory=list)
    winner_side: int | None = None

    @property
    def over(self) -> bool:
        return self.status not in OPEN_MATCH

    def view(self) -> MatchView:
        wins = tally(self.best_of, self.sides, self.results).wins if self.sides else ()
        return MatchView(
            match_id=self.id,
            best_of=self.best_of,
            wins=wins,
            game_number=len(self.games),
            status=self.status,
            winner_side=self.winner_side,
        )


class MatchOperations(ManagerCore):
    """The match half of :class:`~bot.sessions.GameSessionManager`."""

    def __init__(self, store: Store, **options: Any) -> None:
        super().__init__(store, **options)
        self._match_rows = Matches(store)
        self._matches: dict[int, _Match] = {}  # open matches, by id
        self._match_of: dict[int, int] = {}  # game id -> id of its (open) match
        self._due: dict[int, Session] = {}  # match id -> its game that ended; the next is due

    # ------------------------------------------------------------------ opening a match

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        variant: Any = None,
        best_of: int = 1,
    ) -> GameView | Refusal:
        """Open a lobby (see :class:`~bot.sessions.lobby.LobbyOperations`); with ``best_of``
        3 or 5 it is the first game of a match."""
        if best_of not in BEST_OF:
            return Refusal(R.INVALID, "A match is played over 1, 3 or 5 games.")
        view = await super().create_lobby(  # type: ignore[misc]
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, variant=variant
        )
        if isinstance(view, Refusal) or best_of == 1:
            return view
        s = self._sessions[view.game_id]
        async with s.lock:
            match_id = await self._match_rows.open_match(
                s.id, guild_id=guild_id, channel_id=channel_id, best_of=best_of, now=s.updated_at
            )
            self._track(_Match(match_id, best_of, "forming", 0, [s.id]), s)
            log.info("game %d: first game of match %d (best of %d)", s.id, match_id, best_of)
            return s.view()

    def _track(self, m: _Match, s: Session) -> None:
        self._matches[m.id] = m
        self._match_of[s.id] = m.id
        s.match = m.view()
        s.changed()

    def _match_for(self, game_id: int) -> _Match | None:
        match_id = self._match_of.get(game_id)
        return None if match_id is None else self._matches.get(match_id)

    def _register(self, s: Session) -> None:
        super()._register(s)
        m = self._match_for(s.id)
        if m is not None:
            s.match = m.view()
            s.changed()

    async def _start_game(self, s: Session, first_dealer: int | None = None) -> Outcome | Refusal:
        outcome = await super()._start_game(s, first_dealer)  # type: ignore[misc]
        m = self._match_for(s.id)
        if isinstance(outcome, Outcome) and m is not None and m.status == "forming":
            await self._begin(m, s)
            outcome = dataclasses.replace(outcome, view=s.view())
        return outcome

    async def _begin(self, m: _Match, s: Session) -> None:
        m.status, m.sides = "playing", s.variant.sides
        seats = [SeatRecord(v.seat, v.user_id, v.level) for v in s.seats.values()]
        await self._match_rows.begin_match(m.id, seats=seats, sides=m.sides)
        s.match = m.view()
        s.changed()

    async def _close_lobby(self, s: Session, status: str) -> GameView:
        view = await super()._close_lobby(s, status)
        m = self._match_for(s.id)
        if m is not None:
            m.status = "cancelled"
            await self._finish_match(m)
            s.match = m.view()
            s.changed()
            view = s.view()
        return view

    # ------------------------------------------------------------------ a game ends

    def _end(self, s: Session, finish: Any) -> None:
        super()._end(s, finish)
        m = self._match_for(s.id)
        if m is None or m.over:
            return
        won = finish.end_reason == "won" and s.game is not None
        skunk = max(s.game.skunks, default=0) if won and s.game is not None else 0
        m.results.append(GameResult(finish.end_reason, finish.winner_side, skunk))
        result = tally(m.best_of, m.sides, m.results)
        m.status, m.winner_side = result.status, result.winner_side
        s.match = m.view()
        s.changed()
        self._due[m.id] = s
        if not m.over:
            self._claimed_channels.add(s.channel_id)  # held for the next game
        log.info("match %d: %s after game %d (%s)", m.id, m.status, s.id, result.wins)

    async def _next_in_match(self, outcome: Any) -> Any:
        """After a request: if it ended a game of a match, record the match's end or start its
        next game (returned as ``outcome.next_game``). Anything else passes unchanged."""
        if not isinstance(outcome, Outcome) or outcome.finished is None:
            return outcome
        match_id = self._match_of.get(outcome.game_id)
        if match_id is None or match_id not in self._due:
            return outcome
        following = await self._advance(match_id)
        return outcome if following is None else dataclasses.replace(outcome, next_game=following)

    async def _advance(self, match_id: int) -> Outcome | None:
        """End the match, or start its next game (its outcome); on failure retried later."""
        m = self._matches[match_id]
        previous = self._due.pop(match_id)
        try:
            if m.over:
                await self._finish_match(m)
                return None
            if self._by_channel.get(previous.channel_id) not in (None, previous.id):
                log.error("match %d: its channel holds another game; abandoned", m.id)
                m.status = "abandoned"
                await self._finish_match(m)
                return None
            return await self._start_next(m, previous)
        except Exception:
            log.exception("match %d: could not go on; retried at the next sweep", m.id)
            self._due[match_id] = previous
            return None
        finally:
            self._claimed_channels.discard(previous.channel_id)

    async def _finish_match(self, m: _Match) -> None:
        wins = m.view().wins
        await self._match_rows.end_match(
            m.id, status=m.status, wins=wins, winner_side=m.winner_side, now=self._clock()
        )
        self._matches.pop(m.id, None)
        for game_id in m.games:
            self._match_of.pop(game_id, None)
        log.info("match %d: %s %s", m.id, m.status, wins)

    async def _start_next(self, m: _Match, previous: Session) -> Outcome:
        ended = previous.game
        assert ended is not None
        first = ended.next_first_dealer
        seed = self._seed_source()
        game = Game.new(previous.variant, seed=seed, first_dealer=first)
        v = previous.variant
        seats = tuple(
            SeatRecord(x.seat, x.user_id, x.level, x.side if v.partnerships else None)
            for x in sorted(previous.seats.values(), key=lambda x: x.seat)
        )
        spec = NewGame(
            previous.guild_id,
            previous.channel_id,
            previous.host_id,
            v.players,
            v.partnerships,
            v.target,
            seats,
            first,
            v.muggins,
        )
        ready = tuple(0 for _ in range(v.players))
        state, now = game.to_dict(), self._clock()
        game_id = await self._match_rows.start_next_game(
            m.id, spec, seed=seed, state=state, ready=ready, wins=m.view().wins, now=now
        )
        s = Session(
            spec.record(game_id, status="active", now=now, seed=seed, state=state, ready=ready)
        )
        m.games.append(game_id)
        self._match_of[game_id] = m.id
        async with s.lock:
            self._register(s)
            log.info("match %d: game %d started, seat %s deals", m.id, game_id, first)
            events = [StepEvent(0, e) for e in game.last_events]
            await self._run_computers(s, events)
            return self._outcome(s, events)

    async def _continue_due(self) -> list[Outcome]:
        """Start the next game of every match waiting for one (after a failure or a restart)."""
        started = []
        for match_id in list(self._due):
            outcome = await self._advance(match_id)
            if outcome is not None:
                started.append(outcome)
        return started

    # ------------------------------------------------------------------ upkeep

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        await self._load_matches()
        report = await super().resume(verify=verify)  # type: ignore[misc]
        outcomes = [await self._next_in_match(o) for o in report.outcomes]
        for m in list(self._matches.values()):
            current = self._sessions.get(m.games[-1]) if m.games else None
            if m.status == "forming" and current is not None and current.game is not None:
                await self._begin(m, current)  # it started just before a crash
        outcomes += await self._continue_due()
        return dataclasses.replace(report, outcomes=tuple(outcomes))

    async def _load_matches(self) -> None:
        """Load the open matches; those whose games have all ended are due to go on."""
        for record in await self._match_rows.open_matches():
            games = await self._match_rows.match_games(record.id)
            status: MatchStatus = record.status  # type: ignore[assignment]
            ids = [g.game_id for g in games]
            m = _Match(record.id, record.best_of, status, len(record.wins), ids)
            self._matches[m.id] = m
            for g in games:
                self._match_of[g.game_id] = m.id
            ended = [g for g in games if g.status not in ("lobby", "active")]
            if len(ended) < len(games) or not games:
                m.results = [GameResult(g.end_reason or "", g.winner_side, g.skunk) for g in ended]
                continue
            if any(g.status == "cancelled" for g in games):
                m.status = "cancelled"
            else:
                m.results = [GameResult(g.end_reason or "", g.winner_side, g.skunk) for g in ended]
                result = tally(m.best_of, m.sides, m.results)
                m.status, m.winner_side = result.status, result.winner_side
            last = await self._store.load_game(games[-1].game_id)
            if last is not None:
                self._due[m.id] = Session(last)

    async def sweep_idle(self, now: float | None = None) -> SweepReport:
        report = await super().sweep_idle(now)  # type: ignore[misc]
        abandoned = [await self._next_in_match(o) for o in report.abandoned]
        resumed = [await self._next_in_match(o) for o in report.resumed]
        resumed += await self._continue_due()
        return dataclasses.replace(report, abandoned=tuple(abandoned), resumed=tuple(resumed))

    async def close_muggins_windows(self, now: float | None = None) -> list[Outcome]:
        """Muggins windows let go (:mod:`.muggins`): the show goes on and may end a game."""
        outcomes = await super().close_muggins_windows(now)  # type: ignore[misc]
        return [await self._next_in_match(o) for o in outcomes]

    async def sweep_turns(self, now: float | None = None) -> Any:
        """Turn timers (:mod:`.timers`), with a match's next game started after a timeout."""
        report = await super().sweep_turns(now)  # type: ignore[misc]
        expired = [await self._next_in_match(o) for o in report.expired]
        forfeits = [await self._next_in_match(o) for o in report.forfeits]
        return dataclasses.replace(report, expired=tuple(expired), forfeits=tuple(forfeits))
