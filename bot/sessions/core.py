"""The heart of the session manager: apply an action on a copy, make it durable, swap it in.

Shared by the lobby, play and upkeep parts of :class:`~bot.sessions.GameSessionManager`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable

from bot.engine import Action, Game
from db import ActionWrite, Finish, Store

from .bookkeeping import deal_points, finish_won, next_ready
from .session import Session
from .strategy import Strategy, simple_strategy
from .views import (
    Finished,
    GameStatus,
    GameView,
    Outcome,
    Refusal,
    RefusalReason,
    StepEvent,
)

log = logging.getLogger("bot.sessions")
R = RefusalReason


class ManagerCore:
    """State and the commit path of the manager (see :class:`GameSessionManager`)."""

    def __init__(
        self,
        store: Store,
        *,
        strategy: Strategy | None = None,
        idle_warn_after: float = 23 * 3600,
        idle_abandon_after: float = 24 * 3600,
        verify_sample: int = 8,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(128),
    ) -> None:
        if not 0 < idle_warn_after < idle_abandon_after:
            raise ValueError("Need 0 < idle_warn_after < idle_abandon_after")
        self._store = store
        self._strategy = strategy or simple_strategy
        self.idle_warn_after = idle_warn_after
        self.idle_abandon_after = idle_abandon_after
        self.verify_sample = verify_sample
        self._clock = clock
        self._seed_source = seed_source
        self._sessions: dict[int, Session] = {}
        self._by_channel: dict[int, int] = {}
        self._claimed_channels: set[int] = set()
        self._resumed = False

    def _register(self, s: Session) -> None:
        self._sessions[s.id] = s
        self._by_channel[s.channel_id] = s.id

    def _unregister(self, s: Session) -> None:
        self._sessions.pop(s.id, None)
        if self._by_channel.get(s.channel_id) == s.id:
            del self._by_channel[s.channel_id]

    def _touch(self, s: Session) -> float:
        s.updated_at, s.warned_at = self._clock(), None
        return s.updated_at

    async def _apply(self, s: Session, seat: int, action: Action, events: list[StepEvent]) -> None:
        """Apply on a copy, commit, then swap the copy in. Raises IllegalAction (no change)."""
        assert s.game is not None
        assert s.state is not None
        work = Game.from_dict(s.state)  # a private copy: readers only ever see committed states
        to_act_before, scores_before = work.to_act, list(work.scores)
        produced = work.apply(seat, action)
        step = s.step + 1
        ready = next_ready(s.ready, to_act_before, work.to_act, seat, step)
        finish = finish_won(work) if work.is_over else None
        now = self._clock()
        write = ActionWrite(
            game_id=s.id,
            seq=step,
            seat=seat,
            action=action.to_dict(),
            state=work.to_dict(),
            ready=ready,
            at=now,
            deal_points=deal_points(s.game, produced, scores_before),
            finish=finish,
        )
        cancelled = await self._durable(s, self._store.append_action(write))
        s.set_game(work, write.state)
        s.step, s.ready, s.updated_at, s.warned_at = step, ready, now, None
        s.changed()
        events.extend(StepEvent(step, e) for e in produced)
        log.debug("game %d: step %d, seat %d: %s", s.id, step, seat, type(action).__name__)
        if finish is not None:
            self._end(s, finish)
        if cancelled:
            raise asyncio.CancelledError

    @staticmethod
    async def _durable(s: Session, fut: asyncio.Future[None]) -> bool:
        """Wait until a queued write is committed, even through a cancellation; return whether
        the caller was cancelled meanwhile (it must re-raise once its bookkeeping is done).
        A failed write raises, and marks the session for a reload from the database."""
        cancelled = False
        while not fut.done():
            try:
                await asyncio.shield(fut)
            except asyncio.CancelledError:
                if fut.cancelled():
                    s.broken = True
                    raise
                cancelled = True
            except BaseException:
                break
        if fut.cancelled() or fut.exception() is not None:
            s.broken = True
            fut.result()  # raises the write's error
        return cancelled

    async def _reload(self, s: Session) -> None:
        """Re-read a session whose last write ended in an error (its durable state wins)."""
        record = await self._store.load_game(s.id)
        if record is None:
            raise LookupError(f"game {s.id} vanished from the database")
        fresh = Session(record)
        s.set_game(fresh.game, fresh.state)
        s.status, s.step, s.ready = fresh.status, fresh.step, fresh.ready
        s.broken = False
        s.changed()
        if not s.status.is_open:
            self._unregister(s)

    def _computer_to_act(self, s: Session) -> int | None:
        if s.status is not GameStatus.ACTIVE or s.game is None:
            return None
        return next((x for x in s.game.to_act if s.seats[x].is_computer), None)

    async def _run_computers(self, s: Session, events: list[StepEvent]) -> None:
        """Let computer seats act until a human must act or the game ends."""
        while (seat := self._computer_to_act(s)) is not None:
            action = await self._choose(s, seat)
            await self._apply(s, seat, action, events)

    async def _choose(self, s: Session, seat: int) -> Action:
        game = s.game
        assert game is not None
        level = s.seats[seat].level or "standard"
        legal = game.legal_actions(seat)
        try:
            action = await asyncio.to_thread(self._strategy, game.copy(), seat, level)
        except Exception:
            log.exception("game %d: the computer strategy failed; playing a simple move", s.id)
            return simple_strategy(game, seat, level)
        if action not in legal:
            log.error("game %d: the computer strategy chose an illegal action; ignored", s.id)
            return simple_strategy(game, seat, level)
        return action

    def _end(self, s: Session, finish: Finish) -> None:
        assert s.game is not None
        s.status = GameStatus(finish.status)
        winners = tuple(sorted({o.side for o in finish.seats if o.won}))
        users = tuple(
            v.user_id for v in s.seats.values() if v.user_id is not None and v.side in winners
        )
        s.finished = Finished(
            reason=finish.end_reason,
            winner_sides=winners,
            winner_users=users,
            scores=tuple(s.game.scores),
            skunks=tuple(s.game.skunks)
            if finish.end_reason == "won"
            else (0,) * len(s.game.scores),
            forfeit_seat=finish.forfeit_seat,
        )
        s.changed()
        self._unregister(s)
        log.info("game %d: %s (winning sides %s)", s.id, finish.end_reason, winners)

    async def _close_lobby(self, s: Session, status: str) -> GameView:
        await self._store.close_lobby(s.id, status=status, now=self._touch(s))
        s.status = GameStatus(status)
        self._unregister(s)
        log.info("game %d: lobby %s", s.id, status)
        s.changed()
        return s.view()

    def _outcome(self, s: Session, events: list[StepEvent]) -> Outcome:
        view = s.view()
        return Outcome(s.id, tuple(events), s.step, view, view.to_act_users, s.finished)

    async def _missing(self, game_id: int) -> Refusal:
        status = await self._store.game_status(game_id)
        if status is None or status in ("lobby", "active"):
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        return self._over(GameStatus(status))

    @staticmethod
    def _over(status: GameStatus) -> Refusal:
        text = {
            GameStatus.FINISHED: "This game is over.",
            GameStatus.ABANDONED: "This game was abandoned.",
            GameStatus.CANCELLED: "This game was cancelled.",
        }[status]
        return Refusal(R.GAME_OVER, text)
