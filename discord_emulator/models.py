"""The emulator's world: users, guilds, channels, messages, components and interaction results.

These are plain objects the test reads; the emulator turns them into Discord JSON payloads.
Messages are *live*: an :class:`EmuMessage` always shows its latest version, and keeps every
earlier version in :attr:`EmuMessage.versions` for audits.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

#: Discord's epoch for snowflakes (2015-01-01T00:00:00Z), in milliseconds.
DISCORD_EPOCH_MS = 1420070400000

#: Message flags used by the emulator.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

#: Interaction callback (response) types, by value.
RESPONSE_TYPE_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
    10: "PREMIUM_REQUIRED",
    12: "LAUNCH_ACTIVITY",
}

#: Button styles, by value.
BUTTON_STYLE_NAMES = {
    1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"
}


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


# --------------------------------------------------------------------------------------------
# Errors


class EmulatorError(Exception):
    """A test drove the emulator into something a real Discord user could not do, or timed out."""


@dataclass
class Violation:
    """A rule of the Discord platform the bot broke (Discord would have rejected or failed it).

    ``kind`` is one of: ``no_response`` (no initial response before the deadline),
    ``late_response`` (the callback came after the deadline; Discord answers 10062 Unknown
    interaction), ``double_response`` (a second initial response; Discord answers 40060),
    ``invalid_response_type`` (e.g. UPDATE_MESSAGE to a slash command), ``unknown_token``,
    ``expired_token`` (older than 15 minutes of emulator clock), ``foreign_token`` (an ephemeral
    message of another user addressed through this token), ``foreign_message`` (a message
    neither the token's original response nor one of its follow-ups), ``followup_before_response``,
    ``invalid_message`` (content/embed/component limits: see ``detail``), ``unknown_route``.
    """

    kind: str
    detail: str
    at: float
    interaction_id: int | None = None
    route: str | None = None
    reported: bool = False

    def __str__(self) -> str:
        where = f" (interaction {self.interaction_id})" if self.interaction_id else ""
        route = f" [{self.route}]" if self.route else ""
        return f"{self.kind}{where}{route}: {self.detail}"


class ViolationError(EmulatorError):
    """Raised (in strict mode) when the bot broke a Discord rule; ``.violations`` lists them."""

    def __init__(self, violations: list[Violation], bot_errors: list[str] | None = None):
        self.violations = violations
        self.bot_errors = bot_errors or []
        lines = ["the bot broke Discord rules:"] + [f"  - {v}" for v in violations]
        if self.bot_errors:
            lines.append("bot errors logged meanwhile:")
            lines += [f"  {e}" for e in self.bot_errors]
        super().__init__("\n".join(lines))

    @property
    def kinds(self) -> list[str]:
        return [v.kind for v in self.violations]


class BotError(EmulatorError):
    """Raised (in strict mode) when discord.py logged an error while handling an interaction."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("the bot logged errors:\n" + "\n".join(errors))


# --------------------------------------------------------------------------------------------
# People and places


@dataclass(eq=False)
class EmuUser:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,  # nobody here displays a server tag
        }

    def __repr__(self) -> str:
        return f"<EmuUser {self.name} id={self.id}>"


