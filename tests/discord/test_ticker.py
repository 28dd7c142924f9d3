"""The periodic chores (idle sweep, turn timers, muggins windows) outlive a failing tick."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

from cogs.utils.ticker import Ticker


class ReadyBot:
    async def wait_until_ready(self) -> None:
        return None


async def test_a_failing_tick_is_logged_and_the_next_one_runs(caplog):
    """A plain ``tasks.loop`` stops for good at its first exception: one locked database and
    idle games were never swept again until a restart."""
    calls: list[int] = []

    async def tick() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")

    ticker = Ticker(ReadyBot(), tick, seconds=0.01, failure="The idle sweep failed")  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR):
        ticker.start()
        try:
            for _ in range(300):
                if len(calls) >= 3:
                    break
                await asyncio.sleep(0.01)
            assert ticker.is_running()
        finally:
            ticker.stop()
    assert len(calls) >= 3
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in errors] == ["The idle sweep failed"]
    assert isinstance(errors[0].exc_info[1], sqlite3.OperationalError)


async def test_the_cog_runs_its_idle_sweep_on_a_ticker(club):
    """The cog's idle sweep is one of these chores (not a bare loop that dies on an error)."""
    cog = club.bot.get_cog("Cribbage")
    assert isinstance(cog.idle, Ticker) and cog.idle.is_running()
    assert cog.turns.ticker.is_running() and cog.muggins.windows.ticker.is_running()
    assert cog.deals.ticker.is_running()  # the pauses between deals
