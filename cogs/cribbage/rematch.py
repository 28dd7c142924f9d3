"""Rematches in the channel: the Rematch button on a result, then the rematch message.

A click on **Rematch** (``crib:r:{game}``, on the result of an ended game) asks the manager for
a rematch. When other people played that game, a public rematch message answers the click: it
names who has accepted and who is still to, and carries **Accept** / **Decline**
(``crib:rm:{game}:yes|no``); the game starts by itself on the last acceptance, and its table is
posted below. Alone with computers, the rematch starts at once. No rule is decided here. Each
player's click here lets the bot send them the rematch's hand directly below its table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.render.matches import rematch_closed_embed, rematch_embed
from bot.sessions import AcceptRematch, AskRematch, DeclineRematch, GameView, Outcome, Refusal
from cogs.cribbage.buttons import GAME_ID, REMATCHES, Button, Style
from cogs.cribbage.pings import NO_PINGS, only
from cogs.utils.items import Answerers, CribItem, view_of
from cogs.utils.names import markdown_name
from cogs.utils.payloads import to_discord
from cogs.utils.replies import defer_if_late, in_time, place_of, redraw, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager
    from cogs.cribbage.table import Table
    from cogs.utils.names import NameBook


class RematchAnswer(CribItem[Button], template=rf"crib:rm:(?P<game>{GAME_ID}):(?P<verb>yes|no)"):
    """Accept or decline a rematch (on the rematch message)."""

    LABELS = {"yes": ("Accept", Style.success), "no": ("Decline", Style.secondary)}

    def __init__(self, game_id: int, verb: str) -> None:
        label, style = self.LABELS[verb]
        super().__init__(Button(label=label, style=style, custom_id=f"crib:rm:{game_id}:{verb}"))
        self.game_id, self.verb = game_id, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchAnswer:
        return cls(int(match["game"]), match["verb"])

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        if self.verb == "yes":
            await answerers.get(REMATCHES).accept(interaction, self.game_id)
        else:
            await answerers.get(REMATCHES).decline(interaction, self.game_id)


REMATCH_BUTTONS = (RematchAnswer,)


class Rematches:
    """The rematch clicks: asks ``manager``, posts the rematch and its games with ``table``."""

    def __init__(self, manager: GameSessionManager, names: NameBook, table: Table) -> None:
        self.manager = manager
        self.names = names
        self.table = table

    async def ask(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Rematch button of an ended game: a new table with the same seats."""
        work = self.manager.rematches.ask(
            AskRematch(game_id, interaction.user.id, where=place_of(interaction))
        )
        result = await in_time(interaction, work, thinking=True)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        view = result.view if isinstance(result, Outcome) else result
        await defer_if_late(interaction, thinking=True)
        names = await self.names.seat_names(view)
        if isinstance(result, Outcome):
            payload, mentions = self._started(view, names), NO_PINGS
        else:
            payload, mentions = await self.payload(view, names), await self._asked(view)
        fields = {key: value for key, value in payload.items() if value is not None}
        message: discord.Message
        if interaction.response.is_done():  # deferred: this replaces the "thinking" message
            message = await interaction.followup.send(
                **fields, allowed_mentions=mentions, wait=True
            )
        else:
            await interaction.response.send_message(**fields, allowed_mentions=mentions)
            message = await interaction.original_response()
        await self.manager.records.set_message(
            view.game_id, "lobby", message.channel.id, message.id
        )
        self._reach(view, interaction)
        if isinstance(result, Outcome):
            await self.table.publish(result, actor=interaction.user.id, names=names)

    async def _asked(self, view: GameView) -> discord.AllowedMentions:
        """Who the rematch message notifies: the people it waits for, unless they turned
        pings off (``/cribbage notify``). It is a new message, never deleted."""
        rematch = self.manager.rematches.view(view.game_id)
        waiting = rematch.waiting if rematch is not None else ()
        return only([u for u in waiting if (await self.manager.settings.player(u)).notify])

    async def accept(self, interaction: discord.Interaction, game_id: int) -> None:
        work = self.manager.rematches.accept(
            AcceptRematch(game_id, interaction.user.id, where=place_of(interaction))
        )
        result = await in_time(interaction, work, thinking=False)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        view = result if isinstance(result, GameView) else result.view
        await defer_if_late(interaction)
        names = await self.names.seat_names(view)
        if isinstance(result, GameView):
            await redraw(interaction, **await self.payload(view, names))
            self._reach(view, interaction)
            return
        await redraw(interaction, **self._started(view, names))
        self._reach(view, interaction)
        await self.table.publish(result, actor=interaction.user.id, names=names)

    def _reach(self, view: GameView, interaction: discord.Interaction) -> None:
        """A player's answered click on the rematch: the rematch's first hand can be sent
        below its table through it (:mod:`cogs.cribbage.open_hands`)."""
        if view.seat_of(interaction.user.id) is not None:
            self.table.hands.note(view.game_id, interaction.user.id, interaction)

    async def decline(self, interaction: discord.Interaction, game_id: int) -> None:
        work = self.manager.rematches.decline(
            DeclineRematch(game_id, interaction.user.id, where=place_of(interaction))
        )
        result = await in_time(interaction, work)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        await defer_if_late(interaction)
        names = await self.names.seat_names(result)
        who = markdown_name(interaction.user.display_name)
        embed = rematch_closed_embed(result, names, f"**{who}** declined: no rematch this time.")
        await redraw(interaction, content=None, embed=to_discord(embed), view=None)

    async def payload(self, view: GameView, names: Sequence[str]) -> dict[str, Any]:
        """The rematch message while it waits: who has accepted, the buttons, a ping."""
        rematch = self.manager.rematches.view(view.game_id)
        if rematch is None:
            return self._started(view, names)
        host = await self.names.name(view.host_id, view.guild_id)
        waiting = " ".join(f"<@{u}>" for u in rematch.waiting)
        buttons = view_of(RematchAnswer(view.game_id, "yes"), RematchAnswer(view.game_id, "no"))
        return {
            "content": f"{waiting} — a rematch? Click **Accept** to play again."
            if waiting
            else None,
            "embed": to_discord(rematch_embed(view, rematch, names, host)),
            "view": buttons,
        }

    @staticmethod
    def _started(view: GameView, names: Sequence[str]) -> dict[str, Any]:
        if view.dealer is not None and view.deal_number:
            dealer = markdown_name(names[view.dealer])
            text = f"The rematch is on: same seats, **{dealer}** deals first."
        else:
            text = "The rematch is on: same seats; cut for the deal."
        if view.match is not None:
            text += f" Best of {view.match.best_of}."
        embed = to_discord(rematch_closed_embed(view, names, text))
        return {"content": None, "embed": embed, "view": None}
