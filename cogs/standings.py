"""``/cribbage leaderboard``, ``/cribbage stats`` and ``/cribbage history``, and the leaderboard's
page buttons.

The three commands are thin methods of :class:`cogs.cribbage.Cribbage` (the ``/cribbage``
group) that hand over to :class:`StandingsDesk`: ask the store, name the players, render, answer.
This module is also an extension (``setup``): it registers the persistent page buttons and
turns on the store's ratings (which first rates any finished game not rated yet).

Page buttons are ``DynamicItem``s whose custom id carries everything needed to redraw the page
after a restart (well under Discord's 100 characters)::

    crib:b:{owner}:{scope}{sort}{pool}:{page}:{direction}
        owner      the user whose own row is shown (who asked)
        scope      s: this server, g: everywhere
        sort       r: rating, w: wins, p: win rate, s: skunks
        pool       h: games among people, c: games with a computer, a: every game
        page       the page to show, from 0
        direction  p / n: the previous / next button (two buttons never share an id)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord

from bot.ratings import RATER
from bot.render.standings import (
    history_embed,
    history_players,
    leaderboard_embed,
    stats_embed,
)
from bot.render.text import escape
from cogs.utils.buttons import view_of
from cogs.utils.items import CribItem
from cogs.utils.names import COMPUTER_NAMES, NameBook
from cogs.utils.replies import in_time

if TYPE_CHECKING:
    from bot.app.client import CribbageBot
    from cogs.cribbage import Cribbage
    from db.leaderboard import Standings

log = logging.getLogger(__name__)
T = TypeVar("T")
K = TypeVar("K", bound=str)

Scope = Literal["server", "global"]
SortChoice = Literal["rating", "wins", "win rate", "skunks"]
Against = Literal["people", "computers", "anyone"]
Pool = Literal["people", "computers", "all"]  # the store's name of each

HISTORY_GAMES = 10
NO_PINGS = discord.AllowedMentions.none()

SCOPE_CODES: dict[Scope, str] = {"server": "s", "global": "g"}
SORT_CODES: dict[SortChoice, str] = {"rating": "r", "wins": "w", "win rate": "p", "skunks": "s"}
POOL_CODES: dict[Against, str] = {"people": "h", "computers": "c", "anyone": "a"}
POOLS: dict[Against, Pool] = {"people": "people", "computers": "computers", "anyone": "all"}


def _decode(codes: Mapping[K, str], code: str) -> K:
    return next(name for name, c in codes.items() if c == code)


class LeaderboardPageButton(
    CribItem[discord.ui.Button],
    template=r"crib:b:(?P<owner>[0-9]{1,20}):(?P<scope>[sg])(?P<sort>[rwps])(?P<pool>[hca])"
    r":(?P<page>[0-9]{1,6}):(?P<direction>[pn])",
):
    """◀ / ▶ on a leaderboard: redraws the message at another page."""

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
    ) -> None:
        code = SCOPE_CODES[scope] + SORT_CODES[sort] + POOL_CODES[against]
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if direction == "p" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"crib:b:{owner}:{code}:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.owner, self.scope, self.sort, self.against = owner, scope, sort, against
        self.page, self.direction = page, direction

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        return cls(
            int(match["owner"]),
            _decode(SCOPE_CODES, match["scope"]),
            _decode(SORT_CODES, match["sort"]),
            _decode(POOL_CODES, match["pool"]),
            int(match["page"]),
            match["direction"],
        )

    async def run(self, cog: Cribbage, interaction: discord.Interaction) -> None:
        await cog.standings.leaderboard(
            interaction,
            scope=self.scope,
            sort=self.sort,
            against=self.against,
            page=self.page,
            owner=self.owner,
            edit=True,
        )


def page_buttons(
    owner: int, scope: Scope, sort: SortChoice, against: Against, page: int, pages: int
) -> discord.ui.View | None:
    """◀ / ▶ for a leaderboard of ``pages`` pages (None when one page holds everyone)."""
    if pages <= 1:
        return None
    return view_of(
        LeaderboardPageButton(
            owner, scope, sort, against, max(0, page - 1), "p", disabled=page <= 0
        ),
        LeaderboardPageButton(
            owner, scope, sort, against, min(pages - 1, page + 1), "n", disabled=page >= pages - 1
        ),
    )


class StandingsDesk:
    """Answers the standings commands and page clicks (the cog's commands call it), from the
    store's standings handed over at set-up."""

    def __init__(self, standings: Standings, names: NameBook) -> None:
        self.standings = standings
        self.names = names

    # ------------------------------------------------------------------ commands

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
    ) -> None:
        """Send (or, for a page click, redraw) a leaderboard page with the owner's row."""
        self.names.learn(interaction.user)
        owner = interaction.user.id if owner is None else owner
        scope_id, where = self._scope(interaction, scope)

        async def prepare() -> dict[str, Any]:
            pool = POOLS[against]
            board = await self.standings.leaderboard(
                pool=pool, scope=scope_id, sort=sort, page=page, player=owner
            )
            if not board.rows and board.total:  # a page that no longer exists: the last one
                board = await self.standings.leaderboard(
                    pool=pool, scope=scope_id, sort=sort, page=board.pages - 1, player=owner
                )
            players = [r.player for r in board.rows] + ([board.me.player] if board.me else [])
            names = await self._names(players, interaction.guild_id, mention=scope_id != 0)
            provisional = self.standings.provisional_games
            embed = leaderboard_embed(
                board, names, where=where, provisional_games=provisional, owner=owner
            )
            view = page_buttons(owner, scope, sort, against, board.page, board.pages)
            return {"embed": embed, "view": view}

        payload = await self._within(interaction, prepare())
        await self._answer(interaction, edit=edit, **payload)

    async def stats(
        self, interaction: discord.Interaction, user: discord.abc.User, *, scope: Scope = "global"
    ) -> None:
        """A player's record, rating, averages, best hand, streak and favourite opponent."""
        self.names.learn(user)
        scope_id, where = self._scope(interaction, scope)

        async def prepare() -> discord.Embed:
            stats = await self.standings.player_stats(user.id, scope=scope_id)
            rivals = [stats.rival] if stats.rival is not None else []
            names = await self._names(rivals, interaction.guild_id, mention=scope_id != 0)
            return stats_embed(
                stats,
                escape(user.display_name),
                names,
                where=where,
                provisional_games=self.standings.provisional_games,
            )

        embed = await self._within(interaction, prepare())
        await self._answer(interaction, embed=embed)

    async def history(
        self, interaction: discord.Interaction, user: discord.abc.User, *, scope: Scope = "global"
    ) -> None:
        """A player's last games: result, scores, opponents, rating change."""
        self.names.learn(user)
        scope_id, where = self._scope(interaction, scope)

        async def prepare() -> discord.Embed:
            entries = await self.standings.player_history(
                user.id, scope=scope_id, limit=HISTORY_GAMES
            )
            players = history_players(entries, self.standings.computer_players)
            names = await self._names(players, interaction.guild_id, mention=scope_id != 0)
            return history_embed(
                entries,
                escape(user.display_name),
                names,
                where=where,
                computer_players=self.standings.computer_players,
            )

        embed = await self._within(interaction, prepare())
        await self._answer(interaction, embed=embed)

    # ------------------------------------------------------------------ helpers

    def _scope(self, interaction: discord.Interaction, scope: Scope) -> tuple[int, str]:
        """(the store's scope, the words for it): a server's id, or 0 for everywhere."""
        if scope == "server" and interaction.guild_id is not None:
            guild = interaction.guild
            return interaction.guild_id, escape(guild.name) if guild else "this server"
        return self.standings.everywhere, "everywhere"

    async def _names(
        self, players: Iterable[int], guild_id: int | None, *, mention: bool
    ) -> dict[int, str]:
        """Markdown names: computers by level; people as mentions (one server's board, where
        the client knows them) or display names looked up once and remembered."""
        names: dict[int, str] = {}
        for player in dict.fromkeys(players):
            level = self.standings.computer_levels.get(player)
            if level is not None:
                names[player] = COMPUTER_NAMES[level]
            elif mention:
                names[player] = f"<@{player}>"
            else:
                names[player] = escape(await self.names.name(player))
        return names

    @staticmethod
    async def _within(interaction: discord.Interaction, work: Awaitable[T]) -> T:
        """Run ``work`` (the store, names to fetch); defer the interaction if it would answer
        late (:func:`~cogs.utils.replies.in_time`)."""
        return await in_time(interaction, work)

    @staticmethod
    async def _answer(
        interaction: discord.Interaction, *, edit: bool = False, **payload: Any
    ) -> None:
        payload["allowed_mentions"] = NO_PINGS
        if edit:
            payload.setdefault("view", None)
            if interaction.response.is_done():
                await interaction.edit_original_response(**payload)
            else:
                await interaction.response.edit_message(**payload)
            return
        if payload.get("view") is None:
            payload.pop("view", None)
        if interaction.response.is_done():
            await interaction.followup.send(**payload)
        else:
            await interaction.response.send_message(**payload)


async def setup(bot: CribbageBot) -> None:
    """The extension: persistent page buttons, and ratings on (catching up first)."""
    bot.add_dynamic_items(LeaderboardPageButton)
    caught_up = await bot.store.standings.enable_ratings(RATER)
    if caught_up:
        log.info("Rated %d finished games that had not been rated yet", caught_up)
