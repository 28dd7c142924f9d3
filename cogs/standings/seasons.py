"""``/cribbage season start|end|list``: a server's seasons (:mod:`db.seasons`).

Organisers (:func:`cogs.tournament.access.may_organise`: Manage Server, or the tournament
organisers' role) start and end a season; anyone lists them. Starting and ending are told in
the channel (the end with the season's podium); every refusal is private and changes nothing.
While a season is open, each rated game of the server also counts in the season's own
standings: ``/cribbage leaderboard|stats|history scope:season`` reads the open one,
``season:<name>`` any of them.

The group is added to the Cribbage cog's ``/cribbage`` group when :mod:`cogs.standings` loads
(after :mod:`cogs.cribbage`, whose group it is).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.render.text import escape
from cogs.tournament.access import ORGANISER_ROLE, may_organise
from cogs.utils.checks import check_command
from cogs.utils.replies import in_time, say

if TYPE_CHECKING:
    from bot.app.client import CribbageBot
    from db.leaderboard import Standings
    from db.seasons import Season, Seasons

log = logging.getLogger(__name__)

PARENT = "cribbage"
Carry = Literal["soft", "reset"]
PODIUM = ("🥇", "🥈", "🥉")
LISTED = 25  # seasons /cribbage season list shows, the latest first
NO_PINGS = discord.AllowedMentions.none()

NOT_AN_ORGANISER = (
    "Only organisers start and end seasons: people with the **Manage Server** permission, or "
    f"the **{ORGANISER_ROLE}** role."
)
ALREADY_OPEN = (
    "Season **{name}** is still open in this server: end it with `/cribbage season end` first."
)
NAME_TAKEN = "This server already had a season named **{name}**: pick another name."
BAD_NAME = "A season's name has 1 to {most} characters. Nothing was done."
NOTHING_OPEN = "No season is open in this server. Nothing was done."
NO_SEASONS = "This server has had no season yet. An organiser starts one with "
NO_SEASONS += "`/cribbage season start`."
CARRIES: dict[Carry, str] = {
    "soft": "ratings carried over from the server's, less certain",
    "reset": "everyone starts afresh",
}


def _day(at: float) -> str:
    return f"<t:{int(at)}:d>"


class SeasonCommands(app_commands.Group):
    """The ``season`` group of ``/cribbage``."""

    def __init__(self, seasons: Seasons, standings: Standings) -> None:
        super().__init__(name="season", description="Seasons of this server's standings")
        self.seasons = seasons
        self.standings = standings

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A server channel and options within their choices, as every ``/cribbage``
        command (:mod:`cogs.utils.checks`)."""
        return check_command(interaction)

    @app_commands.command(name="start", description="Start a season of this server's standings")
    @app_commands.describe(
        name="The season's name (e.g. Spring 2027), unique in this server",
        carry="Where each player's season rating starts: their server rating (soft, less "
        "certain) or afresh (reset)",
    )
    async def start(
        self, interaction: discord.Interaction, name: str, carry: Carry = "soft"
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None or not may_organise(interaction.user):
            await say(interaction, NOT_AN_ORGANISER)
            return
        shown = " ".join(name.split())
        if not 1 <= len(shown) <= self.seasons.name_length:
            await say(interaction, BAD_NAME.format(most=self.seasons.name_length))
            return

        async def open_one() -> Season | str:
            current = await self.seasons.current(guild_id)
            if current is not None:
                return ALREADY_OPEN.format(name=escape(current.name))
            if await self.seasons.named(guild_id, shown) is not None:
                return NAME_TAKEN.format(name=escape(shown))
            return await self.seasons.start(
                guild_id, shown, carry=carry, started_by=interaction.user.id, now=time.time()
            )

        season = await in_time(interaction, open_one(), ephemeral=True)
        if isinstance(season, str):
            await say(interaction, season)
            return
        log.info("%s started season %d in server %d", interaction.user.id, season.id, guild_id)
        await _public(
            interaction,
            f"📅 Season **{escape(season.name)}** has started ({CARRIES[season.carry]}). Every "
            "rated game here counts in it: `/cribbage leaderboard scope:season`.",
        )

    @app_commands.command(name="end", description="End this server's open season")
    async def end(self, interaction: discord.Interaction) -> None:
        guild_id = interaction.guild_id
        if guild_id is None or not may_organise(interaction.user):
            await say(interaction, NOT_AN_ORGANISER)
            return

        async def end_it() -> tuple[Season, list[int]] | None:
            season = await self.seasons.end(guild_id, now=time.time())
            if season is None:
                return None
            board = await self.standings.leaderboard(scope=season.scope, page_size=len(PODIUM))
            return season, [row.player for row in board.rows]

        ended = await in_time(interaction, end_it(), ephemeral=True)
        if ended is None:
            await say(interaction, NOTHING_OPEN)
            return
        season, podium = ended
        log.info("%s ended season %d in server %d", interaction.user.id, season.id, guild_id)
        lines = [f"🏁 Season **{escape(season.name)}** is over."]
        lines += [f"{medal} <@{player}>" for medal, player in zip(PODIUM, podium, strict=False)]
        if not podium:
            lines.append("No rated game was played in it.")
        lines.append(f'Its standings stay: `/cribbage leaderboard season:"{season.name}"`.')
        await _public(interaction, "\n".join(lines))

    @app_commands.command(name="list", description="This server's seasons, the latest first")
    async def list_seasons(self, interaction: discord.Interaction) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await say(interaction, NO_SEASONS)
            return
        seasons = await in_time(
            interaction, self.seasons.of_guild(guild_id, limit=LISTED), ephemeral=True
        )
        if not seasons:
            await say(interaction, NO_SEASONS)
            return
        lines = []
        for season in seasons:
            when = (
                f"since {_day(season.started_at)} · **open**"
                if season.ended_at is None
                else f"{_day(season.started_at)} – {_day(season.ended_at)}"
            )
            lines.append(f"**{escape(season.name)}** — {when} · {season.carry}")
        await say(interaction, "\n".join(lines))


async def _public(interaction: discord.Interaction, text: str) -> None:
    """Tell the channel (pinging nobody), whether or not the interaction was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(text, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)


def add_season_commands(bot: CribbageBot) -> None:
    """Add ``/cribbage season …`` to the Cribbage cog's group (once; none without it)."""
    parent = bot.tree.get_command(PARENT)
    if not isinstance(parent, app_commands.Group) or parent.get_command("season") is not None:
        return
    parent.add_command(SeasonCommands(bot.store.seasons, bot.store.standings))
