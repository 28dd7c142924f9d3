"""The lobby message: the seats, Join / Leave / Start / Cancel, and the host's computer picker.

The host fills a seat with a computer player by picking its level in a menu
(``crib:k:{game}``: easy, standard or expert). A menu, not three more buttons: Discord lets an
action row hold up to 5 buttons or a single select menu, and a message at most 5 rows
(discord-api-docs, docs/components/reference.mdx, "Action Row"); the four buttons fill one row
and the menu takes a second. Join and the menu are disabled once every seat is taken, and every
item once the lobby has closed. Old lobby messages keep working: their "Add computer" buttons
(``crib:l:{game}:cpu_{level}``) are still answered by :class:`~cogs.cribbage.buttons.LobbyButton`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.render.embeds import lobby_embed
from bot.render.matches import add_match_field
from bot.sessions import LEVELS, GameStatus, GameView
from cogs.cribbage.buttons import GAME_ID, LOBBY, LobbyButton
from cogs.utils.items import Answerers, CribItem, view_of
from cogs.utils.names import NameBook, markdown_name
from cogs.utils.payloads import to_discord
from cogs.utils.replies import say

Select = discord.ui.Select

LEVEL_WORDS = {
    "easy": "Plays any card that scores; an easy game",
    "standard": "Keeps good hands and pegs sensibly",
    "expert": "Weighs every discard and every card: a real opponent",
}
NO_SUCH_LEVEL = "A computer plays at level easy, standard or expert: nothing was added."


class ComputerPicker(CribItem[Select], template=rf"crib:k:(?P<game>{GAME_ID})"):
    """The lobby's menu of computer players: the host picks a level and a computer sits."""

    def __init__(self, game_id: int, *, disabled: bool = False) -> None:
        options = [
            discord.SelectOption(label=f"Computer ({level})", value=level, description=words)
            for level, words in LEVEL_WORDS.items()
        ]
        super().__init__(
            Select(
                custom_id=f"crib:k:{game_id}",
                placeholder="Add a computer player (host): pick its level",
                options=options,
                disabled=disabled,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ComputerPicker:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        picked = str(self.item.values[0]) if self.item.values else ""
        if picked not in LEVELS:  # a forged or out-of-date choice
            await say(interaction, NO_SUCH_LEVEL)
            return
        await answerers.get(LOBBY).on_lobby_button(interaction, self.game_id, f"cpu_{picked}")


LOBBY_ITEMS = (ComputerPicker,)


async def lobby_payload(
    book: NameBook, view: GameView, *, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The lobby message (``names``: the seat names, if the caller has them already)."""
    if names is None:
        names = await book.seat_names(view)
    seats = [names[i] if view.seats[i] is not None else None for i in range(len(view.seats))]
    host = await book.name(view.host_id, view.guild_id)
    closed = view.status is not GameStatus.LOBBY
    full = all(seat is not None for seat in view.seats)
    items: list[discord.ui.Item[Any]] = [
        LobbyButton(view.game_id, "join", disabled=closed or full),
        LobbyButton(view.game_id, "leave", disabled=closed),
        LobbyButton(view.game_id, "start", disabled=closed),
        LobbyButton(view.game_id, "cancel", disabled=closed),
        ComputerPicker(view.game_id, disabled=closed or full),
    ]
    instructions = None
    if not full:
        instructions = (
            f"Click **Join** to take a seat; {markdown_name(host)} may fill one with a computer "
            f"player from the menu, and clicks **Start** when the table is full."
        )
    embed = add_match_field(
        lobby_embed(view.variant, seats, host, instructions=instructions), view, names
    )
    if view.status is GameStatus.CANCELLED:
        embed = embed.replace(description="This table was closed before the game began.")
    elif closed:
        # no footer at all: an empty one ({}) is refused, Discord requires a footer's text
        embed = embed.replace(description="The game is on: the table is below.", footer=None)
    return {"embed": to_discord(embed), "view": view_of(*items), "content": None}
