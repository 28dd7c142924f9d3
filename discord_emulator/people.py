"""People acting: slash commands, clicks, selects, modals, forged interactions, messages and
reactions, and how each interaction is built, sent and answered."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import secrets
from typing import TYPE_CHECKING, Any

from .base import (
    ALLOWED_RESPONSES,
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    USER,
    EmulatorTimeout,
    jsonable,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    FLAG_EPHEMERAL,
    RESPONSE_TYPE_NAMES,
    Attachment,
    BotError,
    EmuChannel,
    EmulatorError,
    EmuMember,
    EmuMessage,
    EmuRole,
    EmuUser,
    InteractionResult,
    PendingInteraction,
    Predicate,
    SelectMenu,
    ViolationError,
)
from .rest import HTTPError, Upload, form_errors

if TYPE_CHECKING:
    pass



class People:
    """Users acting on the bot, and the interactions they send (a part of ``DiscordEmulator``)."""

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
        fields = {"command": command, "options": jsonable(opts)}
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
        fields = {"command": command, "focused": focused, "options": jsonable(opts)}
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
            shown.source_message, settle, trigger=self.interactions.get(shown.interaction_id),
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
            # Discord answers with its own forms: a permission set as a string, and a command
            # that names no installation contexts installed to guilds only
            permissions = command.get("default_member_permissions")
            if permissions is not None:
                command["default_member_permissions"] = str(permissions)
            if command.get("integration_types") is None:
                command["integration_types"] = [0]
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
        *,
        trigger: PendingInteraction | None = None,
    ) -> InteractionResult:
        """Dispatch an interaction and wait for the bot's answer; ``trigger``: for a modal's
        submission, the interaction the modal answered."""
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
        pending = PendingInteraction(result, itype, channel.guild, payload, now, trigger=trigger)
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
        if pending.trigger is not None:  # a modal's submission: what opened the modal
            data["triggering_interaction_metadata"] = self._metadata(pending.trigger)
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
