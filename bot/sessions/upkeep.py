"""Upkeep: resuming after a restart (checked against the log), idle warnings and abandons."""

from __future__ import annotations

import dataclasses
import logging
import random

from bot.engine import Variant
from db import GameRecord

from .bookkeeping import finish_abandoned
from .core import ManagerCore
from .history import rebuild
from .session import Session
from .views import GameStatus, IdleWarning, Outcome, ResumeReport, StepEvent, SweepReport

log = logging.getLogger("bot.sessions")


class Upkeep(ManagerCore):
    """Start-up and housekeeping half of :class:`~bot.sessions.GameSessionManager`."""

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """Load every lobby and active game, check a sample against its log, and resume.

        ``verify``: how many active games to replay from their log (default
        ``verify_sample``; pass a large number for all). Games whose snapshot is not at the end
        of their log are always replayed. Computer seats that were about to move, move now; the
        outcomes are in the report so the cogs can update the channels.
        """
        if self._resumed:
            raise RuntimeError("resume() runs once, before the manager serves requests")
        self._resumed = True
        records = await self._store.load_active_games()
        verified, repaired, broken = [], [], []
        for record in records:
            try:
                session = Session(record)
            except (ValueError, KeyError, TypeError) as err:
                # e.g. a snapshot from another engine state version: the log rebuilds it
                log.error(
                    "game %d: cannot load its snapshot (%s); replaying its log", record.id, err
                )
                session = await self._rebuilt_session(record)
                (broken if session is None else repaired).append(record.id)
                if session is None:
                    continue
            self._register(session)
        active = [r for r in records if r.status == "active" and r.id in self._sessions]
        suspicious = {r.id for r in active if not r.snapshot_seq == r.step == r.last_seq}
        suspicious -= set(repaired)
        wanted = self.verify_sample if verify is None else verify
        others = [
            r.id for r in active if r.id not in suspicious and r.id not in repaired and r.last_seq
        ]
        sample = set(random.sample(others, min(wanted, len(others)))) | suspicious
        for game_id in sorted(sample):
            result = await self._verify(self._sessions[game_id])
            {"ok": verified, "repaired": repaired, "unreplayable": broken}[result].append(game_id)
        outcomes = []
        for session in list(self._sessions.values()):
            if self._computer_to_act(session) is not None:
                async with session.lock:
                    events: list[StepEvent] = []
                    await self._run_computers(session, events)
                    outcomes.append(self._outcome(session, events))
        log.info(
            "resumed %d lobbies and %d games (%d checked against their log, %d repaired)",
            len(records) - len(active),
            len(active),
            len(verified) + len(repaired),
            len(repaired),
        )
        return ResumeReport(
            lobbies=len(records) - len(active),
            active=len(active),
            verified=tuple(verified),
            repaired=tuple(repaired),
            unreplayable=tuple(broken),
            outcomes=tuple(outcomes),
        )

    async def verify(self, game_id: int) -> str:
        """Replay one live game's log and compare it with its state: ``'ok'``, ``'repaired'``
        (the log won) or ``'unreplayable'``."""
        session = self._sessions[game_id]
        async with session.lock:
            return await self._verify(session)

    async def verify_all(self) -> dict[int, str]:
        """Check every live game against its log (see :meth:`verify`); game id -> result."""
        results = {}
        for game_id in sorted(self._sessions):
            session = self._sessions.get(game_id)
            if session is not None and session.game is not None:
                async with session.lock:
                    results[game_id] = await self._verify(session)
        return results

    async def _rebuilt_session(self, record: GameRecord) -> Session | None:
        """A session rebuilt from the log alone (its snapshot rewritten), or None."""
        if record.seed is None:
            return None
        log_records = await self._store.load_actions(record.id)
        try:
            variant = Variant(record.players, record.partnerships, record.target, record.muggins)
            rebuilt = rebuild(variant, record.seed, record.first_dealer, log_records)
        except ValueError as err:
            log.error("game %d: its log does not replay either (%s); left aside", record.id, err)
            return None
        state, seq = rebuilt.game.to_dict(), len(log_records)
        await self._store.repair_snapshot(record.id, seq=seq, state=state, ready=rebuilt.ready)
        return Session(
            dataclasses.replace(
                record, state=state, ready=rebuilt.ready, snapshot_seq=seq, step=seq, last_seq=seq
            )
        )

    async def _verify(self, s: Session) -> str:
        if s.game is None or s.seed is None:
            return "ok"
        log_records = await self._store.load_actions(s.id)
        try:
            rebuilt = rebuild(s.variant, s.seed, s.first_dealer, log_records)
        except ValueError as err:
            log.error("game %d: its action log does not replay (%s); kept its snapshot", s.id, err)
            return "unreplayable"
        if rebuilt.game == s.game and len(log_records) == s.step and rebuilt.ready == s.ready:
            return "ok"
        log.error(
            "game %d: snapshot (step %d) disagrees with its log (%d actions); using the log",
            s.id,
            s.step,
            len(log_records),
        )
        await self._store.repair_snapshot(
            s.id, seq=len(log_records), state=rebuilt.game.to_dict(), ready=rebuilt.ready
        )
        s.set_game(rebuilt.game)
        s.step, s.ready = len(log_records), rebuilt.ready
        s.changed()
        return "repaired"

    async def sweep_idle(self, now: float | None = None) -> SweepReport:
        """Warn about idle games, abandon those idle too long, unstick waiting computers.

        Call it periodically (e.g. every few minutes) and send the warnings to the channels.
        """
        now = self._clock() if now is None else now
        warnings, abandoned, resumed = [], [], []
        for s in list(self._sessions.values()):
            if s.lock.locked():
                continue  # busy, so not idle
            async with s.lock:
                if not s.status.is_open:
                    continue
                if self._computer_to_act(s) is not None:
                    events: list[StepEvent] = []
                    await self._run_computers(s, events)
                    resumed.append(self._outcome(s, events))
                    continue
                idle = now - s.updated_at
                grace = self.idle_abandon_after - self.idle_warn_after
                if (
                    idle >= self.idle_abandon_after
                    and s.warned_at is not None
                    and now - s.warned_at >= grace
                ):
                    abandoned.append(await self._abandon(s))
                elif idle >= self.idle_warn_after and s.warned_at is None:
                    await self._store.mark_warned(s.id, at=now)
                    s.warned_at = now
                    view = s.view()
                    warnings.append(
                        IdleWarning(
                            game_id=s.id,
                            channel_id=s.channel_id,
                            user_ids=view.to_act_users or view.user_ids,
                            idle_since=s.updated_at,
                            abandon_at=max(s.updated_at + self.idle_abandon_after, now + grace),
                        )
                    )
        return SweepReport(tuple(warnings), tuple(abandoned), tuple(resumed))

    async def _abandon(self, s: Session) -> Outcome:
        if s.status is GameStatus.LOBBY:
            await self._close_lobby(s, "abandoned")
            return self._outcome(s, [])
        assert s.game is not None
        finish = finish_abandoned(s.game)
        await self._store.record_result(s.id, finish, now=self._clock())
        self._end(s, finish)
        return self._outcome(s, [])
