"""Muggins windows (RULES.md 9): a claim left open too long is let go for the silent opponents.

Every claimed count opens a window in which an opponent may call muggins (see
:mod:`bot.engine.muggins`). People need not answer it: :meth:`MugginsWindows.close_muggins_windows`
(called every few seconds by the cog's loop) lets the claim go, one logged ``LetGo`` per
opponent still silent, once the game has waited ``MUGGINS_WINDOW`` seconds since its last step.
Each such close is an ordinary committed step: durable and replayable like any click.
"""

from __future__ import annotations

import logging

from bot.engine import Action, Game, IllegalAction, LetGo, Phase
from bot.engine.muggins import check, counted_cards, counter, window_waiting

from .core import ManagerCore
from .views import GameStatus, Outcome, StepEvent

log = logging.getLogger("bot.sessions")

MUGGINS_WINDOW = 30.0
"""Seconds an opponent has to call muggins on a claim before it stands."""


def counting_fields(game: Game, seat: int) -> dict:
    """For a seat's :class:`PrivateView`: the cards it must count now (its hand, or as the
    dealer the crib), when it is that seat's turn to claim in a muggins show."""
    if game.phase is not Phase.SHOW:
        return {}
    nxt = counter(game)
    if nxt is None or nxt[0] != seat:
        return {}
    return {"counting": tuple(sorted(counted_cards(game, seat, nxt[1]))), "counting_crib": nxt[1]}


def show_refusal(game: Game, seat: int, action: Action) -> str | None:
    """Why a seat that is not to act may not make ``action`` in a muggins show (the engine's
    words: "Only an opponent can call muggins on that count.", ...); None if it does not say."""
    try:
        check(game, seat, action)
    except IllegalAction as err:
        return str(err)
    return None


class MugginsWindows(ManagerCore):
    """Closing muggins windows nobody answered (see the module docstring)."""

    muggins_window: float = MUGGINS_WINDOW

    def muggins_window_closes_at(self, game_id: int) -> float | None:
        """When the open window of a game will be let go (None: no window is open)."""
        s = self._sessions.get(game_id)
        if s is None or s.game is None or not window_waiting(s.game):
            return None
        return s.updated_at + self.muggins_window

    async def close_muggins_windows(self, now: float | None = None) -> list[Outcome]:
        """Let go every window open for ``muggins_window`` seconds; one outcome per game."""
        now = self._clock() if now is None else now
        outcomes: list[Outcome] = []
        for s in list(self._sessions.values()):
            game = s.game
            if s.status is not GameStatus.ACTIVE or game is None or game.phase is not Phase.SHOW:
                continue
            if not window_waiting(game) or now - s.updated_at < self.muggins_window:
                continue
            async with s.lock:
                if s.broken or s.game is None or not window_waiting(s.game):
                    continue
                events: list[StepEvent] = []
                for seat in window_waiting(s.game):
                    await self._apply(s, seat, LetGo(), events)
                log.info("game %d: the muggins window closed unanswered", s.id)
                await self._run_computers(s, events)
                outcomes.append(self._outcome(s, events))
        return outcomes