@dataclass(eq=False)
class EmuRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class EmuMember:
    user: EmuUser
    guild: EmuGuild
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    @property
    def permissions(self) -> int:
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role_id in self.roles:
            role = self.guild.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class EmuGuild:
    id: int
    name: str
    owner_id: int
    channels: list[EmuChannel] = field(default_factory=list)
    threads: list[EmuChannel] = field(default_factory=list)  # thread channels (threads.py)
    members: dict[int, EmuMember] = field(default_factory=dict)
    roles: dict[int, EmuRole] = field(default_factory=dict)
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    @property
    def everyone(self) -> EmuRole:
        return self.roles[self.id]

    def member(self, user: EmuUser) -> EmuMember | None:
        return self.members.get(user.id)

    def channel(self, name: str) -> EmuChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise LookupError(f"no channel #{name} in guild {self.name!r}")

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "application_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles.values()],
        }

    def create_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload (guild plus channels, members, roles)."""
        data = self.payload()
        data.update(
            {
                "unavailable": False,
                "large": False,
                "lazy": True,
                "joined_at": iso(self.created_at),
                "member_count": len(self.members),
                "members": [m.payload() for m in self.members.values()],
                "channels": [c.payload(with_guild_id=False) for c in self.channels],
                "threads": [t.payload() for t in self.threads if not t.archived],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    def __repr__(self) -> str:
        return f"<EmuGuild {self.name} id={self.id}>"


@dataclass(eq=False)
class EmuChannel:
    id: int
    name: str
    guild: EmuGuild | None
    type: int = 0  # 0 = text, 1 = DM, 11 = public thread, 12 = private thread
    position: int = 0
    recipient: EmuUser | None = None  # for DM channels
    # permission overwrites: role or member id -> (allow, deny, type 0 role / 1 member)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # threads (see threads.py): the channel it lives in, who started it, its state
    parent: EmuChannel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 4320
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    message_count: int = 0
    total_message_sent: int = 0

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def jump_url(self) -> str:
        guild = self.guild.id if self.guild is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.id}"

    def payload(self, *, with_guild_id: bool = True) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        if self.is_thread:
            return self._thread_payload(with_guild_id)
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (allow, deny, kind) in self.overwrites.items()
            ],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if with_guild_id and self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        return data

    def _thread_payload(self, with_guild_id: bool) -> dict[str, Any]:
        """A thread channel object (docs/topics/threads: "Thread Fields")."""
        assert self.parent is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": self.message_count,
            "member_count": 1,
            "total_message_sent": self.total_message_sent,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.created_at),
                "locked": self.locked,
                "create_timestamp": iso(self.created_at),
            },
        }
        if with_guild_id and self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        return data

    def __repr__(self) -> str:
        return f"<EmuChannel #{self.name} id={self.id}>"


# Permission bits (Discord's values).
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_EVERYONE_PERMISSIONS = (
    (1 << 6)  # add_reactions
    | (1 << 10)  # view_channel
    | (1 << 11)  # send_messages
    | (1 << 14)  # embed_links
    | (1 << 15)  # attach_files
    | (1 << 16)  # read_message_history
    | (1 << 17)  # mention_everyone
    | (1 << 18)  # use_external_emojis
    | (1 << 26)  # change_nickname
    | (1 << 31)  # use_application_commands
    | (1 << 35)  # create_public_threads
    | (1 << 38)  # send_messages_in_threads
)
# The bot also manages messages (1 << 13) and threads (1 << 34).
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | (1 << 13) | (1 << 34)


# --------------------------------------------------------------------------------------------
# Components


def _emoji_name(raw: dict[str, Any] | None) -> str | None:
    if not raw:
        return None
    if raw.get("id"):
        return f"<:{raw.get('name')}:{raw['id']}>"
    return raw.get("name")


@dataclass(frozen=True)
class Button:
    """A button as a user sees it."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None
    raw: dict[str, Any] = field(repr=False, compare=False)
    type: int = 2

    @property
    def style_name(self) -> str:
        return BUTTON_STYLE_NAMES.get(self.style, str(self.style))

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Button:
        return cls(
            label=raw.get("label"),
            custom_id=raw.get("custom_id"),
            style=int(raw.get("style", 1)),
            disabled=bool(raw.get("disabled", False)),
            emoji=_emoji_name(raw.get("emoji")),
            url=raw.get("url"),
            raw=raw,
        )


