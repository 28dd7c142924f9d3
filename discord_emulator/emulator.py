"""The DiscordEmulator: its server (REST routes in rest.py, the gateway in gateway.py), its
lifecycle, running a discord.py client against it, violations and the transcript. Its other
parts are mixed in: the world (world.py), people acting (people.py) and what the bot sends
(messages.py)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import sys
import time
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .base import BotErrorRecord, current_test, log
from .gateway import (
    Gateway,
)
from .messages import Messages
from .models import (
    DISCORD_EPOCH_MS,
    BotError,
    EmuChannel,
    EmuGuild,
    EmuMessage,
    EmuUser,
    PendingInteraction,
    Violation,
    ViolationError,
)
from .people import People
from .pings import Pings
from .rest import RestApi
from .threads import Threads
from .transcript import Transcript
from .world import World

if TYPE_CHECKING:
    import discord

CHECK_ANSWERS = "DISCORD_EMULATOR_CHECK_ANSWERS"


class DiscordEmulator(World, People, Messages):
    """An in-process Discord (REST v10 + gateway) for the real discord.py client.

    Use it as ``async with DiscordEmulator() as emu:``; see the package docstring for a tour.

    Parameters
    ----------
    response_deadline:
        Seconds (emulator clock) a bot has for the initial response to an interaction (3 s).
    token_ttl:
        Lifetime of interaction tokens (900 s); :meth:`advance_clock` ages them.
    strict:
        Raise :class:`ViolationError` / :class:`BotError` from ``slash``/``click``/... (and when
        leaving ``running()`` or the emulator) for violations and bot errors nobody took with
        :meth:`take_violations` / :meth:`take_bot_errors`.
    transcript_path:
        JSONL file to append the transcript to (default: ``$DISCORD_EMULATOR_TRANSCRIPT``).
    bot_token:
        If set, REST calls must authenticate with exactly this token; otherwise any works.
    settle_timeout:
        How long ``slash``/``click`` wait for the bot's handler to finish (in-process bots).
    keep_records:
        Keep only the last N transcript records in memory (long benchmarks); the JSONL file
        still gets every record.
    thread_notice_age:
        A thread started from a message at least this old (seconds) also posts Discord's
        "started a thread" notice in the channel (see ``threads.py``).
    rate_limits:
        Enforce Discord's rate limits (``ratelimits.py``; ``emu.rest.limits`` sizes the buckets
        and counts bot-token requests and 429s). False: count only, for tests that burst.
    check_answers:
        Check each of the emulator's own REST answers against the response schema of Discord's
        OpenAPI description (``spec.py``); a difference is an ``invalid_answer`` violation.
        Default: ``$DISCORD_EMULATOR_CHECK_ANSWERS`` (1/true/yes), which the test suites set.
    """

    def __init__(
        self,
        *,
        response_deadline: float = 3.0,
        token_ttl: float = 900.0,
        strict: bool = True,
        transcript_path: str | None = None,
        bot_name: str = "Cribbage",
        bot_token: str | None = None,
        settle_timeout: float = 10.0,
        keep_records: int | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        thread_notice_age: float = 0.0,
        rate_limits: bool = True,
        check_answers: bool | None = None,
    ):
        if check_answers is None:
            check_answers = os.environ.get(CHECK_ANSWERS, "").lower() in ("1", "true", "yes")
        self.check_answers = check_answers
        self.response_deadline = response_deadline
        self.token_ttl = token_ttl
        self.strict = strict
        self.bot_token = bot_token
        self.settle_timeout = settle_timeout
        self.host = host
        self.port = port
        self.transcript = Transcript(transcript_path, keep=keep_records)
        self.clock_offset = 0.0
        self._started_at = time.monotonic()
        self._last_id = 0

        self.users: dict[int, EmuUser] = {}
        self.guilds: dict[int, EmuGuild] = {}
        self.channels: dict[int, EmuChannel] = {}
        self.messages: dict[int, EmuMessage] = {}
        self._in_channel: dict[int, list[EmuMessage]] = {}  # channel id -> its messages
        self.commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {}
        self.interactions: dict[int, PendingInteraction] = {}
        self._by_token: dict[str, PendingInteraction] = {}
        self._task_owner: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = (
            weakref.WeakKeyDictionary()
        )
        self.violations: list[Violation] = []
        self.bot_errors: list[BotErrorRecord] = []
        self._change = asyncio.Event()
        self.activity: dict[int, float] = {}  # channel id -> loop time of the bot's last output
        self._background: set[asyncio.Task[Any]] = set()
        self._everywhere: list[int] = []  # users who join every guild, even later ones

        self.app_owner = self._new_user("app-owner")
        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self._next_id()

        self.notifications = Pings(self)  # who each message notified (see pings.py)
        # thread channels and channel permissions (threads.py)
        self.thread_rules = Threads(self, notice_age=thread_notice_age)
        self.gateway = Gateway(self)
        self.rest = RestApi(self, rate_limits=rate_limits)  # ratelimits.py: Discord's limits
        self._runner: web.AppRunner | None = None

    # =========================================================================================
    # Lifecycle

    async def start(self) -> DiscordEmulator:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._record(
            "start",
            url=self.url,
            application_id=str(self.application_id),
            bot_user=self.bot_user.name,
            test=current_test(),
        )
        return self

    async def close(self) -> None:
        await self.gateway.close()
        for task in list(self._background):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        return await self.start()

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close()
        if exc_type is None:
            self.raise_unreported()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be set to."""
        return f"ws://{self.host}:{self.port}/gateway"

    # =========================================================================================
    # Running a discord.py client against the emulator

    def patched(self) -> contextlib.AbstractContextManager[None]:
        """Point discord.py at this emulator (Route.BASE and DEFAULT_GATEWAY) while inside."""
        from .client import patch_discord

        return patch_discord(self.base_url, self.gateway_url)

    def running(
        self,
        client: discord.Client,
        *,
        token: str = "emulator-token",
        require_commands: bool = True,
        timeout: float = 10.0,
        error_loggers: tuple[str, ...] = ("discord",),
    ) -> contextlib.AbstractAsyncContextManager[Any]:
        """Start ``client`` against the emulator; inside, it is logged in, READY and synced.

        Pass ``guild_ready_timeout=0.05`` when constructing the client: discord.py otherwise
        waits 2 s after the last GUILD_CREATE before it fires ``on_ready``.
        ``require_commands`` waits until application commands are registered (from
        ``setup_hook`` or ``on_ready``); pass False for a bot that has none. ERROR records
        of ``error_loggers`` (add your bot's own loggers) become bot errors: raised as
        ``BotError`` in strict mode. Leaving the block closes the client, ends its gateway
        session, restores discord.py's URLs, and (strict) raises what nobody took.
        """
        from .client import run_client

        return run_client(
            self,
            client,
            token=token,
            require_commands=require_commands,
            timeout=timeout,
            error_loggers=error_loggers,
        )

    def launch_command(self, *args: str, module: str | None = None) -> list[str]:
        """argv to start a bot in a subprocess pointed at this emulator (see ``launch.py``)."""
        argv = [sys.executable, "-m", "discord_emulator.launch", "--url", self.url]
        if module is not None:
            argv += ["-m", module]
        return argv + list(args)

    async def wait_ready(self, *, require_commands: bool = True, timeout: float = 10.0) -> None:
        """Wait until a client identified and got its guilds (and synced commands)."""

        def ready() -> bool:
            session = self.gateway.target()
            if session is None or not session.ready or not session.connected:
                return False
            return not require_commands or self.has_commands()

        await self.wait_for(ready, timeout=timeout, what="a bot to connect")

    async def force_reconnect(self, timeout: float = 5.0) -> None:
        """Ask the client to reconnect (op 7) and wait until it has RESUMEd."""
        await self._until_resumed(self.gateway.request_reconnect(), timeout)

    async def drop_connection(self, timeout: float = 5.0) -> None:
        """Close the gateway socket abruptly (code 4000) and wait until the client resumed."""
        await self._until_resumed(self.gateway.drop_connection(), timeout)

    async def _until_resumed(self, action: Any, timeout: float) -> None:
        session = self.gateway.target()
        before = self.gateway.resumes
        await action

        def resumed() -> bool:
            return self.gateway.resumes > before and bool(session and session.connected)

        await self.wait_for(resumed, timeout=timeout, what="the client to resume")

    # =========================================================================================
    # Violations and bot errors

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Unreported violations (of ``kind``), marked reported so strict mode ignores them."""
        taken = [v for v in self.violations if not v.reported and (kind is None or v.kind == kind)]
        for violation in taken:
            violation.reported = True
        return taken

    def take_bot_errors(self) -> list[str]:
        taken = [e for e in self.bot_errors if not e.reported]
        for error in taken:
            error.reported = True
        return [e.text for e in taken]

    @contextlib.contextmanager
    def expect_violation(self, kind: str) -> Iterator[list[Violation]]:
        """Assert that the block causes a violation of ``kind`` (raised or only recorded)."""
        found: list[Violation] = []
        try:
            yield found
        except ViolationError as exc:
            if kind not in exc.kinds:
                raise
            found += exc.violations
            self.take_bot_errors()
        else:
            found += self.take_violations(kind)
            if not found:
                raise AssertionError(f"expected a {kind!r} violation, none happened")

    def raise_unreported(self) -> None:
        """In strict mode, raise for violations / bot errors nobody has seen yet."""
        if not self.strict:
            return
        violations = self.take_violations()
        errors = self.take_bot_errors()
        if violations:
            raise ViolationError(violations, errors)
        if errors:
            raise BotError(errors)

    # =========================================================================================
    # Internals: ids, recording, change notification

    def _next_id(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, candidate)
        return self._last_id

    def _wall(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + dt.timedelta(seconds=self.clock_offset)

    def _new_user(self, name: str, *, bot: bool = False, global_name: str | None = None) -> EmuUser:
        user = EmuUser(id=self._next_id(), name=name, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def _record(self, kind: str, **fields: Any) -> dict[str, Any]:
        return self.transcript.write(kind, self.now(), **fields)

    def _touch(self, channel: EmuChannel | None = None) -> None:
        change, self._change = self._change, asyncio.Event()
        change.set()
        if channel is not None:
            self.activity[channel.id] = asyncio.get_running_loop().time()

    async def quiet(self, channel: EmuChannel, period: float = 0.02, timeout: float = 2.0) -> bool:
        """Wait until the bot has sent nothing to ``channel`` (messages, edits, responses)
        for ``period`` seconds; False if it was still busy after ``timeout``. For a bot in
        another process, whose handlers the emulator cannot see finish."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle = loop.time() - self.activity.get(channel.id, 0.0)
            if idle >= period:
                return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(period - idle)

    def _violation(
        self,
        kind: str,
        detail: str,
        *,
        interaction_id: int | None = None,
        route: str | None = None,
    ) -> Violation:
        violation = Violation(kind, detail, self.now(), interaction_id, route)
        self.violations.append(violation)
        log.warning("discord emulator violation: %s", violation)
        self._record(
            "violation",
            violation=kind,
            detail=detail,
            interaction_id=str(interaction_id) if interaction_id else None,
            route=route,
        )
        self._touch()
        return violation

    def _bot_error(self, text: str) -> None:
        owner = None
        with contextlib.suppress(RuntimeError):
            task = asyncio.current_task()
            owner = self._task_owner.get(task) if task is not None else None
        self.bot_errors.append(BotErrorRecord(self.now(), text, owner))
        self._record("bot_error", interaction_id=str(owner) if owner else None, text=text)
        self._touch()

    def _register_handlers(self, interaction_id: int, tasks: set[asyncio.Task[Any]]) -> None:
        """Called by the in-process client hook with the tasks that handle an interaction."""
        pending = self.interactions.get(interaction_id)
        if pending is None:
            return
        pending.handlers_known = True
        for task in tasks:
            pending.handler_tasks.add(task)
            self._task_owner[task] = interaction_id
            task.add_done_callback(self._handler_done)
        self._touch()

    def _handler_done(self, task: asyncio.Task[Any]) -> None:
        self._touch()

    def _spawn(self, coro: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _announce(self, event: str, make_payload: Any, intent: int = 0) -> None:
        if self.gateway.live_sessions():
            self._spawn(self.gateway.broadcast(event, make_payload(), intent))
