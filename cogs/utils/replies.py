"""Answering Discord: a private word, a redraw of the clicked message, and the 3-second rule.

Discord wants a first answer within 3 seconds of creating an interaction (``age``), and the
answer of a handler may wait on the database: on a write lock another process holds (a backup,
an ``sqlite3`` shell), for as long as SQLite's busy timeout. So every handler that awaits the
manager or the store before answering runs that work through :func:`in_time`, which defers the
interaction by ``ANSWER_WITHIN`` if the work is not done (and never cancels it: a move that
commits late is still shown). A failure is answered by :func:`failure_text`: "the table is
busy" when the database was locked (nothing was done), else a plain apology. A slash command
that fails is answered by :func:`answer_command_error`, the command tree's error handler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.sessions import Place
from db import DatabaseBusy

log = logging.getLogger(__name__)

T = TypeVar("T")

FAILED = "Something went wrong on our side; the game is safe. Please try again."
BUSY = "The table is busy, try again in a moment: nothing was done."
OUT_OF_DATE_COMMAND = (
    "Discord sent an out-of-date version of that command; nothing was done. Try again in a "
    "moment (or reload Discord)."
)
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


def place_of(interaction: discord.Interaction) -> Place:
    """Where an interaction was made: its server (``None`` in a DM) and its channel."""
    return Place(interaction.guild_id, channel_of(interaction))


def database_busy(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is the store saying the database was locked by
    another program (:class:`db.DatabaseBusy`)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, DatabaseBusy):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def failure_text(error: BaseException) -> str:
    """What to tell the person whose click or command failed with ``error``."""
    return BUSY if database_busy(error) else FAILED


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


GONE = "That message was replaced meanwhile: use the newest one."


async def redraw(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the clicked message, whether or not the click was deferred. If it was deleted
    meanwhile (a new deal replaced the hand just clicked: Discord answers 10008 Unknown
    Message), the person is told so privately instead."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)
    except discord.NotFound:
        log.info("A clicked message was gone before it could be redrawn")
        await tell(interaction, GONE)


async def in_time(interaction: discord.Interaction, work: Awaitable[T], **defer: Any) -> T:
    """Await ``work``; if it would answer late (a move may wait on the database or a
    computer's move), defer first (``defer``: the arguments of ``response.defer``)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, ANSWER_WITHIN - age(interaction)))
    if not done and not interaction.response.is_done():
        await interaction.response.defer(**defer)
    return await task


async def defer_if_late(interaction: discord.Interaction, **defer: Any) -> None:
    """Defer an interaction not yet answered that is already ``DEFER_AFTER`` old (before more
    work: names to look up, a picture to draw)."""
    if not interaction.response.is_done() and age(interaction) > DEFER_AFTER:
        await interaction.response.defer(**defer)


async def answer_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """One place for every slash-command error: answer the user; log a traceback only for a
    failure of ours (a refused check, an out-of-date command or option is the user's)."""
    name = interaction.command.qualified_name if interaction.command else "?"
    if isinstance(error, app_commands.CheckFailure):
        message = str(error) or "You can't use that here."
    elif isinstance(
        error,
        app_commands.CommandNotFound
        | app_commands.CommandSignatureMismatch
        | app_commands.TransformerError,
    ):
        log.info("Command %s: %s", name, type(error).__name__)
        message = OUT_OF_DATE_COMMAND
    else:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if database_busy(original):
            log.warning("Command %s: the database was locked (%s)", name, original)
        else:
            log.error("Command %s failed", name, exc_info=original)
        message = failure_text(original)
    await tell(interaction, message)
