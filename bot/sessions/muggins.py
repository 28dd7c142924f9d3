"""Muggins windows (docs/players/muggins.md): a claim left open too long is let go for the
silent opponents.

Every claimed count opens a window in which an opponent may call muggins (see
:mod:`bot.engine.muggins`). People need not answer it: :meth:`MugginsWindows.close_due` (called
every few seconds by the cog's loop) lets the claim
go, one logged ``LetGo`` per opponent still silent, once the game has waited ``window`` seconds
since its last step. Each such close is an ordinary committed step: durable and replayable like
any click.
"""

from __future__ import annotations

import logging

from bot.engine import LetGo, Phase
from bot.engine.muggins import window_waiting

from .play import GamePlay
from .tables import Tables
from .views import GameStatus, Outcome, StepEvent

log = logging.getLogger("bot.sessions")

MUGGINS_WINDOW = 30.0
"""Seconds an opponent has to call muggins on a claim before it stands."""


class MugginsWindows:
    """Closing muggins windows nobody answered (see the module docstring)."""

    def __init__(self, tables: Tables, play: GamePlay, *, window: float = MUGGINS_WINDOW) -> None:
        self._tables = tables
        self._play = play
        self.window = window

    def closes_at(self, game_id: int) -> float | None:
        """When the open window of a game will be let go (None: no window is open)."""
        s = self._tables.sessions.get(game_id)
        if s is None or s.game is None or not window_waiting(s.game):
            return None
        return s.updated_at + self.window

    async def close_due(self, now: float | None = None) -> list[Outcome]:
        """Let go every window open for ``window`` seconds at ``now`` (the manager's clock);
        one outcome per game. The show goes on and may end a game (and start a match's next)."""
        now = self._tables.now() if now is None else now
        outcomes: list[Outcome] = []
        for s in list(self._tables.sessions.values()):
            game = s.game
            if s.status is not GameStatus.ACTIVE or game is None or game.phase is not Phase.SHOW:
                continue
            if not window_waiting(game) or now - s.updated_at < self.window:
                continue
            async with s.lock:
                if s.status is not GameStatus.ACTIVE or s.broken or s.game is None:
                    continue  # it ended (a forfeit) while this waited for the lock
                if not window_waiting(s.game):
                    continue
                events: list[StepEvent] = []
                for seat in window_waiting(s.game):
                    await self._play.apply(s, seat, LetGo(), events)
                log.info("game %d: the muggins window closed unanswered", s.id)
                await self._play.advance(s, events)
                outcomes.append(await self._play.outcome(s, events))
        return await self._tables.events.follow_all(outcomes)
