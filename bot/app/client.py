"""The Discord application: the bot client, its start-up and its clean shutdown.

``setup_hook`` opens the store, builds the session manager (which resumes every lobby and game),
loads the cogs (which register the persistent buttons) and syncs the slash commands only when
they changed since the last sync.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import signal
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.config import Config
from cogs.utils.replies import tell

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.cribbage", "cogs.standings")


class CribbageBot(commands.Bot):
    """The bot. Needs no privileged intent: everything arrives as interactions."""

    def __init__(self, config: Config, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            **options,
        )
        self.config = config
        self.store: Any = None
        self.manager: Any = None
        self.resume_report: Any = None

    async def setup_hook(self) -> None:
        from bot.ai import choose_action
        from bot.sessions import GameSessionManager
        from db import Store

        self.store = await Store.open(self.config.database)
        self.manager = GameSessionManager(
            self.store, strategy=lambda game, seat, level: choose_action(game, seat, level=level)
        )
        self.resume_report = await self.manager.resume()
        log.info(
            "Resumed %d lobbies and %d games (%d verified against their logs)",
            self.resume_report.lobbies,
            self.resume_report.active,
            len(self.resume_report.verified),
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.on_error = self.on_app_command_error
        await self.sync_commands_if_changed()

    async def sync_commands_if_changed(self) -> bool:
        """Sync the slash commands when they differ from the last sync (to the dev guild if set)."""
        guild = discord.Object(self.config.guild_id) if self.config.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command_hash:{self.config.guild_id or 'global'}"
        if await self.store.get_meta(key) == digest:
            log.info("Slash commands unchanged; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("Synced %d slash commands %s", len(synced), "to the dev server" if guild else "")
        return True

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """One place for every slash-command error: answer the user, log the traceback."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure):
            message = str(error) or "You can't use that here."
        else:
            log.error(
                "Command %s failed",
                interaction.command.qualified_name if interaction.command else "?",
                exc_info=original,
            )
            message = "Something went wrong on our side; the game is safe. Please try again."
        await tell(interaction, message)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


async def serve(config: Config) -> None:
    """Run the bot until SIGINT or SIGTERM, then close everything cleanly."""
    bot = CribbageBot(config)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(config.token))
        settler = asyncio.create_task(settle_memory(bot))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("Shutting down")
            await bot.close()
        stopper.cancel()
        settler.cancel()
        await runner  # re-raises a login or connection failure


async def settle_memory(bot: CribbageBot) -> None:
    """Once the bot is ready, keep what start-up made (modules, classes, commands, cogs) out of
    the garbage collector's full passes: it lives as long as the process, and scanning it made
    each full collection pause every table for tens of milliseconds."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    log.debug("%d start-up objects frozen out of garbage collection", gc.get_freeze_count())


def run(config: Config) -> int:
    """Start the bot (blocking); the exit status for ``python -m bot``."""
    try:
        asyncio.run(serve(config))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN in .env): reset it and try again")
        return 2
    return 0
