"""The tournaments being run: their one shared state, read and changed by every tournament part.

:class:`RunningTournaments` holds each tournament not over (a :class:`Running`: its stored rows
and its lock), which tournament each pairing's game belongs to, the game ends waiting to be
recorded, the games of tournaments that ended in this process and the listeners of the news.
It also answers what every part asks first: is this the tournament of a request, made where it
is played (:meth:`~RunningTournaments.find`), by its organiser (:func:`not_organiser`)? And it
closes a tournament (:meth:`~RunningTournaments.close`): it is then no longer running.

Every change to a :class:`Running` is made under its ``lock``, after the store has it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from bot.tournament import Format, Placing, Standing, placings, standings
from db import Finish
from db.tournaments import (
    EntrantRecord,
    PairingRecord,
    StoredTournament,
    TournamentRecord,
    Tournaments,
)

from .guard import OTHER_PROCESS
from .requests import TournamentRequest, known_game_id
from .tables import Tables
from .tournament_views import (
    EntrantView,
    PairingView,
    TournamentOutcome,
    TournamentView,
    result_of,
    rules_of,
)
from .views import Outcome, Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason

UNKNOWN = "I can't find that tournament."
ELSEWHERE = "That belongs to a tournament in another channel."
NOT_ORGANISER = "Only the tournament's organiser can do that."
Listener = Callable[[TournamentOutcome], Awaitable[None]]


@dataclass(slots=True)
class Running:
    """A tournament not over, as the tournament parts keep it: its rows and its lock."""

    record: TournamentRecord
    entrants: dict[int, EntrantRecord]
    pairings: dict[tuple[int, int], PairingRecord]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def of(cls, stored: StoredTournament) -> Running:
        return cls(
            stored.record,
            {e.user_id: e for e in stored.entrants},
            {(p.round, p.table): p for p in stored.pairings},
        )

    @property
    def id(self) -> int:
        return self.record.id

    def plays(self, place: int) -> int:
        """Who plays the place ``place`` now."""
        entrant = self.entrants.get(place)
        return place if entrant is None or entrant.replaced_by is None else entrant.replaced_by

    def current(self) -> list[PairingRecord]:
        return [p for p in self.pairings.values() if p.round == self.record.round]

    def open_pairing_of(self, place: int) -> PairingRecord | None:
        return next(
            (p for p in self.current() if p.state != "decided" and place in (p.first, p.second)),
            None,
        )

    def dropped(self) -> set[str]:
        return {str(u) for u, e in self.entrants.items() if e.status != "entered"}

    def pairing_view(self, p: PairingRecord) -> PairingView:
        return PairingView(
            round=p.round,
            table=p.table,
            first=p.first,
            second=p.second,
            first_player=self.plays(p.first),
            second_player=None if p.second is None else self.plays(p.second),
            state=p.state,
            thread_id=p.thread_id,
            game_id=p.game_id,
            deadline_at=p.deadline_at,
            games=p.games,
            result=result_of(p, self.record.settings.target),
            decided_by=p.decided_by,
        )

    def view(self) -> TournamentView:
        rec = self.record
        rules = rules_of(rec, self.entrants)
        results = [
            r
            for p in sorted(self.pairings.values(), key=lambda p: (p.round, p.table))
            if (r := result_of(p, rec.settings.target)) is not None
        ]
        table: tuple[Standing, ...] = ()
        places: tuple[Placing, ...] = ()
        if rules is not None and rules.format is Format.SINGLE_ELIMINATION:
            places = placings(rules, results, frozenset(self.dropped()))
        elif rules is not None:
            table = standings(rules, results)
        return TournamentView(
            tournament_id=rec.id,
            guild_id=rec.guild_id,
            channel_id=rec.channel_id,
            message_id=rec.message_id,
            organiser_id=rec.organiser_id,
            settings=rec.settings,
            status=rec.status,
            round=rec.round,
            total_rounds=0 if rules is None else rules.total_rounds,
            entrants=tuple(
                EntrantView(e.user_id, self.plays(e.user_id), e.seed, e.rating, e.status)
                for e in self.entrants.values()
            ),
            pairings=tuple(
                self.pairing_view(p)
                for p in sorted(self.pairings.values(), key=lambda p: (p.round, p.table))
            ),
            standings=table,
            placings=places,
            created_at=rec.created_at,
            started_at=rec.started_at,
            ended_at=rec.ended_at,
        )

    def outcome(
        self,
        what: str,
        *,
        decided: Iterable[PairingRecord] = (),
        opened: Iterable[PairingRecord] = (),
        finished: bool = False,
        games: Iterable[Outcome] = (),
        playing: Iterable[PairingRecord] = (),
    ) -> TournamentOutcome:
        """What a request or a game's end did to this tournament (``what``), as it now stands;
        the players of the ``opened`` pairings are the ones to ping."""
        opened_views = tuple(self.pairing_view(p) for p in opened)
        return TournamentOutcome(
            view=self.view(),
            what=what,
            decided=tuple(self.pairing_view(p) for p in decided),
            opened=opened_views,
            playing=tuple(self.pairing_view(p) for p in playing),
            ping=tuple(u for p in opened_views for u in p.players),
            finished=finished,
            games=tuple(games),
        )


@dataclass(frozen=True, slots=True)
class Ended:
    """A pairing's game that ended, waiting to be recorded."""

    finish: Finish
    next_dealer: int | None


