"""What the bot sends: interaction responses, follow-ups, messages created, edited and deleted,
reactions, each checked against Discord's rules and broadcast to the gateway."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import limits
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
)
from .models import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    Attachment,
    EmuChannel,
    EmuMessage,
    EmuUser,
    MessageVersion,
    PendingInteraction,
)
from .pings import check_allowed_mentions
from .rest import HTTPError, Upload
from .transcript import message_fields

if TYPE_CHECKING:
    pass



class Messages:
    """The bot's responses and messages, as the REST routes hand them over (a part of
    ``DiscordEmulator``)."""

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
