"""Pointing a real discord.py client at the emulator, and running it there in-process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import discord

    from .emulator import DiscordEmulator


@contextlib.contextmanager
def patch_discord(base_url: str, gateway_url: str) -> Iterator[None]:
    """Set ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; restore them on exit."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class _ErrorLogHandler(logging.Handler):
    """Collects ERROR records from the ``discord`` loggers (e.g. "Ignoring exception in ...")."""

    def __init__(self, emulator: DiscordEmulator):
        super().__init__(logging.ERROR)
        self.emulator = emulator
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.emulator._bot_error(self.format(record))
        except Exception:  # pragma: no cover - logging must never raise
            self.handleError(record)


@contextlib.contextmanager
def _hook_interactions(emulator: DiscordEmulator, client: discord.Client) -> Iterator[None]:
    """Learn which asyncio tasks discord.py starts for each INTERACTION_CREATE.

    discord.py parses the event synchronously and starts the command / view / dynamic item
    callbacks as tasks right there; the emulator waits for those tasks to "settle" a click.
    """
    parsers: dict[str, Any] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: dict[str, Any]) -> None:
        before = asyncio.all_tasks()
        try:
            original(data)
        finally:
            emulator._register_handlers(int(data["id"]), asyncio.all_tasks() - before)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
    try:
        yield
    finally:
        parsers["INTERACTION_CREATE"] = original


@contextlib.asynccontextmanager
async def run_client(
    emulator: DiscordEmulator,
    client: discord.Client,
    *,
    token: str,
    require_commands: bool,
    timeout: float,
    error_loggers: tuple[str, ...],
) -> AsyncIterator[Any]:
    if client._connection.guild_ready_timeout > 0.5:
        warnings.warn(
            "pass guild_ready_timeout=0.05 to the client: discord.py waits guild_ready_timeout "
            f"({client._connection.guild_ready_timeout}s) after the last GUILD_CREATE before "
            "on_ready",
            stacklevel=3,
        )
    handler = _ErrorLogHandler(emulator)
    loggers = [logging.getLogger(name) for name in error_loggers]
    for logger in loggers:
        logger.addHandler(handler)
    task: asyncio.Task[None] | None = None
    try:
        with emulator.patched(), _hook_interactions(emulator, client):
            emulator._record("client_start", client=type(client).__name__)
            task = asyncio.create_task(client.start(token), name="emulated-discord-client")

            def started() -> bool:
                session = emulator.gateway.target()
                return task.done() or bool(session and session.ready)

            await emulator.wait_for(started, timeout=timeout, what="the client to IDENTIFY")
            if task.done():
                task.result()  # login failed: raise it here
                raise RuntimeError("the client stopped during startup")
            ready = asyncio.ensure_future(client.wait_until_ready())
            done, _ = await asyncio.wait({task, ready}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if task in done:
                    task.result()
                raise TimeoutError(f"the client was not ready within {timeout}s")
            if require_commands:
                await emulator.wait_for(
                    lambda: emulator.has_commands() or task.done(),
                    timeout=timeout,
                    what="application commands to be synced (require_commands=False if none)",
                )
                if task.done():
                    task.result()
            try:
                yield client
            finally:
                session_id = client.ws.session_id if client.ws is not None else None
                await client.close()
                emulator.gateway.invalidate(session_id)
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(task, timeout)
                emulator._record("client_stop", client=type(client).__name__)
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        if task is not None and not task.done():
            task.cancel()
    emulator.raise_unreported()
