"""The spectators' view: ``/cribbage watch`` posts one public message that stays current.

Why a public message, and not an ephemeral one per spectator: Discord lets the bot edit an
ephemeral message only through its interaction token, for 15 minutes, while a game lasts much
longer; and a public message serves every spectator at once, survives a restart (its id is
stored with the game, kind ``"watch"``) and costs one edit per update however many watch.

The view is made only from the manager's public :class:`~bot.sessions.GameView` (the same
renderer as the table, without the "Your hand" button) and the story of public events, so it
never shows a hidden card. The :class:`~cogs.cribbage.table.Table` hands it every outcome;
updates of a game are serialised and coalesced (a burst of moves gives one edit showing the
newest state). When a game of a match ends, the view moves on to the match's next game.
Calling the command again re-posts the view at the bottom of the channel (the old message stops
updating).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine import Dealt, Event, Phase
from bot.render.embeds import Field, game_embed
from bot.render.matches import add_match_field, watch_footer
from bot.render.text import tell
from bot.sessions import GameSessionManager, GameStatus, GameView, Outcome
from cogs.cribbage.hand import PublicTable
from cogs.utils.names import NameBook
from cogs.utils.payloads import to_discord

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
KEEP_LINES = 40
SHOW_LINES = 8
MOVED = "The spectators' view moved to a newer message below."


@dataclass
class _Watched:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    story: list[str] = field(default_factory=list)
    pending: int = 0


class Watch:
    """Keeps each game's spectators' message current (one per game, public)."""

    def __init__(self, bot: discord.Client, manager: GameSessionManager, names: NameBook) -> None:
        self.bot = bot
        self.manager = manager
        self.names = names
        self._watched: dict[int, _Watched] = {}
        # game -> (channel, message) of its view, as this process last posted or moved it (an
        # outcome's view may be older than the newest message)
        self._messages: dict[int, tuple[int, int]] = {}

    async def open(self, interaction: discord.Interaction, view: GameView | None) -> None:
        """``/cribbage watch``: post the view of this channel's game, ``view`` (anyone may)."""
        if view is None or view.status is not GameStatus.ACTIVE:
            await interaction.response.send_message(
                "There's no cribbage game being played in this channel to watch.", ephemeral=True
            )
            return
        watched = self._watched.setdefault(view.game_id, _Watched())
        async with watched.lock:
            view = self.manager.live.view(view.game_id) or view
            payload = await self.payload(view, watched, await self.names.seat_names(view))
            await interaction.response.send_message(**payload, allowed_mentions=NO_PINGS)
            message = await interaction.original_response()
            old = self._message(view)
            self._messages[view.game_id] = (message.channel.id, message.id)
            await self.manager.records.set_message(
                view.game_id, "watch", message.channel.id, message.id
            )
        if old is not None and old[1] != message.id:
            await self._edit(*old, content=MOVED, embed=None)

    def _message(self, view: GameView) -> tuple[int, int] | None:
        """Where the game's view is: (channel, message), or None when nobody watches."""
        known = self._messages.get(view.game_id)
        if known is not None:
            return known
        ref = view.messages.get("watch")
        return None if ref is None else (ref.channel_id, ref.message_id)

    async def follow(self, outcome: Outcome, names: Sequence[str]) -> None:
        """Called by the table with every outcome (and its seat names): redraw the game's
        view if it has one."""
        view = outcome.view
        where = self._message(view)
        if where is None or view.phase is None:
            self._watched.pop(outcome.game_id, None)
            return
        watched = self._watched.setdefault(outcome.game_id, _Watched())
        watched.story = self._story(watched.story, outcome, names, view)
        over = not view.status.is_open
        watched.pending += 1
        async with watched.lock:
            watched.pending -= 1
            if watched.pending and not over:
                return  # a newer outcome is queued: it draws the newest state
            payload = await self.payload(view, watched, names)
            await self._edit(*where, **payload)
        if over:  # the game ended
            self._watched.pop(outcome.game_id, None)
            self._messages.pop(outcome.game_id, None)
            if outcome.next_game is not None:  # a match goes on: so does its view
                following = outcome.next_game.game_id
                self._messages[following] = where
                await self.manager.records.set_message(following, "watch", *where)

    @staticmethod
    def _story(
        story: list[str], outcome: Outcome, names: Sequence[str], view: GameView
    ) -> list[str]:
        """The story of the current deal only: a new deal is dealt from a fresh pack, so cards
        seen in an earlier deal (or the cut for it) may now be in someone's hand."""
        story = list(story)
        segment: list[Event] = []
        for step_event in outcome.events:
            if isinstance(step_event.event, Dealt):
                story, segment = [], []
            segment.append(step_event.event)
        tell(story, segment, names, view.variant)  # (a deal's discards: one line)
        return story[-KEEP_LINES:]

    async def payload(
        self, view: GameView, watched: _Watched, names: Sequence[str]
    ) -> dict[str, Any]:
        embed = game_embed(PublicTable(view), names, story=watched.story, story_count=SHOW_LINES)
        over = view.status is not GameStatus.ACTIVE
        if over and view.phase is not Phase.GAME_OVER:  # a forfeit or an abandoned game
            now = Field("Now", _ending(view))  # inline, as discord.py's set_field_at made it
            embed = embed.replace(fields=tuple(now if f.name == "Now" else f for f in embed.fields))
        embed = add_match_field(embed, view, names).replace(footer=watch_footer(over))
        return {"content": None, "embed": to_discord(embed)}

    async def _edit(self, channel_id: int, message_id: int, **fields: Any) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(allowed_mentions=NO_PINGS, **fields)
        except discord.NotFound:
            log.info("The spectators' view %d was deleted", message_id)
        except discord.HTTPException:
            log.warning("Could not update the spectators' view %d", message_id, exc_info=True)


def _ending(view: GameView) -> str:
    """The end of a game the engine did not finish itself."""
    if view.end_reason == "forfeit":
        return "Game over: a player forfeited"
    if view.end_reason == "abandoned":
        return "Game over: abandoned after a long wait"
    if view.end_reason == "aborted":
        return "Game over: a player forfeited before the first show (called off, not rated)"
    return "Game over"
