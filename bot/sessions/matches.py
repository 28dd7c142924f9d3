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
in between, the manager's ``resume`` recomputes the tally from the results and carries the match
on.

How the part hears of games (:class:`.TableEvents`, wired by the manager): ``registered``
shows the match on a table, ``started`` begins a forming match, ``lobby_closed`` cancels it,
``ended`` updates the tally and marks the next game *due*; and ``follow``
(:meth:`OpenMatches.follow`) gets the outcome of every request and every sweep, once the game's
lock is released, and starts the due game. A path that forgets is still caught: each idle sweep
starts the next game of any match left waiting (:meth:`OpenMatches.continue_due`).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field

from db import Finish, NewGame, SeatRecord
from db.games import Games
from db.matches import OPEN_MATCH
from db.matches import Matches as MatchRows

from .matchplay import GameResult, MatchStatus, MatchView, match_status, tally
from .play import GamePlay
from .session import Session
from .tables import Tables
from .views import GameView, Outcome, StepEvent

log = logging.getLogger("bot.sessions")


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


class OpenMatches:
    """The open matches (see the module docstring)."""

    def __init__(self, rows: MatchRows, games: Games, tables: Tables, play: GamePlay) -> None:
        self._rows = rows
        self._games = games
        self._tables = tables
        self._play = play
        self._open: dict[int, _Match] = {}  # open matches, by id
        self._match_of: dict[int, int] = {}  # game id -> id of its (open) match
        self._due: dict[int, Session] = {}  # match id -> its game that ended; the next is due

    # ------------------------------------------------------------------ opening a match

    async def open(self, s: Session, best_of: int) -> GameView:
        """The new lobby ``s`` is the first game of a match of ``best_of``."""
        async with s.lock:
            match_id = await self._rows.open_match(
                s.id,
                guild_id=s.guild_id,
                channel_id=s.channel_id,
                best_of=best_of,
                now=s.updated_at,
            )
            self.forming(match_id, best_of, s)
            log.info("game %d: first game of match %d (best of %d)", s.id, match_id, best_of)
            return s.view()

    def forming(self, match_id: int, best_of: int, s: Session) -> None:
        """Keep the match ``match_id`` (just stored), forming with the lobby ``s``."""
        self._track(_Match(match_id, best_of, "forming", 0, [s.id]), s)

    def _track(self, m: _Match, s: Session) -> None:
        self._open[m.id] = m
        self._match_of[s.id] = m.id
        s.match = m.view()
        s.changed()

    def _match_for(self, game_id: int) -> _Match | None:
        match_id = self._match_of.get(game_id)
        return None if match_id is None else self._open.get(match_id)

    # ------------------------------------------------------------------ table events

    def on_registered(self, s: Session) -> None:
        """A live table shows the match it belongs to."""
        m = self._match_for(s.id)
        if m is not None:
            s.match = m.view()
            s.changed()

    async def on_started(self, s: Session) -> None:
        """The first game of a forming match started: the match is being played."""
        m = self._match_for(s.id)
        if m is not None and m.status == "forming":
            await self._begin(m, s)

    async def _begin(self, m: _Match, s: Session) -> None:
        m.status, m.sides = "playing", s.variant.sides
        seats = [SeatRecord(v.seat, v.user_id, v.level) for v in s.seats.values()]
        await self._rows.begin_match(m.id, seats=seats, sides=m.sides)
        s.match = m.view()
        s.changed()

    async def on_lobby_closed(self, s: Session) -> None:
        """The first game never started: its match is cancelled."""
        m = self._match_for(s.id)
        if m is not None:
            m.status = "cancelled"
            await self._finish_match(m)
            s.match = m.view()
            s.changed()

    def on_ended(self, s: Session, finish: Finish) -> None:
        """A game of the match ended: the tally, and the next game is due (or the end)."""
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
            self._tables.held.add(s.channel_id)  # for the next game
        log.info("match %d: %s after game %d (%s)", m.id, m.status, s.id, result.wins)

    # ------------------------------------------------------------------ after a request

    async def follow(self, outcome: Outcome) -> Outcome:
        """After a request: if it ended a game of a match, record the match's end or start its
        next game (returned as ``outcome.next_game``). Anything else passes unchanged."""
        if outcome.finished is None:
            return outcome
        match_id = self._match_of.get(outcome.game_id)
        if match_id is None or match_id not in self._due:
            return outcome
        following = await self._advance(match_id)
        return outcome if following is None else dataclasses.replace(outcome, next_game=following)

    async def continue_due(self) -> list[Outcome]:
        """Start the next game of every match waiting for one (after a failure or a restart)."""
        started = []
        for match_id in list(self._due):
            outcome = await self._advance(match_id)
            if outcome is not None:
                started.append(outcome)
        return started

    async def _advance(self, match_id: int) -> Outcome | None:
        """End the match, or start its next game (its outcome); on failure retried later."""
        m = self._open[match_id]
        previous = self._due.pop(match_id)
        try:
            if m.over:
                await self._finish_match(m)
                return None
            if self._tables.by_channel.get(previous.channel_id) not in (None, previous.id):
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
            self._tables.held.discard(previous.channel_id)

    async def _finish_match(self, m: _Match) -> None:
        wins = m.view().wins
        await self._rows.end_match(
            m.id, status=m.status, wins=wins, winner_side=m.winner_side, now=self._tables.now()
        )
        self._open.pop(m.id, None)
        for game_id in m.games:
            self._match_of.pop(game_id, None)
        log.info("match %d: %s %s", m.id, m.status, wins)

    async def _start_next(self, m: _Match, previous: Session) -> Outcome:
        ended = previous.game
        assert ended is not None
        first = ended.next_first_dealer
        v = previous.variant
        game = self._play.new_game(v, first)
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
        state, now = game.to_dict(), self._tables.now()
        game_id = await self._rows.start_next_game(
            m.id, spec, seed=game.seed, state=state, ready=ready, wins=m.view().wins, now=now
        )
        s = Session(
            spec.record(game_id, status="active", now=now, seed=game.seed, state=state, ready=ready)
        )
        m.games.append(game_id)
        self._match_of[game_id] = m.id
        async with s.lock:
            self._tables.register(s)
            log.info("match %d: game %d started, seat %s deals", m.id, game_id, first)
            events = [StepEvent(0, e) for e in game.last_events]
            await self._play.advance(s, events)
            return await self._play.outcome(s, events)

    # ------------------------------------------------------------------ resume

    async def load(self) -> None:
        """Load the open matches (before the tables); those whose games have all ended are
        due to go on."""
        for record in await self._rows.open_matches():
            games = await self._rows.match_games(record.id)
            ids = [g.game_id for g in games]
            m = _Match(
                record.id, record.best_of, match_status(record.status), len(record.wins), ids
            )
            self._open[m.id] = m
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
            last = await self._games.load_game(games[-1].game_id)
            if last is not None and self._tables.owns(last.guild_id):  # else another process's
                self._due[m.id] = Session(last)

    async def begin_started(self) -> None:
        """After the tables are loaded: a forming match whose first game started just before
        a crash is being played."""
        for m in list(self._open.values()):
            current = self._tables.sessions.get(m.games[-1]) if m.games else None
            if m.status == "forming" and current is not None and current.game is not None:
                await self._begin(m, current)
