"""Answering Discord: a private word, a redraw of the clicked message, and the 3-second rule.

Discord wants a first answer within 3 seconds of creating an interaction (``age``); a handler
whose work may run late answers or defers by ``ANSWER_WITHIN`` (``in_time``). A slash command
that fails is answered by :func:`answer_command_error`, the command tree's error handler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

log = logging.getLogger(__name__)

T = TypeVar("T")

FAILED = "Something went wrong on our side; the game is safe. Please try again."
ANSWER_WITHIN = 2.0  # seconds after Discord created an interaction: answer or defer by then
DEFER_AFTER = 1.0  # an interaction this old when its handler starts is deferred at once


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction (its 3-second clock started then)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from (a command used in a server always has one)."""
    if interaction.channel_id is None:
        raise ValueError(f"interaction {interaction.id} came from no channel")
    return interaction.channel_id


async def say(interaction: discord.Interaction, message: str) -> None:
    """A short private answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def tell(interaction: discord.Interaction, message: str) -> None:
    """:func:`say`, for notices of a failure: one that cannot be delivered is logged, not
    raised (the handler is already reporting an error)."""
    try:
        await say(interaction, message)
    except discord.HTTPException:
        log.warning("Could not deliver an error message to a user", exc_info=True)


async def redraw(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the clicked message, whether or not the click was deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def in_time(interaction: discord.Interaction, work: Awaitable[T], **defer: Any) -> T:
    """Await ``work``; if it would answer late (a move may wait on the database or a
    computer's move), defer first (``defer``: the arguments of ``response.defer``)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, ANSWER_WITHIN - age(interaction)))
    if not done:
        await interaction.response.defer(**defer)
    return await task


async def answer_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """One place for every slash-command error: answer the user, log the traceback."""
    if isinstance(error, app_commands.CheckFailure):
        message = str(error) or "You can't use that here."
    else:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error(
            "Command %s failed",
            interaction.command.qualified_name if interaction.command else "?",
            exc_info=original,
        )
        message = FAILED
    await tell(interaction, message)
