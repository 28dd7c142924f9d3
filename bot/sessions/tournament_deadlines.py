"""The tournaments' clock: a tournament started at its start time, and the pairings whose
round's deadline passed decided (``manager.tournaments.deadlines.sweep``, every few seconds
from the cog's loop).

A tournament whose start time has come starts as if its organiser had started it; with fewer
than 2 players then it is cancelled. Each pairing has until its round's deadline; then it is
decided by the organiser's rule (:meth:`~.tournament_games.PairingGames.verdict`) and a game of
it still being played is forfeited by the losing side. A paused tournament is skipped: no
deadline passes and no round opens until it resumes (:mod:`.tournament_controls`, which moves
the deadlines on by the pause).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from db.tournaments import PairingRecord, Tournaments

from .tables import Tables
from .tournament_games import PairingGames
from .tournament_rounds import Rounds
from .tournament_state import Running, RunningTournaments
from .tournament_views import TournamentOutcome
from .views import GameStatus, Outcome

log = logging.getLogger("bot.sessions")


class Deadlines:
    """The sweep of the tournaments' start times and deadlines (see the module docstring)."""

    def __init__(
        self,
        running: RunningTournaments,
        rows: Tournaments,
        tables: Tables,
        rounds: Rounds,
        games: PairingGames,
    ) -> None:
        self._running = running
        self._rows = rows
        self._tables = tables
        self._rounds = rounds
        self._games = games

    async def sweep(self, now: float | None = None) -> list[TournamentOutcome]:
        """Start the tournaments whose start time has come, decide the pairings whose deadline
        passed, and record any game end not yet recorded."""
        outcomes: list[TournamentOutcome] = []
        await self._games.record_ended()
        for live in list(self._running.open.values()):
            async with live.lock:
                at = self._tables.now() if now is None else now
                rec = live.record
                if rec.id not in self._running.open:
                    continue
                if rec.status == "signup" and rec.settings.starts_at is not None:
                    if at >= rec.settings.starts_at:
                        outcomes.append(await self._start_on_time(live))
                elif rec.status == "running":
                    due = [
                        p
                        for p in live.current()
                        if p.state != "decided" and p.deadline_at is not None
                        and p.deadline_at <= at
                    ]  # fmt: skip
                    if due:
                        outcomes.append(await self._decide_due(live, due))
        return outcomes

    async def _start_on_time(self, live: Running) -> TournamentOutcome:
        started = await self._rounds.begin(live)
        if isinstance(started, TournamentOutcome):
            return started
        await self._running.close(live, "cancelled")
        log.info("tournament %d: too few players at its start time", live.id)
        return live.outcome("cancelled")

    async def _decide_due(self, live: Running, due: Iterable[PairingRecord]) -> TournamentOutcome:
        decided: list[PairingRecord] = []
        games: list[Outcome] = []
        for p in due:
            s = None if p.game_id is None else self._tables.sessions.get(p.game_id)
            points = waits = None
            if s is not None and s.game is not None and s.status is GameStatus.ACTIVE:
                points = (s.game.scores[0], s.game.scores[1])
                waits = tuple(s.game.to_act)
            verdict = await self._games.verdict(live, p, points, waits or ())
            await self._rows.save_pairing(live.id, verdict)
            live.pairings[(p.round, p.table)] = verdict
            decided.append(verdict)
            ended = await self._games.end_game(verdict, verdict.forfeited_by)
            if ended is not None:
                games.append(ended)
            log.info("tournament %d: round %d table %d decided at the deadline", live.id,
                     p.round, p.table)  # fmt: skip
        later = await self._rounds.advance(live)
        return live.outcome(
            "deadline",
            decided=decided,
            opened=later.opened,
            finished=later.finished,
            games=games,
        )
