"""``/cribbage leaderboard``, ``/cribbage stats`` and ``/cribbage history``, their page buttons and
their Share button.

The three commands are thin methods of :class:`cogs.cribbage.Cribbage` (the ``/cribbage``
group) that hand over to :class:`StandingsDesk`: ask the store, name the players, render, answer.
This module is also an extension (``setup``): it registers the persistent buttons and turns on
the store's ratings (which first rates any finished game not rated yet).

Quiet answers: each command answers privately (an ephemeral message, seen only by who asked)
with a **Share** button. Share posts the same embed publicly in the channel, headed "📣 Shared
by @who" (a mention that pings nobody), and marks the private answer "Shared ✓" (disabled). How
Discord allows it (developer docs, *Receiving and Responding*): a click on a component of an
ephemeral message is an interaction like any other, whose ``message`` is that ephemeral message;
the answer ``UPDATE_MESSAGE`` (7) "edits the message the component was attached to" (the
private one), and a followup message (``POST /webhooks/{app}/{token}``) is ephemeral only with
flag 64 (the exception, the first followup of a *deferred* answer, does not apply: the update
is not deferred), so the followup without the flag is the public post. Both are webhooks of the
interaction: no channel permission of the bot's is needed.

A second Share is answered privately ("already shared", with the link when known) and posts
nothing: the click carries the message as it is now, whose Share button is disabled once shared
(so even after a restart), and two clicks racing before the first update are told apart here
(``_shared``, by message id). Leaderboard pages keep working on both copies: ◀ / ▶ redraw the
message they are on (the private copy keeps its Share button, the public one has none).

The buttons (leaderboard pages, Share) and their custom ids are in
:mod:`cogs.standings.buttons`.

Seasons (:mod:`cogs.standings.seasons`, ``/cribbage season start|end|list``, added to the
``/cribbage`` group when this extension loads): each command reads ``scope: season`` as the
server's open season and ``season: <name>`` as any season of the server, open or ended; a
season that cannot be found is a private refusal that changes nothing.

A **user** option that Discord's own client sends always comes with the person's data
(``resolved.users``). A forged one (a bare id with no data, or text) is refused privately
before discord.py reads the options (:func:`unresolved_person`, checked by the tree): a text
value would make discord.py raise while it builds the options, before any handler could
answer, and a bare id names nobody the answer could show.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Iterable
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
from cogs.standings.buttons import (
    STANDINGS_ITEMS,
    Against,
    Scope,
    ShareButton,
    SortChoice,
    page_buttons,
    pages_of,
    share_of,
    shown_view,
)
from cogs.standings.seasons import add_season_commands
from cogs.utils.names import COMPUTER_NAMES, NameBook, markdown_name
from cogs.utils.payloads import to_discord
from cogs.utils.replies import in_time, say, tell

if TYPE_CHECKING:
    from bot.app.client import CribbageBot
    from db.leaderboard import Standings
    from db.seasons import Seasons

log = logging.getLogger(__name__)
T = TypeVar("T")

Pool = Literal["people", "computers", "all"]  # the store's name of each

HISTORY_GAMES = 10
NO_PINGS = discord.AllowedMentions.none()
SHARED_KEPT = 512  # private answers remembered as shared (by message id), newest kept

POOLS: dict[Against, Pool] = {"people": "people", "computers": "computers", "anyone": "all"}

ALREADY_SHARED = "You've already shared this in the channel"
NOT_YOURS = "Only the person who asked can share this."
NOTHING_TO_SHARE = "There's nothing here to share: only a private answer has a Share button."
NOT_A_PERSON = (
    "**{name}** must be a person picked from Discord's list (not `{value}`). Nothing was done."
)
SCOPE_OPTION = "Everywhere, here, or this server's open season"
SEASON_OPTION = "A season of this server, open or past, by name (instead of the scope)"
NO_OPEN_SEASON = (
    "No season is open in this server. An organiser starts one with `/cribbage season start`; "
    "`/cribbage season list` shows the past ones."
)
NO_SUCH_SEASON = "This server has no season named **{name}**. `/cribbage season list` shows them."
SEASON_IN_A_SERVER = "Seasons belong to a server: ask in one of its channels."
PERSON_OPTIONS = (6, 9)  # Discord's option types USER and MENTIONABLE
SUBCOMMANDS = (1, 2)  # SUB_COMMAND and SUB_COMMAND_GROUP: their options are nested


def unresolved_person(data: Any) -> tuple[str, str] | None:
    """(name, value) of a user option in a slash command's ``data`` that names nobody Discord
    resolved: not an id, or an id missing from ``resolved.users`` (``None`` if every one is)."""
    if not isinstance(data, dict):
        return None
    resolved = data.get("resolved")
    people = resolved.get("users") if isinstance(resolved, dict) else None
    known = people if isinstance(people, dict) else {}
    options = data.get("options")
    while isinstance(options, list):
        nested = None
        for option in options:
            if not isinstance(option, dict):
                continue
            if option.get("type") in SUBCOMMANDS:
                nested = option.get("options")
            elif option.get("type") in PERSON_OPTIONS:
                value = option.get("value")
                if not (isinstance(value, str) and value.isascii() and value.isdigit()):
                    return str(option.get("name")), _quoted(value)
                if value not in known and not _resolved_elsewhere(resolved, value, option):
                    return str(option.get("name")), value
        options = nested
    return None


def _resolved_elsewhere(resolved: Any, value: str, option: dict[str, Any]) -> bool:
    """A mentionable option may name a role instead of a person."""
    if option.get("type") != 9 or not isinstance(resolved, dict):
        return False
    roles = resolved.get("roles")
    return isinstance(roles, dict) and value in roles


def _quoted(value: object) -> str:
    """A forged value, safe to quote back: short, one line, no markdown or mention."""
    text = " ".join(str(value).split())
    if len(text) > 40:
        text = text[:39] + "…"
    return discord.utils.escape_mentions(text.replace("`", "'"))


async def refuse_unresolved_person(interaction: discord.Interaction) -> bool:
    """Answer a slash command with a forged user option privately and say it must not run."""
    if interaction.type is not discord.InteractionType.application_command:
        return True
    found = unresolved_person(interaction.data)
    if found is None:
        return True
    name, value = found
    log.info("A command's %s option named nobody Discord resolved; refused", name)
    await tell(interaction, NOT_A_PERSON.format(name=name, value=value))
    return False


class StandingsDesk:
    """Answers the standings commands and their clicks (the cog's commands call it), from the
    store's standings handed over at set-up."""

    def __init__(
        self, standings: Standings, names: NameBook, seasons: Seasons | None = None
    ) -> None:
        self.standings = standings
        self.names = names
        self.seasons = seasons  # the server's seasons (None: a desk without them)
        # private answers shared by this process: message id -> the public copy's link ("" while
        # it is being posted); the message itself says "Shared ✓" once updated
        self._shared: OrderedDict[int, str] = OrderedDict()

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
        season: str | None = None,
        season_id: int | None = None,
    ) -> None:
        """Send privately (or, for a page click, redraw where it is) a leaderboard page with
        the owner's row. ``season``: a season of the server by name; ``season_id``: by id (a
        page button's)."""
        self.names.learn(interaction.user)
        owner = interaction.user.id if owner is None else owner
        place = await self._place(interaction, scope, season, season_id)
        if isinstance(place, str):
            await say(interaction, place)
            return
        scope_id, where, season_id = place
        if season_id is not None:
            scope = "season"
        message = interaction.message if edit else None
        # a private copy keeps its Share button (as it is); a public one has none
        share = share_of(message) if edit else ShareButton("b", owner)

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
            pages = page_buttons(
                owner, scope, sort, against, board.page, board.pages, season_id=season_id
            )
            return {"embed": to_discord(embed), "view": shown_view(*pages, share)}

        payload = await self._within(interaction, prepare())
        await self._answer(interaction, edit=edit, **payload)

    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.abc.User,
        *,
        scope: Scope = "global",
        season: str | None = None,
    ) -> None:
        """A player's record, rating, averages, best hand, streak and favourite opponent."""
        place = await self._player_place(interaction, user, scope, season)
        if place is None:
            return
        scope_id, where = place

        async def prepare() -> discord.Embed:
            stats = await self.standings.player_stats(user.id, scope=scope_id)
            rivals = [stats.rival] if stats.rival is not None else []
            names = await self._names(rivals, interaction.guild_id, mention=scope_id != 0)
            embed = stats_embed(
                stats,
                markdown_name(user.display_name),
                names,
                where=where,
                provisional_games=self.standings.provisional_games,
            )
            return to_discord(embed)

        embed = await self._within(interaction, prepare())
        await self._answer(
            interaction, embed=embed, view=shown_view(ShareButton("s", interaction.user.id))
        )

    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.abc.User,
        *,
        scope: Scope = "global",
        season: str | None = None,
    ) -> None:
        """A player's last games: result, scores, opponents, rating change."""
        place = await self._player_place(interaction, user, scope, season)
        if place is None:
            return
        scope_id, where = place

        async def prepare() -> discord.Embed:
            entries = await self.standings.player_history(
                user.id, scope=scope_id, limit=HISTORY_GAMES
            )
            players = history_players(entries, self.standings.computer_players)
            names = await self._names(players, interaction.guild_id, mention=scope_id != 0)
            embed = history_embed(
                entries,
                markdown_name(user.display_name),
                names,
                where=where,
                computer_players=self.standings.computer_players,
            )
            return to_discord(embed)

        embed = await self._within(interaction, prepare())
        await self._answer(
            interaction, embed=embed, view=shown_view(ShareButton("h", interaction.user.id))
        )

    # ------------------------------------------------------------------ Share

    async def share(self, interaction: discord.Interaction, button: ShareButton) -> None:
        """Post the private answer the button is on in the channel, once: mark the private
        answer shared (UPDATE_MESSAGE), then post the copy (a followup, public)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await say(interaction, NOTHING_TO_SHARE)
            return
        if interaction.user.id != button.owner:
            await say(interaction, NOT_YOURS)
            return
        if button.shared or message.id in self._shared:
            link = self._shared.get(message.id)
            await say(interaction, f"{ALREADY_SHARED}: {link}" if link else f"{ALREADY_SHARED}.")
            return
        self._remember(message.id, "")  # before any await: a racing second click is told
        done = ShareButton(button.kind, button.owner, shared=True)
        try:
            # (the page buttons are copied afresh for each view: an item sits in one view)
            await interaction.response.edit_message(view=shown_view(*pages_of(message), done))
            public = await interaction.followup.send(
                f"📣 Shared by <@{interaction.user.id}>",
                embeds=message.embeds,
                view=shown_view(*pages_of(message)) or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                wait=True,
            )
        except Exception:
            self._shared.pop(message.id, None)
            if interaction.response.is_done():  # the private answer offers Share again
                again = shown_view(*pages_of(message), ShareButton(button.kind, button.owner))
                await _quietly(interaction.edit_original_response(view=again))
            raise
        self._remember(message.id, public.jump_url)
        log.info(
            "%s shared a %s",
            interaction.user.id,
            {"b": "leaderboard", "s": "stats", "h": "history"}[button.kind],
        )

    def _remember(self, message_id: int, link: str) -> None:
        self._shared[message_id] = link
        self._shared.move_to_end(message_id)
        while len(self._shared) > SHARED_KEPT:
            self._shared.popitem(last=False)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    async def _a_person(interaction: discord.Interaction, user: object) -> bool:
        """Whether ``user`` is a person Discord described (not a bare id); if not, say so."""
        if isinstance(user, discord.abc.User):
            return True
        shown = _quoted(getattr(user, "id", user))
        await say(interaction, NOT_A_PERSON.format(name="user", value=shown))
        return False

    async def _player_place(
        self,
        interaction: discord.Interaction,
        user: discord.abc.User,
        scope: Scope,
        season: str | None,
    ) -> tuple[int, str] | None:
        """Where a player's stats or history are read (the scope's id and its words), or None
        when the request is refused (the person was told why)."""
        if not await self._a_person(interaction, user):
            return None
        self.names.learn(user)
        place = await self._place(interaction, scope, season)
        if isinstance(place, str):
            await say(interaction, place)
            return None
        scope_id, where, _ = place
        return scope_id, where

    async def _place(
        self,
        interaction: discord.Interaction,
        scope: Scope,
        season: str | None = None,
        season_id: int | None = None,
    ) -> tuple[int, str, int | None] | str:
        """(the store's scope, the words for it, the season's id if one) of what was asked, or
        why it cannot be shown. A season, by name (``season``), by id (a page button's) or
        ``scope: season`` (the server's open one), is a season of this server."""
        if season is None and season_id is None and scope != "season":
            return (*self._scope(interaction, scope), None)
        guild_id = interaction.guild_id
        if guild_id is None or self.seasons is None:
            return SEASON_IN_A_SERVER
        seasons = self.seasons

        async def find() -> Any:
            if season_id is not None:
                return await seasons.get(season_id)
            if season is not None:
                return await seasons.named(guild_id, season)
            return await seasons.current(guild_id)

        found = await self._within(interaction, find())
        if found is None or found.guild_id != guild_id:
            if season is not None:
                return NO_SUCH_SEASON.format(name=escape(" ".join(season.split())[:50]))
            return NO_OPEN_SEASON
        return found.scope, f"season {escape(found.name)}", found.id

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
        late (:func:`~cogs.utils.replies.in_time`): a command privately ("thinking" seen only by
        who asked, so the answer that fills it is private too), a click as an update."""
        return await in_time(interaction, work, ephemeral=True)

    @staticmethod
    async def _answer(
        interaction: discord.Interaction, *, edit: bool = False, **payload: Any
    ) -> None:
        """A new private answer, or (``edit``) a redraw of the clicked message."""
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
            await interaction.followup.send(ephemeral=True, **payload)
        else:
            await interaction.response.send_message(ephemeral=True, **payload)


async def _quietly(work: Awaitable[Any]) -> None:
    try:
        await work
    except discord.HTTPException:
        log.warning("Could not restore a Share button", exc_info=True)


async def setup(bot: CribbageBot) -> None:
    """The extension: persistent page and Share buttons, and ratings on (catching up first)."""
    bot.add_dynamic_items(*STANDINGS_ITEMS)
    _guard_tree(bot.tree)
    add_season_commands(bot)
    caught_up = await bot.store.standings.enable_ratings(RATER)
    if caught_up:
        log.info("Rated %d finished games that had not been rated yet", caught_up)


def _guard_tree(tree: discord.app_commands.CommandTree[Any]) -> None:
    """Check every slash command for a forged user option before the tree reads its options
    (the tree's own check runs first), keeping whatever check the tree had."""
    earlier = tree.interaction_check
    if getattr(earlier, "refuses_unresolved_people", False):
        return

    async def check(interaction: discord.Interaction) -> bool:
        return await refuse_unresolved_person(interaction) and await earlier(interaction)

    check.refuses_unresolved_people = True  # type: ignore[attr-defined]
    setattr(tree, "interaction_check", check)  # noqa: B010 (an instance's own check)
