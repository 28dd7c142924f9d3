"""The DiscordEmulator: world state, REST + gateway server, and the test-scripting API."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import inspect
import logging
import os
import secrets
import sys
import time
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    Gateway,
    on_shard,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DISCORD_EPOCH_MS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    RESPONSE_TYPE_NAMES,
    Attachment,
    BotError,
    EmuChannel,
    EmuGuild,
    EmulatorError,
    EmuMember,
    EmuMessage,
    EmuRole,
    EmuUser,
    InteractionResult,
    MessageVersion,
    PendingInteraction,
    Predicate,
    SelectMenu,
    Violation,
    ViolationError,
)
from .pings import Ping, Pings, check_allowed_mentions
from .rest import HTTPError, RestApi, Upload, form_errors
from .threads import Threads
from .transcript import Transcript, message_fields

if TYPE_CHECKING:
    import discord

log = logging.getLogger("discord_emulator")

#: Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

#: Which callback types each interaction type accepts (2 = command, 3 = component, 5 = modal).
#: 4 = autocomplete.
ALLOWED_RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class EmulatorTimeout(EmulatorError, TimeoutError):
    """A wait on the emulator (``wait_for``, settling a handler, startup) ran out of time."""


@dataclass
class BotErrorRecord:
    at: float
    text: str
    interaction_id: int | None
    reported: bool = False


class DiscordEmulator:
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
    ):
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
            test=_current_test(),
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
    # Building the world

    def add_guild(
        self, name: str, *, owner: EmuUser | None = None, shard: tuple[int, int] | None = None
    ) -> EmuGuild:
        """A guild the bot is in. Users added later with ``add_user`` join every guild.
        ``shard=(shard_id, num_shards)``: its id routes it to that shard (gateway.py)."""
        guild_id = self._next_id()
        if shard is not None:
            guild_id = self._last_id = on_shard(guild_id, shard)
        guild = EmuGuild(id=guild_id, name=name, owner_id=(owner or self.app_owner).id)
        everyone = EmuRole(guild.id, guild.id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS)
        guild.roles[guild.id] = everyone
        bot_role = EmuRole(self._next_id(), guild.id, self.bot_user.name, DEFAULT_BOT_PERMISSIONS,
                           position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = EmuMember(self.bot_user, guild, roles=[bot_role.id])
        for user_id in self._everywhere:
            guild.members[user_id] = EmuMember(self.users[user_id], guild)
        self.guilds[guild.id] = guild
        self._announce("GUILD_CREATE", guild.create_payload)
        return guild

    def add_text_channel(self, guild: EmuGuild, name: str) -> EmuChannel:
        channel = EmuChannel(
            id=self._next_id(), name=name, guild=guild, position=len(guild.channels)
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._announce("CHANNEL_CREATE", channel.payload)
        return channel

    def add_user(
        self,
        name: str,
        *,
        guilds: list[EmuGuild] | None = None,
        roles: list[EmuRole] | None = None,
        nick: str | None = None,
        global_name: str | None = None,
    ) -> EmuUser:
        """A human user, member of ``guilds`` (default: every guild, including later ones)."""
        user = self._new_user(name, global_name=global_name)
        if guilds is None:
            self._everywhere.append(user.id)
            guilds = list(self.guilds.values())
        for guild in guilds:
            self.add_member(guild, user, roles=[r for r in roles or [] if r.guild_id == guild.id],
                            nick=nick)
        return user

    def add_member(
        self,
        guild: EmuGuild,
        user: EmuUser,
        *,
        roles: list[EmuRole] | None = None,
        nick: str | None = None,
    ) -> EmuMember:
        member = EmuMember(user, guild, roles=[r.id for r in roles or []], nick=nick)
        guild.members[user.id] = member
        payload = {**member.payload(), "guild_id": str(guild.id)}
        self._announce("GUILD_MEMBER_ADD", lambda: payload, intent=INTENT_GUILD_MEMBERS)
        return member

    def add_role(self, guild: EmuGuild, name: str, *, permissions: int = 0) -> EmuRole:
        role = EmuRole(self._next_id(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    async def start_thread(
        self,
        user: EmuUser,
        channel: EmuChannel,
        name: str,
        *,
        message: EmuMessage | None = None,
        private: bool = False,
    ) -> EmuChannel:
        """``user`` starts a thread in ``channel`` (from ``message``, or without one), as
        Discord allows it (``EmulatorError`` carrying Discord's refusal otherwise)."""
        self._check_can_see(user, channel, message)
        body: dict[str, Any] = {"name": name}
        if message is None:
            body["type"] = 12 if private else 11
        try:
            return await self.thread_rules.start(user, channel, body, message)
        except HTTPError as exc:
            raise EmulatorError(f"Discord refuses: {exc.code} {exc.message}") from exc

    def threads_in(self, channel: EmuChannel) -> list[EmuChannel]:
        """The threads started in ``channel``, oldest first."""
        return self.thread_rules.threads_of(channel)

    def set_permissions(
        self,
        channel: EmuChannel,
        target: EmuRole | EmuUser,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """A permission overwrite on ``channel`` for a role (the guild's id: ``@everyone``)
        or a member, as a server admin sets it; the bot gets CHANNEL_UPDATE."""
        kind = 0 if isinstance(target, EmuRole) else 1
        self.thread_rules.set_overwrite(channel, target.id, kind, allow, deny)

    def permissions_in(self, user: EmuUser, channel: EmuChannel) -> int:
        """``user``'s permissions in ``channel`` after its overwrites (see ``threads.py``)."""
        return self.thread_rules.permissions(user, channel)

    def dm_channel(self, user: EmuUser) -> EmuChannel:
        """The bot's DM channel with ``user`` (created on first use)."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = EmuChannel(id=self._next_id(), name=f"dm-{user.name}", guild=None, type=1,
                             recipient=user)
        self.channels[channel.id] = channel
        return channel

    # =========================================================================================
    # Clock

    def now(self) -> float:
        """Emulator clock: seconds since the emulator was created, plus ``advance_clock``s."""
        return time.monotonic() - self._started_at + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move the emulator clock forward (ages interaction tokens and response deadlines)."""
        self.clock_offset += seconds
        self._record("clock", advanced=seconds)
        self._touch()

    # =========================================================================================
    # Driving the bot as users

    async def slash(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        /,
        *,
        options: dict[str, Any] | None = None,
        settle: bool = True,
        **kw_options: Any,
    ) -> InteractionResult:
        """Run ``/command`` (e.g. ``"cribbage start"``) as ``user`` in ``channel``.

        Options are checked against the synced command (names, types, required, choices,
        ranges); user/channel/role options take ``EmuUser``/``EmuChannel``/``EmuRole``.
        Returns after the initial response and, with ``settle``, after the bot's handler
        finished (in-process bots). Raises ``ViolationError`` in strict mode.
        """
        self._check_can_see(user, channel)
        if channel.is_thread and channel.archived:
            raise EmulatorError("application commands cannot be used in an archived thread")
        opts = {**(options or {}), **kw_options}
        data = self._command_data(channel, command, opts, user)
        fields = {"command": command, "options": _jsonable(opts)}
        return await self._interact("slash", 2, user, channel, data, command, fields, None, settle)

    async def autocomplete(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        /,
        focused: str,
        *,
        options: dict[str, Any] | None = None,
        **kw_options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` of ``/command``; returns the bot's choices
        (``[{"name": ..., "value": ...}]``). The focused option's value is the text typed so
        far (pass it among the options; default ``""``)."""
        self._check_can_see(user, channel)
        opts = {**(options or {}), **kw_options}
        data = self._command_data(channel, command, opts, user, focused=focused)
        fields = {"command": command, "focused": focused, "options": _jsonable(opts)}
        result = await self._interact(
            "autocomplete", 4, user, channel, data, command, fields, None, True
        )
        return result.choices

    async def click(
        self,
        user: EmuUser,
        message: EmuMessage | InteractionResult,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        emoji: str | None = None,
        allow_stale: bool = False,
        settle: bool = True,
    ) -> InteractionResult:
        """Click a button on ``message`` as ``user``, found by label, custom_id and/or emoji.

        The button must be on the message's current version, enabled, and the message visible
        to ``user`` — unless ``allow_stale`` (with ``custom_id``), which simulates a client
        still showing an older version of the message.
        """
        message = self._as_message(message)
        self._check_can_see(user, message.channel, message)
        try:
            button = message.find_button(label, custom_id=custom_id, emoji=emoji)
        except LookupError:
            if not (allow_stale and custom_id):
                raise
            old = [b for v in message.versions for b in v.buttons if b.custom_id == custom_id]
            if not old:
                raise
            button = old[-1]
        if button.disabled:
            raise EmulatorError(f"button {button.label or button.emoji!r} is disabled")
        if button.url or button.custom_id is None:
            raise EmulatorError(f"button {button.label!r} is a link, it sends no interaction")
        data = {"custom_id": button.custom_id, "component_type": 2}
        fields = {
            "custom_id": button.custom_id,
            "label": button.label,
            "component_type": 2,
            "message_id": str(message.id),
        }
        return await self._interact(
            "component", 3, user, message.channel, data, button.custom_id, fields, message, settle
        )

    async def select(
        self,
        user: EmuUser,
        message: EmuMessage | InteractionResult,
        values: list[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        settle: bool = True,
    ) -> InteractionResult:
        """Choose ``values`` in a select menu (string select: option values or labels;
        user select: ``EmuUser``\\ s; role select: ``EmuRole``\\ s; channel select: channels)."""
        message = self._as_message(message)
        self._check_can_see(user, message.channel, message)
        menus = [
            s for s in message.selects
            if (custom_id is None or s.custom_id == custom_id)
            and (placeholder is None or s.placeholder == placeholder)
        ]
        if not menus:
            raise LookupError(f"no select menu custom_id={custom_id!r} on {message!r}")
        menu = menus[0]
        if menu.disabled:
            raise EmulatorError("the select menu is disabled")
        data, shown = self._select_data(message, menu, values)
        fields = {
            "custom_id": menu.custom_id,
            "component_type": menu.type,
            "values": shown,
            "message_id": str(message.id),
        }
        return await self._interact(
            "component", 3, user, message.channel, data, menu.custom_id, fields, message, settle
        )

    async def submit_modal(
        self,
        user: EmuUser,
        shown: InteractionResult,
        values: dict[str, str],
        *,
        settle: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot showed in ``shown`` (a MODAL response).

        ``values`` maps each text input's custom_id (or label) to the text typed.
        """
        if shown.modal is None:
            raise EmulatorError("that interaction was not answered with a modal")
        if shown.user is not user:
            raise EmulatorError("only the user who opened a modal can submit it")
        modal = shown.modal
        remaining = dict(values)

        def fill(component: dict[str, Any], label: str | None = None) -> dict[str, Any]:
            custom_id = component.get("custom_id")
            key = custom_id if custom_id in remaining else label if label in remaining else None
            if component.get("type") == 4:
                value = remaining.pop(key, "") if key else ""
                return {"type": 4, "custom_id": custom_id, "value": value}
            picked = remaining.pop(key, []) if key else []
            return {"type": component["type"], "custom_id": custom_id, "values": list(picked)}

        submitted: list[dict[str, Any]] = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                row = [fill(c, c.get("label")) for c in top.get("components", [])]
                submitted.append({"type": 1, "components": row})
            elif top.get("type") == 18:
                component = fill(top["component"], top.get("label"))
                submitted.append({"type": 18, "component": component})
        if remaining:
            raise LookupError(f"the modal has no inputs named {sorted(remaining)}")
        data = {"custom_id": modal.get("custom_id"), "components": submitted}
        fields = {"custom_id": modal.get("custom_id"), "values": dict(values)}
        return await self._interact(
            "modal", 5, user, shown.channel, data, str(modal.get("custom_id")), fields,
            shown.source_message, settle,
        )

    # -----------------------------------------------------------------------------------------
    # Forged interactions (``forge.py``): what Discord's own client would not send

    async def forge_click(
        self,
        user: EmuUser,
        channel: EmuChannel,
        custom_id: str,
        *,
        message: EmuMessage | InteractionResult | None = None,
        settle: bool = True,
    ) -> InteractionResult:
        """A button interaction with any ``custom_id``, from ``channel`` (another guild's, a DM
        from :meth:`dm_channel`), as ``user`` (member of the guild or not), on ``message``
        (default: the bot's newest message there that ``user`` sees). Nothing is checked."""
        from .forge import forge_component

        source = self._as_message(message) if message is not None else None
        return await forge_component(
            self, user, channel, custom_id, message=source, component_type=2, values=None,
            settle=settle,
        )

    async def forge_select(
        self,
        user: EmuUser,
        channel: EmuChannel,
        custom_id: str,
        values: list[str],
        *,
        message: EmuMessage | InteractionResult | None = None,
        settle: bool = True,
    ) -> InteractionResult:
        """A string-select interaction with any ``custom_id`` and any ``values`` (see
        :meth:`forge_click`)."""
        from .forge import forge_component

        source = self._as_message(message) if message is not None else None
        return await forge_component(
            self, user, channel, custom_id, message=source, component_type=3, values=values,
            settle=settle,
        )

    async def forge_slash(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        /,
        *,
        options: dict[str, Any] | None = None,
        settle: bool = True,
        **kw_options: Any,
    ) -> InteractionResult:
        """``/command`` with any option values (of the declared types: out of their choices or
        ranges too), from any channel (a DM included, whatever the command's ``contexts``), as
        any user, without the permission check. Unknown options are sent with a type guessed
        from the value."""
        from .forge import forge_slash

        opts = {**(options or {}), **kw_options}
        return await forge_slash(self, user, channel, command, opts, settle=settle)

    def stranger(self, name: str, *, user_id: int | None = None) -> EmuUser:
        """A user in no guild (``user_id``: any id, e.g. 2**64 - 1), for forged interactions."""
        user = EmuUser(id=user_id if user_id is not None else self._next_id(), name=name)
        self.users[user.id] = user
        return user

    async def say(self, user: EmuUser, channel: EmuChannel, content: str) -> EmuMessage:
        """``user`` posts a plain message (the bot gets MESSAGE_CREATE)."""
        self._check_can_see(user, channel)
        try:
            self.thread_rules.check_send(user, channel)
        except HTTPError as exc:
            raise EmulatorError(f"{user.name} may not post in {channel!r}: {exc.message}") from exc
        return await self._create(channel, user, {"content": content}, [], via="user")

    async def react(self, user: EmuUser, message: EmuMessage, emoji: str) -> None:
        """``user`` adds a unicode reaction to a visible message."""
        self._check_can_see(user, message.channel, message)
        await self._react(message, user, emoji, True)

    async def settle(self, result: InteractionResult, timeout: float | None = None) -> None:
        """Wait until the bot's handler of an interaction sent with ``settle=False`` has
        finished (in-process bots), as ``slash``/``click`` do by default."""
        pending = self.interactions[result.interaction_id]
        if timeout is None:
            await self._settle(pending)
            return
        saved, self.settle_timeout = self.settle_timeout, timeout
        try:
            await self._settle(pending)
        finally:
            self.settle_timeout = saved

    async def wait_for(
        self,
        predicate: Predicate,
        timeout: float = 5.0,
        *,
        poll: float = 0.01,
        what: str | None = None,
    ) -> Any:
        """Wait until ``predicate()`` (sync or async) is truthy; return its value.

        Re-checked on every change in the emulator and every ``poll`` seconds (for effects
        the emulator cannot see, like rows in the bot's database). A ``LookupError`` from the
        predicate (``emu.last_ephemeral(bob)`` before there is one) counts as "not yet".
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            change = self._change
            missing: LookupError | None = None
            try:
                value = predicate()
                if inspect.isawaitable(value):
                    value = await value
            except LookupError as exc:
                value, missing = None, exc
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                name = what or getattr(predicate, "__name__", "condition")
                raise EmulatorTimeout(f"timed out after {timeout}s waiting for {name}") from missing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(change.wait(), min(poll, remaining))

    # =========================================================================================
    # Reading what users see

    def _messages_in(self, channel: EmuChannel | None) -> Iterable[EmuMessage]:
        """Every message (of ``channel``), oldest first: a channel's from its own index, so
        scripted players polling their table do not scan every channel's messages."""
        if channel is None:
            return self.messages.values()
        return self._in_channel.get(channel.id, ())

    def public_messages(self, channel: EmuChannel | None = None) -> list[EmuMessage]:
        """Current public (non-ephemeral, non-deleted) messages, oldest first."""
        return [m for m in self._messages_in(channel) if m.public and not m.deleted]

    def last_public(self, channel: EmuChannel | None = None) -> EmuMessage:
        messages = self.public_messages(channel)
        if not messages:
            raise LookupError(f"no public message in {channel!r}")
        return messages[-1]

    def ephemerals_for(self, user: EmuUser, channel: EmuChannel | None = None) -> list[EmuMessage]:
        """Ephemeral messages only ``user`` sees (not deleted), oldest first."""
        return [
            m for m in self._messages_in(channel)
            if m.ephemeral and m.visible_to is user and not m.deleted
        ]

    def last_ephemeral(self, user: EmuUser) -> EmuMessage:
        messages = self.ephemerals_for(user)
        if not messages:
            raise LookupError(f"{user.name} has no ephemeral message")
        return messages[-1]

    def dms_for(self, user: EmuUser) -> list[EmuMessage]:
        return [m for m in self.messages.values() if m.channel.is_dm and m.channel.recipient is user
                and not m.deleted]

    def visible_to(self, user: EmuUser, channel: EmuChannel | None = None) -> list[EmuMessage]:
        """Everything ``user`` sees in ``channel``: public messages and their own ephemerals."""
        return [m for m in self._messages_in(channel) if m.visible_for(user)]

    @property
    def pings(self) -> list[Ping]:
        """Every notification so far (user, message, channel, at; see ``pings.py``)."""
        return list(self.notifications.all)

    @property
    def ghost_pings(self) -> list[Ping]:
        """Pings whose message was deleted afterwards."""
        return self.notifications.ghosts

    def pings_for(self, user: EmuUser) -> list[Ping]:
        return self.notifications.of(user)

    def messages_below(
        self, message: EmuMessage | InteractionResult, viewer: EmuUser | None = None
    ) -> list[EmuMessage]:
        """The public messages of ``message``'s channel created after it and not deleted,
        oldest first: what a client shows under it (with ``viewer``: their ephemerals too)."""
        return self.notifications.below(self._as_message(message), viewer)

    def all_public_text(self) -> list[str]:
        """The text of every version of every public message ever sent (deleted ones too):
        content, embed text, component labels/text, attachment names. For privacy checks."""
        return [v.text for m in self.messages.values() if m.public for v in m.versions]

    def message(self, message_id: int) -> EmuMessage:
        return self.messages[message_id]

    def has_commands(self) -> bool:
        return any(self.commands.values())

    def registered_commands(self, guild: EmuGuild | None = None) -> list[dict[str, Any]]:
        """Command payloads as synced (global, or for ``guild``)."""
        return list(self.commands.get(guild.id if guild else None, {}).values())

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

    # =========================================================================================
    # Internals: commands

    def _sync_commands(
        self, scope: int | None, payloads: list[dict[str, Any]], *, replace: bool
    ) -> list[dict[str, Any]]:
        old = self.commands.get(scope, {})
        new: dict[tuple[str, int], dict[str, Any]] = {} if replace else dict(old)
        out = []
        for payload in payloads:
            key = (payload["name"], int(payload.get("type", 1)))
            previous = old.get(key)
            command = {
                "type": 1,
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **payload,
                "id": previous["id"] if previous else str(self._next_id()),
                "application_id": str(self.application_id),
                "version": str(self._next_id()),
            }
            if scope is not None:
                command["guild_id"] = str(scope)
            new[key] = command
            out.append(command)
        self.commands[scope] = new
        self._record(
            "command_sync",
            scope="global" if scope is None else str(scope),
            commands=sorted(k[0] for k in new),
        )
        self._touch()
        return out

    def _find_command(self, channel: EmuChannel, name: str) -> dict[str, Any]:
        scopes: list[int | None] = [channel.guild.id] if channel.guild else []
        scopes.append(None)
        for scope in scopes:
            command = self.commands.get(scope, {}).get((name, 1))
            if command is not None:
                return command
        known = sorted({k[0] for s in scopes for k in self.commands.get(s, {})})
        raise EmulatorError(f"no slash command /{name} is registered here (registered: {known})")

    def _command_data(
        self,
        channel: EmuChannel,
        path: str,
        opts: dict[str, Any],
        user: EmuUser,
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise EmulatorError("empty command")
        command = self._find_command(channel, parts[0])
        self._check_command_allowed(command, channel, user)
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        container = data
        definitions = command.get("options", [])
        for depth, part in enumerate(parts[1:], start=1):
            sub = next(
                (o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None
            )
            if sub is None:
                raise EmulatorError(f"/{' '.join(parts[:depth])} has no subcommand {part!r}")
            node: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(node)
            container = node
            definitions = sub.get("options", [])
        if any(o["type"] in (1, 2) for o in definitions):
            names = [o["name"] for o in definitions if o["type"] in (1, 2)]
            raise EmulatorError(f"/{path} needs a subcommand: one of {names}")
        resolved: dict[str, dict[str, Any]] = {}
        given = dict(opts)
        values = []
        if focused is not None and focused not in [d["name"] for d in definitions]:
            raise EmulatorError(f"/{path} has no option {focused!r}")
        for definition in definitions:
            name = definition["name"]
            if name == focused:
                if not definition.get("autocomplete"):
                    raise EmulatorError(f"/{path} {name}: the option has no autocomplete")
                typed = str(given.pop(name, ""))
                values.append({"name": name, "type": definition["type"], "value": typed,
                               "focused": True})
                continue
            if name not in given:
                if focused is not None:
                    continue  # while typing, required options may still be empty
                if definition.get("required"):
                    raise EmulatorError(f"/{path}: option {name!r} is required")
                continue
            values.append(self._option_value(path, definition, given.pop(name), channel, resolved))
        if given:
            known = [d["name"] for d in definitions]
            raise EmulatorError(f"/{path} has no options {sorted(given)}; it has {known}")
        container["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_command_allowed(
        self, command: dict[str, Any], channel: EmuChannel, user: EmuUser
    ) -> None:
        """Discord hides commands a user may not use; so does the emulator (it raises)."""
        name = command["name"]
        contexts = command.get("contexts")
        if channel.guild is None:
            refused = command.get("dm_permission") is False
            if refused or (contexts is not None and 1 not in contexts):
                raise EmulatorError(f"/{name} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise EmulatorError(f"/{name} cannot be used in a guild")
        needed = command.get("default_member_permissions")
        if needed is not None:
            have = channel.guild.members[user.id].permissions
            if int(needed) & ~have:
                raise EmulatorError(f"{user.name} lacks the permissions /{name} requires")

    def _option_value(
        self,
        path: str,
        definition: dict[str, Any],
        value: Any,
        channel: EmuChannel,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        name, kind = definition["name"], definition["type"]
        where = f"/{path} {name}:"
        out: dict[str, Any] = {"name": name, "type": kind}

        def bad(expected: str) -> EmulatorError:
            return EmulatorError(f"{where} expected {expected}, got {value!r}")

        if kind == STRING:
            if not isinstance(value, str):
                raise bad("a str")
            lo, hi = definition.get("min_length"), definition.get("max_length", 6000)
            if (lo is not None and len(value) < lo) or len(value) > hi:
                raise EmulatorError(f"{where} length must be within [{lo}, {hi}]")
        elif kind == INTEGER:
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad("an int")
        elif kind == NUMBER:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise bad("a number")
            value = float(value)
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise bad("a bool")
        elif kind in (USER, MENTIONABLE) and isinstance(value, EmuUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = channel.guild.member(value) if channel.guild else None
            if member is not None:
                member_data = member.payload(with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(value.id)] = member_data
            value = str(value.id)
        elif kind in (ROLE, MENTIONABLE) and isinstance(value, EmuRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            value = str(value.id)
        elif kind == CHANNEL and isinstance(value, EmuChannel):
            data = value.payload()
            data["permissions"] = str(DEFAULT_EVERYONE_PERMISSIONS)
            resolved.setdefault("channels", {})[str(value.id)] = data
            value = str(value.id)
        elif kind == ATTACHMENT and isinstance(value, tuple) and len(value) == 2:
            filename, content = value
            attachment = Attachment(self._next_id(), filename, len(content), bytes(content))
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload(
                self.url
            )
            value = str(attachment.id)
        else:
            expected = {USER: "an EmuUser", ROLE: "an EmuRole", CHANNEL: "an EmuChannel",
                        MENTIONABLE: "an EmuUser or EmuRole",
                        ATTACHMENT: "a (filename, bytes) tuple"}.get(kind, f"option type {kind}")
            raise bad(expected)
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise EmulatorError(f"{where} {value!r} is not one of {[c['value'] for c in choices]}")
        if kind in (INTEGER, NUMBER):
            lo, hi = definition.get("min_value"), definition.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise EmulatorError(f"{where} {value} is outside [{lo}, {hi}]")
        out["value"] = value
        return out

    def _select_data(
        self, message: EmuMessage, menu: SelectMenu, values: list[Any]
    ) -> tuple[dict[str, Any], list[str]]:
        data: dict[str, Any] = {"custom_id": menu.custom_id, "component_type": menu.type}
        if not menu.min_values <= len(values) <= menu.max_values:
            raise EmulatorError(
                f"choose between {menu.min_values} and {menu.max_values} values, not {len(values)}"
            )
        if menu.type == 3:
            chosen = []
            for value in values:
                option = next(
                    (o for o in menu.options if value in (o.get("value"), o.get("label"))), None
                )
                if option is None:
                    raise LookupError(f"{value!r} is not an option of the select: {menu.labels}")
                chosen.append(option["value"])
            data["values"] = chosen
            return data, chosen
        resolved: dict[str, dict[str, Any]] = {}
        ids = []
        for value in values:
            if isinstance(value, EmuUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = message.channel.guild.member(value) if message.channel.guild else None
                if member is not None:
                    resolved.setdefault("members", {})[str(value.id)] = member.payload(
                        with_user=False, with_permissions=True
                    )
            elif isinstance(value, EmuRole):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            elif isinstance(value, EmuChannel):
                channel_data = value.payload()
                channel_data["permissions"] = str(DEFAULT_EVERYONE_PERMISSIONS)
                resolved.setdefault("channels", {})[str(value.id)] = channel_data
            ids.append(str(getattr(value, "id", value)))
        data["values"] = ids
        data["resolved"] = resolved
        return data, ids

    # =========================================================================================
    # Internals: interactions

    def _as_message(self, message: EmuMessage | InteractionResult) -> EmuMessage:
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise EmulatorError("that interaction has no message to click on")
            return message.message
        return message

    def _check_can_see(
        self, user: EmuUser, channel: EmuChannel, message: EmuMessage | None = None
    ) -> None:
        if channel.is_dm:
            if channel.recipient is not user:
                raise EmulatorError(f"{user.name} is not in the DM {channel.name}")
        elif channel.guild is None or user.id not in channel.guild.members:
            raise EmulatorError(f"{user.name} is not a member of the channel's guild")
        elif not self.thread_rules.can_view(user, channel):
            raise EmulatorError(f"{user.name} cannot view {channel!r}")
        if message is not None:
            if message.deleted:
                raise EmulatorError(f"{message!r} was deleted")
            if not message.visible_for(user):
                raise EmulatorError(f"{user.name} cannot see {message!r}")
            if message.loading:
                raise EmulatorError(f"{message!r} is still loading ('thinking')")

    def _interaction_payload(
        self,
        itype: int,
        interaction_id: int,
        token: str,
        user: EmuUser,
        channel: EmuChannel,
        data: dict[str, Any],
        source: EmuMessage | None,
    ) -> dict[str, Any]:
        guild = channel.guild
        channel_data = channel.payload()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel_data,
        }
        if guild is not None:
            # a forged interaction may come from a user outside the guild: a member, no roles
            member = guild.members.get(user.id) or EmuMember(user, guild)
            bot_member = guild.members[self.bot_user.id]
            channel_data["permissions"] = str(self.thread_rules.permissions(user, channel))
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                    "guild_locale": "en-US",
                    "member": member.payload(with_permissions=True),
                    "app_permissions": str(
                        self.thread_rules.permissions(bot_member.user, channel)
                    ),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "user": user.payload(),
                    "app_permissions": str(DEFAULT_BOT_PERMISSIONS),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": 1,
                }
            )
        if source is not None:
            payload["message"] = source.payload(self.base_url)
        return payload

    async def _interact(
        self,
        kind: str,
        itype: int,
        user: EmuUser,
        channel: EmuChannel,
        data: dict[str, Any],
        name: str,
        fields: dict[str, Any],
        source: EmuMessage | None,
        settle: bool,
    ) -> InteractionResult:
        session = self.gateway.route(channel.guild.id if channel.guild else None)  # its shard's
        if session is None:
            raise EmulatorError(
                "no bot is connected to the emulator on this guild's shard (use `emu.running(bot)`)"
            )
        interaction_id = self._next_id()
        token = f"emu{interaction_id}.{secrets.token_urlsafe(24)}"
        now = self.now()
        result = InteractionResult(
            emulator=self,
            interaction_id=interaction_id,
            token=token,
            kind=kind,
            user=user,
            channel=channel,
            name=name,
            dispatched_at=now,
            source_message=source,
        )
        payload = self._interaction_payload(itype, interaction_id, token, user, channel, data,
                                            source)
        pending = PendingInteraction(result, itype, channel.guild, payload, now)
        self.interactions[interaction_id] = pending
        self._by_token[token] = pending
        self._record(
            "interaction",
            interaction_id=str(interaction_id),
            interaction_type=kind,
            user_id=str(user.id),
            user=user.name,
            channel_id=str(channel.id),
            channel=channel.name,
            guild_id=str(channel.guild.id) if channel.guild else None,
            **fields,
        )
        await session.dispatch("INTERACTION_CREATE", payload)
        await self._await_response(pending)
        if settle:
            await self._settle(pending)
        return self._finish(pending)

    async def _await_response(self, pending: PendingInteraction) -> None:
        deadline = pending.created_at + self.response_deadline
        gave_up = False
        while not pending.responded.is_set():
            remaining = deadline - self.now()
            if remaining <= 0:
                break
            if pending.handlers_known and all(t.done() for t in pending.handler_tasks):
                gave_up = True  # fail fast: whatever discord.py started for it has finished
                break
            change = self._change
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(change.wait(), remaining)
        if not pending.responded.is_set():
            if gave_up and not pending.handler_tasks:
                why = (
                    "discord.py found nothing to handle it (no matching command, view or "
                    "dynamic item: was the view persistent and registered in setup_hook?)"
                )
            elif gave_up:
                why = "its handler finished without responding"
            elif pending.handler_tasks:
                why = f"no response within {self.response_deadline}s"
            else:
                why = f"nothing handled it within {self.response_deadline}s"
            self._violation(
                "no_response",
                f"no initial response to {pending.result.kind} {pending.result.name!r}: {why}; "
                "the user sees 'This interaction failed'",
                interaction_id=pending.id,
            )

    async def _settle(self, pending: PendingInteraction) -> None:
        if not pending.handlers_known:
            return
        tasks = {t for t in pending.handler_tasks if not t.done()}
        if tasks:
            _, not_done = await asyncio.wait(tasks, timeout=self.settle_timeout)
            if not_done:
                names = [t.get_name() for t in not_done]
                raise EmulatorTimeout(
                    f"the bot's handler for {pending.result.name!r} did not finish within "
                    f"{self.settle_timeout}s (tasks {names}); "
                    "pass settle=False if it waits on purpose"
                )
        pending.result.settled = True
        pending.handler_tasks.clear()  # done; don't keep finished tasks alive in long runs

    def _finish(self, pending: PendingInteraction) -> InteractionResult:
        result = pending.result
        violations = [v for v in self.violations if not v.reported]
        errors = [
            e for e in self.bot_errors
            if not e.reported and e.interaction_id in (pending.id, None)
        ]
        result.violations = violations
        result.errors = [e.text for e in errors]
        if self.strict and (violations or errors):
            for item in [*violations, *errors]:
                item.reported = True
            if violations:
                raise ViolationError(violations, result.errors)
            raise BotError(result.errors)
        return result

    def _metadata(self, pending: PendingInteraction, **extra: Any) -> dict[str, Any]:
        result = pending.result
        data: dict[str, Any] = {
            "id": str(pending.id),
            "type": pending.type,
            "user": result.user.payload(),
            "authorizing_integration_owners": pending.payload["authorizing_integration_owners"],
        }
        if pending.type == 2:
            data["name"] = result.name
        if result.source_message is not None:
            data["interacted_message_id"] = str(result.source_message.id)
        data.update({k: v for k, v in extra.items() if v is not None})
        return data

    async def _respond(
        self, pending: PendingInteraction, body: dict[str, Any], uploads: list[Upload], route: str
    ) -> EmuMessage | None:
        result = pending.result
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        now = self.now()
        if result.response_type is not None:
            self._violation(
                "double_response",
                f"a second initial response (type {rtype}); the first was {result.response_name}",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if now - pending.created_at > self.response_deadline:
            already = any(
                v.kind == "no_response" and v.interaction_id == pending.id for v in self.violations
            )
            if not already:
                self._violation(
                    "late_response",
                    f"initial response after {now - pending.created_at:.2f}s "
                    f"(deadline {self.response_deadline}s)",
                    interaction_id=pending.id,
                    route=route,
                )
            self._record(
                "response", interaction_id=str(pending.id), response_type=rtype,
                response_name=RESPONSE_TYPE_NAMES.get(rtype), accepted=False,
                latency_ms=round((now - pending.created_at) * 1000, 1), error="Unknown interaction",
            )
            raise HTTPError(404, 10062, "Unknown interaction")
        if rtype not in ALLOWED_RESPONSES[pending.type]:
            self._violation(
                "invalid_response_type",
                f"response type {rtype} ({RESPONSE_TYPE_NAMES.get(rtype)}) is not valid for a "
                f"{result.kind} interaction",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(400, 50035, "Invalid Form Body",
                            form_errors([("type", "Interaction response type is not valid")]))
        source = result.source_message
        if rtype in (4, 7):
            creating = rtype == 4
            flags = source.flags if (source and not creating) else 0
            problems = self._check(data, creating=creating, uploads=uploads, flags=flags)
            if problems:
                raise self._invalid(route, problems, pending.id)
        if rtype in (6, 7) and (source is None or source.deleted):
            raise HTTPError(404, 10008, "Unknown Message")

        # Accepted: from here on nothing can fail, so a racing second response sees it.
        result.response_type = rtype
        result.responded_at = now
        pending.responded.set()
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        self._record(
            "response",
            interaction_id=str(pending.id),
            response_type=rtype,
            response_name=RESPONSE_TYPE_NAMES.get(rtype),
            accepted=True,
            latency_ms=round((now - pending.created_at) * 1000, 1),
            ephemeral=ephemeral if rtype in (4, 5) else bool(source and source.ephemeral),
        )
        message: EmuMessage | None = None
        if rtype in (4, 5):
            message = await self._create(
                result.channel,
                self.bot_user,
                data if rtype == 4 else {"content": ""},
                uploads if rtype == 4 else [],
                via="interaction_response" if rtype == 4 else "deferred",
                ephemeral=ephemeral,
                visible_to=result.user if ephemeral else None,
                interaction=pending,
                loading=rtype == 5,
            )
            result.message = message
            result.ephemeral = ephemeral
        elif rtype in (6, 7):
            assert source is not None
            result.message = source
            result.ephemeral = source.ephemeral
            if rtype == 7:
                await self._edit(source, data, uploads, via="component_update", interaction=pending)
                message = source
        elif rtype == 9:
            result.modal = data
        elif rtype == 8:
            result.choices = list(data.get("choices") or [])
        self._touch(result.channel)
        return message

    async def _followup(
        self, pending: PendingInteraction, body: dict[str, Any], uploads: list[Upload], route: str
    ) -> EmuMessage:
        result = pending.result
        if result.response_type is None:
            self._violation(
                "followup_before_response",
                "a followup was sent before the interaction was responded to",
                interaction_id=pending.id,
                route=route,
            )
            raise HTTPError(404, 10015, "Unknown Webhook")
        problems = self._check(body, creating=True, uploads=uploads)
        if problems:
            raise self._invalid(route, problems, pending.id)
        original = result.message
        if result.response_type == 5 and original is not None and original.loading:
            # Discord: the first followup after a deferred response replaces the "thinking"
            # message, and keeps the defer's visibility (its own ephemeral flag is ignored).
            await self._edit(original, body, uploads, via="followup", interaction=pending)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            message = await self._create(
                result.channel,
                self.bot_user,
                body,
                uploads,
                via="followup",
                ephemeral=ephemeral,
                visible_to=result.user if ephemeral else None,
                interaction=pending,
            )
        result.followups.append(message)
        self._touch()
        return message

    # =========================================================================================
    # Internals: messages

    def _check(
        self, body: dict[str, Any], *, creating: bool, uploads: list[Upload], flags: int = 0
    ) -> list[limits.Problem]:
        has_files = bool(uploads) or bool(body.get("attachments"))
        problems = limits.check_message(body, creating=creating, has_files=has_files, flags=flags)
        return problems + check_allowed_mentions(body)

    def _invalid(
        self, route: str, problems: list[limits.Problem], interaction_id: int | None
    ) -> HTTPError:
        return self.rest._invalid(route, problems, interaction_id)

    def _attachments(
        self, body: dict[str, Any], uploads: list[Upload], existing: tuple[Attachment, ...]
    ) -> tuple[Attachment, ...]:
        by_index = {u.index: u for u in uploads}

        def new(upload: Upload, description: str | None = None) -> Attachment:
            return Attachment(self._next_id(), upload.filename, len(upload.data), upload.data,
                              upload.content_type, description)

        if body.get("attachments") is None:
            return existing + tuple(new(u) for u in uploads)
        out: list[Attachment] = []
        for entry in body["attachments"]:
            key = int(entry.get("id", -1))
            if key in by_index:
                out.append(new(by_index.pop(key), entry.get("description")))
            else:
                out += [a for a in existing if a.id == key]
        out += [new(u) for u in by_index.values()]
        return tuple(out)

    async def _create(
        self,
        channel: EmuChannel,
        author: EmuUser,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        via: str,
        ephemeral: bool = False,
        visible_to: EmuUser | None = None,
        interaction: PendingInteraction | None = None,
        loading: bool = False,
    ) -> EmuMessage:
        kept = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        flags = int(body.get("flags") or 0) & kept
        if ephemeral:
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        version = MessageVersion(
            version=1,
            at=self.now(),
            content=body.get("content") or "",
            embeds=tuple(body.get("embeds") or ()),
            raw_components=tuple(body.get("components") or ()),
            attachments=self._attachments(body, uploads, ()),
            flags=flags,
        )
        metadata = None
        if interaction is not None:
            original = interaction.result.message
            metadata = self._metadata(
                interaction,
                original_response_message_id=str(original.id) if original and via == "followup"
                else None,
            )
        message = EmuMessage(
            id=self._next_id(),
            channel=channel,
            author=author,
            versions=[version],
            created_at=self._wall(),
            ephemeral=ephemeral,
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            via=via,
            webhook_id=self.application_id if interaction else None,
            interaction_metadata=metadata,
            message_type=20 if interaction is not None and interaction.type == 2 else 0,
        )
        reference = body.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            message.message_reference = {"channel_id": str(channel.id), **reference}
            message.message_type = 19  # REPLY
        self.thread_rules.posted(message)
        self.messages[message.id] = message
        self._in_channel.setdefault(channel.id, []).append(message)
        self._record("message", action="create", author=author.name, **message_fields(message))
        self.notifications.created(
            message, body, by_interaction=interaction is not None, loading=loading
        )
        self._touch(channel)
        await self._broadcast_message("MESSAGE_CREATE", message)
        return message

    async def _edit(
        self,
        message: EmuMessage,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        via: str,
        interaction: PendingInteraction | None = None,
    ) -> None:
        current = message.current
        content = (body.get("content") or "") if "content" in body else current.content
        embeds = tuple(body.get("embeds") or ()) if "embeds" in body else current.embeds
        components = (
            tuple(body.get("components") or ()) if "components" in body else current.raw_components
        )
        attachments = current.attachments
        if "attachments" in body or uploads:
            attachments = self._attachments(body, uploads, current.attachments)
        flags = current.flags
        if body.get("flags") is not None:
            new_flags = int(body["flags"])
            flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (new_flags & FLAG_SUPPRESS_EMBEDS)
            flags |= new_flags & FLAG_COMPONENTS_V2
        filled = bool(flags & FLAG_LOADING)
        flags &= ~FLAG_LOADING
        version = MessageVersion(
            version=len(message.versions) + 1,
            at=self.now(),
            content=content,
            embeds=embeds,
            raw_components=components,
            attachments=attachments,
            flags=flags,
        )
        message.versions.append(version)
        if not filled:
            message.edited_at = self._wall()
        action = "fill" if filled else "edit"
        fields = message_fields(message)
        fields["via"] = via
        if interaction is not None:
            fields["by_interaction_id"] = str(interaction.id)
        self._record("message", action=action, author=message.author.name, **fields)
        self._touch(message.channel)
        await self._broadcast_message("MESSAGE_UPDATE", message)

    async def _delete(self, message: EmuMessage, *, via: str) -> None:
        message.deleted = True
        message.deleted_at = self.now()
        self._record(
            "message",
            action="delete",
            message_id=str(message.id),
            channel_id=str(message.channel.id),
            visibility="ephemeral" if message.ephemeral else "public",
            via=via,
        )
        self.notifications.deleted(message)
        self._touch(message.channel)
        if message.ephemeral:
            return
        data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
        guild = message.channel.guild
        if guild is not None:
            data["guild_id"] = str(guild.id)
        intent = INTENT_GUILD_MESSAGES if guild else INTENT_DIRECT_MESSAGES
        await self.gateway.broadcast("MESSAGE_DELETE", data, intent)

    async def _react(self, message: EmuMessage, user: EmuUser, emoji: str, add: bool) -> None:
        users = message.reactions.setdefault(emoji, set())
        if add:
            users.add(user.id)
        else:
            users.discard(user.id)
        self._record(
            "reaction",
            action="add" if add else "remove",
            message_id=str(message.id),
            emoji=emoji,
            user_id=str(user.id),
            user=user.name,
        )
        self._touch()
        guild = message.channel.guild
        if user is self.bot_user or message.ephemeral:
            return
        data: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(message.channel.id),
            "message_id": str(message.id),
            "emoji": {"id": None, "name": emoji},
            "burst": False,
            "type": 0,
        }
        if guild is not None:
            data["guild_id"] = str(guild.id)
            data["member"] = guild.members[user.id].payload()
        event = "MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE"
        await self.gateway.broadcast(event, data, 1 << 10 if guild else 1 << 13)

    async def _broadcast_message(self, event: str, message: EmuMessage) -> None:
        if message.ephemeral:
            return
        guild = message.channel.guild
        intent = INTENT_GUILD_MESSAGES if guild else INTENT_DIRECT_MESSAGES
        sessions = self.gateway.receivers(guild.id if guild else None, intent)  # its shard's
        if not sessions:
            return
        base = message.payload(self.base_url)
        if guild is not None:
            member = guild.members.get(message.author.id)
            if member is not None:
                base["member"] = member.payload(with_user=False)
        if message.author is not self.bot_user:
            mentioned = self.bot_user.mention in message.content
            hidden = {**base, "content": "", "embeds": [], "attachments": [], "components": []}
        for session in sessions:
            data = base
            if message.author is not self.bot_user and not (
                session.intents & INTENT_MESSAGE_CONTENT or mentioned
            ):
                data = hidden
            await session.dispatch(event, data)


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in options.items():
        if isinstance(value, EmuUser | EmuChannel | EmuRole):
            out[key] = {"id": str(value.id), "name": value.name}
        elif isinstance(value, tuple):
            out[key] = str(value[0])
        else:
            out[key] = value
    return out


def _current_test() -> str | None:
    return os.environ.get("PYTEST_CURRENT_TEST")
