"""The game's clocks on the Discord side: the turn timers, and the pause between deals.

:class:`TurnKeeper` and the deal round (:func:`deal_round`) are made by the
:class:`~cogs.cribbage.Cribbage` cog, which hands them its :class:`~cogs.cribbage.table.Table`
(it keeps each game's story). Each runs on a :class:`~cogs.utils.ticker.Ticker`.

- :meth:`TurnKeeper.tick` runs ``manager.timers.sweep()`` and sends its half-time
  reminders by the ping rule (:mod:`cogs.cribbage.pings`): to a person whose hand can be reached, a
  note on that hand; else a message in the channel that pings them if their ``notify`` is on
  and they were not pinged yet in this deal (else it names them without a notification). A
  reminder that pinged is never deleted (a deleted ping is a ghost ping); one that did not is
  deleted once its turn is over. It also publishes the moves made for absent players and the
  forfeits.
- :func:`deal_round`'s tick (every :data:`NEXT_DEALS_EVERY` seconds) runs
  ``manager.deals.start_due()``: each game whose pause between deals ran out deals,
  and the new deal is published.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.render.timers import reminder_text
from bot.sessions import SWEEP_TURNS_EVERY, TurnReminder, TurnReport
from cogs.utils.ticker import OutcomeRound, Ticker

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager
    from cogs.cribbage.table import Table

log = logging.getLogger(__name__)

NEXT_DEALS_EVERY = 2.0  # seconds between two looks for pauses between deals that ran out


def reminder_note(reminder: TurnReminder) -> str:
    """The reminder as a note on the person's own hand (no mention: it is theirs)."""
    last_chance = reminder.expiries + 1 >= reminder.forfeit_after
    then = "you forfeit the game" if last_chance else "the computer plays for you"
    return f"⏳ Your move: time runs out <t:{int(reminder.deadline)}:R>, then {then}."


class TurnKeeper:
    """Drives the turn timers of one bot (see the module docstring)."""

    def __init__(self, client: discord.Client, manager: GameSessionManager, table: Table) -> None:
        self.manager = manager
        self.table = table
        # (game, seat) -> (the turn's step, a reminder that pinged nobody): deleted once the
        # turn is over (a reminder that pinged stays: deleting it would leave a ghost ping)
        self.reminders: dict[tuple[int, int], tuple[int, discord.Message]] = {}
        self.ticker = Ticker(
            client,
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
        manager, table = self.manager, self.table
        report = await manager.timers.sweep()
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
        table, manager = self.table, self.manager
        game_id, user_id = reminder.game_id, reminder.user_id
        reachable = table.hands.reachable(game_id, user_id)
        if reachable and await table.hands.tell(game_id, user_id, reminder_note(reminder)):
            return  # a note on their own hand: no ping
        settings = await manager.settings.player(user_id)
        view = manager.live.view(game_id)
        pinged = table.pings.pinged(game_id, view.deal_number if view is not None else 0)
        ping = settings.notify and user_id not in pinged
        text = reminder_text(reminder)
        message = await table.pings.send(reminder.channel_id, text, [user_id] if ping else [])
        if message is None:
            return
        key = (game_id, reminder.seat)
        earlier = self.reminders.pop(key, None)
        if ping:
            pinged.add(user_id)
        else:
            self.reminders[key] = (reminder.turn_step, message)
        if earlier is not None:
            with contextlib.suppress(discord.HTTPException):
                await earlier[1].delete()

    async def _clear_reminders(self) -> None:
        """Delete the quiet reminders of turns that are over (the player moved, or time ran
        out)."""
        running: dict[int, set[tuple[int, int]]] = {}
        for (game_id, seat), (turn_step, message) in list(self.reminders.items()):
            if game_id not in running:
                turns = await self.manager.timers.turns(game_id)
                running[game_id] = {(t.seat, t.turn_step) for t in turns}
            if (seat, turn_step) in running[game_id]:
                continue
            del self.reminders[(game_id, seat)]
            with contextlib.suppress(discord.HTTPException):
                await message.delete()


def deal_round(client: discord.Client, manager: GameSessionManager, table: Table) -> OutcomeRound:
    """Deals in every game whose pause between deals ran out, and publishes each deal."""
    return OutcomeRound(
        client,
        manager.deals.start_due,
        table,
        seconds=NEXT_DEALS_EVERY,
        failure="Starting the next deals failed",
        shown="the next deal",
        logger=log,
    )
