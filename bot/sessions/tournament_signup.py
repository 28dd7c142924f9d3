"""A tournament's sign-up: the organiser's settings checked, the tournament opened in its
channel, people entering and leaving, and its start (``manager.tournaments.signup``).

One tournament at a time per channel; no one twice; at most its cap. The organiser starts it
(:meth:`SignUp.start`), or its start time does (:mod:`.tournament_deadlines`); either way the
field is seeded and round 1 paired (:class:`~.tournament_rounds.Rounds`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from bot.tournament import Format
from db import Conflict
from db.tournaments import (
    DEADLINE_RULES,
    FORMATS,
    EntrantRecord,
    Tournaments,
    TournamentSettings,
)

from .guard import OTHER_PROCESS
from .requests import (
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    known_game_id,
)
from .tables import Tables
from .tournament_rounds import Rounds, most_swiss_rounds
from .tournament_state import Running, RunningTournaments, not_organiser
from .tournament_views import TournamentOutcome
from .views import Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason

MAX_CAP = 256
MAX_DEADLINE_MINUTES = 7 * 24 * 60


def whole(value: object) -> bool:
    """Whether ``value`` is a whole number (an ``int``, not a ``bool``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def settings_of(request: CreateTournament, now: float) -> TournamentSettings | Refusal:
    """The organiser's settings checked, or why not (a message for the organiser)."""

    def no(message: str) -> Refusal:
        return Refusal(R.INVALID, message)

    name = request.name.strip() if isinstance(request.name, str) else ""
    if not 1 <= len(name) <= 100:
        return no("A tournament's name has 1 to 100 characters.")
    if request.format not in FORMATS:
        return no("A tournament is a Swiss, a round robin or a single elimination.")
    if request.target not in (61, 121) or not whole(request.target):
        return no("A game is played to 121 or 61 points.")
    if request.best_of not in (1, 3, 5) or not whole(request.best_of):
        return no("Each pairing is one game, a best of 3 or a best of 5.")
    cap = request.cap
    if not whole(cap) or not 2 <= cap <= MAX_CAP:
        return no(f"A tournament takes 2 to {MAX_CAP} players.")
    rounds = 0
    if request.format == Format.SWISS.value:
        rounds, most = request.rounds, most_swiss_rounds(cap)
        if not whole(rounds) or not 1 <= rounds <= most:
            return no(f"A Swiss of up to {cap} players has 1 to {most} rounds.")
    minutes = request.deadline_minutes
    if not whole(minutes) or not 1 <= minutes <= MAX_DEADLINE_MINUTES:
        return no("A round's deadline is 1 minute to 7 days.")
    if request.deadline_rule not in DEADLINE_RULES:
        return no("At the deadline an unfinished game is decided by forfeit or by the score.")
    cap_ = request.spread_cap
    if cap_ is not None and (not whole(cap_) or not 1 <= cap_ <= request.target):
        return no(f"The spread cap is 1 to {request.target} points, or none.")
    for spread in (request.bye_spread, request.forfeit_spread):
        if not whole(spread) or not 0 <= spread <= request.target:
            return no(f"The spread of a bye or a forfeit is 0 to {request.target} points.")
    starts = request.starts_at
    if starts is not None and (not isinstance(starts, int | float) or starts <= now):
        return no("The start time must be in the future.")
    return TournamentSettings(
        name=name,
        format=request.format,
        rounds=rounds,
        target=request.target,
        games_to_win=(request.best_of + 1) // 2,
        spread_cap=cap_,
        bye_spread=request.bye_spread,
        forfeit_spread=request.forfeit_spread,
        cap=cap,
        starts_at=None if starts is None else float(starts),
        deadline_seconds=60 * minutes,
        deadline_rule=request.deadline_rule,
    )


def _signing_up(live: Running) -> Refusal | None:
    if live.record.status == "signup":
        return None
    return Refusal(R.ALREADY_STARTED, "Sign-up is over: this tournament has started.")


class SignUp:
    """Tournaments opened, entered, left and started (see the module docstring)."""

    def __init__(
        self,
        running: RunningTournaments,
        rows: Tournaments,
        tables: Tables,
        rounds: Rounds,
        *,
        seed_source: Callable[[], int],
    ) -> None:
        self._running = running
        self._rows = rows
        self._tables = tables
        self._rounds = rounds
        self._seed_source = seed_source

    async def create(self, request: CreateTournament) -> TournamentOutcome | Refusal:
        """Open a tournament for sign-up (see :class:`~.requests.CreateTournament`)."""
        if request.guild_id is None:
            return Refusal(R.INVALID, "A tournament is run in a server's channel.")
        if not self._tables.owns(request.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(request.organiser_id):
            return Refusal(R.NOT_SEATED, "This account can't run a tournament here.")
        settings = settings_of(request, self._tables.now())
        if isinstance(settings, Refusal):
            return settings
        busy = "This channel already has a tournament: finish or cancel it first."
        if any(t.record.channel_id == request.channel_id for t in self._running.open.values()):
            return Refusal(R.CHANNEL_BUSY, busy)
        try:
            record = await self._rows.create(
                request.guild_id,
                request.channel_id,
                request.organiser_id,
                settings,
                seed=self._seed_source(),
                now=self._tables.now(),
            )
        except Conflict:
            return Refusal(R.CHANNEL_BUSY, busy)
        live = self._running.open[record.id] = Running(record, {}, {})
        log.info("tournament %d: %s opened in channel %d", record.id, settings.format,
                 record.channel_id)  # fmt: skip
        return live.outcome("created")

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The tournament's message (its sign-up and standings) in its channel."""
        live = self._running.open.get(tournament_id)
        await self._rows.set_message(tournament_id, message_id)
        if live is not None:
            live.record = dataclasses.replace(live.record, message_id=message_id)

    async def join(self, request: JoinTournament) -> TournamentOutcome | Refusal:
        """Enter during sign-up: not twice, not past the cap, not once it started."""
        live = await self._running.find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if refused := _signing_up(live):
                return refused
            user = request.user_id
            if user in live.entrants:
                return Refusal(R.ALREADY_SEATED, "You're already in this tournament.")
            cap = live.record.settings.cap
            if len(live.entrants) >= cap:
                return Refusal(R.LOBBY_FULL, f"This tournament is full: {cap} players entered.")
            now = self._tables.now()
            try:
                await self._rows.add_entrant(live.id, user, now=now)
            except Conflict:
                return Refusal(R.LOBBY_FULL, "This tournament takes no more players.")
            live.entrants[user] = EntrantRecord(user, now)
            return live.outcome("joined")

    async def leave(self, request: LeaveTournament) -> TournamentOutcome | Refusal:
        """Leave during sign-up (once it started, a player withdraws instead)."""
        live = await self._running.find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if live.record.status != "signup":
                return Refusal(
                    R.ALREADY_STARTED, "The tournament has started: withdraw from it instead."
                )
            if request.user_id not in live.entrants:
                return Refusal(R.NOT_SEATED, "You're not in this tournament.")
            await self._rows.remove_entrant(live.id, request.user_id)
            del live.entrants[request.user_id]
            return live.outcome("left")

    async def start(self, request: StartTournament) -> TournamentOutcome | Refusal:
        """The organiser closes the sign-up: seeding, then round 1."""
        live = await self._running.find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if refused := not_organiser(live, request) or _signing_up(live):
                return refused
            return await self._rounds.begin(live)
