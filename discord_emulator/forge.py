"""Forged interactions: what a modified client, a stale command cache or a replayed request sends.

The emulator's ``slash``/``click``/``select`` only do what Discord's own client lets a person do
(the button is on the message, the value is one of the choices, the command may be used here).
A bot must not rely on that. Discord's documentation says so of components: "Your application
should take care to validate data sent in message component interactions. For example, ensuring
that the custom_id originates from the received message" (Message Components, the note added in
discord/discord-api-docs#3029). And a command's ``contexts`` and ``default_member_permissions``
are set on the top-level command only (Application Commands: "contexts … Interaction context(s)
where the command can be used, only for globally-scoped commands"; subcommands have no contexts
of their own), so a guild-only *subcommand* can still arrive from a DM; an option's choices and
ranges are those of the command definition the *client* cached, which may be an older one.

These functions build such interactions with the structure Discord gives every interaction
(Interactions › Receiving and Responding › Interaction Object):

* from a guild channel: ``guild_id``, ``member`` (with ``permissions``), ``context`` 0 (GUILD);
* from a DM with the bot (a channel from :meth:`DiscordEmulator.dm_channel`): no ``guild_id``,
  ``user`` instead of ``member``, ``context`` 1 (BOT_DM) — "member: guild member data for the
  invoking user … user: user object for the invoking user, if invoked in a DM";
* a component interaction carries the ``message`` its component was on ("message?: for
  components … the message they were attached to"): the ``message`` argument, any message, in
  any channel, whatever components it shows;

and nothing else is checked: any ``custom_id`` (any length, any characters), any select
``values``, any option value of the declared type (out of its choices or range included), a user
who is not a member of the channel's guild (sent as a member with no roles), a command whose
contexts exclude the channel. Each is recorded in the transcript as an ``interaction`` record
with ``forged: true``, and answered, deadlines and violations included, like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import EmuChannel, EmulatorError, EmuMessage, EmuRole, EmuUser, InteractionResult

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

#: Option types (Application Commands › Application Command Option Type).
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(3, 11)


def source_message(
    emu: DiscordEmulator, user: EmuUser, channel: EmuChannel, message: EmuMessage | None
) -> EmuMessage:
    """The message a forged component interaction comes from: ``message``, else the newest
    message of the bot in ``channel`` that ``user`` sees."""
    if message is not None:
        if message.deleted:  # a client cannot click a deleted message (10008 Unknown Message)
            raise EmulatorError(f"{message!r} was deleted")
        return message
    for candidate in reversed(emu.visible_to(user, channel)):
        if candidate.author is emu.bot_user and not candidate.deleted:
            return candidate
    raise EmulatorError(
        f"no message of the bot in {channel!r} for {user.name} to click on: pass message="
    )


async def forge_component(
    emu: DiscordEmulator,
    user: EmuUser,
    channel: EmuChannel,
    custom_id: str,
    *,
    message: EmuMessage | None,
    component_type: int,
    values: list[str] | None,
    settle: bool,
) -> InteractionResult:
    source = source_message(emu, user, channel, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    fields: dict[str, Any] = {
        "custom_id": custom_id,
        "component_type": component_type,
        "message_id": str(source.id),
        "forged": True,
    }
    if values is not None:
        fields["values"] = list(values)
    return await emu._interact(
        "component", 3, user, channel, data, custom_id, fields, source, settle
    )


def _find_command_anywhere(
    emu: DiscordEmulator, channel: EmuChannel, name: str
) -> dict[str, Any] | None:
    """The command ``name`` as registered for the channel's guild or globally (or, failing
    that, for any guild: a client may still show a command another scope had)."""
    scopes: list[int | None] = [channel.guild.id] if channel.guild else []
    scopes.append(None)
    scopes += [s for s in emu.commands if s not in scopes]
    for scope in scopes:
        command = emu.commands.get(scope, {}).get((name, 1))
        if command is not None:
            return command
    return None


def _guess_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, EmuUser):
        return USER
    if isinstance(value, EmuRole):
        return ROLE
    if isinstance(value, EmuChannel):
        return CHANNEL
    return STRING


def _option(
    name: str,
    kind: int,
    value: Any,
    channel: EmuChannel,
    resolved: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """One option as Discord sends it; users, roles and channels go into ``resolved``, as
    Discord always sends them (Interaction Object › Resolved Data Structure)."""
    if isinstance(value, EmuUser):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        member = channel.guild.member(value) if channel.guild else None
        if member is not None:
            resolved.setdefault("members", {})[str(value.id)] = member.payload(
                with_user=False, with_permissions=True
            )
        value = str(value.id)
    elif isinstance(value, EmuRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        value = str(value.id)
    elif isinstance(value, EmuChannel):
        resolved.setdefault("channels", {})[str(value.id)] = value.payload()
        value = str(value.id)
    return {"name": name, "type": kind, "value": value}


async def forge_slash(
    emu: DiscordEmulator,
    user: EmuUser,
    channel: EmuChannel,
    path: str,
    options: dict[str, Any],
    *,
    settle: bool,
) -> InteractionResult:
    parts = path.strip().lstrip("/").split()
    if not parts:
        raise EmulatorError("empty command")
    command = _find_command_anywhere(emu, channel, parts[0])
    if command is None:
        raise EmulatorError(f"no slash command /{parts[0]} was ever registered")
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    container = data
    definitions: list[dict[str, Any]] = command.get("options", [])
    for part in parts[1:]:
        sub = next((o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None)
        kind = sub["type"] if sub else SUB_COMMAND
        node: dict[str, Any] = {"name": part, "type": kind, "options": []}
        container.setdefault("options", []).append(node)
        container = node
        definitions = sub.get("options", []) if sub else []
    declared = {d["name"]: d["type"] for d in definitions}
    resolved: dict[str, dict[str, Any]] = {}
    container["options"] = [
        _option(name, declared.get(name) or _guess_type(value), value, channel, resolved)
        for name, value in options.items()
    ]
    if resolved:
        data["resolved"] = resolved
    shown = {
        k: ({"id": str(v.id), "name": v.name} if isinstance(v, EmuUser | EmuRole | EmuChannel)
            else v)
        for k, v in options.items()
    }
    fields = {"command": " ".join(parts), "options": shown, "forged": True}
    return await emu._interact("slash", 2, user, channel, data, " ".join(parts), fields, None,
                               settle)
