"""The one loop behind every periodic chore of the cog: the idle sweep, the turn timers, the
muggins windows.

A :class:`Ticker` calls its ``tick`` every ``seconds`` once the bot is ready. A tick that
raises is logged and the next one tries again: a plain ``tasks.loop`` stops for good at its
first exception (a locked database, say), which would leave idle games, turns or muggins
windows unattended until a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord.ext import tasks

log = logging.getLogger(__name__)


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
