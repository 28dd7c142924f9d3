"""The ``/cribbage`` commands and every button click: read, ask the manager, render, respond.

No rule and no SQL here: the session manager decides, the renderers format, the table
publishes. Every interaction is answered within Discord's 3 seconds, whatever the database does:
work that may wait on it runs through :func:`~cogs.utils.replies.in_time`, which defers first.
Every command is checked before it runs (a server channel, options within their choices:
:mod:`cogs.utils.checks`), and every request on a game says where it was made (``where=
place_of(interaction)``), so the manager's guard refuses a game of another channel or server.

The cog builds the parts of :mod:`cogs.cribbage`, handing each what it uses, and at load
registers on the bot who answers each family of buttons and menus
(:class:`~cogs.utils.items.Answerers`): an item rebuilt from its custom id finds its handler
there, and no module of the package imports this one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Variant
from bot.render.embeds import help_embed, rules_embed
from bot.render.story import scores_words
from bot.sessions import (
    LEVELS,
    STALE_MESSAGE,
    AddComputer,
    Cancel,
    Forfeit,
    GameStatus,
    GameView,
    Join,
    Leave,
    Level,
    OpenLobby,
    Outcome,
    Place,
    Refusal,
    Start,
)
from cogs.cribbage.buttons import HAND_CLICK, LOBBY, PUBLIC_BUTTONS, REMATCHES, TABLE
from cogs.cribbage.hand_clicks import HAND_ITEMS, HANDS, REFRESHED, HandClicks
from cogs.cribbage.lobby import LOBBY_ITEMS, lobby_payload
from cogs.cribbage.muggins import MUGGINS, MUGGINS_ITEMS, MugginsKeeper
from cogs.cribbage.preferences import preference_commands
from cogs.cribbage.rematch import REMATCH_BUTTONS, Rematches
from cogs.cribbage.replay_buttons import REPLAY_ITEMS, REPLAYS
from cogs.cribbage.replays import Replays, replay_command
from cogs.cribbage.settings import settings_command
from cogs.cribbage.table import Table
from cogs.cribbage.threads import GameThreads, players_text, side_names
from cogs.cribbage.timers import TurnKeeper, deal_round
from cogs.cribbage.watch import Watch
from cogs.standings import SCOPE_OPTION, SEASON_OPTION, Against, Scope, SortChoice, StandingsDesk
from cogs.standings.buttons import STANDINGS, STANDINGS_ITEMS
from cogs.utils.checks import check_command
from cogs.utils.items import WITNESS, answerers_of, custom_id_of, handled
from cogs.utils.names import NameBook, markdown_name
from cogs.utils.payloads import to_discord
from cogs.utils.pictures import start_painters, stop_painters
from cogs.utils.replies import (
    answer_command_error,
    channel_of,
    defer_if_late,
    in_time,
    place_of,
    redraw,
    say,
)
from cogs.utils.ticker import Ticker

if TYPE_CHECKING:
    from bot.app.client import CribbageBot

log = logging.getLogger(__name__)

SWEEP_EVERY = 5 * 60.0  # seconds between two idle sweeps
COMPUTER_VERBS: dict[str, Level] = {f"cpu_{level}": level for level in LEVELS}
# every button and menu of the bot (dynamic items, registered at load)
ITEMS = (
    *PUBLIC_BUTTONS,
    *HAND_ITEMS,
    *REMATCH_BUTTONS,
    *MUGGINS_ITEMS,
    *STANDINGS_ITEMS,
    *LOBBY_ITEMS,
    *REPLAY_ITEMS,
)
NO_GAME_HERE = "You have no cribbage game in this channel."
NO_PLAY_HERE = "There's no cribbage game being played in this channel."
# the roles this cog answers (registered at load, forgotten at unload)
ROLES = (WITNESS, LOBBY, TABLE, HANDS, REMATCHES, MUGGINS, REPLAYS, STANDINGS)


@app_commands.guild_only()  # the whole group: Discord ignores guild_only on a subcommand
class Cribbage(commands.GroupCog, group_name="cribbage", group_description="Play cribbage"):
    def __init__(self, bot: CribbageBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.names = NameBook(bot)
        manager, names = self.manager, self.names
        self.table = Table(bot, manager, names)  # what the channel shows: table.py
        self.rematches = Rematches(manager, names, self.table)  # the Rematch button: rematch.py
        self.watcher = Watch(bot, manager, names)  # /cribbage watch: watch.py
        self.table.followers.append(self.watcher.follow)
        self.threads = GameThreads(manager, self.table)  # a thread per game: threads.py
        self.table.followers.append(self.threads.follow)
        self.hands = HandClicks(manager, names, self.table)  # clicks on a hand: hand_clicks.py
        self.turns = TurnKeeper(bot, manager, self.table)  # turn timers: timers.py
        self.deals = deal_round(bot, manager, self.table)  # the pause between deals: timers.py
        # claims, muggins calls, their windows: muggins.py
        self.muggins = MugginsKeeper(bot, manager, self.table, self.hands)
        self.standings = StandingsDesk(bot.store.standings, names, bot.store.seasons)
        self.replays = Replays(manager, names, bot.store.standings)  # replays.py
        self.idle = Ticker(  # the idle sweep, every SWEEP_EVERY seconds
            bot, self.sweep, seconds=SWEEP_EVERY, failure="The idle sweep failed", logger=log
        )
        self._resumed: asyncio.Future[None] | None = None
        super().__init__()
        group = self.app_command
        assert group is not None  # a GroupCog is its /cribbage group
        group.add_command(settings_command(manager, names))  # /cribbage settings: settings.py
        group.add_command(replay_command(self.replays, names))  # /cribbage replay: replays.py
        for command in preference_commands(manager, names):  # notify, autoplay: preferences.py
            group.add_command(command)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*PUBLIC_BUTTONS, *REMATCH_BUTTONS, *MUGGINS_ITEMS, *LOBBY_ITEMS)
        self.bot.add_dynamic_items(*HAND_ITEMS)  # a hand's items, with their answers
        self.bot.add_dynamic_items(*REPLAY_ITEMS)  # replays and reviews: replay_buttons.py
        # who answers each family of items (rebuilt by discord.py from their custom ids alone)
        answerers = answerers_of(self.bot)
        answerers.register(WITNESS, self)
        answerers.register(LOBBY, self)
        answerers.register(TABLE, self.hands)  # the table's Your hand, Cut, Next deal
        answerers.register(HANDS, self.hands)  # a hand's own items
        answerers.register(REMATCHES, self.rematches)
        answerers.register(MUGGINS, self.muggins)
        answerers.register(REPLAYS, self.replays)
        answerers.register(STANDINGS, self.standings)
        self._tree_error = self.bot.tree.on_error
        self.bot.tree.error(answer_command_error)  # every slash command of the bot is ours
        self.idle.start()
        self.turns.start()
        self.deals.start()
        self.muggins.start()
        await start_painters()
        resumed = self.bot.resume_report.outcomes
        if resumed:
            self._resumed = asyncio.ensure_future(self._publish_resumed(resumed))

    async def _publish_resumed(self, outcomes: Iterable[Outcome]) -> None:
        """Show the computer moves made while resuming, once connected."""
        await self.bot.wait_until_ready()
        for outcome in outcomes:
            await self.table.publish(outcome)

    async def cog_unload(self) -> None:
        answerers = answerers_of(self.bot)
        for role in ROLES:
            answerers.forget(role)
        self.bot.tree.error(self._tree_error)
        self.idle.stop()
        self.turns.stop()
        self.deals.stop()
        self.muggins.stop()
        stop_painters()
        self.manager.shutdown()  # the review worker process (bot/sessions/analysis.py)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Before every command of the group (``/cribbage settings`` checks the same): a server
        channel, and only options the command allows (:mod:`cogs.utils.checks`)."""
        self.names.learn(interaction.user)
        return check_command(interaction)

    def saw_click(self, interaction: discord.Interaction) -> None:
        """Before any item's handler (this cog is the items' :data:`~cogs.utils.items.WITNESS`):
        the clicker's name is learnt."""
        self.names.learn(interaction.user)

    def answered_click(self, interaction: discord.Interaction) -> None:
        """After a handler answered: a click on the table lends its token to edit it."""
        self.table.courier.clicked(interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks on buttons no longer on their message (a double click, an old render).

        discord.py drops those silently, which would leave the user with "This interaction
        failed"; here they get the out-of-date explanation (and, on a hand, fresh buttons).
        """
        if interaction.type is not discord.InteractionType.component or handled(interaction):
            return  # not a click, or one of our buttons took it (discord.py runs it first)
        custom_id, message = custom_id_of(interaction), interaction.message
        if message is not None and _shows(message.components, custom_id) and _ours(custom_id):
            return  # the button is there: its DynamicItem handles the click
        self.names.learn(interaction.user)  # any other id (stale, or forged) gets an answer
        hand = HAND_CLICK.match(custom_id)
        if hand and message is not None and message.flags.ephemeral:  # a hand is private
            await self.hands.update_hand(interaction, int(hand["game"]), note=REFRESHED)
        else:
            await say(interaction, STALE_MESSAGE)

    # ------------------------------------------------------------------ slash commands

    @app_commands.command(name="start", description="Open a cribbage table in this channel")
    @app_commands.describe(
        players="How many players (2 to 4)",
        partnerships="Four players in two teams (partners sit opposite)",
        target="Play to 121 (standard) or 61 (a short game); default: the server's setting",
        computer="Fill the other seats with computer players of this level",
        muggins="Players count their own hands; opponents may take missed points",
        match="A single game, or a match: best of 3 or 5 games (a skunk counts two)",
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4] = 2,
        partnerships: bool = False,
        target: Literal[121, 61] | None = None,
        computer: Literal["none", "easy", "standard", "expert"] = "none",
        muggins: bool | None = None,
        match: Literal[1, 3, 5] = 1,
    ) -> None:
        # every option was checked against its choices (interaction_check): here, the rules
        try:
            Variant(players, partnerships, target or 121, bool(muggins))
        except ValueError as err:
            await say(interaction, f"{err}. Nothing was created.")
            return
        level: Level = "standard" if computer == "none" else computer
        # slow (the database busy): deferred privately, so that a refusal or an error stays
        # private; the lobby then goes to the channel as a message of its own
        work = self._open_lobby(interaction, players, partnerships, target, muggins, match)
        lobby = await in_time(interaction, work, ephemeral=True, thinking=True)
        if isinstance(lobby, Refusal):
            await say(interaction, lobby.message)
            return
        if computer != "none":
            here = place_of(interaction)
            for _ in range(players - 1):
                seat = AddComputer(lobby.game_id, interaction.user.id, level, where=here)
                filled = await self.manager.lobbies.add_computer(seat)
                if isinstance(filled, GameView):
                    lobby = filled
        await defer_if_late(interaction, ephemeral=True, thinking=True)
        payload = await lobby_payload(self.names, lobby)
        message: discord.Message
        if interaction.response.is_done():
            message = await self.table.channel(lobby.channel_id).send(**payload)
            await say(interaction, "Your table is open in the channel.")
        else:
            await interaction.response.send_message(**payload)
            message = await interaction.original_response()
        await self.manager.records.set_message(
            lobby.game_id, "lobby", message.channel.id, message.id
        )
        self.table.hands.note(lobby.game_id, interaction.user.id, interaction)  # the host's

    async def _open_lobby(
        self,
        interaction: discord.Interaction,
        players: int,
        partnerships: bool,
        target: int | None,
        muggins: bool | None,
        match: int,
    ) -> GameView | Refusal:
        """The lobby of ``/cribbage start``, the server's defaults filling what was left out."""
        if target is None or muggins is None:
            settings = await self.manager.settings.server(interaction.guild_id)
            target = settings.target if target is None else target
            muggins = settings.muggins if muggins is None else muggins
        return await self.manager.lobbies.open(
            OpenLobby(
                guild_id=interaction.guild_id,
                channel_id=channel_of(interaction),
                host_id=interaction.user.id,
                variant=Variant(players, partnerships, target, muggins),
                best_of=match,
            )
        )

    @app_commands.command(name="hand", description="Show your cards in this channel's game")
    async def hand(self, interaction: discord.Interaction) -> None:
        view = self._my_game(interaction)
        if view is None:  # from the channel of a game's thread: the hand belongs in the thread
            threads = self._thread_games(interaction, player=True)
            if not threads:
                await say(interaction, NO_GAME_HERE)
                return
            await say(
                interaction,
                f"{_your_games(threads)}: click **Your hand** on its table there (or use "
                "`/cribbage hand` in the thread). A hand opened here could not be played.",
            )
            return
        await self.hands.open_hand(interaction, view.game_id)

    @app_commands.command(name="board", description="Post this channel's game table again")
    async def board(self, interaction: discord.Interaction) -> None:
        view = self._channel_game(interaction)
        elsewhere = None  # the thread of this channel where the user's game is (posted there)
        if view is None or view.status is not GameStatus.ACTIVE:
            mine = self._thread_games(interaction, player=True)
            if not mine:  # none of theirs: where the channel's games are, if any
                others = self._thread_games(interaction, player=False)
                await say(interaction, _where_games_are(others, "board", yours=False))
                return
            if len(mine) > 1:
                await say(interaction, _where_games_are(mine, "board"))
                return
            view, elsewhere = mine[0], mine[0].channel_id
        names = await self.names.seat_names(view)
        answer = board_answer(view, names, thread_id=elsewhere)
        await interaction.response.send_message(answer, ephemeral=True)
        if view.seat_of(interaction.user.id) is not None:
            self.table.hands.note(view.game_id, interaction.user.id, interaction)
        await self.table.move_table(view)

    @app_commands.command(name="watch", description="A live view of this channel's game, no hands")
    async def watch(self, interaction: discord.Interaction) -> None:
        view = self._channel_game(interaction)
        if view is None:  # the channel's games may play in its threads: one is watched here
            threads = self._thread_games(interaction, player=False)
            if len(threads) > 1:
                await say(interaction, _where_games_are(threads, "watch", yours=False))
                return
            view = threads[0] if threads else None
        await self.watcher.open(interaction, view)

    @app_commands.command(name="rules", description="The short rules and the scoring chart")
    async def rules(self, interaction: discord.Interaction) -> None:
        view = self._channel_game(interaction)
        variant = view.variant if view is not None else None
        embed = to_discord(rules_embed(variant))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How to play cribbage here")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=to_discord(help_embed()), ephemeral=True)

    @app_commands.command(name="forfeit", description="Concede your game in this channel")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        view, where = self._my_game(interaction), place_of(interaction)
        done = "You forfeited the game."
        if view is None:  # from the channel of its thread: the user's one game there
            mine = self._thread_games(interaction, player=True)
            if len(mine) != 1:  # none, or several: which one is not for a guess
                await say(interaction, _where_games_are(mine, "forfeit"))
                return
            view = mine[0]
            where = Place(where.guild_id, view.channel_id)  # the game's own place, found here
            done = f"You forfeited the game in <#{view.channel_id}>."
        work = self.manager.play.forfeit(Forfeit(view.game_id, interaction.user.id, where=where))
        outcome = await in_time(interaction, work, ephemeral=True, thinking=True)
        if isinstance(outcome, Refusal):
            await say(interaction, outcome.message)
            return
        await say(interaction, done)
        await self.table.publish(outcome, actor=interaction.user.id)

    def _channel_game(self, interaction: discord.Interaction) -> GameView | None:
        """The lobby or game of the channel an interaction came from."""
        channel_id = interaction.channel_id
        return None if channel_id is None else self.manager.live.in_channel(channel_id)

    def _my_game(self, interaction: discord.Interaction) -> GameView | None:
        """The channel's game, if the user plays in it."""
        view = self._channel_game(interaction)
        if view is None or view.seat_of(interaction.user.id) is None:
            return None
        return view

    def _thread_games(self, interaction: discord.Interaction, *, player: bool) -> list[GameView]:
        """The games being played in threads of the channel an interaction came from (a game
        moves to a thread of its lobby's channel when it starts); ``player``: only the user's."""
        here, user = interaction.channel_id, interaction.user.id
        return [
            view
            for view in self.manager.live.games_in(interaction.guild_id)
            if view.status is GameStatus.ACTIVE
            and view.channel_id != here
            and self._parent_of(view) == here
            and (not player or view.seat_of(user) is not None)
        ]

    def _parent_of(self, view: GameView) -> int | None:
        """The channel the game's thread hangs from (None: not in a thread, or not known)."""
        channel = self.bot.get_channel(view.channel_id)
        if isinstance(channel, discord.Thread):
            return channel.parent_id
        lobby = view.messages.get("lobby")  # a thread started from its lobby shares its id
        if lobby is not None and lobby.message_id == view.channel_id:
            return lobby.channel_id
        return None

    # ------------------------------------------------------------------ the lobby

    async def on_lobby_button(
        self, interaction: discord.Interaction, game_id: int, verb: str
    ) -> None:
        user = interaction.user.id
        level = COMPUTER_VERBS.get(verb)
        here, lobbies = place_of(interaction), self.manager.lobbies
        work: Awaitable[GameView | Outcome | Refusal]
        if level is not None:
            work = lobbies.add_computer(AddComputer(game_id, user, level, where=here))
        elif verb == "join":
            work = lobbies.join(Join(game_id, user, where=here))
        elif verb == "leave":
            work = lobbies.leave(Leave(game_id, user, where=here))
        elif verb == "cancel":
            work = lobbies.cancel(Cancel(game_id, user, where=here))
        else:
            work = lobbies.start(Start(game_id, user, where=here))
        result = await in_time(interaction, work)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        view = result.view if isinstance(result, Outcome) else result
        await defer_if_late(interaction)
        names = await self.names.seat_names(view)
        await redraw(interaction, **await lobby_payload(self.names, view, names=names))
        if view.seat_of(user) is not None:  # a seated person: their hand may come here
            self.table.hands.note(view.game_id, user, interaction)
        if isinstance(result, Outcome):  # the game started: its table goes below (its thread)
            result = await self.threads.open(interaction, result, names)
            await self.table.publish(result, actor=user, names=names, via=interaction)

    # ------------------------------------------------------------------ upkeep

    async def sweep(self) -> None:
        """Warn about idle games, publish the abandoned and the resumed (every ``SWEEP_EVERY``)."""
        self.table.hands.expire()  # open hands whose token ran out, if no click dropped them yet
        report = await self.manager.idle.sweep()
        for warning in report.warnings:  # once a wait (the game truly waits): it may ping
            mentions = " ".join(f"<@{u}>" for u in warning.user_ids)
            loud = [u for u in warning.user_ids if (await self.manager.settings.player(u)).notify]
            await self.table.pings.send(
                warning.channel_id,
                f"{mentions} this cribbage game has been idle for a while; it will be abandoned "
                f"<t:{int(warning.abandon_at)}:R> unless someone plays.",
                loud,
            )
        for outcome in (*report.abandoned, *report.resumed):
            await self.table.publish(outcome)

    # ------------------------------------------------------------ standings: cogs/standings

    @app_commands.command(name="leaderboard", description="The best cribbage players")
    @app_commands.describe(
        scope="This server's players, everyone's, or this server's open season",
        sort="What to rank by",
        against="Games among people, games with a computer, or every game (default: the "
        "server's setting: people only unless computer games count here)",
        season=SEASON_OPTION,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: Scope = "server",
        sort: SortChoice = "rating",
        against: Against | None = None,
        season: str | None = None,
    ) -> None:
        if against is None:
            work = self.manager.settings.server(interaction.guild_id)
            settings = await in_time(interaction, work, ephemeral=True, thinking=True)
            against = "anyone" if settings.computer_games_count else "people"
        await self.standings.leaderboard(
            interaction, scope=scope, sort=sort, against=against, season=season
        )

    @app_commands.command(name="stats", description="A player's record, averages and best hand")
    @app_commands.describe(
        user="Whose stats (you, if left out)", scope=SCOPE_OPTION, season=SEASON_OPTION
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
        season: str | None = None,
    ) -> None:
        who = user or interaction.user
        await self.standings.stats(interaction, who, scope=scope, season=season)

    @app_commands.command(name="history", description="A player's last games")
    @app_commands.describe(
        user="Whose games (you, if left out)", scope=SCOPE_OPTION, season=SEASON_OPTION
    )
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
        season: str | None = None,
    ) -> None:
        who = user or interaction.user
        await self.standings.history(interaction, who, scope=scope, season=season)


