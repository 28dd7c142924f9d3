"""Muggins windows (docs/players/muggins.md): a claim left open too long is let go for the
silent opponents.

Every claim at or below its count opens a window in which an opponent may call muggins, and
several may be open at once (see :mod:`bot.engine.muggins`). People need not answer them: each
window stands by itself ``window`` seconds after it opened. :meth:`MugginsWindows.close_due`
(called every few seconds by the cog's loop) lets each such window go, one logged
``LetGo(position)`` per opponent still silent on it, so a window opened later keeps its own
time. Each close is an ordinary committed step: durable and replayable like any click.

When a window opened is known from the first look at it (the table's note asks for its closing
time as soon as the claim is drawn): the time of the game's last step then. A window first seen
after a restart counts from the game's last step, never from earlier.
"""

from __future__ import annotations

import logging

from bot.engine import Game, LetGo, Phase
from bot.engine.muggins import Window, newest_window, position_of, waiting_on

from .play import GamePlay
from .session import Session
from .tables import Tables
from .views import GameStatus, Outcome, StepEvent

log = logging.getLogger("bot.sessions")

MUGGINS_WINDOW = 30.0
"""Seconds an opponent has to call muggins on a claim before it stands."""

WindowKey = tuple[int, int, int]
"""A window of a live game: (game id, deal number, the count's place in counting order)."""


def _key(s: Session, game: Game, window: Window) -> WindowKey:
    return s.id, game.deal_number, position_of(game, window.seat, window.crib)


class MugginsWindows:
    """Closing muggins windows nobody answered (see the module docstring)."""

    def __init__(self, tables: Tables, play: GamePlay, *, window: float = MUGGINS_WINDOW) -> None:
        self._tables = tables
        self._play = play
        self.window = window
        self._opened: dict[WindowKey, float] = {}  # when each open window was first seen

    def _closes(self, s: Session, game: Game, window: Window) -> float:
        """When ``window`` stands by itself (first seen now: counted from the last step)."""
        return self._opened.setdefault(_key(s, game, window), s.updated_at) + self.window

    def closes_at(self, game_id: int) -> float | None:
        """When the window on a game's latest count will be let go (None: no window open)."""
        s = self._tables.sessions.get(game_id)
        game = None if s is None else s.game
        if s is None or game is None or game.phase is not Phase.SHOW:
            return None
        for window in game.muggins_windows:  # each keeps the time it was first seen
            self._closes(s, game, window)
        newest = newest_window(game)
        return None if newest is None else self._closes(s, game, newest)

    def _due(self, s: Session, game: Game, now: float) -> list[int]:
        """The places of the windows of ``game`` open for ``window`` seconds at ``now``."""
        return [
            position_of(game, w.seat, w.crib)
            for w in game.muggins_windows
            if waiting_on(game, w) and self._closes(s, game, w) <= now
        ]

    async def close_due(self, now: float | None = None) -> list[Outcome]:
        """Let go every window open for ``window`` seconds at ``now`` (the manager's clock);
        one outcome per game. The show goes on and may end a game (and start a match's next)."""
        now = self._tables.now() if now is None else now
        outcomes: list[Outcome] = []
        seen: set[WindowKey] = set()
        for s in list(self._tables.sessions.values()):
            game = s.game
            if s.status is not GameStatus.ACTIVE or game is None or game.phase is not Phase.SHOW:
                continue
            seen.update(_key(s, game, w) for w in game.muggins_windows)
            if not self._due(s, game, now):
                continue
            async with s.lock:
                if s.status is not GameStatus.ACTIVE or s.broken or s.game is None:
                    continue  # it ended (a forfeit) while this waited for the lock
                events: list[StepEvent] = []
                for position in self._due(s, s.game, now):
                    await self._let_go(s, position, events)
                if not events:
                    continue
                log.info("game %d: a muggins window closed unanswered", s.id)
                await self._play.advance(s, events)
                outcomes.append(await self._play.outcome(s, events))
        self._opened = {k: t for k, t in self._opened.items() if k in seen}
        return await self._tables.events.follow_all(outcomes)

    async def _let_go(self, s: Session, position: int, events: list[StepEvent]) -> None:
        """Let the window at ``position`` go for each opponent still silent on it."""
        while (game := s.game) is not None and game.phase is Phase.SHOW:
            windows = [
                w for w in game.muggins_windows if position_of(game, w.seat, w.crib) == position
            ]
            silent = waiting_on(game, windows[0]) if windows else []
            if not silent:
                return
            await self._play.apply(s, silent[0], LetGo(position), events)
