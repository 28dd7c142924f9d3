"""The one loop behind every periodic chore of the cog: the idle sweep, the turn timers, the
muggins windows, the pauses between deals.

A :class:`Ticker` calls its ``tick`` every ``seconds`` once the bot is ready. A tick that
raises is logged and the next one tries again: a plain ``tasks.loop`` stops for good at its
first exception (a locked database, say), which would leave idle games, turns or muggins
windows unattended until a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import discord
from discord.ext import tasks

from bot.sessions import Outcome

log = logging.getLogger(__name__)


class Publisher(Protocol):
    """What shows an outcome in its channel (the Cribbage cog's table)."""

    async def publish(self, outcome: Outcome) -> None: ...


class Ticker:
    """Runs ``tick()`` every ``seconds`` after the bot is ready; a failure logs ``failure``
    (to ``logger``: the caller's module's logger)."""

    def __init__(
        self,
        bot: discord.Client,
        tick: Callable[[], Awaitable[object]],
        *,
        seconds: float,
        failure: str,
        logger: logging.Logger = log,
    ) -> None:
        self._bot = bot
        self._tick = tick
        self._failure = failure
        self._log = logger
        self._loop = tasks.loop(seconds=seconds)(self._run)
        self._loop.before_loop(self._bot.wait_until_ready)

    async def _run(self) -> None:
        try:
            await self._tick()
        except Exception:  # the loop must live on: the next tick retries
            self._log.exception(self._failure)

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.cancel()

    def is_running(self) -> bool:
        return self._loop.is_running()


class OutcomeRound:
    """A round of the manager on a clock whose outcomes the table shows: the muggins windows
    nobody answered, the pauses between deals that ran out. ``run(now)`` is the manager's
    round; ``shown`` names what an outcome shows, for the log line of one that could not be."""

    def __init__(
        self,
        client: discord.Client,
        run: Callable[[float | None], Awaitable[Sequence[Outcome]]],
        table: Publisher,
        *,
        seconds: float,
        failure: str,
        shown: str,
        logger: logging.Logger = log,
    ) -> None:
        self._round = run
        self._table = table  # its publish is looked up at each outcome (it may be wrapped)
        self._shown = shown
        self._log = logger
        self.ticker = Ticker(client, self.tick, seconds=seconds, failure=failure, logger=logger)

    def start(self) -> None:
        self.ticker.start()

    def stop(self) -> None:
        self.ticker.stop()

    async def tick(self, now: float | None = None) -> int:
        """Run the round at ``now`` (the clock's time if None); publish each outcome; how many."""
        outcomes = await self._round(now)
        for outcome in outcomes:
            try:
                await self._table.publish(outcome)
            except discord.HTTPException:
                self._log.warning("game %d: could not show %s", outcome.game_id, self._shown)
        return len(outcomes)
