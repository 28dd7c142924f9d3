"""The clicks on a player's own hand: open it, pick and discard, play, cut, ask for a hint.

Each click is answered by redrawing the clicked hand message in place (or by a new private
message for "Your hand"), then the table is told. The buttons are in :mod:`cogs.utils.buttons`;
the message itself is drawn by :mod:`cogs.utils.hand`. A :class:`HandClicks` belongs to the
:class:`~cogs.cribbage.Cribbage` cog (``cog.hands``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.engine import Action, Card, Cut, Discard, Play
from bot.sessions import GameView, PrivateView, Refusal
from cogs.utils.hand import HandMessage, hand_message, selected_cards, shown_picture
from cogs.utils.replies import defer_if_late, in_time, place_of, redraw, say

if TYPE_CHECKING:
    from cogs.cribbage import Cribbage

GAME_OVER = "The game is over: the result is in the channel."


class HandClicks:
    """Answers the clicks on hand messages for the :class:`~cogs.cribbage.Cribbage` cog."""

    def __init__(self, cog: Cribbage) -> None:
        self.manager = cog.manager
        self.names = cog.names
        self.table = cog.table

    def private_view(self, interaction: discord.Interaction, game_id: int) -> PrivateView | Refusal:
        """The clicker's view of the game, if they play in it here (the door's checks)."""
        return self.manager.at(place_of(interaction)).private_view(game_id, interaction.user.id)

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The "Your hand" button: the player's cards, privately, in a new message."""
        private = self.private_view(interaction, game_id)
        view = self.manager.view(game_id)
        if isinstance(private, Refusal) or view is None:
            await say(interaction, private.message if isinstance(private, Refusal) else GAME_OVER)
            return
        await defer_if_late(interaction, ephemeral=True, thinking=True)  # a busy moment

        async def draw() -> tuple[HandMessage, list[discord.File]]:
            names = await self.names.seat_names(view)
            images = await self.table.images_enabled(view.guild_id)
            message = hand_message(view, private, names, images=images)
            return message, await message.files()

        message, files = await in_time(interaction, draw(), ephemeral=True, thinking=True)
        if interaction.response.is_done():
            await interaction.followup.send(
                message.content, view=message.view, files=files, ephemeral=True
            )
        else:
            await interaction.response.send_message(
                message.content, view=message.view, files=files, ephemeral=True
            )
        self.table.remember_hand(game_id, interaction.user.id, interaction, message.filename)

    async def update_hand(
        self,
        interaction: discord.Interaction,
        game_id: int,
        *,
        mask: int = 0,
        note: str = "",
        private: PrivateView | Refusal | None = None,
    ) -> None:
        """Redraw the clicked hand message in place, from the game as it is now (``private``:
        the player's view when the caller has it already)."""
        view = self.manager.view(game_id)
        if private is None:
            private = self.private_view(interaction, game_id)
        if view is None:  # the game has ended
            await self.close_hand(interaction, GAME_OVER, note)
            return
        if isinstance(private, Refusal):
            await self.close_hand(interaction, private.message, note)
            return
        names = await in_time(interaction, self.names.seat_names(view))
        images = await in_time(interaction, self.table.images_enabled(view.guild_id))
        await self._redraw_hand(interaction, view, private, names, images, mask=mask, note=note)

    async def _redraw_hand(
        self,
        interaction: discord.Interaction,
        view: GameView,
        private: PrivateView,
        names: Sequence[str],
        images: bool,
        *,
        mask: int = 0,
        note: str = "",
    ) -> None:
        """Redraw the clicked hand message with ``private`` (the answer to a click on it)."""
        await defer_if_late(interaction)
        message = hand_message(view, private, names, mask=mask, note=note, images=images)
        await redraw(interaction, **await message.edit(shown_picture(interaction.message)))
        self.table.remember_hand(view.game_id, interaction.user.id, interaction, message.filename)

    @staticmethod
    async def close_hand(interaction: discord.Interaction, message: str, note: str = "") -> None:
        """The clicked hand message says why it has no cards to show (and loses its buttons)."""
        await redraw(interaction, content=f"{note}\n{message}".strip(), view=None, attachments=[])

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.private_view(interaction, game_id)
        if not isinstance(private, Refusal) and private.step != step:
            await self.update_hand(
                interaction, game_id, note="Your hand has changed.", private=private
            )
            return
        await self.update_hand(interaction, game_id, mask=mask, private=private)

    async def on_discard(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.private_view(interaction, game_id)
        if isinstance(private, Refusal):
            await self.update_hand(interaction, game_id, private=private)
            return
        await self.act(interaction, game_id, Discard(selected_cards(private, mask)), step)

    async def on_play(
        self, interaction: discord.Interaction, game_id: int, step: int, card: Card
    ) -> None:
        await self.act(interaction, game_id, Play(card), step)

    async def on_cut(
        self, interaction: discord.Interaction, game_id: int, step: int, where: str
    ) -> None:
        private = self.private_view(interaction, game_id)
        depths = (
            []
            if isinstance(private, Refusal)
            else [a.depth for a in private.legal_actions if isinstance(a, Cut)]
        )
        if not depths:
            await self.update_hand(interaction, game_id, note="It's not your cut.", private=private)
            return
        third = max(1, len(depths) // 3)
        zone = {"t": depths[:third], "m": depths[third:-third] or depths, "b": depths[-third:]}
        depth = secrets.choice(zone[where])
        await self.act(interaction, game_id, Cut(depth), step)

    async def on_hint(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        await interaction.response.defer()
        advice = await self.manager.at(place_of(interaction)).advise(game_id, interaction.user.id)
        note = advice.message if isinstance(advice, Refusal) else f"💡 {advice}"
        await self.update_hand(interaction, game_id, note=note)

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, step: int
    ) -> None:
        """Apply a move; answer by redrawing the hand; then tell the table. Everything the
        replies show comes from the outcome: nothing is looked up again."""
        user = interaction.user.id
        work = self.manager.at(place_of(interaction)).act(game_id, user, action, step=step)
        outcome = await in_time(interaction, work)
        if isinstance(outcome, Refusal):
            await self.update_hand(interaction, game_id, note=f"⚠️ {outcome.message}")
            return
        view, private = outcome.view, outcome.hands.get(user)
        names = await self.names.seat_names(view)
        if not view.status.is_open:
            await self.close_hand(interaction, GAME_OVER)
        elif private is None:  # not in the outcome's hands (never so for a seated player)
            await self.update_hand(interaction, game_id)
        else:
            await self._redraw_hand(interaction, view, private, names, outcome.settings.images)
        await self.table.publish(outcome, actor=user, names=names)
