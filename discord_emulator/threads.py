"""Threads and channel permissions in the emulator.

What is modelled, each with where Discord documents it (discord-api-docs):

- Permissions in a channel: the member's guild permissions (``@everyone`` plus their roles;
  the owner and ADMINISTRATOR have all), then the channel's overwrites in Discord's order:
  ``@everyone``, then every role of the member together, then the member's own; deny before
  allow at each step. Without VIEW_CHANNEL a member has no permission there.
  -- docs/topics/permissions: "Permission Overwrites". A thread has the permissions of its
  parent channel. -- docs/topics/threads: "Permissions" ("Threads generally inherit
  permissions from the parent channel").
- Start Thread from Message (``POST /channels/{channel.id}/messages/{message.id}/threads``)
  and Start Thread without Message (``POST /channels/{channel.id}/threads``): a ``GUILD_TEXT``
  parent only (a thread in a thread is refused, 50024), ``name`` 1-100 characters,
  ``auto_archive_duration`` one of 60, 1440, 4320, 10080; the thread from a message shares the
  message's id, so a message can have one thread (160004); the creator needs
  CREATE_PUBLIC_THREADS on the parent (CREATE_PRIVATE_THREADS for type 12); without a message
  ``type`` defaults to PRIVATE_THREAD (12). Fires THREAD_CREATE (``newly_created``) and, from a
  message, MESSAGE_UPDATE of that message (it gains a ``thread``).
  -- docs/resources/channel: "Start Thread from Message", "Start Thread without Message".
- The thread's first message is a THREAD_STARTER_MESSAGE (type 21) pointing at the source
  message; a THREAD_CREATED (type 18) notice, content the thread's name, is posted in the parent
  when a public thread is created without a message, or from a message older than
  ``thread_notice_age`` seconds ("older is still TBD, but is currently set to a very small
  value": the emulator's default is 0, every one, so a bot must cope with the notice).
  -- docs/topics/threads: "New Message Types"; discord/discord-api-docs#5256.
- Posting in a thread needs SEND_MESSAGES_IN_THREADS (SEND_MESSAGES has no effect there);
  a message in an archived thread unarchives it, unless it is locked (then 160005); messages
  cannot be edited in an archived thread (50083); users cannot use application commands in
  archived threads. -- docs/topics/threads: "Permissions", "Active & Archived Threads".
- Editing a thread (``PATCH /channels/{id}``: name, archived, locked, auto_archive_duration)
  needs MANAGE_THREADS or being its creator (``locked`` needs MANAGE_THREADS); fires
  THREAD_UPDATE. -- docs/topics/threads: "Editing & Deleting Threads".
- Interactions from a thread carry the thread as their channel, with the user's and the
  app's permissions in it (``app_permissions``).
  -- docs/interactions/receiving-and-responding: "Interaction Object".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import ALL_PERMISSIONS, EmuChannel, EmuMessage, EmuUser, MessageVersion
from .rest import HTTPError, form_errors
from .transcript import message_fields

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
THREAD_CREATED, THREAD_STARTER_MESSAGE = 18, 21
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9


def missing(permission: str) -> HTTPError:
    return HTTPError(403, 50013, f"Missing Permissions ({permission})")


class Threads:
    """Thread channels and permission checks; reached as ``emu.thread_rules``."""

    def __init__(self, emulator: DiscordEmulator, *, notice_age: float = 0.0) -> None:
        self.emu = emulator
        self.notice_age = notice_age

    # -- permissions -------------------------------------------------------------------------

    def permissions(self, user: EmuUser, channel: EmuChannel) -> int:
        """``user``'s permissions in ``channel`` (a thread: its parent's), by the overwrites."""
        guild = channel.guild
        if guild is None:
            return ALL_PERMISSIONS
        member = guild.members.get(user.id)
        if member is None:
            return 0
        base = member.permissions
        if base & ADMINISTRATOR or base == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        where = channel.parent if channel.is_thread and channel.parent else channel
        overwrites = where.overwrites
        everyone = overwrites.get(guild.id)
        if everyone is not None:
            base = (base & ~everyone[1]) | everyone[0]
        allow = deny = 0
        for role_id in member.roles:
            found = overwrites.get(role_id)
            if found is not None and found[2] == 0:
                allow, deny = allow | found[0], deny | found[1]
        base = (base & ~deny) | allow
        own = overwrites.get(user.id)
        if own is not None and own[2] == 1:
            base = (base & ~own[1]) | own[0]
        return base if base & VIEW_CHANNEL else 0

    def can_view(self, user: EmuUser, channel: EmuChannel) -> bool:
        if channel.is_dm:
            return channel.recipient is user or user is self.emu.bot_user
        return bool(self.permissions(user, channel) & VIEW_CHANNEL)

    def send_permission(self, channel: EmuChannel) -> tuple[int, str]:
        if channel.is_thread:
            return SEND_MESSAGES_IN_THREADS, "SEND_MESSAGES_IN_THREADS"
        return SEND_MESSAGES, "SEND_MESSAGES"

    def check_send(self, user: EmuUser, channel: EmuChannel) -> None:
        """Whether ``user`` may post in ``channel`` now (HTTPError if not); a post in an
        archived, unlocked thread unarchives it."""
        if channel.is_dm:
            return
        have = self.permissions(user, channel)
        if not have & VIEW_CHANNEL:
            raise HTTPError(403, 50001, "Missing Access")
        bit, name = self.send_permission(channel)
        if not have & bit:
            raise missing(name)
        if channel.is_thread and channel.archived:
            if channel.locked and not have & MANAGE_THREADS:
                raise HTTPError(400, 160005, "Thread is locked")
            channel.archived = False
            self.emu._spawn(self._announce_update(channel))

    def check_edit(self, channel: EmuChannel) -> None:
        if channel.is_thread and channel.archived:
            raise HTTPError(400, 50083, "Operation cannot be performed on an archived thread")

    def posted(self, message: EmuMessage) -> None:
        channel = message.channel
        if channel.is_thread:
            channel.message_count += 1
            channel.total_message_sent += 1

    def set_overwrite(
        self, channel: EmuChannel, target_id: int, kind: int, allow: int, deny: int
    ) -> None:
        channel.overwrites[target_id] = (allow, deny, kind)
        self.emu._announce("CHANNEL_UPDATE", channel.payload, INTENT_GUILDS)
        self.emu._touch()

    # -- creating threads --------------------------------------------------------------------

    async def start(
        self,
        creator: EmuUser,
        parent: EmuChannel,
        body: dict[str, Any],
        message: EmuMessage | None = None,
    ) -> EmuChannel:
        """Start a thread in ``parent`` (from ``message`` if given) as ``creator``, checking
        what Discord checks; raises HTTPError with Discord's codes."""
        if parent.guild is None or parent.type not in (0, 5):
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        if message is not None:
            if message.deleted or message.ephemeral or message.channel is not parent:
                raise HTTPError(404, 10008, "Unknown Message")
            if message.thread is not None:
                raise HTTPError(400, 160004, "A thread has already been created for this message")
            kind = PUBLIC_THREAD
        else:
            kind = int(body.get("type") or PRIVATE_THREAD)
            if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
                raise HTTPError(400, 50035, "Invalid Form Body",
                                form_errors([("type", "Value must be one of {11, 12}.")]))
        name = str(body.get("name") or "").strip()
        problems = []
        if not 1 <= len(name) <= 100:
            problems.append(("name", "Must be between 1 and 100 in length."))
        duration = body.get("auto_archive_duration")
        if duration is not None and int(duration) not in ARCHIVE_DURATIONS:
            problems.append(("auto_archive_duration", "Value must be one of (60, 1440, 4320, "
                                                       "10080)."))
        if problems:
            raise HTTPError(400, 50035, "Invalid Form Body", form_errors(problems))
        have = self.permissions(creator, parent)
        if not have & VIEW_CHANNEL:
            raise HTTPError(403, 50001, "Missing Access")
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not have & needed:
            raise missing("CREATE_PUBLIC_THREADS" if kind == PUBLIC_THREAD
                          else "CREATE_PRIVATE_THREADS")
        emu = self.emu
        thread = EmuChannel(
            id=message.id if message is not None else emu._next_id(),
            name=name,
            guild=parent.guild,
            type=kind,
            parent=parent,
            owner_id=creator.id,
            auto_archive_duration=int(duration or 4320),
            created_at=emu._wall(),
        )
        parent.guild.threads.append(thread)
        emu.channels[thread.id] = thread
        emu._record(
            "thread", action="create", thread_id=str(thread.id), name=name,
            parent_id=str(parent.id), parent=parent.name, owner=creator.name,
            thread_type=kind, message_id=str(message.id) if message else None,
        )
        await emu.gateway.broadcast(
            "THREAD_CREATE", {**thread.payload(), "newly_created": True}, INTENT_GUILDS
        )
        if message is not None:
            message.thread = thread
            await emu._broadcast_message("MESSAGE_UPDATE", message)
            reference = {"message_id": str(message.id), "channel_id": str(parent.id),
                         "guild_id": str(parent.guild.id)}
            await self._system(thread, message.author, THREAD_STARTER_MESSAGE, "", reference)
        old = message is None or (emu.now() - message.versions[0].at) >= self.notice_age
        if kind == PUBLIC_THREAD and old:
            reference = {"channel_id": str(thread.id), "guild_id": str(parent.guild.id)}
            await self._system(parent, creator, THREAD_CREATED, name, reference)
        emu._touch(parent)
        return thread

    async def update(self, actor: EmuUser, thread: EmuChannel, body: dict[str, Any]) -> None:
        """PATCH a thread's name, archived, locked or auto_archive_duration."""
        if not thread.is_thread:
            raise missing("MANAGE_CHANNELS")
        have = self.permissions(actor, thread)
        manager = bool(have & MANAGE_THREADS)
        if not (manager or thread.owner_id == actor.id):
            raise missing("MANAGE_THREADS")
        if "locked" in body and not manager:
            raise missing("MANAGE_THREADS")
        if "name" in body:
            name = str(body["name"] or "").strip()
            if not 1 <= len(name) <= 100:
                raise HTTPError(400, 50035, "Invalid Form Body",
                                form_errors([("name", "Must be between 1 and 100 in length.")]))
            thread.name = name
        if "archived" in body:
            thread.archived = bool(body["archived"])
        if "locked" in body:
            thread.locked = bool(body["locked"])
        if body.get("auto_archive_duration") is not None:
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        self.emu._record(
            "thread", action="update", thread_id=str(thread.id), name=thread.name,
            archived=thread.archived, locked=thread.locked,
        )
        await self._announce_update(thread)

    async def _announce_update(self, thread: EmuChannel) -> None:
        await self.emu.gateway.broadcast("THREAD_UPDATE", thread.payload(), INTENT_GUILDS)
        self.emu._touch(thread)

    async def _system(
        self,
        channel: EmuChannel,
        author: EmuUser,
        message_type: int,
        content: str,
        reference: dict[str, Any],
    ) -> EmuMessage:
        """A system message (thread starter, thread created): public, never pings."""
        emu = self.emu
        version = MessageVersion(1, emu.now(), content, (), (), (), 0)
        message = EmuMessage(
            id=emu._next_id(),
            channel=channel,
            author=author,
            versions=[version],
            created_at=emu._wall(),
            via="system",
            message_type=message_type,
            message_reference=reference,
        )
        emu.messages[message.id] = message
        emu._in_channel.setdefault(channel.id, []).append(message)
        self.posted(message)
        emu._record("message", action="create", author=author.name, **message_fields(message))
        await emu._broadcast_message("MESSAGE_CREATE", message)
        return message

    # -- reading -----------------------------------------------------------------------------

    def threads_of(self, parent: EmuChannel) -> list[EmuChannel]:
        guild = parent.guild
        return [t for t in guild.threads if t.parent is parent] if guild is not None else []

