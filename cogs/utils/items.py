"""The one base of every persistent button and menu, and the one guard of their clicks.

A :class:`CribItem` is a ``discord.ui.DynamicItem``: its state lives in its custom id, so a click
after a restart rebuilds it from the id alone (``from_custom_id``). A click reaches
:meth:`CribItem.run` with the loaded :class:`~cogs.cribbage.Cribbage` cog, and ``run`` calls the
cog's handler as a plain method (``cog.hands.on_play(interaction, game, step, card)``). The click is
guarded in :meth:`CribItem.callback`, for every button and menu alike: a failure is logged with
its kind and game (never the rest of the custom id, which may name a card in the clicker's
hand), and the clicker is told privately.

Custom-id templates spell digits ``[0-9]``: a click carries whatever id a client sends, and
``\\d`` would also take other scripts' digits.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord.ext import commands

from cogs.utils.replies import database_busy, failure_text, tell

if TYPE_CHECKING:
    from cogs.cribbage import Cribbage

log = logging.getLogger(__name__)

HANDLED = "crib:handled"  # set in Interaction.extras by the item that takes a click
NO_ID = r"(?!)"  # the template of the abstract base: it matches no custom id

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class CribItem(discord.ui.DynamicItem[ItemT], template=NO_ID):
    """A button or menu of the bot; subclasses give a ``template`` and implement :meth:`run`."""

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.extras[HANDLED] = True  # the stale-click listener leaves this click alone
        try:
            cog = cribbage_cog(interaction.client)
            cog.names.learn(interaction.user)
            await self.run(cog, interaction)
            cog.table.courier.clicked(interaction)  # a click on the table: its token edits it
        except Exception as error:
            if database_busy(error):  # another process held the database: nothing was done
                log.warning("Click on %s: the database was locked (%s)", logged_id(self), error)
            else:
                log.exception("Click on %s failed", logged_id(self))
            await tell(interaction, failure_text(error))

    async def run(self, cog: Cribbage, interaction: discord.Interaction) -> None:
        """Hand the click to the cog's handler."""
        raise NotImplementedError


def logged_id(item: discord.ui.DynamicItem[Any]) -> str:
    """The part of a custom id that may be logged: its kind and game (``crib:p:12``). What
    follows may name a card still in the clicker's hand (a play button's id ends in it)."""
    return ":".join(item.custom_id.split(":")[:3])


def cribbage_cog(client: discord.Client) -> Cribbage:
    """The loaded :class:`~cogs.cribbage.Cribbage` cog, whose handlers answer every click."""
    from cogs.cribbage import Cribbage  # imported when clicked: that module imports this one

    bots = (commands.Bot, commands.AutoShardedBot)  # the bot is sharded: not a commands.Bot
    cog = client.get_cog(Cribbage.__cog_name__) if isinstance(client, bots) else None
    if not isinstance(cog, Cribbage):
        raise RuntimeError("the Cribbage cog is not loaded")
    return cog


def handled(interaction: discord.Interaction) -> bool:
    """Whether an item of ours has taken this click (discord.py runs it before any listener)."""
    return bool(interaction.extras.get(HANDLED))


def custom_id_of(interaction: discord.Interaction) -> str:
    """The custom id a component interaction carries ("" for any other interaction)."""
    data: Mapping[str, object] = interaction.data or {}
    return str(data.get("custom_id", ""))
