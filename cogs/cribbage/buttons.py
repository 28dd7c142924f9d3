"""The buttons of the game's public messages, as persistent ``DynamicItem``s (their state lives
in the custom_id), and the numbers every custom id of the game is made of.

A custom_id names the game, so a click after a restart rebuilds the button from its id alone.
Formats (all well under Discord's 100 characters):

=========================================  ===========================================
``crib:l:{game}:{verb}``                   lobby: join, leave, cpu, start, cancel
``crib:h:{game}``                          the table's "Your hand" button
``crib:dc:{game}``                         the table's Cut for the deal
``crib:x:{game}``                          ready for the next deal (on the deal's record)
``crib:r:{game}``                          rematch a finished game
=========================================  ===========================================

The items of a private hand (play, pick, discard, the discard menu, cut, hint) are drawn by
:mod:`cogs.cribbage.hand` and answered in :mod:`cogs.cribbage.hand_clicks`, their items beside
their answers. :data:`HAND_CLICK` matches every id of a hand's items (and the muggins claim
pickers, ``n``, and an older hand's Next deal), so that the stale-click listener can redraw a
hand whose button was out of date.

Every number in a template is ASCII digits of bounded length (:data:`GAME_ID`, :data:`STEP`,
:data:`MASK`): a forged id of other digits or of a thousand digits matches no button (the
stale-click listener answers it), and the session manager refuses a game id SQLite cannot hold.

Each button is a :class:`~cogs.utils.items.CribItem`: its ``run`` calls the answerer of its
role (:data:`LOBBY`, :data:`TABLE`, :data:`REMATCHES`: the Protocols below, registered by the
cog at load); no rule is decided here.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.utils.items import Answerers, CribItem, Role

Button = discord.ui.Button
Style = discord.ButtonStyle

GAME_ID = "[0-9]{1,19}"  # a game id: SQLite's integers have at most 19 digits (the door checks)
STEP = "[0-9]{1,9}"  # a game's step: a few hundred in the longest game
MASK = "[0-9]{1,2}"  # the cards selected to lay away, one bit each of at most six
CARD = "(?:10|[2-9AJQK])[CDHS]"  # a card's code, like 10H

# a click on an item of a hand (play, select, discard, the discard menu, cut, hint, claim,
# next deal): its game, for a redraw of the hand by the stale-click listener
HAND_CLICK = re.compile(rf"crib:[psdacinx]:(?P<game>{GAME_ID})(?::|$)")


class LobbyAnswers(Protocol):
    """Answers the lobby's buttons and its computer menu (a verb of :attr:`LobbyButton.VERBS`)."""

    async def on_lobby_button(
        self, interaction: discord.Interaction, game_id: int, verb: str
    ) -> None: ...


class TableAnswers(Protocol):
    """Answers the table's clicks on a player's seat: Your hand, Cut for the deal and Next deal
    (the hands' answerer, :class:`cogs.cribbage.hand_clicks.HandClicks`)."""

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_deal_cut(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_next_deal(self, interaction: discord.Interaction, game_id: int) -> None: ...


class RematchAnswers(Protocol):
    """Answers Rematch on an ended game, and Accept or Decline on the rematch's invitation."""

    async def ask(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def accept(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def decline(self, interaction: discord.Interaction, game_id: int) -> None: ...


LOBBY: Role[LobbyAnswers] = Role("lobby")
TABLE: Role[TableAnswers] = Role("table")
REMATCHES: Role[RematchAnswers] = Role("rematch")


class LobbyButton(
    CribItem[Button], template=rf"crib:l:(?P<game>{GAME_ID}):(?P<verb>[a-z_]{{1,16}})"
):
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
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        verb = match["verb"] if match["verb"] in cls.VERBS else "join"
        return cls(int(match["game"]), verb)

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(LOBBY).on_lobby_button(interaction, self.game_id, self.verb)


class HandButton(CribItem[Button], template=rf"crib:h:(?P<game>{GAME_ID})"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Your hand", emoji="🂠", style=Style.primary, custom_id=f"crib:h:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(TABLE).open_hand(interaction, self.game_id)


class DealCutButton(CribItem[Button], template=rf"crib:dc:(?P<game>{GAME_ID})"):
    """Cut for the deal, on the table: a public act, one click for each person (no hand to
    open first), and a click on the table lets its token edit it (cogs/cribbage/courier.py)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Cut", emoji="✂️", style=Style.primary, custom_id=f"crib:dc:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DealCutButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(TABLE).on_deal_cut(interaction, self.game_id)


class NextDealButton(CribItem[Button], template=rf"crib:x:(?P<game>{GAME_ID})"):
    """Ready for the next deal: on the deal's record while the table waits (an older hand may
    carry it too)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Next deal", emoji="▶️", style=Style.success, custom_id=f"crib:x:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NextDealButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(TABLE).on_next_deal(interaction, self.game_id)


class RematchButton(CribItem[Button], template=rf"crib:r:(?P<game>{GAME_ID})"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(label="Rematch", emoji="🔁", style=Style.success, custom_id=f"crib:r:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(REMATCHES).ask(interaction, self.game_id)


PUBLIC_BUTTONS = (LobbyButton, HandButton, DealCutButton, NextDealButton, RematchButton)
