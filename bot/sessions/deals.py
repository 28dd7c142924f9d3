"""The pause between deals: after a show the table waits for Next deal, not forever.

Every game the manager makes holds between deals (``Game.new(..., hold_between_deals=True)``):
after a show that did not end it, it waits in ``Phase.NEXT_DEAL`` until every seat is ready
(computers are ready at once, :meth:`GamePlay.advance <bot.sessions.play.GamePlay.advance>`). A
person says so with the ``NextDeal`` action (a click); when the server's pause
(``ServerSettings.next_deal_seconds``, default 20 s) has run out, :meth:`NextDeals.start_due`
(called every couple of seconds by the cog's loop) readies
every seat still waiting, one logged ``NextDeal`` each, and the deal starts. Each is an ordinary
committed step (``StepEvent.automatic``): durable and replayable like any click. With a pause
of 0 the request that ends the show readies everyone at once (``GamePlay.advance``).

The pause counts from the step that entered ``NEXT_DEAL`` (kept in memory,
``Session.next_deal_since``). After a restart it counts from the game's last step instead (a
click of Next deal made before the restart starts the pause again): the step that entered the
pause is not looked up in the log, for a few seconds more of waiting at most once per restart.
The turn timers never time this pause.
"""

from __future__ import annotations

import logging

from bot.engine import NextDeal, Phase

from .play import GamePlay
from .session import Session
from .settings import TableSettings
from .tables import Tables
from .views import GameStatus, Outcome, StepEvent

log = logging.getLogger("bot.sessions")


def _between_deals(s: Session) -> bool:
    return (
        s.status is GameStatus.ACTIVE
        and not s.broken
        and s.game is not None
        and s.game.phase is Phase.NEXT_DEAL
    )


class NextDeals:
    """Starting the deals whose pause ran out (see the module docstring)."""

    def __init__(self, tables: Tables, play: GamePlay, settings: TableSettings) -> None:
        self._tables = tables
        self._play = play
        self._settings = settings

    def _since(self, s: Session) -> float:
        return s.updated_at if s.next_deal_since is None else s.next_deal_since

    def due_at(self, game_id: int) -> float | None:
        """When the pause between deals of a game ends, in epoch seconds (``None``: the game is
        not live or not between deals). Counted from the step that entered ``NEXT_DEAL`` with
        the server's ``next_deal_seconds`` (after a restart, from the game's last step)."""
        s = self._tables.sessions.get(game_id)
        if s is None or not _between_deals(s):
            return None
        return self._since(s) + self._settings.cached(s.guild_id).next_deal_seconds

    async def start_due(self, now: float | None = None) -> list[Outcome]:
        """Ready every seat still waiting in each game whose pause ran out at ``now`` (the
        manager's clock), and deal; one outcome per game (the moves the new deal lets the
        manager make included). Call it every couple of seconds and publish what it returns."""
        now = self._tables.now() if now is None else now
        outcomes: list[Outcome] = []
        for s in list(self._tables.sessions.values()):
            if not _between_deals(s) or not await self._due(s, now):
                continue
            async with s.lock:
                if not _between_deals(s) or not await self._due(s, now):
                    continue  # it moved on (a click, a forfeit) while this waited for the lock
                events: list[StepEvent] = []
                while s.game is not None and s.game.phase is Phase.NEXT_DEAL and s.game.to_act:
                    seat = s.game.to_act[0]
                    await self._play.apply(s, seat, NextDeal(), events, automatic=True)
                log.info("game %d: the pause between deals ran out; dealt", s.id)
                await self._play.advance(s, events)
                outcomes.append(await self._play.outcome(s, events))
        return await self._tables.events.follow_all(outcomes)

    async def _due(self, s: Session, now: float) -> bool:
        seconds = (await self._settings.server(s.guild_id)).next_deal_seconds
        return now >= self._since(s) + seconds
