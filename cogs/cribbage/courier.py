"""The table's messages sent and edited through interaction tokens, not the bot token.

Discord limits every bot token to 50 requests a second across all its processes, but
"Interaction endpoints are not bound to the bot's Global Rate Limit" (Rate Limits, Global Rate
Limit). A table is edited after nearly every click; through the bot token that would cap the
whole bot near 50 clicks a second, however many processes run it. So a table message is
posted, when it can be, as the follow-up of the click that made it (the last **Next deal**, the
lobby's **Start**), and edited through the token of an interaction it belongs to:

- a follow-up is the token's to edit ("Edit Followup Message ... Functions the same as Edit
  Webhook Message": "Edits a previously-sent webhook message from the same token");
- a click on the table itself answered with a deferred update makes the table that
  interaction's original response ("Edit Original Interaction Response"; for a component
  interaction, the message the component is on): a newer token for the same message.

A token is used only 14 of its 15 minutes ("Interaction tokens are valid for 15 minutes",
Receiving and Responding); then, or when it fails, the bot token edits the message as before.
A follow-up of a click is shown by Discord with the clicked message above it (its
``interaction_metadata.interacted_message_id``), so only a click on a public message of the
same channel posts a table: never a click on a private hand.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from typing import Any

import discord

from cogs.cribbage.open_hands import TokenMessage, fresh

log = logging.getLogger(__name__)

MessageAt = tuple[int, int]  # (channel id, message id)


UPDATES = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)  # a click answered so: its original response is the message clicked
POST_LIFE = 10 * 60  # a token posts a table only while it has 4 of its 14 minutes left


class Courier:
    """For each live table message, the newest interaction that may edit it; for each channel,
    the newest click on a public message there (its token may post the next table)."""

    def __init__(self, clock: Callable[[], dt.datetime] = discord.utils.utcnow) -> None:
        self.clock = clock
        self._carriers: dict[MessageAt, TokenMessage] = {}  # oldest token first
        self._posters: dict[int, discord.Interaction] = {}  # channel id -> newest public click

    def __len__(self) -> int:
        return len(self._carriers)

    def clicked(self, interaction: discord.Interaction) -> None:
        """A click answered with a deferred update or an edit: if it was on a public message,
        its token may edit that message, and post in its channel, from now on."""
        message, channel_id = interaction.message, interaction.channel_id
        if message is None or channel_id is None or message.flags.ephemeral:
            return
        if interaction.response.type not in UPDATES:
            return
        self._keep((channel_id, message.id), TokenMessage(interaction))
        known = self._posters.get(channel_id)
        if known is None or known.created_at <= interaction.created_at:
            self._posters.pop(channel_id, None)  # re-inserted last: oldest first
            self._posters[channel_id] = interaction

    def poster(self, channel_id: int) -> discord.Interaction | None:
        """The click whose token may post a table in ``channel_id`` now, if any."""
        interaction = self._posters.get(channel_id)
        if interaction is None:
            return None
        age = (self.clock() - interaction.created_at).total_seconds()
        return interaction if age < POST_LIFE else None

    async def post(self, interaction: discord.Interaction, **fields: Any) -> discord.WebhookMessage:
        """Send a public message as ``interaction``'s follow-up; its token then edits it."""
        message = await interaction.followup.send(wait=True, **fields)
        self._keep((message.channel.id, message.id), TokenMessage(interaction, message.id))
        return message

    async def edit(self, where: MessageAt, **fields: Any) -> bool:
        """Edit the message through a token it belongs to; False when none can (the caller
        then uses the bot token). A message found gone raises :class:`discord.NotFound`."""
        self._expire()
        carrier = self._carriers.get(where)
        if carrier is None or not carrier.fresh(self.clock()):
            return False
        try:
            await carrier.edit(**fields)
        except discord.NotFound:
            self._carriers.pop(where, None)
            raise
        except discord.HTTPException as exc:  # e.g. 401 Invalid Webhook Token: the bot token
            log.info("Edit of message %d through a token failed (%s)", where[1], exc.status)
            self._carriers.pop(where, None)
            return False
        return True

    def forget_channel(self, channel_id: int) -> None:
        """A game left the channel (or ended): its clicks post nothing more there."""
        self._posters.pop(channel_id, None)
        for where in [w for w in self._carriers if w[0] == channel_id]:
            del self._carriers[where]

    def _keep(self, where: MessageAt, carrier: TokenMessage) -> None:
        known = self._carriers.get(where)
        if known is not None and known.interaction.created_at > carrier.interaction.created_at:
            return
        self._carriers.pop(where, None)  # re-inserted last: the dict stays oldest token first
        self._carriers[where] = carrier
        self._expire()

    def _expire(self) -> None:
        now = self.clock()
        while self._carriers:
            where, carrier = next(iter(self._carriers.items()))
            if carrier.fresh(now):
                break
            del self._carriers[where]
        while self._posters:
            channel_id, interaction = next(iter(self._posters.items()))
            if fresh(interaction, now):
                break
            del self._posters[channel_id]


class Shown:
    """What each live table shows after this process's last redraw of it: a redraw that would
    change nothing visible sends no request at all."""

    def __init__(self) -> None:
        self._shown: dict[MessageAt, tuple[str, bool]] = {}  # (what it shows, has files)

    def get(self, where: MessageAt) -> tuple[str, bool] | None:
        return self._shown.get(where)

    def unchanged(self, where: MessageAt, payload: dict[str, Any]) -> bool:
        """Whether an edit with ``payload`` would leave the message as it is."""
        before = self._shown.get(where)
        seen, files = visible(payload)
        if before is None or before[0] != seen:
            return False
        return files is None or (files is False and before[1] is False)

    def drew(
        self, where: MessageAt, payload: dict[str, Any], before: tuple[str, bool] | None
    ) -> None:
        """The message was edited with ``payload`` (``before``: what it showed until then)."""
        seen, files = visible(payload)
        # files kept: as before (unknown: assume some, so that a removal is always sent)
        self._shown[where] = (seen, files if files is not None else (before[1] if before else True))

    def forget(self, where: MessageAt) -> None:
        """The message changed otherwise (or is no longer the table)."""
        self._shown.pop(where, None)


def visible(payload: dict[str, Any]) -> tuple[str, bool | None]:
    """What an edit shows, as text to compare, and its files: True (new files sent), False
    (``attachments=[]``: none), None (the message keeps the files it has)."""
    shown: dict[str, Any] = {}
    for key, value in payload.items():
        if key == "attachments":
            continue
        if isinstance(value, discord.Embed):
            value = value.to_dict()
        elif isinstance(value, discord.ui.View):
            value = value.to_components()
        shown[key] = value
    attachments = payload.get("attachments")
    files = None if attachments is None else bool(attachments)
    return json.dumps(shown, sort_keys=True, default=str), files
