"""A tournament's rounds: seeding and round 1 at its start, each next round paired once the
round being played is decided, and the end after the last.

The field is seeded by rating (the server's ratings among people, :func:`bot.tournament.seeded`;
the unrated rank as a new player, by lot among themselves). A Swiss asked for more rounds than
the field allows (:func:`most_swiss_rounds`, and no more than avoid repeats) plays as many as it
allows. The pairings come from :func:`bot.tournament.next_round`; a round's byes and walkovers
are stored decided, the others with the round's deadline.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from dataclasses import dataclass

from bot.tournament import Format, Round, TournamentError, next_round, seeded
from db.tournaments import PairingRecord, Tournaments

from .tables import Tables
from .tournament_state import Running, RunningTournaments
from .tournament_views import TournamentOutcome, result_of, rules_of
from .views import Refusal, RefusalReason

log = logging.getLogger("bot.sessions")
R = RefusalReason


def most_swiss_rounds(players: int) -> int:
    """The most Swiss rounds for a field of ``players``: ``⌈log2 n⌉ + 3``.

    >>> most_swiss_rounds(8), most_swiss_rounds(5), most_swiss_rounds(256)
    (6, 6, 11)
    """
    return math.ceil(math.log2(max(players, 2))) + 3


@dataclass(frozen=True, slots=True)
class Advance:
    """What closing a round did: the next round's pairings to play, or the end."""

    opened: list[PairingRecord]
    finished: bool


class Rounds:
    """Starts a tournament's first round and moves it on from round to round (each call with
    the tournament's lock held)."""

    def __init__(self, running: RunningTournaments, rows: Tournaments, tables: Tables) -> None:
        self._running = running
        self._rows = rows
        self._tables = tables

    async def begin(self, live: Running) -> TournamentOutcome | Refusal:
        """Close the sign-up: seed the field and pair round 1 (fewer than 2 players: refused)."""
        rec = live.record
        n = len(live.entrants)
        if n < 2:
            return Refusal(
                R.SEATS_EMPTY, "A tournament needs at least 2 players: wait for more to join."
            )
        ratings = await self._rows.ratings(live.entrants, scope=rec.guild_id)
        order = seeded({str(u): ratings.get(u, 0.0) for u in live.entrants})
        settings = rec.settings
        if settings.format == Format.SWISS.value:
            most = min(most_swiss_rounds(n), n - 1 + n % 2)
            settings = dataclasses.replace(settings, rounds=min(settings.rounds, most))
        started = dataclasses.replace(rec, settings=settings, status="running", round=1)
        seeds = {int(p): i for i, p in enumerate(order, start=1)}
        entrants = {
            u: dataclasses.replace(e, rating=ratings.get(u), seed=seeds[u])
            for u, e in live.entrants.items()
        }
        rules = rules_of(started, entrants)
        assert rules is not None
        try:
            first = next_round(rules, [])
        except TournamentError as err:
            return Refusal(R.INVALID, str(err))
        now = self._tables.now()
        pairings = round_rows(first, now + settings.deadline_seconds, now)
        await self._rows.start(
            live.id,
            [(u, e.rating, e.seed or 0) for u, e in entrants.items()],
            pairings,
            rounds=settings.rounds,
            now=now,
        )
        live.record = dataclasses.replace(started, started_at=now)
        live.entrants = entrants
        live.pairings = {(p.round, p.table): p for p in pairings}
        log.info("tournament %d: started with %d players", live.id, n)
        opened = [p for p in pairings if p.state == "waiting"]
        later = await self.advance(live)
        return live.outcome("started", opened=opened + list(later.opened), finished=later.finished)

    async def advance(self, live: Running) -> Advance:
        """While the round being played is decided: pair the next, or finish."""
        opened: list[PairingRecord] = []
        while live.record.status == "running":
            if any(p.state != "decided" for p in live.current()):
                break
            rules = rules_of(live.record, live.entrants)
            assert rules is not None
            results = [r for p in live.pairings.values() if (r := result_of(p, rules.target))]
            number = live.record.round + 1
            if number > rules.total_rounds:
                await self._running.close(live, "finished")
                return Advance(opened, True)
            rnd = next_round(rules, results, dropped=live.dropped())
            now = self._tables.now()
            pairings = round_rows(rnd, now + live.record.settings.deadline_seconds, now)
            await self._rows.open_round(live.id, number, pairings)
            live.record = dataclasses.replace(live.record, round=number)
            for p in pairings:
                live.pairings[(p.round, p.table)] = p
            opened = [p for p in pairings if p.state == "waiting"]
            log.info("tournament %d: round %d paired", live.id, number)
        return Advance(opened, False)


def round_rows(rnd: Round, deadline: float, now: float) -> list[PairingRecord]:
    """A round's pairings as rows: those to play (with the deadline), then its byes and
    walkovers, decided already."""
    rows = [
        PairingRecord(rnd.number, p.table, int(p.first), int(p.second), deadline_at=deadline)
        for p in rnd.pairings
    ]
    table = len(rows)
    for r in rnd.settled:
        table += 1
        if r.second is None:
            rows.append(
                PairingRecord(
                    rnd.number,
                    table,
                    int(r.first),
                    None,
                    "decided",
                    decided_by="bye",
                    decided_at=now,
                )  # fmt: skip
            )
        else:
            loser = r.forfeited_by
            assert loser is not None
            rows.append(
                PairingRecord(
                    rnd.number,
                    table,
                    int(r.first),
                    int(r.second),
                    "decided",
                    forfeited_by=int(loser),
                    decided_by="drop",
                    decided_at=now,
                )  # fmt: skip
            )
    return rows