def not_organiser(live: Running, request: TournamentRequest) -> Refusal | None:
    """Why the person asking may not run ``live`` (``None``: they may: its organiser, or
    someone the cog found may manage the server)."""
    if request.user_id == live.record.organiser_id or request.organiser_rights:
        return None
    return Refusal(R.NOT_HOST, NOT_ORGANISER)


class RunningTournaments:
    """The tournaments not over in this process, and what their parts share about them.

    ``open``: each by id; ``pairing_of``: a pairing's game -> (tournament, round, table);
    ``ended``: the pairings' games that ended, not yet recorded; ``closed_games``: the games of
    the tournaments over in this process; ``listeners``: told every :class:`TournamentOutcome`
    a game's end brings about (a result, a round, the end).
    """

    def __init__(self, rows: Tournaments, tables: Tables) -> None:
        self._rows = rows
        self._tables = tables
        self.open: dict[int, Running] = {}
        self.pairing_of: dict[int, tuple[int, int, int]] = {}
        self.ended: dict[int, Ended] = {}
        self.closed_games: set[int] = set()
        self.listeners: list[Listener] = []

    async def find(self, request: TournamentRequest) -> Running | Refusal:
        """The tournament of ``request`` if it is not over and the request was made where it
        is played (its channel or one of its threads), else why not."""
        where = request.where
        if not known_game_id(request.tournament_id):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN)
        if where is not None and not self._tables.owns(where.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(request.user_id):
            return Refusal(R.NOT_SEATED, "This account can't take part here.")
        live = self.open.get(request.tournament_id)
        if live is None:
            return await self.missing(request.tournament_id)
        if where is not None:
            here = {live.record.channel_id} | {
                p.thread_id for p in live.pairings.values() if p.thread_id is not None
            }
            if where.guild_id != live.record.guild_id or where.channel_id not in here:
                return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return live

    async def missing(self, tournament_id: int) -> Refusal:
        """Why a tournament not running here is refused: unknown, cancelled or over."""
        stored = await self._rows.load(tournament_id) if known_game_id(tournament_id) else None
        if stored is None or stored.record.status in ("signup", "running", "paused"):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN)
        if stored.record.status == "cancelled":
            return Refusal(R.GAME_OVER, "This tournament was cancelled.")
        return Refusal(R.GAME_OVER, "This tournament is over.")

    async def close(self, live: Running, status: str) -> None:
        """The tournament finished or was cancelled (stored first): no longer running; its
        games are remembered as a tournament's (lock held)."""
        now = self._tables.now()
        await self._rows.end(live.id, "finished" if status == "finished" else "cancelled", now=now)
        live.record = dataclasses.replace(
            live.record,
            status="finished" if status == "finished" else "cancelled",
            ended_at=now,
            paused_at=None,
        )
        del self.open[live.id]
        for game_id in [g for g, key in self.pairing_of.items() if key[0] == live.id]:
            del self.pairing_of[game_id]
            self.closed_games.add(game_id)
        log.info("tournament %d: %s", live.id, status)

    async def tell(self, news: TournamentOutcome) -> None:
        """Every listener hears ``news``; one that fails is logged and the others still hear."""
        for listener in list(self.listeners):
            try:
                await listener(news)
            except Exception:
                log.exception("tournament %d: a listener failed", news.view.tournament_id)
