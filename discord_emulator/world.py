"""The emulator's world: guilds, channels, users, roles, threads and permissions, the clock,
and what each user sees."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .gateway import (
    INTENT_GUILD_MEMBERS,
    on_shard,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    EmuChannel,
    EmuGuild,
    EmulatorError,
    EmuMember,
    EmuMessage,
    EmuRole,
    EmuUser,
    InteractionResult,
)
from .pings import Ping
from .rest import HTTPError

if TYPE_CHECKING:
    pass



class World:
    """Building the world and reading it, as a test does (a part of ``DiscordEmulator``)."""

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
