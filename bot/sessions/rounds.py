"""Rounds: the resume at start-up and the periodic sweeps, each joined to the matches.

Each round asks one part for its work (:mod:`.upkeep`, :mod:`.timers`, :mod:`.muggins`,
:mod:`.deals`) and
passes every outcome through :meth:`Matches.follow <bot.sessions.matches.Matches.follow>`, so a
game that ended in a round starts its match's next game; the resume and the idle sweep also
start the next game of any match left waiting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .deals import NextDeals
from .matches import Matches
from .muggins import MugginsWindows
from .rematch import Rematches
from .tables import Tables
from .timers import TurnReport, TurnTimers
from .upkeep import Upkeep
from .views import Outcome, ResumeReport, SweepReport


class Rounds:
    """The resume (once) and the sweeps the app runs every few seconds or minutes."""

    def __init__(
        self,
        tables: Tables,
        matches: Matches,
        rematches: Rematches,
        upkeep: Upkeep,
        timers: TurnTimers,
        muggins: MugginsWindows,
        deals: NextDeals,
    ) -> None:
        self._tables = tables
        self._matches = matches
        self._rematches = rematches
        self._upkeep = upkeep
        self._timers = timers
        self._muggins = muggins
        self._deals = deals
        self._resumed = False

    async def follow_all(self, outcomes: Iterable[Outcome]) -> list[Outcome]:
        """Every outcome after :meth:`Matches.follow` (a match's next game started), in order."""
        return [await self._matches.follow(o) for o in outcomes]

    def _now(self, now: float | None) -> float:
        return self._tables.now() if now is None else now

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """See :meth:`bot.sessions.GameSessionManager.resume`."""
        if self._resumed:
            raise RuntimeError("resume() runs once, before the manager serves requests")
        self._resumed = True
        await self._rematches.load()
        await self._matches.load()
        report = await self._upkeep.resume(verify=verify)
        outcomes = await self.follow_all(report.outcomes)
        await self._matches.begin_started()
        outcomes += await self._matches.continue_due()
        return dataclasses.replace(report, outcomes=tuple(outcomes))

    async def sweep_idle(self, now: float | None = None) -> SweepReport:
        """See :meth:`bot.sessions.GameSessionManager.sweep_idle`."""
        report = await self._upkeep.sweep_idle(self._now(now))
        abandoned = await self.follow_all(report.abandoned)
        resumed = await self.follow_all(report.resumed)
        resumed += await self._matches.continue_due()
        return dataclasses.replace(report, abandoned=tuple(abandoned), resumed=tuple(resumed))

    async def sweep_turns(self, now: float | None = None) -> TurnReport:
        """See :meth:`bot.sessions.GameSessionManager.sweep_turns`."""
        report = await self._timers.sweep(self._now(now))
        expired = await self.follow_all(report.expired)
        forfeits = await self.follow_all(report.forfeits)
        return dataclasses.replace(report, expired=tuple(expired), forfeits=tuple(forfeits))

    async def close_muggins_windows(self, now: float | None = None) -> list[Outcome]:
        """See :meth:`bot.sessions.GameSessionManager.close_muggins_windows`."""
        return await self.follow_all(await self._muggins.close_due(self._now(now)))

    async def start_due_deals(self, now: float | None = None) -> list[Outcome]:
        """See :meth:`bot.sessions.GameSessionManager.start_due_deals`."""
        return await self.follow_all(await self._deals.start_due(self._now(now)))
