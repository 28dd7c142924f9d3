"""Upkeep: resuming after a restart (checked against the log), idle warnings and abandons."""

from __future__ import annotations

import dataclasses
import logging
import random
from typing import Literal

from bot.engine import Variant
from db import GameRecord
from db.games import Games

from .bookkeeping import finish_abandoned
from .history import hold_of, rebuild
from .lobby import Lobbies
from .play import GamePlay
from .session import Session
from .tables import Tables
from .views import GameStatus, IdleWarning, Outcome, ResumeReport, StepEvent, SweepReport

log = logging.getLogger("bot.sessions")

Check = Literal["ok", "repaired", "unreplayable"]


class Upkeep:
    """Loading the tables at start-up, checking them against their logs, and idle tables.

    A game untouched for ``idle_warn_after`` seconds gets a warning from :meth:`sweep_idle`;
    one untouched for ``idle_abandon_after`` (and warned at least ``idle_abandon_after -
    idle_warn_after`` before) is abandoned. :meth:`resume` checks ``verify_sample`` games.
    """

    def __init__(
        self,
        games: Games,
        tables: Tables,
        play: GamePlay,
        lobbies: Lobbies,
        *,
        idle_warn_after: float,
        idle_abandon_after: float,
        verify_sample: int,
    ) -> None:
        if not 0 < idle_warn_after < idle_abandon_after:
            raise ValueError("Need 0 < idle_warn_after < idle_abandon_after")
        self._games = games
        self._tables = tables
        self._play = play
        self._lobbies = lobbies
        self.idle_warn_after = idle_warn_after
        self.idle_abandon_after = idle_abandon_after
        self.verify_sample = verify_sample

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """See :meth:`bot.sessions.GameSessionManager.resume` (this part loads the tables)."""
        records = [  # the tables of the servers this process serves (all, with one process)
            r for r in await self._load_owned() if self._tables.owns(r.guild_id)
        ]
        verified: list[int] = []
        repaired: list[int] = []
        broken: list[int] = []
        sessions = self._tables.sessions
        for record in records:
            try:
                session: Session | None = Session(record)
            except (ValueError, KeyError, TypeError) as err:
                # e.g. a snapshot from another engine state version: the log rebuilds it
                log.error(
                    "game %d: cannot load its snapshot (%s); replaying its log", record.id, err
                )
                session = await self._rebuilt_session(record)
                (broken if session is None else repaired).append(record.id)
            if session is not None:
                self._tables.register(session)
        active = [r for r in records if r.status == "active" and r.id in sessions]
        suspicious = {r.id for r in active if not r.snapshot_seq == r.step == r.last_seq}
        suspicious -= set(repaired)
        wanted = self.verify_sample if verify is None else verify
        others = [
            r.id for r in active if r.id not in suspicious and r.id not in repaired and r.last_seq
        ]
        sample = set(random.sample(others, min(wanted, len(others)))) | suspicious
        results: dict[Check, list[int]] = {
            "ok": verified,
            "repaired": repaired,
            "unreplayable": broken,
        }
        for game_id in sorted(sample):
            results[await self._verify(sessions[game_id])].append(game_id)
        outcomes = []
        for session in list(sessions.values()):  # computers, and cards laid by themselves
            if await self._play.due_move(session) is not None:
                async with session.lock:
                    events: list[StepEvent] = []
                    await self._play.advance(session, events)
                    outcomes.append(await self._play.outcome(session, events))
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

    async def _load_owned(self) -> list[GameRecord]:
        """The open tables of the servers this process serves: picked by the database when
        ``owns`` is a shard set's (see :func:`~.tables.shards_of`), else every open table."""
        if self._tables.shards is None:
            return await self._games.load_active_games()
        count, ids = self._tables.shards
        return await self._games.load_active_games(shard_count=count, shard_ids=ids)

    async def verify(self, game_id: int) -> Check:
        """See :meth:`bot.sessions.GameSessionManager.verify`."""
        session = self._tables.sessions[game_id]
        async with session.lock:
            return await self._verify(session)

    async def verify_all(self) -> dict[int, Check]:
        """Check every live game against its log (see :meth:`verify`); game id -> result."""
        results: dict[int, Check] = {}
        for game_id in sorted(self._tables.sessions):
            session = self._tables.sessions.get(game_id)
            if session is not None and session.game is not None:
                async with session.lock:
                    results[game_id] = await self._verify(session)
        return results

    async def _rebuilt_session(self, record: GameRecord) -> Session | None:
        """A session rebuilt from the log alone (its snapshot rewritten), or None."""
        if record.seed is None:
            return None
        log_records = await self._games.load_actions(record.id)
        try:
            variant = Variant(record.players, record.partnerships, record.target, record.muggins)
            hold = hold_of(record.state)
            rebuilt = rebuild(variant, record.seed, record.first_dealer, log_records, hold=hold)
        except ValueError as err:
            log.error("game %d: its log does not replay either (%s); left aside", record.id, err)
            return None
        state, seq = rebuilt.game.to_dict(), len(log_records)
        await self._games.repair_snapshot(record.id, seq=seq, state=state, ready=rebuilt.ready)
        return Session(
            dataclasses.replace(
                record, state=state, ready=rebuilt.ready, snapshot_seq=seq, step=seq, last_seq=seq
            )
        )

    async def _verify(self, s: Session) -> Check:
        if s.game is None or s.seed is None:
            return "ok"
        log_records = await self._games.load_actions(s.id)
        try:
            hold = s.game.hold_between_deals
            rebuilt = rebuild(s.variant, s.seed, s.first_dealer, log_records, hold=hold)
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
        await self._games.repair_snapshot(
            s.id, seq=len(log_records), state=rebuilt.game.to_dict(), ready=rebuilt.ready
        )
        s.set_game(rebuilt.game)
        s.step, s.ready = len(log_records), rebuilt.ready
        return "repaired"

    async def sweep_idle(self, now: float) -> SweepReport:
        """See :meth:`bot.sessions.GameSessionManager.sweep_idle`."""
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
                grace = self.idle_abandon_after - self.idle_warn_after
                if (
                    idle >= self.idle_abandon_after
                    and s.warned_at is not None
                    and now - s.warned_at >= grace
                ):
                    abandoned.append(await self._abandon(s))
                elif idle >= self.idle_warn_after and s.warned_at is None:
                    await self._games.mark_warned(s.id, at=now)
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
            await self._lobbies.close(s, "abandoned")
            return await self._play.outcome(s, [])
        assert s.game is not None
        finish = finish_abandoned(s.game)
        await self._games.record_result(s.id, finish, now=self._tables.now())
        self._play.end(s, finish)
        return await self._play.outcome(s, [])
