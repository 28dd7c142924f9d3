"""Every button of the bot, as persistent ``DynamicItem``s: their state lives in the custom_id.

A custom_id names the game and, for moves, the step the button was drawn at, so a click after a
restart rebuilds the button from its id alone, and a click on an out-of-date button is refused
by the session manager. Formats (all well under Discord's 100 characters):

=========================================  ===========================================
``crib:l:{game}:{verb}``                   lobby: join, leave, cpu, start, cancel
``crib:h:{game}``                          the public "Your hand" button
``crib:p:{game}:{step}:{card}``            play a card (card code like ``10H``)
``crib:s:{game}:{step}:{mask}:{index}``    toggle a card in the discard selection
``crib:d:{game}:{step}:{mask}``            confirm the discard of the selected cards
``crib:c:{game}:{step}:{where}``           cut the pack: ``t`` top, ``m`` middle, ``b`` bottom
``crib:i:{game}:{step}``                   ask the coach for a hint
``crib:r:{game}``                          rematch a finished game
=========================================  ===========================================

The callbacks hand the click to :class:`cogs.cribbage.Cribbage`; no rule is decided here.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Card, card_from_code
from cogs.utils.replies import tell

if TYPE_CHECKING:
    from cogs.cribbage import Cribbage

Button = discord.ui.Button
Style = discord.ButtonStyle


log = logging.getLogger(__name__)

FAILED = "Something went wrong on our side; the game is safe. Please try again."


async def _run(interaction: discord.Interaction, handler: str, *args: Any) -> None:
    """Hand a click to the cog's ``handler``; a failure is logged and the clicker told."""
    cog: Cribbage | None = interaction.client.get_cog("Cribbage")  # type: ignore[union-attr,assignment]
    try:
        if cog is None:
            raise RuntimeError("the Cribbage cog is not loaded")
        cog.names.learn(interaction.user)
        await getattr(cog, handler)(interaction, *args)
    except Exception:
        custom_id = (interaction.data or {}).get("custom_id")
        log.exception("Button %s failed", custom_id)
        await tell(interaction, FAILED)


class LobbyButton(discord.ui.DynamicItem[Button], template=r"crib:l:(?P<game>\d+):(?P<verb>\w+)"):
    VERBS: dict[str, tuple[str, Style]] = {
        "join": ("Join", Style.success),
        "leave": ("Leave", Style.secondary),
        "cpu_easy": ("Add computer", Style.primary),
        "cpu_standard": ("Add computer", Style.primary),
        "cpu_expert": ("Add computer", Style.primary),
        "start": ("Start", Style.success),
        "cancel": ("Cancel", Style.danger),
    }

    def __init__(self, game_id: int, verb: str, *, disabled: bool = False) -> None:
        label, style = self.VERBS[verb]
        super().__init__(
            Button(
                label=label, style=style, custom_id=f"crib:l:{game_id}:{verb}", disabled=disabled
            )
        )
        self.game_id, self.verb = game_id, verb

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> LobbyButton:
        verb = match["verb"] if match["verb"] in cls.VERBS else "join"
        return cls(int(match["game"]), verb)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_lobby_button", self.game_id, self.verb)


