"""Idle tables: a warning after a while, then abandoned; and computers left waiting, moved.

A table untouched for ``warn_after`` seconds gets a warning from :meth:`IdleSweep.sweep`; one
untouched for ``abandon_after`` (and warned at least ``abandon_after - warn_after`` before) is
abandoned (a lobby is closed as abandoned, a game ends without a winner). Call the sweep every
few minutes and send the warnings to the channels.
"""

from __future__ import annotations

from db.games import Games

from .bookkeeping import finish_abandoned
from .lobby import Lobbies
from .matches import OpenMatches
from .play import GamePlay
from .session import Session
from .tables import Tables
from .views import GameStatus, IdleWarning, Outcome, StepEvent, SweepReport


class IdleSweep:
    """Warns about idle tables and abandons them (see the module docstring)."""

    def __init__(
        self,
        games: Games,
        tables: Tables,
        play: GamePlay,
        lobbies: Lobbies,
        matches: OpenMatches,
        *,
        warn_after: float,
        abandon_after: float,
    ) -> None:
        if not 0 < warn_after < abandon_after:
            raise ValueError("Need 0 < idle_warn_after < idle_abandon_after")
        self._games = games
        self._tables = tables
        self._play = play
        self._lobbies = lobbies
        self._matches = matches
        self.warn_after = warn_after
        self.abandon_after = abandon_after

    async def sweep(self, now: float | None = None) -> SweepReport:
        """Warn about idle games, abandon those idle too long, unstick waiting computers, and
        start the next game of any match left waiting (``now``: the manager's clock)."""
        now = self._tables.now() if now is None else now
        warnings, abandoned, resumed = [], [], []
        for s in list(self._tables.sessions.values()):
            if s.lock.locked():
                continue  # busy, so not idle
            async with s.lock:
                if not s.status.is_open:
                    continue
                if await self._play.due_move(s) is not None:
                    events: list[StepEvent] = []
                    await self._play.advance(s, events)
                    resumed.append(await self._play.outcome(s, events))
                    continue
                idle = now - s.updated_at
                grace = self.abandon_after - self.warn_after
                if (
                    idle >= self.abandon_after
                    and s.warned_at is not None
                    and now - s.warned_at >= grace
                ):
                    abandoned.append(await self._abandon(s))
                elif idle >= self.warn_after and s.warned_at is None:
                    await self._games.mark_warned(s.id, at=now)
                    s.warned_at = now
                    view = s.view()
                    warnings.append(
                        IdleWarning(
                            game_id=s.id,
                            channel_id=s.channel_id,
                            user_ids=view.to_act_users or view.user_ids,
                            idle_since=s.updated_at,
                            abandon_at=max(s.updated_at + self.abandon_after, now + grace),
                        )
                    )
        follow_all = self._tables.events.follow_all
        abandoned = await follow_all(abandoned)
        resumed = await follow_all(resumed)
        resumed += await self._matches.continue_due()
        return SweepReport(tuple(warnings), tuple(abandoned), tuple(resumed))

    async def _abandon(self, s: Session) -> Outcome:
        if s.status is GameStatus.LOBBY:
            await self._lobbies.close(s, "abandoned")
            return await self._play.outcome(s, [])
        assert s.game is not None
        finish = finish_abandoned(s.game)
        await self._games.record_result(s.id, finish, now=self._tables.now())
        self._play.end(s, finish)
        return await self._play.outcome(s, [])
