"""The buttons of a replay and of the result's after-game offers (:mod:`cogs.cribbage.replays`
answers their clicks).

Persistent dynamic items: the custom id carries everything a click needs after a restart, well
under Discord's 100 characters (developer docs, *Message Components*: "custom_id ... max 100
characters")::

    crib:rp:{game}:{deal}:{which}   a replay's page button: show deal ``deal`` of the game
        which   f / p / n / l: ⏮ first, ◀ previous, ▶ next, ⏭ last (no two buttons share an id)
    crib:rs:{game}:{deal}           Share: post this page of the replay in the channel
    crib:rv:{game}                  Replay, on a game's result: the replay, privately
    crib:rw:{game}                  Review my game, on a game's result: the review, privately

The longest, ``crib:rp:`` with a 19-digit game and a 4-digit deal, is 35 characters. A replay
shows five buttons in one row, a result three (Discord: "An Action Row can contain up to 5
buttons"; custom ids "1 to 100 characters", unique on a message: developer docs, *Component
Reference*).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.cribbage.buttons import GAME_ID, RematchButton
from cogs.utils.items import Answerers, CribItem, Role

Button = discord.ui.Button
Style = discord.ButtonStyle


class ReplayAnswers(Protocol):
    """Answers a replay's page and Share buttons, and Replay or Review my game on a result."""

    async def page(self, interaction: discord.Interaction, game_id: int, deal: int) -> None: ...

    async def share(self, interaction: discord.Interaction, button: ReplayShareButton) -> None: ...

    async def open(self, interaction: discord.Interaction, game_id: int | None) -> None: ...

    async def review(self, interaction: discord.Interaction, game_id: int) -> None: ...


REPLAYS: Role[ReplayAnswers] = Role("replay")

DEAL = "[0-9]{1,4}"  # a deal's number: a few dozen in the longest game

# which page button: (emoji, what it is called for a screen reader)
PAGES = {"f": ("⏮", "First deal"), "p": ("◀", "Previous deal"), "n": ("▶", "Next deal"),
         "l": ("⏭", "Last deal")}  # fmt: skip


class ReplayPageButton(
    CribItem[Button],
    template=rf"crib:rp:(?P<game>{GAME_ID}):(?P<deal>{DEAL}):(?P<which>[fpnl])",
):
    """⏮ ◀ ▶ ⏭ on a replay: redraws the message at deal ``deal``."""

    def __init__(self, game_id: int, deal: int, which: str, *, disabled: bool = False) -> None:
        emoji, _ = PAGES[which]
        super().__init__(
            Button(
                emoji=emoji,
                style=Style.secondary,
                custom_id=f"crib:rp:{game_id}:{deal}:{which}",
                disabled=disabled,
            )
        )
        self.game_id, self.deal, self.which = game_id, deal, which

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayPageButton:
        return cls(int(match["game"]), int(match["deal"]), match["which"])

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(REPLAYS).page(interaction, self.game_id, self.deal)


class ReplayShareButton(
    CribItem[Button], template=rf"crib:rs:(?P<game>{GAME_ID}):(?P<deal>{DEAL})"
):
    """Share on a private replay page: posts the page in the channel ("Shared ✓" once done)."""

    def __init__(self, game_id: int, deal: int, *, shared: bool = False) -> None:
        super().__init__(
            Button(
                label="Shared ✓" if shared else "Share",
                emoji=None if shared else "📣",
                style=Style.secondary if shared else Style.primary,
                custom_id=f"crib:rs:{game_id}:{deal}",
                disabled=shared,
            )
        )
        self.game_id, self.deal, self.shared = game_id, deal, shared

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayShareButton:
        # ``item`` is the button as the message shows it now: disabled once shared
        shared = isinstance(item, Button) and item.disabled
        return cls(int(match["game"]), int(match["deal"]), shared=shared)

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(REPLAYS).share(interaction, self)


class ReplayButton(CribItem[Button], template=rf"crib:rv:(?P<game>{GAME_ID})"):
    """Replay, on a game's result: the game deal by deal, privately to whoever clicks."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(
                label="Replay", emoji="🔁", style=Style.secondary, custom_id=f"crib:rv:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(REPLAYS).open(interaction, self.game_id)


class ReviewButton(CribItem[Button], template=rf"crib:rw:(?P<game>{GAME_ID})"):
    """Review my game, on a game's result: the clicker's own decisions, privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            Button(
                label="Review my game",
                emoji="🔍",
                style=Style.secondary,
                custom_id=f"crib:rw:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        return cls(int(match["game"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(REPLAYS).review(interaction, self.game_id)


def replay_buttons(game_id: int, deal: int, deals: int) -> list[CribItem[Button]]:
    """⏮ ◀ ▶ ⏭ and Share for deal ``deal`` of ``deals`` (the page buttons that would not
    move are disabled; none when the game has one deal)."""
    items: list[CribItem[Button]] = []
    if deals > 1:
        targets = {"f": 1, "p": max(1, deal - 1), "n": min(deals, deal + 1), "l": deals}
        for which, target in targets.items():
            items.append(ReplayPageButton(game_id, target, which, disabled=target == deal))
    items.append(ReplayShareButton(game_id, deal))
    return items


def after_game_buttons(game_id: int, played_out: bool = True) -> list[CribItem[Button]]:
    """The buttons of a game's result (one row): Rematch, and for a game played out to its
    end, Replay and Review my game (a forfeit's result offers only Rematch)."""
    if not played_out:
        return [RematchButton(game_id)]
    return [RematchButton(game_id), ReplayButton(game_id), ReviewButton(game_id)]


#: every button of replays and reviews (registered at load with the cog's own)
REPLAY_ITEMS = (ReplayPageButton, ReplayShareButton, ReplayButton, ReviewButton)
