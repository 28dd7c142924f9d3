"""The buttons of the standings answers: leaderboard pages and Share (:mod:`cogs.standings`
answers their clicks).

Buttons are dynamic items whose custom id carries everything needed after a restart (well
under Discord's 100 characters)::

    crib:b:{owner}:{scope}{sort}{pool}:{page}:{direction}      a leaderboard page
        owner      the user whose own row is shown (who asked)
        scope      s: this server, g: everywhere, n{id}: the server's season of that id
        sort       r: rating, w: wins, p: win rate, s: skunks
        pool       h: games among people, c: games with a computer, a: every game
        page       the page to show, from 0
        direction  p / n: the previous / next button (two buttons never share an id)
    crib:sh:{kind}:{owner}                                     Share
        kind       b: a leaderboard, s: stats, h: history
        owner      who asked (only they see the private answer)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, Protocol, TypeVar

import discord

from cogs.utils.items import Answerers, CribItem, Role, view_of

K = TypeVar("K", bound=str)

Scope = Literal["server", "global", "season"]
SortChoice = Literal["rating", "wins", "win rate", "skunks"]
Against = Literal["people", "computers", "anyone"]
Kind = Literal["b", "s", "h"]  # what a Share button shares: a leaderboard, stats, a history


class StandingsAnswers(Protocol):
    """Answers a leaderboard's page buttons and the Share button of a standings answer."""

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        *,
        scope: Scope = "server",
        sort: SortChoice = "rating",
        against: Against = "people",
        page: int = 0,
        owner: int | None = None,
        edit: bool = False,
        season: str | None = None,
        season_id: int | None = None,
    ) -> None: ...

    async def share(self, interaction: discord.Interaction, button: ShareButton) -> None: ...


STANDINGS: Role[StandingsAnswers] = Role("standings")

SCOPE_CODES: dict[Scope, str] = {"server": "s", "global": "g", "season": "n"}
SORT_CODES: dict[SortChoice, str] = {"rating": "r", "wins": "w", "win rate": "p", "skunks": "s"}
POOL_CODES: dict[Against, str] = {"people": "h", "computers": "c", "anyone": "a"}


def _decode(codes: Mapping[K, str], code: str) -> K:
    return next(name for name, c in codes.items() if c == code)


class LeaderboardPageButton(
    CribItem[discord.ui.Button],
    template=r"crib:b:(?P<owner>[0-9]{1,20}):(?P<scope>[sg]|n(?P<season>[0-9]{1,12}))"
    r"(?P<sort>[rwps])(?P<pool>[hca])"
    r":(?P<page>[0-9]{1,6}):(?P<direction>[pn])",
):
    """◀ / ▶ on a leaderboard: redraws the message at another page (a season's board: of the
    season it showed, by id, even once another has started)."""

    def __init__(
        self,
        owner: int,
        scope: Scope,
        sort: SortChoice,
        against: Against,
        page: int,
        direction: str,
        *,
        disabled: bool = False,
        season_id: int | None = None,
    ) -> None:
        where = SCOPE_CODES[scope] + (str(season_id) if scope == "season" else "")
        code = where + SORT_CODES[sort] + POOL_CODES[against]
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if direction == "p" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"crib:b:{owner}:{code}:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.owner, self.scope, self.sort, self.against = owner, scope, sort, against
        self.page, self.direction, self.season_id = page, direction, season_id

    @classmethod
    def parse(cls, match: re.Match[str], *, disabled: bool = False) -> LeaderboardPageButton:
        """The button a custom id matching the template names."""
        return cls(
            int(match["owner"]),
            _decode(SCOPE_CODES, match["scope"][0]),
            _decode(SORT_CODES, match["sort"]),
            _decode(POOL_CODES, match["pool"]),
            int(match["page"]),
            match["direction"],
            disabled=disabled,
            season_id=None if match["season"] is None else int(match["season"]),
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        return cls.parse(match)

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(STANDINGS).leaderboard(
            interaction,
            scope=self.scope,
            sort=self.sort,
            against=self.against,
            page=self.page,
            owner=self.owner,
            edit=True,
            season_id=self.season_id,
        )


class ShareButton(
    CribItem[discord.ui.Button], template=r"crib:sh:(?P<kind>[bsh]):(?P<owner>[0-9]{1,20})"
):
    """Share on a private answer: posts the same content in the channel (disabled, "Shared ✓",
    once done)."""

    def __init__(self, kind: Kind, owner: int, *, shared: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="Shared ✓" if shared else "Share",
                emoji=None if shared else "📣",
                style=discord.ButtonStyle.secondary if shared else discord.ButtonStyle.primary,
                custom_id=f"crib:sh:{kind}:{owner}",
                disabled=shared,
            )
        )
        self.kind, self.owner, self.shared = kind, owner, shared

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShareButton:
        # ``item`` is the button as the message shows it now: disabled once shared
        shared = isinstance(item, discord.ui.Button) and item.disabled
        kind: Kind = "b" if match["kind"] == "b" else "s" if match["kind"] == "s" else "h"
        return cls(kind, int(match["owner"]), shared=shared)

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(STANDINGS).share(interaction, self)


def page_buttons(
    owner: int,
    scope: Scope,
    sort: SortChoice,
    against: Against,
    page: int,
    pages: int,
    *,
    season_id: int | None = None,
) -> list[LeaderboardPageButton]:
    """◀ / ▶ for a leaderboard of ``pages`` pages (none when one page holds everyone)."""
    if pages <= 1:
        return []
    first, last = page <= 0, page >= pages - 1
    return [
        LeaderboardPageButton(
            owner, scope, sort, against, max(0, page - 1), "p", disabled=first, season_id=season_id
        ),
        LeaderboardPageButton(
            owner,
            scope,
            sort,
            against,
            min(pages - 1, page + 1),
            "n",
            disabled=last,
            season_id=season_id,
        ),
    ]


def _buttons(message: discord.Message | None) -> list[discord.Button]:
    """The buttons a message shows now."""
    if message is None:
        return []
    found: list[discord.Button] = []
    for row in message.components:
        children = getattr(row, "children", [row])
        found += [c for c in children if isinstance(c, discord.Button)]
    return found


def pages_of(message: discord.Message | None) -> list[LeaderboardPageButton]:
    """The leaderboard page buttons a message shows, as they are (for its public copy)."""
    template = LeaderboardPageButton.__discord_ui_compiled_template__
    pages = []
    for button in _buttons(message):
        match = template.fullmatch(button.custom_id or "")
        if match is not None:
            pages.append(LeaderboardPageButton.parse(match, disabled=button.disabled))
    return pages


def share_of(message: discord.Message | None) -> ShareButton | None:
    """The Share button a (private) message shows, with whether it was used."""
    template = ShareButton.__discord_ui_compiled_template__
    for button in _buttons(message):
        match = template.fullmatch(button.custom_id or "")
        if match is not None:
            kind: Kind = "b" if match["kind"] == "b" else "s" if match["kind"] == "s" else "h"
            return ShareButton(kind, int(match["owner"]), shared=button.disabled)
    return None


def shown_view(*items: discord.ui.Item[Any] | None) -> discord.ui.View | None:
    """A stopped view of the items given (``None`` among them skipped), or None if none."""
    present = [item for item in items if item is not None]
    return view_of(*present) if present else None


#: every button of the standings (registered at load; cogs.cribbage lists them among its own)
STANDINGS_ITEMS = (LeaderboardPageButton, ShareButton)