@dataclass(frozen=True)
class SelectMenu:
    """A select menu (string select has ``options``; user/role/channel selects have none)."""

    type: int
    custom_id: str
    placeholder: str | None
    options: tuple[dict[str, Any], ...]
    min_values: int
    max_values: int
    disabled: bool
    raw: dict[str, Any] = field(repr=False, compare=False)

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def labels(self) -> list[str]:
        return [o.get("label", "") for o in self.options]

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> SelectMenu:
        return cls(
            type=int(raw["type"]),
            custom_id=raw.get("custom_id", ""),
            placeholder=raw.get("placeholder"),
            options=tuple(raw.get("options", [])),
            min_values=int(raw.get("min_values", 1)),
            max_values=int(raw.get("max_values", 1)),
            disabled=bool(raw.get("disabled", False)),
            raw=raw,
        )


Item = Button | SelectMenu | dict[str, Any]


def parse_item(raw: dict[str, Any]) -> Item:
    kind = raw.get("type")
    if kind == 2:
        return Button.from_raw(raw)
    if kind in (3, 5, 6, 7, 8):
        return SelectMenu.from_raw(raw)
    return raw


@dataclass(frozen=True)
class ActionRow:
    """One row of components; iterate it or index it like a list."""

    children: tuple[Item, ...]

    def __iter__(self) -> Iterator[Item]:
        return iter(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def __getitem__(self, index: int) -> Item:
        return self.children[index]

    @property
    def buttons(self) -> list[Button]:
        return [c for c in self.children if isinstance(c, Button)]


def walk_components(raw: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a (possibly nested, components-v2) tree, depth first."""
    for component in raw or []:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def answer_components(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord answers them: every one with its numeric ``id`` (those the bot
    left out numbered in order, after the ones it set), an emoji without an ``id`` when it has
    none (a Unicode emoji)."""
    components: list[dict[str, Any]] = json.loads(json.dumps(raw))
    every = list(walk_components(components))
    taken = {c["id"] for c in every if isinstance(c.get("id"), int)}
    next_id = 1
    for component in every:
        if not isinstance(component.get("id"), int):
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is None:
            emoji.pop("id", None)
    return components


def answer_reference(reference: dict[str, Any]) -> dict[str, Any]:
    """A message reference as Discord answers it: with its ``type`` (0, a reply or a thread's
    starter, unless it says otherwise), its ids as strings, without the request-only
    ``fail_if_not_exists``."""
    out: dict[str, Any] = {"type": 0}
    for key, value in reference.items():
        if key == "fail_if_not_exists" or value is None:
            continue
        out[key] = str(value) if key.endswith("_id") else value
    return out


def answer_embed(embed: dict[str, Any]) -> dict[str, Any]:
    """An embed as Discord answers it: of ``type`` "rich" unless it says otherwise."""
    return {"type": "rich", **embed}


def component_text(raw: list[dict[str, Any]]) -> list[str]:
    """The human-readable text inside components: labels, options, text displays."""
    texts: list[str] = []
    for component in walk_components(raw):
        for key in ("label", "placeholder", "content", "description"):
            value = component.get(key)
            if isinstance(value, str) and value:
                texts.append(value)
        emoji = _emoji_name(component.get("emoji"))
        if emoji:
            texts.append(emoji)
        for option in component.get("options", []) or []:
            texts += [option[k] for k in ("label", "description") if option.get(k)]
    return texts


def embed_text(embed: dict[str, Any]) -> list[str]:
    texts = [embed.get("title"), embed.get("description")]
    for f in embed.get("fields", []) or []:
        texts += [f.get("name"), f.get("value")]
    texts.append((embed.get("footer") or {}).get("text"))
    texts.append((embed.get("author") or {}).get("name"))
    return [t for t in texts if t]


# --------------------------------------------------------------------------------------------
# Messages


@dataclass(frozen=True)
class Attachment:
    id: int
    filename: str
    size: int
    data: bytes = field(repr=False)
    content_type: str | None = None
    description: str | None = None

    def payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class MessageVersion:
    """One version of a message (its creation or an edit), as users saw it."""

    version: int
    at: float  # emulator clock
    content: str
    embeds: tuple[dict[str, Any], ...]
    raw_components: tuple[dict[str, Any], ...]
    attachments: tuple[Attachment, ...]
    flags: int

    @property
    def components(self) -> list[ActionRow]:
        """Top-level action rows (for components-v2 messages: every action row, nested too)."""
        if self.flags & FLAG_COMPONENTS_V2:
            rows = [c for c in walk_components(list(self.raw_components)) if c.get("type") == 1]
        else:
            rows = [c for c in self.raw_components if c.get("type") == 1]
        return [ActionRow(tuple(parse_item(c) for c in row.get("components", []))) for row in rows]

    @property
    def buttons(self) -> list[Button]:
        return [
            Button.from_raw(c) for c in walk_components(list(self.raw_components)) if c["type"] == 2
        ]

    @property
    def selects(self) -> list[SelectMenu]:
        raw = walk_components(list(self.raw_components))
        return [SelectMenu.from_raw(c) for c in raw if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def embed_text(self) -> str:
        return "\n".join(t for e in self.embeds for t in embed_text(e))

    @property
    def text(self) -> str:
        """Everything readable: content, embed text, component text, attachment names."""
        parts = [self.content, self.embed_text]
        parts += component_text(list(self.raw_components))
        parts += [a.filename for a in self.attachments]
        return "\n".join(p for p in parts if p)

    def find_button(
        self,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        emoji: str | None = None,
    ) -> Button:
        matches = [
            b
            for b in self.buttons
            if (label is None or b.label == label)
            and (custom_id is None or b.custom_id == custom_id)
            and (emoji is None or b.emoji == emoji)
        ]
        if not matches:
            shown = [(b.label, b.emoji, b.custom_id) for b in self.buttons]
            raise LookupError(
                f"no button with label={label!r} custom_id={custom_id!r} emoji={emoji!r}; "
                f"buttons are (label, emoji, custom_id): {shown}"
            )
        return matches[0]


@dataclass(eq=False)
class EmuMessage:
    """A message in a channel. Public, ephemeral (``visible_to`` one user) or in a DM.

    Attribute access (``content``, ``embeds``, ``components``...) shows the latest version.
    """

    id: int
    channel: EmuChannel
    author: EmuUser
    versions: list[MessageVersion]
    created_at: dt.datetime
    ephemeral: bool = False
    visible_to: EmuUser | None = None
    interaction_id: int | None = None  # the interaction whose token created it
    via: str = "channel"
    webhook_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    deleted: bool = False
    deleted_at: float | None = None  # emulator clock
    edited_at: dt.datetime | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    message_type: int = 0
    message_reference: dict[str, Any] | None = None  # replies and thread system messages
    thread: EmuChannel | None = None  # the thread started from this message

    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def public(self) -> bool:
        return not self.ephemeral and not self.channel.is_dm

    @property
    def loading(self) -> bool:
        return bool(self.current.flags & FLAG_LOADING)

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.current.embeds)

    @property
    def components(self) -> list[ActionRow]:
        return self.current.components

    @property
    def raw_components(self) -> list[dict[str, Any]]:
        return list(self.current.raw_components)

    @property
    def attachments(self) -> list[Attachment]:
        return list(self.current.attachments)

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def buttons(self) -> list[Button]:
        return self.current.buttons

    @property
    def selects(self) -> list[SelectMenu]:
        return self.current.selects

    @property
    def embed_text(self) -> str:
        return self.current.embed_text

    @property
    def text(self) -> str:
        return self.current.text

    def find_button(
        self, label: str | None = None, *, custom_id: str | None = None, emoji: str | None = None
    ) -> Button:
        """The first button matching all given criteria, or ``LookupError`` listing the buttons."""
        return self.current.find_button(label, custom_id=custom_id, emoji=emoji)

    def visible_for(self, user: EmuUser) -> bool:
        if self.deleted:
            return False
        if self.channel.is_dm:
            return self.channel.recipient is user
        return not self.ephemeral or self.visible_to is user

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        guild = self.channel.guild
        out = []
        for user_id in dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", content)):
            member = guild.members.get(user_id) if guild else None
            if member is not None:
                out.append({**member.user.payload(), "member": member.payload(with_user=False)})
        return out

    def payload(self, base_url: str) -> dict[str, Any]:
        version = self.current
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.message_type,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": version.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._mentions(version.content),
            "mention_roles": re.findall(r"<@&(\d+)>", version.content),
            "attachments": [a.payload(base_url) for a in version.attachments],
            "embeds": [answer_embed(embed) for embed in version.embeds],
            "pinned": False,
            "flags": version.flags,
            "components": answer_components(list(version.raw_components)),
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = answer_reference(self.message_reference)
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "me": self.author.id in users,
                    "burst_colors": [],
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for name, users in self.reactions.items()
                if users
            ]
        return data

    def __repr__(self) -> str:
        scope = f"ephemeral for {self.visible_to.name}" if self.visible_to else "public"
        where = f"#{self.channel.name} {scope} v{len(self.versions)}"
        return f"<EmuMessage id={self.id} {where} {self.content[:40]!r}>"


# --------------------------------------------------------------------------------------------
# Interactions


@dataclass(eq=False)
class InteractionResult:
    """What a user saw after a slash command or a click.

    ``message`` is the message the response created (types 4, 5) or the message the clicked
    component sits on (types 6, 7); it is live, so it shows later edits too. ``followups`` lists
    every message sent through the interaction's webhook (the first followup after a type-5
    defer *fills* the deferred message: it is then both ``message`` and ``followups[0]``).
    """

    emulator: DiscordEmulator = field(repr=False)
    interaction_id: int
    token: str = field(repr=False)
    kind: str  # "slash", "component", "modal"
    user: EmuUser
    channel: EmuChannel
    name: str  # command path, or custom_id
    dispatched_at: float = 0.0
    response_type: int | None = None
    responded_at: float | None = None
    message: EmuMessage | None = None
    source_message: EmuMessage | None = None
    followups: list[EmuMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)  # autocomplete answers
    ephemeral: bool = False
    settled: bool = False
    errors: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def response_name(self) -> str | None:
        if self.response_type is None:
            return None
        return RESPONSE_TYPE_NAMES.get(self.response_type, str(self.response_type))

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the initial response."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def messages(self) -> list[EmuMessage]:
        """The response message (if any) then every followup, without duplicates."""
        out = [self.message] if self.message and self.response_type in (4, 5) else []
        out += [m for m in self.followups if m not in out]
        return out

    def find_button(
        self, label: str | None = None, *, custom_id: str | None = None, emoji: str | None = None
    ) -> Button:
        if self.message is None:
            raise LookupError("the interaction has no response message")
        return self.message.find_button(label, custom_id=custom_id, emoji=emoji)

    async def wait_followup(self, count: int = 1, timeout: float = 5.0) -> EmuMessage:
        """Wait until ``count`` followups exist; returns the ``count``-th."""
        await self.emulator.wait_for(lambda: len(self.followups) >= count, timeout=timeout)
        return self.followups[count - 1]

    async def wait_loaded(self, timeout: float = 5.0) -> EmuMessage:
        """After a type-5 defer: wait until the "thinking" message got its real content."""

        def done() -> bool:
            return self.message is not None and not self.message.loading

        await self.emulator.wait_for(done, timeout=timeout)
        assert self.message is not None
        return self.message


@dataclass(eq=False)
class PendingInteraction:
    """Emulator-side bookkeeping for one interaction."""

    result: InteractionResult
    type: int
    guild: EmuGuild | None
    payload: dict[str, Any]
    created_at: float  # emulator clock
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    handler_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    handlers_known: bool = False
    expired_reported: bool = False
    trigger: PendingInteraction | None = None  # a modal's submission: what opened the modal

    @property
    def id(self) -> int:
        return self.result.interaction_id

    @property
    def user(self) -> EmuUser:
        return self.result.user

    @property
    def original(self) -> EmuMessage | None:
        """What ``@original`` addresses for this interaction's token."""
        return self.result.message


Predicate = Callable[[], Any]
