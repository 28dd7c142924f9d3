"""The Discord application: the bot client, its start-up and its clean shutdown.

``python -m bot`` opens the store before connecting to Discord (:func:`serve`), so a database
that cannot be used stops the start at once, with one paragraph and exit status 2 (:func:`run`,
:mod:`bot.app.failures`). ``setup_hook`` opens the store (unless it was handed one), builds the
session manager (which resumes every lobby and game), loads the extensions by name (they
register the persistent buttons and the commands' error handler) and syncs the slash commands
only when they changed since the last sync. The application never imports the extensions: they
import it (for :class:`CribbageBot`'s type).

The bot is an :class:`~discord.ext.commands.AutoShardedBot`: one gateway session per shard it
runs (``config.shards``, :mod:`bot.app.shards`). Its manager resumes, sweeps and answers only
the games of the servers those shards own, and only the process running shard 0 syncs the
commands. Before resuming, ``setup_hook`` takes each of its shards' advisory locks
(PostgreSQL); a shard another process runs stops the start (:class:`~bot.app.shards.ShardTaken`,
exit status 2). Its shards IDENTIFY one per :attr:`CribbageBot.identify_spacing` seconds
(Discord's Gateway docs, "Session Start Limit Object": ``max_concurrency`` "identify requests
allowed per 5 seconds", 1 unless Discord raised it for a large bot).

The bot measures itself (:mod:`bot.app.metrics`: interactions answered and their latency,
Discord's 429s, the database's commits, live games, gateway latency) and, when
``CRIBBAGE_HTTP_PORT`` is set, serves ``/healthz`` and ``/metrics`` (:mod:`bot.app.health`)
from ``setup_hook`` until ``close``. It has no voice: discord.py's start-up warnings about the
voice libraries are switched off.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import os
import signal
import sys
from typing import Any

import discord
from discord.ext import commands

from bot.ai import choose_action
from bot.ai.coach import hint
from bot.app.config import Config, ConfigError
from bot.app.failures import start_failure
from bot.app.health import Endpoint, EndpointUnavailable, HttpSettings, http_settings
from bot.app.logs import configure
from bot.app.metrics import Metrics, Snapshot
from bot.app.shards import ShardTaken, lock_name
from bot.sessions import GameSessionManager, ResumeReport
from db import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.cribbage", "cogs.standings", "cogs.tournament")


class NotSetUp(RuntimeError):
    """A part of the bot read before ``setup_hook`` made it (or after ``close``)."""


class CribbageBot(commands.AutoShardedBot):
    """The bot. Needs no privileged intent: everything arrives as interactions.

    ``store``, ``manager`` and ``resume_report`` exist from ``setup_hook`` on (the extensions
    are loaded after them); reading one earlier raises :class:`NotSetUp`. A ``store`` already
    open may be handed in: the bot then uses it, and closes it with itself. It runs the shards
    of ``config.shards`` (all of one, by default). ``http``: where to serve ``/healthz`` and
    ``/metrics`` (none by default).
    """

    identify_spacing: float = 5.0
    """Seconds between two of this process's shards' IDENTIFYs (Discord: ``max_concurrency``
    of 1 per 5 s; tests against the emulator set 0)."""

    health_timeout: float = 2.0
    """Seconds the health check waits for the database's write check."""

    def __init__(
        self,
        config: Config,
        *,
        store: Store | None = None,
        http: HttpSettings | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("shard_count", config.shards.count)
        options.setdefault("shard_ids", list(config.shards.ids))
        self.metrics = Metrics(self.snapshot)
        options.setdefault("http_trace", self.metrics.trace_config())  # answers and 429s
        # discord.py's Client warns once per process that PyNaCl and davey (voice) are missing
        # unless these flags of VoiceClient are off: this bot never joins a voice channel.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            **options,
        )
        self.config = config
        self._store: Store | None = store
        self._manager: GameSessionManager[str] | None = None  # the coach answers in words
        self._resume_report: ResumeReport | None = None
        self._held: list[str] = []  # the shards' advisory locks this bot holds (hold_shards)
        self.endpoint = None if http is None else Endpoint(http, self.metrics, self.health)
        self._database_trouble: str | None = None  # the last write check's error, if it failed
        self._write_checking: asyncio.Future[None] | None = None  # the write check under way

    @property
    def store(self) -> Store:
        """The database (opened in ``setup_hook``)."""
        if self._store is None:
            raise NotSetUp("the store is opened in setup_hook (and closed with the bot)")
        return self._store

    @property
    def manager(self) -> GameSessionManager[str]:
        """The session manager of every live game (built in ``setup_hook``)."""
        if self._manager is None:
            raise NotSetUp("the session manager is built in setup_hook")
        return self._manager

    @property
    def resume_report(self) -> ResumeReport:
        """What resuming the games at start found (in ``setup_hook``)."""
        if self._resume_report is None:
            raise NotSetUp("the games are resumed in setup_hook")
        return self._resume_report

    async def setup_hook(self) -> None:
        store = self._store
        if store is None:
            store = self._store = await Store.open(self.config.database)
        store.observe_commits(self.metrics.commit_seen)
        if self.endpoint is not None:
            await self.endpoint.start()
        await self.hold_shards(store)
        manager = self._manager = GameSessionManager(
            store,
            strategy=lambda game, seat, level: choose_action(game, seat, level=level),
            coach=hint,
            owns=self.config.shards.owns,
        )
        report = self._resume_report = await manager.resume()
        shards = self.config.shards
        log.info(
            "Resumed %d lobbies and %d games (%d verified against their logs) of the servers "
            "of shards %s of %d",
            report.lobbies,
            report.active,
            len(report.verified),
            ",".join(map(str, shards.ids)),
            shards.count,
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.config.shards.syncs_commands:
            await self.sync_commands_if_changed()
        else:
            log.info("Shard 0 runs in another process: it syncs the slash commands")

    async def hold_shards(self, store: Store) -> None:
        """Hold each of this process's shards' advisory locks (PostgreSQL; SQLite serves one
        process and always grants them) before resuming their games: :class:`ShardTaken` when
        another process on the database runs one. Held until :meth:`close`."""
        shards = self.config.shards
        for shard in shards.ids:
            name = lock_name(shard)
            if not await store.hold(name):
                raise ShardTaken(shard, shards.count, store.path)
            self._held.append(name)
        if self._held and store.dialect == "postgresql":
            log.info("Holding the locks of shards %s", ",".join(map(str, shards.ids)))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.metrics.received(interaction)  # its answer is counted when the callback succeeds

    def snapshot(self) -> Snapshot:
        """Live lobbies and games by status, and this process's shards (for the metrics)."""
        live: dict[str, int] = {}
        if self._manager is not None:
            for view in self._manager.live.games():
                live[view.status.value] = live.get(view.status.value, 0) + 1
        shards = {}
        for shard_id in self.config.shards.ids:
            shard = self.get_shard(shard_id)
            if shard is not None:
                shards[shard_id] = (shard.latency, not shard.is_closed())
        return Snapshot(live, shards)

    async def health(self) -> list[str]:
        """What is wrong now (nothing: healthy), one short line each, for ``/healthz``: every
        shard of this process connected to the gateway, and the database taking a write
        (within :attr:`health_timeout`; the cause is logged, not answered)."""
        problems = []
        if self.is_closed():
            problems.append("gateway: closed")
        elif not self.is_ready():
            problems.append("gateway: connecting")
        else:
            down = [
                str(shard_id)
                for shard_id in self.config.shards.ids
                if (shard := self.get_shard(shard_id)) is None or shard.is_closed()
            ]
            if down:
                problems.append(f"gateway: shard {','.join(down)} not connected")
        trouble = await self._write_check()
        if trouble is not None:
            problems.append(f"database: {trouble}")
        return problems

    async def _write_check(self) -> str | None:
        """Why the database does not take a write now (``None``: it does); logs each new
        cause once."""
        if self._store is None:
            return "not open"
        check = self._write_checking
        if check is None or check.done():  # else the last one still waits: wait for it again
            check = self._write_checking = asyncio.ensure_future(self._store.check_writable())
            check.add_done_callback(lambda done: done.cancelled() or done.exception())
        # not cancelled when late: cancelling would wait for the database anyway (its rollback)
        await asyncio.wait({check}, timeout=self.health_timeout)
        if not check.done():
            answer, cause = "no write within the time", f"no write in {self.health_timeout} s"
        elif (error := check.exception()) is not None:
            answer, cause = "not writable", f"{type(error).__name__}: {error}"
        else:
            self._database_trouble = None
            return None
        if cause != self._database_trouble:
            log.warning("Health check: the database refused a write (%s)", cause)
            self._database_trouble = cause
        return answer

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space this process's shards' IDENTIFYs by :attr:`identify_spacing` (the first goes
        at once)."""
        if not initial and self.identify_spacing > 0:
            await asyncio.sleep(self.identify_spacing)

    async def sync_commands_if_changed(self) -> bool:
        """Sync the slash commands when they differ from the last sync (to the dev guild if set)."""
        guild = discord.Object(self.config.guild_id) if self.config.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command_hash:{self.config.guild_id or 'global'}"
        if await self.store.meta.get(key) == digest:
            log.info("Slash commands unchanged; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.store.meta.set(key, digest)
        log.info("Synced %d slash commands %s", len(synced), "to the dev server" if guild else "")
        return True

    async def close(self) -> None:
        await super().close()
        if self.endpoint is not None:
            await self.endpoint.stop()
        if self._write_checking is not None:
            self._write_checking.cancel()
        if self._store is not None:
            held, self._held = self._held, []
            for name in held:  # the next process of these shards may start at once
                try:
                    await self._store.release(name)
                except Exception as err:  # closing the connection frees it anyway
                    log.warning("Could not release the lock %s: %s", name, err)
            await self._store.close()
            self._store = None


async def serve(config: Config, *, http: HttpSettings | None = None) -> None:
    """Open the database (failing fast, before any network: :class:`db.StoreError`), then run
    the bot until SIGINT or SIGTERM, then close everything cleanly. ``http``: where to serve
    ``/healthz`` and ``/metrics``."""
    store = await Store.open(config.database, exclusive=True)  # one bot per SQLite file
    try:
        bot = CribbageBot(config, store=store, http=http)
    except BaseException:
        await store.close()
        raise
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
    """Set up the logs (:func:`bot.app.logs.configure`: ``LOG_LEVEL``, ``LOG_FORMAT``, the
    redaction), then start the bot (blocking), serving ``/healthz`` and ``/metrics`` when
    ``CRIBBAGE_HTTP_PORT`` is set; the exit status for ``python -m bot``: 0 after a clean
    stop; 2 (a configuration or database error) or 1 (Discord unreachable) with one paragraph
    on stderr and no traceback."""
    try:
        configure(config.token)  # no token, webhook URL or interaction payload in any line
        http = http_settings(os.environ)
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        asyncio.run(serve(config, http=http))
    except EndpointUnavailable as err:
        print(err, file=sys.stderr)
        return 2
    except Exception as err:
        failure = start_failure(err, config.database)
        if failure is None:
            raise
        print(failure.text, file=sys.stderr)
        return failure.status
    return 0
