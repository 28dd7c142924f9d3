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
``crib:a:{game}:{step}``                   the discard in one go: a menu of the hand's cards
``crib:c:{game}:{step}``                   cut the pack (an old ``...:{t|m|b}`` still cuts)
``crib:i:{game}:{step}``                   ask the coach for a hint
``crib:x:{game}``                          ready for the next deal (on the hand and the table)
``crib:r:{game}``                          rematch a finished game
=========================================  ===========================================

:data:`HAND_CLICK` matches every id of a hand's items (and the muggins claim pickers, ``n``),
so that the stale-click listener can redraw a hand whose button was out of date.

Every number in a template is ASCII digits of bounded length (:data:`GAME_ID`, :data:`STEP`,
:data:`MASK`): a forged id of other digits or of a thousand digits matches no button (the
stale-click listener answers it), and the session manager refuses a game id SQLite cannot hold.

Each button is a :class:`~cogs.utils.items.CribItem`: its ``run`` calls the answerer of its
role (:data:`HANDS`, :data:`LOBBY`, :data:`REMATCHES`: the Protocols below, registered by the
cog at load); no rule is decided here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.engine import Card, card_from_code
from cogs.utils.items import Answerers, CribItem, Role

Button = discord.ui.Button
Select = discord.ui.Select
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


class HandAnswers(Protocol):
    """Answers the clicks on a hand (and the table's Your hand, Cut and Next deal)."""

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_play(
        self, interaction: discord.Interaction, game_id: int, step: int, card: Card
    ) -> None: ...

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None: ...

    async def on_discard(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None: ...

    async def on_discard_menu(
        self, interaction: discord.Interaction, game_id: int, step: int, codes: Sequence[str]
    ) -> None: ...

    async def on_cut(self, interaction: discord.Interaction, game_id: int, step: int) -> None: ...

    async def on_deal_cut(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_next_deal(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_hint(self, interaction: discord.Interaction, game_id: int, step: int) -> None: ...


class RematchAnswers(Protocol):
    """Answers Rematch on an ended game, and Accept or Decline on the rematch's invitation."""

    async def ask(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def accept(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def decline(self, interaction: discord.Interaction, game_id: int) -> None: ...


LOBBY: Role[LobbyAnswers] = Role("lobby")
HANDS: Role[HandAnswers] = Role("hand")
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
        await answerers.get(HANDS).open_hand(interaction, self.game_id)


class PlayButton(
    CribItem[Button],
    template=rf"crib:p:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<card>{CARD})",
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
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["game"]), int(match["step"]), card_from_code(match["card"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_play(interaction, self.game_id, self.step, self.card)


class PickButton(
    CribItem[Button],
    template=rf"crib:s:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<mask>{MASK}):(?P<index>[0-5])",
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
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickButton:
        return cls(int(match["game"]), int(match["step"]), int(match["mask"]), int(match["index"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        toggled = self.mask ^ (1 << self.index)
        await answerers.get(HANDS).on_pick(interaction, self.game_id, self.step, toggled)


class DiscardButton(
    CribItem[Button], template=rf"crib:d:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<mask>{MASK})"
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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DiscardButton:
        return cls(
            int(match["game"]), int(match["step"]), int(match["mask"]), label="Lay away", ready=True
        )

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_discard(interaction, self.game_id, self.step, self.mask)


class CutButton(
    CribItem[Button], template=rf"crib:c:(?P<game>{GAME_ID}):(?P<step>{STEP})(?::[tmb])?"
):
    """Cut the pack: one honest button (the depth is the shuffle's, as a person's cut is).

    Older messages carry three buttons (top, middle, bottom, ``...:t|m|b``): they still cut."""

    def __init__(self, game_id: int, step: int) -> None:
        super().__init__(
            Button(
                label="Cut",
                emoji="✂️",
                style=Style.primary,
                custom_id=f"crib:c:{game_id}:{step}",
            )
        )
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CutButton:
        return cls(int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_cut(interaction, self.game_id, self.step)


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
        await answerers.get(HANDS).on_deal_cut(interaction, self.game_id)


class DiscardMenu(CribItem[Select], template=rf"crib:a:(?P<game>{GAME_ID}):(?P<step>{STEP})"):
    """The discard in one interaction: the hand's cards in a menu, exactly ``need`` to pick.

    A menu takes a whole row (Discord: five rows a message, five buttons or one menu a row, 25
    options a menu), so the hand keeps its pick buttons too: one row for this menu, two for
    the six cards, one for Lay away and Hint."""

    def __init__(
        self,
        game_id: int,
        step: int,
        cards: Sequence[Card] = (),
        need: int = 1,
        *,
        chosen: Sequence[Card] = (),
        crib: str = "the crib",
    ) -> None:
        options = [
            discord.SelectOption(label=str(card), value=card.code, default=card in chosen)
            for card in cards
        ] or [discord.SelectOption(label="—", value="-")]  # rebuilt from an id: no options
        need = max(1, min(need, len(options)))
        super().__init__(
            Select(
                custom_id=f"crib:a:{game_id}:{step}",
                placeholder=f"Lay away {need} card{'s' if need > 1 else ''} to {crib}",
                options=options,
                min_values=need,
                max_values=need,
            )
        )
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DiscardMenu:
        return cls(int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        codes = [str(value) for value in self.item.values]  # the options picked, as sent
        await answerers.get(HANDS).on_discard_menu(interaction, self.game_id, self.step, codes)


class NextDealButton(CribItem[Button], template=rf"crib:x:(?P<game>{GAME_ID})"):
    """Ready for the next deal: on each hand and on the deal's record while the table waits."""

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
        await answerers.get(HANDS).on_next_deal(interaction, self.game_id)


class HintButton(CribItem[Button], template=rf"crib:i:(?P<game>{GAME_ID}):(?P<step>{STEP})"):
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
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_hint(interaction, self.game_id, self.step)


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


ALL_BUTTONS = (
    LobbyButton,
    HandButton,
    PlayButton,
    PickButton,
    DiscardButton,
    DiscardMenu,
    CutButton,
    DealCutButton,
    HintButton,
    NextDealButton,
    RematchButton,
)