class HandButton(discord.ui.DynamicItem[Button], template=r"crib:h:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Your hand", emoji="🂠", style=Style.primary, custom_id=f"crib:h:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "open_hand", self.game_id)


class PlayButton(
    discord.ui.DynamicItem[Button],
    template=r"crib:p:(?P<game>\d+):(?P<step>\d+):(?P<card>(?:10|[2-9AJQK])[CDHS])",
):
    def __init__(self, game_id: int, step: int, card: Card, *, playable: bool = True) -> None:
        super().__init__(
            Button(
                label=str(card),
                style=Style.primary if playable else Style.secondary,
                custom_id=f"crib:p:{game_id}:{step}:{card.code}",
                disabled=not playable,
            )
        )
        self.game_id, self.step, self.card = game_id, step, card

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> PlayButton:
        return cls(int(match["game"]), int(match["step"]), card_from_code(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_play", self.game_id, self.step, self.card)


class PickButton(
    discord.ui.DynamicItem[Button],
    template=r"crib:s:(?P<game>\d+):(?P<step>\d+):(?P<mask>\d+):(?P<index>\d)",
):
    """One card of the hand during the discard: a click toggles it in the selection."""

    def __init__(
        self, game_id: int, step: int, mask: int, index: int, card: Card | None = None
    ) -> None:
        selected = bool(mask >> index & 1)
        super().__init__(
            Button(
                label=str(card) if card else f"card {index + 1}",
                style=Style.success if selected else Style.secondary,
                emoji="✔️" if selected else None,
                custom_id=f"crib:s:{game_id}:{step}:{mask}:{index}",
            )
        )
        self.game_id, self.step, self.mask, self.index = game_id, step, mask, index

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> PickButton:
        return cls(int(match["game"]), int(match["step"]), int(match["mask"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        toggled = self.mask ^ (1 << self.index)
        await _run(interaction, "on_pick", self.game_id, self.step, toggled)


class DiscardButton(
    discord.ui.DynamicItem[Button], template=r"crib:d:(?P<game>\d+):(?P<step>\d+):(?P<mask>\d+)"
):
    def __init__(self, game_id: int, step: int, mask: int, *, label: str, ready: bool) -> None:
        super().__init__(
            Button(
                label=label,
                style=Style.success if ready else Style.secondary,
                custom_id=f"crib:d:{game_id}:{step}:{mask}",
                disabled=not ready,
            )
        )
        self.game_id, self.step, self.mask = game_id, step, mask

    @classmethod
    async def from_custom_id(
        cls, interaction: Any, item: Any, match: re.Match[str]
    ) -> DiscardButton:
        return cls(
            int(match["game"]), int(match["step"]), int(match["mask"]), label="Lay away", ready=True
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_discard", self.game_id, self.step, self.mask)


class CutButton(
    discord.ui.DynamicItem[Button], template=r"crib:c:(?P<game>\d+):(?P<step>\d+):(?P<where>[tmb])"
):
    LABELS = {"t": "Cut near the top", "m": "Cut in the middle", "b": "Cut near the bottom"}

    def __init__(self, game_id: int, step: int, where: str) -> None:
        super().__init__(
            Button(
                label=self.LABELS[where],
                emoji="✂️",
                style=Style.primary,
                custom_id=f"crib:c:{game_id}:{step}:{where}",
            )
        )
        self.game_id, self.step, self.where = game_id, step, where

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> CutButton:
        return cls(int(match["game"]), int(match["step"]), match["where"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_cut", self.game_id, self.step, self.where)


class HintButton(discord.ui.DynamicItem[Button], template=r"crib:i:(?P<game>\d+):(?P<step>\d+)"):
    def __init__(self, game_id: int, step: int) -> None:
        super().__init__(
            Button(
                label="Hint",
                emoji="💡",
                style=Style.secondary,
                custom_id=f"crib:i:{game_id}:{step}",
            )
        )
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> HintButton:
        return cls(int(match["game"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_hint", self.game_id, self.step)


class RematchButton(discord.ui.DynamicItem[Button], template=r"crib:r:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Rematch", emoji="🔁", style=Style.success, custom_id=f"crib:r:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Any, item: Any, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "on_rematch", self.game_id)


ALL_BUTTONS = (
    LobbyButton,
    HandButton,
    PlayButton,
    PickButton,
    DiscardButton,
    CutButton,
    HintButton,
    RematchButton,
)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view made only of dynamic items, already stopped.

    The clicks on its buttons reach the bot through the dynamic items registered at start,
    never through the view. A view still running would be kept by discord.py in its view store
    for every message sent or edited with it, and an ephemeral one sent with a 15-minute timeout
    task: thousands of objects per busy hour for the garbage collector to scan.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
