"""Who a message notifies ("pings"), by Discord's rules, and what a client shows below a message.

Every message the emulator creates goes through :meth:`Pings.created`; the users it notifies
are recorded as :class:`Ping` s in ``emu.pings`` and as transcript records (kind ``ping``). A
pinging message deleted afterwards is a *ghost ping* (``emu.ghost_pings``; transcript kind
``ghost_ping``): the person got a notification for a message they can no longer find.

The rules, each with where Discord documents (or its maintainers confirmed) it:

1. Mentions are parsed from the message ``content`` and the text of its components (a
   components-v2 Text Display), never from embeds. A user must appear as ``<@id>``/``<@!id>``:
   ids only listed in ``allowed_mentions.users`` do not notify (no "phantom" pings).
   -- docs/resources/message: "Allowed Mentions Object" (discord-api-docs).
2. Without ``allowed_mentions`` a regular channel message parses users, roles and everyone; an
   interaction response, an interaction follow-up or a webhook message parses users only.
   -- message: "Default Settings for Allowed Mentions".
3. With ``allowed_mentions``: ``parse: ["users"]`` notifies every mentioned user,
   ``users: [ids]`` only those listed (and mentioned), ``parse: []`` nobody; ``parse``
   containing ``"users"`` together with a non-empty ``users`` list is a validation error
   (HTTP 400, 50035); at most 100 ids. -- message: "Allowed Mentions Examples".
4. A reply (``message_reference``) notifies the replied message's author when
   ``allowed_mentions.replied_user`` is true (default false when ``allowed_mentions`` is sent;
   with no ``allowed_mentions`` at all Discord's default reply pings).
   -- message: Allowed Mentions structure, ``replied_user``.
5. Role mentions notify the role's members when ``roles`` parsing allows it and the role is
   mentionable or the bot has MENTION_EVERYONE; ``@everyone``/``@here`` need ``everyone`` and
   MENTION_EVERYONE. -- message: "Allowed Mentions Object" (the bullet list).
6. ``SUPPRESS_NOTIFICATIONS`` (flag 1 << 12) still notifies, as a badge without a push:
   recorded with ``silent=True``. -- message: "Allowed Mentions Object".
7. Edits never notify, even when they add a mention; this includes the first follow-up or
   ``@original`` edit that fills a deferred ("thinking") response.
   -- discord/discord-api-docs#5497 ("edits never notify the mentioned roles/users"),
   discord/discord-api-docs#4034 (deferred responses filled later do not mention).
8. Ephemeral messages notify nobody (only their one viewer sees them, as the answer to their
   own action). -- interactions-py/interactions.py#175 ("hidden=True ... No ping").
9. A message in a DM notifies its recipient (reason ``dm``). The author is never notified by
   their own message, bots are not counted, and only members who can see the channel are.

``messages_below(message)`` is what a client shows under ``message`` in its channel: the public
messages created after it and not deleted, oldest first (Discord orders a channel by message id,
a snowflake that grows with creation time -- docs/reference: "Snowflakes").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import (
    FLAG_COMPONENTS_V2,
    FLAG_SUPPRESS_NOTIFICATIONS,
    EmuChannel,
    EmuMessage,
    EmuUser,
    walk_components,
)

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

MENTION_EVERYONE = 1 << 17
MAX_ALLOWED_IDS = 100

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(frozen=True)
class Ping:
    """One user notified by one message."""

    user: EmuUser
    message: EmuMessage
    channel: EmuChannel
    at: float  # emulator clock
    reason: str = "mention"  # mention | role | everyone | reply | dm
    silent: bool = False  # SUPPRESS_NOTIFICATIONS: a badge, no push notification

    @property
    def ghost(self) -> bool:
        """The message that pinged was deleted: the person cannot find what called them."""
        return self.message.deleted


def check_allowed_mentions(body: dict[str, Any]) -> list[tuple[str, str]]:
    """Validation problems of a request's ``allowed_mentions`` (rule 3)."""
    allowed = body.get("allowed_mentions")
    if not isinstance(allowed, dict):
        return []
    problems: list[tuple[str, str]] = []
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if kind in parse and listed:
            problems.append(
                (f"allowed_mentions.{kind}",
                 f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.')
            )
        if len(listed) > MAX_ALLOWED_IDS:
            problems.append(
                (f"allowed_mentions.{kind}", f"Must be {MAX_ALLOWED_IDS} or fewer in length.")
            )
    return problems


def mention_text(content: str, components: list[dict[str, Any]], flags: int) -> str:
    """The text Discord parses mentions from: content, and component text (rule 1)."""
    parts = [content or ""]
    if flags & FLAG_COMPONENTS_V2:
        parts += [
            c["content"] for c in walk_components(components)
            if c.get("type") == 10 and isinstance(c.get("content"), str)
        ]
    return "\n".join(parts)


class Pings:
    """The emulator's record of notifications; reached as ``emu.pings`` / ``emu.ghost_pings``."""

    def __init__(self, emulator: DiscordEmulator) -> None:
        self.emu = emulator
        self.all: list[Ping] = []
        self._by_message: dict[int, list[Ping]] = {}

    # -- recording ---------------------------------------------------------------------------

    def created(
        self,
        message: EmuMessage,
        body: dict[str, Any],
        *,
        by_interaction: bool,
        loading: bool = False,
    ) -> list[Ping]:
        """Record whom a newly created message notifies (nobody for edits: rule 7)."""
        if message.ephemeral or loading:  # rules 8 and 7 (a deferred message is filled later)
            return []
        channel = message.channel
        silent = bool(message.flags & FLAG_SUPPRESS_NOTIFICATIONS)
        if channel.is_dm:  # rule 9
            recipient = channel.recipient
            if recipient is None or recipient is message.author:
                return []
            return self._record(message, [(recipient, "dm")], silent)
        targets = self._targets(message, body, by_interaction)
        return self._record(message, targets, silent)

    def deleted(self, message: EmuMessage) -> None:
        """A message was deleted: if it had pinged anyone, those are ghost pings now."""
        pings = self._by_message.get(message.id)
        if not pings:
            return
        lived = self.emu.now() - pings[0].at
        self.emu._record(
            "ghost_ping",
            message_id=str(message.id),
            channel_id=str(message.channel.id),
            channel=message.channel.name,
            user_ids=[str(p.user.id) for p in pings],
            users=[p.user.name for p in pings],
            lived_ms=round(lived * 1000, 1),
        )

    def _targets(
        self, message: EmuMessage, body: dict[str, Any], by_interaction: bool
    ) -> list[tuple[EmuUser, str]]:
        guild = message.channel.guild
        if guild is None:
            return []
        allowed = body.get("allowed_mentions")
        if isinstance(allowed, dict):
            parse = set(allowed.get("parse") or [])
            listed_users = {int(u) for u in allowed.get("users") or []}
            listed_roles = {int(r) for r in allowed.get("roles") or []}
            replied_user = bool(allowed.get("replied_user", False))
        else:  # rule 2
            parse = {"users"} if by_interaction else {"users", "roles", "everyone"}
            listed_users, listed_roles, replied_user = set(), set(), True
        text = mention_text(
            message.content, message.raw_components, message.flags
        )
        author_member = guild.members.get(message.author.id)
        may_mention_all = bool(author_member and author_member.permissions & MENTION_EVERYONE)
        out: list[tuple[EmuUser, str]] = []
        for user_id in dict.fromkeys(int(x) for x in _USER.findall(text)):
            if "users" in parse or user_id in listed_users:
                member = guild.members.get(user_id)
                if member is not None:
                    out.append((member.user, "mention"))
        for role_id in dict.fromkeys(int(x) for x in _ROLE.findall(text)):
            role = guild.roles.get(role_id)
            if role is None or not ("roles" in parse or role_id in listed_roles):
                continue
            if not (getattr(role, "mentionable", False) or may_mention_all):
                continue
            out += [(m.user, "role") for m in guild.members.values() if role_id in m.roles]
        if _EVERYONE.search(text) and "everyone" in parse and may_mention_all:
            out += [(m.user, "everyone") for m in guild.members.values()]
        reference = body.get("message_reference")
        if isinstance(reference, dict) and replied_user:
            replied = self.emu.messages.get(int(reference.get("message_id") or 0))
            if replied is not None and not replied.deleted:
                out.append((replied.author, "reply"))
        seen: set[int] = set()
        targets = []
        for user, reason in out:
            if user.id in seen or user is message.author or user.bot:
                continue
            if not self.emu.thread_rules.can_view(user, message.channel):
                continue
            seen.add(user.id)
            targets.append((user, reason))
        return targets

    def _record(
        self, message: EmuMessage, targets: list[tuple[EmuUser, str]], silent: bool
    ) -> list[Ping]:
        now = self.emu.now()
        pings = [Ping(u, message, message.channel, now, reason, silent) for u, reason in targets]
        if not pings:
            return []
        self.all += pings
        self._by_message[message.id] = pings
        for ping in pings:
            self.emu._record(
                "ping",
                message_id=str(message.id),
                channel_id=str(message.channel.id),
                channel=message.channel.name,
                user_id=str(ping.user.id),
                user=ping.user.name,
                reason=ping.reason,
                silent=silent,
                via=message.via,
            )
        return pings

    # -- reading -----------------------------------------------------------------------------

    @property
    def ghosts(self) -> list[Ping]:
        return [p for p in self.all if p.message.deleted]

    def of(self, user: EmuUser) -> list[Ping]:
        return [p for p in self.all if p.user is user]

    def below(self, message: EmuMessage, viewer: EmuUser | None = None) -> list[EmuMessage]:
        """Public messages of ``message``'s channel created after it and not deleted (and,
        with ``viewer``, that person's own ephemeral messages there too), oldest first."""
        out = []
        for other in self.emu._messages_in(message.channel):
            if other.id <= message.id or other.deleted:
                continue
            if other.public or (viewer is not None and other.visible_for(viewer)):
                out.append(other)
        return sorted(out, key=lambda m: m.id)