def board_answer(view: GameView, names: Sequence[str], *, thread_id: int | None = None) -> str:
    """``/cribbage board``'s answer: whose game, its deal and every side's score, named;
    ``thread_id``: asked from the channel of the game's thread, where the table goes."""
    shown = [markdown_name(name) for name in names]
    labels = [side_names(view, shown, [side]) for side in range(len(view.scores))]
    scores = scores_words(labels, view.scores)
    where = f"deal {view.deal_number}: {scores}" if view.deal_number else scores
    place = "below" if thread_id is None else f"in its thread, <#{thread_id}>"
    return f"The table of {players_text(view, shown)} is posted again {place} ({where})."


def _links(views: Sequence[GameView]) -> str:
    return ", ".join(f"<#{view.channel_id}>" for view in views)


def _your_games(views: Sequence[GameView]) -> str:
    """Where the user's games (in threads of this channel) are, as the start of a sentence."""
    if len(views) == 1:
        return f"Your cribbage game plays in its thread, {_links(views)}"
    return f"Your cribbage games play in their threads, {_links(views)}"


def _where_games_are(views: Sequence[GameView], command: str, *, yours: bool = True) -> str:
    """The answer of a command asked in a channel whose games play in its threads, when it
    cannot tell which one is meant (``views``: the candidates, maybe none; ``yours``: the
    user's games): where they are."""
    if not views:
        return NO_PLAY_HERE if command in ("board", "watch") else NO_GAME_HERE
    if yours:
        lead = _your_games(views)
    else:
        lead = f"The cribbage games of this channel play in its threads, {_links(views)}"
    return f"{lead}: use `/cribbage {command}` in the thread of the one you mean."


def _ours(custom_id: str) -> bool:
    """Whether ``custom_id`` is one a button or menu of the bot answers (its template)."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ITEMS)


def _shows(components: Iterable[object], custom_id: str) -> bool:
    """Whether a message's components (rows of buttons and menus) include ``custom_id``."""
    return any(
        getattr(c, "custom_id", None) == custom_id or _shows(getattr(c, "children", ()), custom_id)
        for c in components
    )


async def setup(bot: CribbageBot) -> None:
    await bot.add_cog(Cribbage(bot))
