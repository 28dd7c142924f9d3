"""Loading the tables at start-up, each checked against its log, and checks on demand.

:meth:`TableLoader.load` (part of :meth:`~bot.sessions.GameSessionManager.resume`) loads every
lobby and active game of the servers this process serves, replays a sample of the games (and
every game whose snapshot is not at the end of its log) from its log, and repairs a snapshot
the log disagrees with: the log wins. Computer seats that were about to move, move now (and a
person's last or only card is laid).
"""

from __future__ import annotations

import dataclasses
import logging
import random
from typing import Literal

from bot.engine import Variant
from db import GameRecord
from db.games import Games

from .history import hold_of, muggins_rules_of, rebuild
from .play import GamePlay
from .session import Session
from .tables import Tables
from .views import ResumeReport, StepEvent

log = logging.getLogger("bot.sessions")

Check = Literal["ok", "repaired", "unreplayable"]


class TableLoader:
    """Loads the live tables and checks them against their logs (see the module docstring).

    :meth:`load` replays ``verify_sample`` games chosen at random (besides the suspicious ones).
    """

    def __init__(self, games: Games, tables: Tables, play: GamePlay, *, verify_sample: int) -> None:
        self._games = games
        self._tables = tables
        self._play = play
        self.verify_sample = verify_sample

    async def load(self, *, verify: int | None = None) -> ResumeReport:
        """Load every open table this process serves, replay ``verify`` active games from their
        log (default :attr:`verify_sample`; the suspicious ones always), and make the moves due
        (the outcomes are in the report, before any match follows them)."""
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
        """Replay one live game's log and compare it with its state: ``'ok'``, ``'repaired'``
        (the log won) or ``'unreplayable'``."""
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
            hold, rules = hold_of(record.state), muggins_rules_of(record.state)
            seed, first = record.seed, record.first_dealer
            rebuilt = rebuild(variant, seed, first, log_records, hold=hold, muggins_rules=rules)
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
            hold, rules = s.game.hold_between_deals, s.game.muggins_rules
            rebuilt = rebuild(
                s.variant, s.seed, s.first_dealer, log_records, hold=hold, muggins_rules=rules
            )
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
