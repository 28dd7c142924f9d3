"""The turn timers' Discord side: every few seconds, ask the manager, remind, publish.

:class:`TurnKeeper` belongs to :class:`cogs.cribbage.Cribbage` (it needs that cog's
:class:`~cogs.utils.table.Table`, which keeps each game's story). Each :meth:`TurnKeeper.tick` runs
:meth:`GameSessionManager.sweep_turns`, posts the half-time reminders in the games' channels
(mentioning the player), publishes the moves made for absent players and the forfeits on the
table, and deletes reminders whose turn is over.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.render.timers import reminder_text
from bot.sessions import SWEEP_TURNS_EVERY, TurnReminder, TurnReport
from cogs.utils.ticker import Ticker

if TYPE_CHECKING:
    from cogs.cribbage import Cribbage

log = logging.getLogger(__name__)

PING_USER = discord.AllowedMentions(users=True, roles=False, everyone=False)


class TurnKeeper:
    """Drives the turn timers of one bot (see the module docstring)."""

    def __init__(self, cog: Cribbage) -> None:
        self.cog = cog
        # (game, seat) -> (the turn's step, the reminder message): deleted once the turn is over
        self.reminders: dict[tuple[int, int], tuple[int, discord.Message]] = {}
        self.ticker = Ticker(
            cog.bot,
            self.tick,
            seconds=SWEEP_TURNS_EVERY,
            failure="The turn timers' sweep failed",
            logger=log,
        )

    def start(self) -> None:
        self.ticker.start()

    def stop(self) -> None:
        self.ticker.stop()

    async def tick(self) -> TurnReport:
        """One sweep of the turn timers, and everything it reports sent to Discord."""
        manager, table = self.cog.manager, self.cog.table
        report = await manager.sweep_turns()
        for reminder in report.reminders:
            await self._remind(reminder)
        for outcome in (*report.expired, *report.forfeits):
            try:
                await table.publish(outcome)
            except discord.HTTPException:
                log.warning("game %d: could not show a move made in time", outcome.game_id)
        await self._clear_reminders()
        return report

    async def _remind(self, reminder: TurnReminder) -> None:
        channel = self.cog.table.channel(reminder.channel_id)
        try:
            message = await channel.send(reminder_text(reminder), allowed_mentions=PING_USER)
        except discord.HTTPException:
            log.warning("game %d: could not send a turn reminder", reminder.game_id)
            return
        earlier = self.reminders.get((reminder.game_id, reminder.seat))
        self.reminders[(reminder.game_id, reminder.seat)] = (reminder.turn_step, message)
        if earlier is not None:
            with contextlib.suppress(discord.HTTPException):
                await earlier[1].delete()

    async def _clear_reminders(self) -> None:
        """Delete the reminders of turns that are over (the player moved, or time ran out)."""
        running: dict[int, set[tuple[int, int]]] = {}
        for (game_id, seat), (turn_step, message) in list(self.reminders.items()):
            if game_id not in running:
                turns = await self.cog.manager.turns(game_id)
                running[game_id] = {(t.seat, t.turn_step) for t in turns}
            if (seat, turn_step) in running[game_id]:
                continue
            del self.reminders[(game_id, seat)]
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
