"""The organiser's controls over a tournament, and a player's withdrawal
(``manager.tournaments.controls``).

The organiser (or someone the cog found may manage the server: ``organiser_rights``) may pause
(no deadline passes, no round opens) and resume (the deadlines move on by the pause), extend the
round's deadline, drop a player (their open pairing forfeited, never paired again), replace a
player (the replacement plays the place's next games), and cancel (its games being played go on
as ordinary games). A player may withdraw, which is a drop of their own. Each is stored before
it answers, under the tournament's lock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator

from db.tournaments import DecidedBy, Tournaments

from .requests import (
    CancelTournament,
    DropPlayer,
    ExtendDeadline,
    PauseTournament,
    ReplacePlayer,
    ResumeTournament,
    TournamentRequest,
    WithdrawFromTournament,
    known_game_id,
)
from .tables import Tables
from .tournament_games import PairingGames
from .tournament_rounds import Rounds
from .tournament_signup import MAX_DEADLINE_MINUTES, whole
from .tournament_state import Running, RunningTournaments, not_organiser
from .tournament_views import TournamentOutcome
from .views import Outcome, Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason


class Controls:
    """Pause, resume, extend, cancel, drop, replace, and withdraw (see the module docstring)."""

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

    @contextlib.asynccontextmanager
    async def _organising(self, request: TournamentRequest) -> AsyncIterator[Running | Refusal]:
        """The tournament of an organiser's request, under its lock; or the refusal (no such
        tournament, or not the organiser's)."""
        live = await self._running.find(request)
        if isinstance(live, Refusal):
            yield live
            return
        async with live.lock:
            yield not_organiser(live, request) or live

    async def pause(self, request: PauseTournament) -> TournamentOutcome | Refusal:
        """Stop the clock: no deadline passes and no round opens until it resumes."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status != "running":
                return Refusal(R.INVALID, "Only a running tournament can be paused.")
            now = self._tables.now()
            await self._rows.set_status(live.id, "paused", paused_at=now)
            live.record = dataclasses.replace(live.record, status="paused", paused_at=now)
            return live.outcome("paused")

    async def resume(self, request: ResumeTournament) -> TournamentOutcome | Refusal:
        """Restart the clock: the round's deadlines move on by the pause; a round completed
        meanwhile opens the next."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            rec = live.record
            if rec.status != "paused":
                return Refusal(R.INVALID, "The tournament is not paused.")
            paused_for = max(0.0, self._tables.now() - (rec.paused_at or self._tables.now()))
            await self._rows.resume(live.id, rec.round, paused_for=paused_for)
            live.record = dataclasses.replace(rec, status="running", paused_at=None)
            _shift(live, paused_for)
            later = await self._rounds.advance(live)
            return live.outcome("resumed", opened=later.opened, finished=later.finished)

    async def extend(self, request: ExtendDeadline) -> TournamentOutcome | Refusal:
        """The round's unfinished pairings have ``minutes`` more."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status not in ("running", "paused"):
                return Refusal(R.INVALID, "Only a running tournament has a deadline to extend.")
            minutes = request.minutes
            if not whole(minutes) or not 1 <= minutes <= MAX_DEADLINE_MINUTES:
                return Refusal(R.INVALID, "A deadline is extended by 1 minute to 7 days.")
            await self._rows.extend(live.id, live.record.round, 60.0 * minutes)
            _shift(live, 60.0 * minutes)
            return live.outcome("extended")

    async def cancel(self, request: CancelTournament) -> TournamentOutcome | Refusal:
        """Call the tournament off. Its games being played go on as ordinary games."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            await self._running.close(live, "cancelled")
            return live.outcome("cancelled")

    async def drop(self, request: DropPlayer) -> TournamentOutcome | Refusal:
        """The organiser drops a player (during sign-up: takes them off the list)."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            player = request.player  # a place, or whoever plays one now
            place = next((u for u in live.entrants if live.plays(u) == player), player)
            return await self._leave(live, place, "dropped")

    async def withdraw(self, request: WithdrawFromTournament) -> TournamentOutcome | Refusal:
        """A player leaves: during sign-up off the list, later their open pairing forfeited."""
        live = await self._running.find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            place = next((u for u in live.entrants if live.plays(u) == request.user_id), None)
            if place is None:
                return Refusal(R.NOT_SEATED, "You're not playing in this tournament.")
            return await self._leave(live, place, "withdrew")

    async def _leave(self, live: Running, place: int, status: str) -> TournamentOutcome | Refusal:
        entrant = live.entrants.get(place)
        what = "dropped" if status == "dropped" else "withdrew"
        if entrant is None:
            text = (
                "You're not in this tournament."
                if what == "withdrew"
                else (f"<@{place}> is not in this tournament.")
            )
            return Refusal(R.NOT_SEATED, text)
        if live.record.status == "signup":
            await self._rows.remove_entrant(live.id, place)
            del live.entrants[place]
            return live.outcome(what)
        if entrant.status != "entered":
            return Refusal(R.INVALID, f"<@{live.plays(place)}> has already left the tournament.")
        now = self._tables.now()
        p = live.open_pairing_of(place)
        decided = []
        if p is not None:
            by: DecidedBy = "drop" if what == "dropped" else "withdrawal"
            decided.append(
                dataclasses.replace(
                    p, state="decided", forfeited_by=place, decided_by=by, decided_at=now
                )
            )
        await self._rows.leave(
            live.id, place, "dropped" if what == "dropped" else "withdrew", decided, now=now
        )
        live.entrants[place] = dataclasses.replace(
            entrant, status="dropped" if what == "dropped" else "withdrew", left_at=now
        )
        games: list[Outcome] = []
        for d in decided:
            live.pairings[(d.round, d.table)] = d
            ended = await self._games.end_game(d, place)
            if ended is not None:
                games.append(ended)
        log.info("tournament %d: user %d %s", live.id, place, what)
        later = await self._rounds.advance(live)
        return live.outcome(
            what, decided=decided, opened=later.opened, finished=later.finished, games=games
        )

    async def replace(self, request: ReplacePlayer) -> TournamentOutcome | Refusal:
        """``by`` plays ``player``'s place from its next game on."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status not in ("running", "paused"):
                return Refusal(R.INVALID, "A player is replaced once the tournament has started.")
            place = next((u for u in live.entrants if live.plays(u) == request.player), None)
            if place is None or live.entrants[place].status != "entered":
                return Refusal(R.NOT_SEATED, f"<@{request.player}> is not playing in it.")
            if not known_game_id(request.by):
                return Refusal(R.INVALID, "That account can't play here.")
            if request.by in live.entrants or any(
                e.replaced_by == request.by for e in live.entrants.values()
            ):
                return Refusal(R.ALREADY_SEATED, f"<@{request.by}> is already in this tournament.")
            await self._rows.replace(live.id, place, request.by)
            live.entrants[place] = dataclasses.replace(live.entrants[place], replaced_by=request.by)
            return live.outcome("replaced")


def _shift(live: Running, seconds: float) -> None:
    """The round's unfinished pairings' deadlines, ``seconds`` later."""
    for key, p in list(live.pairings.items()):
        if p.round == live.record.round and p.state != "decided" and p.deadline_at:
            live.pairings[key] = dataclasses.replace(p, deadline_at=p.deadline_at + seconds)
