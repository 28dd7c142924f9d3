"""The ``/cribbage`` commands and every button click: read, ask the manager, render, respond.

No rule and no SQL here: the session manager decides, the renderers format, the table
publishes. Every interaction is answered within Discord's 3 seconds (slow moves defer first).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine import Action, Card, Cut, Discard, Play, Variant
from bot.render.embeds import help_embed, rules_embed
from bot.sessions import (
    LEVELS,
    STALE_MESSAGE,
    GameStatus,
    GameView,
    Level,
    Outcome,
    PrivateView,
    Refusal,
)
from cogs.standings import Against, Scope, SortChoice, StandingsDesk
from cogs.utils.buttons import ALL_BUTTONS
from cogs.utils.hand import hand_message, selected_cards, shown_picture
from cogs.utils.items import custom_id_of, handled
from cogs.utils.muggins import MUGGINS_ITEMS, MugginsKeeper
from cogs.utils.names import NameBook
from cogs.utils.pictures import start_painters, stop_painters
from cogs.utils.rematch import REMATCH_BUTTONS, Rematches
from cogs.utils.replies import (
    DEFER_AFTER,
    age,
    answer_command_error,
    channel_of,
    in_time,
    redraw,
    say,
)
from cogs.utils.settings import settings_command
from cogs.utils.table import Table
from cogs.utils.timers import TurnKeeper
from cogs.utils.watch import Watch

if TYPE_CHECKING:
    from bot.app.client import CribbageBot

log = logging.getLogger(__name__)

SWEEP_EVERY_MINUTES = 5
GAME_OVER = "The game is over: the result is in the channel."
COMPUTER_VERBS: dict[str, Level] = {f"cpu_{level}": level for level in LEVELS}
# a click on a hand's button (play, select, discard, cut, hint, claim): its game, for a redraw
HAND_CLICK = re.compile(r"crib:[psdcin]:(?P<game>[0-9]+):")


class Cribbage(commands.GroupCog, group_name="cribbage", group_description="Play cribbage"):
    def __init__(self, bot: CribbageBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.names = NameBook(bot)
        self.table = Table(bot, self.manager, self.names)
        self.rematches = Rematches(self)  # the Rematch button and its answers: utils/rematch.py
        self.watcher = Watch(bot, self.manager, self.names)  # /cribbage watch: utils/watch.py
        self.table.followers.append(self.watcher.follow)
        self.turns = TurnKeeper(self)  # turn timers: utils/timers.py
        self.muggins = MugginsKeeper(self)  # claims, muggins calls, their windows: utils/muggins.py
        self.standings = StandingsDesk(bot.store.standings, self.names)  # cogs/standings.py
        self._resumed: asyncio.Future[None] | None = None
        super().__init__()
        group = self.app_command
        assert group is not None  # a GroupCog is its /cribbage group
        group.add_command(settings_command(self))  # /cribbage settings: utils/settings.py

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ALL_BUTTONS, *REMATCH_BUTTONS, *MUGGINS_ITEMS)
        self._tree_error = self.bot.tree.on_error
        self.bot.tree.error(answer_command_error)  # every slash command of the bot is ours
        self.sweep.start()
        self.turns.start()
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
        self.bot.tree.error(self._tree_error)
        self.sweep.cancel()
        self.turns.stop()
        self.muggins.stop()
        stop_painters()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        self.names.learn(interaction.user)
        return True

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer clicks on buttons no longer on their message (a double click, an old render).

        discord.py drops those silently, which would leave the user with "This interaction
        failed"; here they get the out-of-date explanation (and, on a hand, fresh buttons).
        """
        if interaction.type is not discord.InteractionType.component or handled(interaction):
            return  # not a click, or one of our buttons took it (discord.py runs it first)
        custom_id = custom_id_of(interaction)
        if not custom_id.startswith("crib:") or interaction.message is None:
            return
        if _shows(interaction.message.components, custom_id):
            return  # the button is there: its DynamicItem handles the click
        self.names.learn(interaction.user)
        if hand := HAND_CLICK.match(custom_id):
            await self._update_hand(interaction, int(hand["game"]), note=f"⚠️ {STALE_MESSAGE}")
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
        if target is None or muggins is None:  # the server's defaults
            settings = await self.manager.server_settings(interaction.guild_id)
            to = settings.target if target is None else target
            muggins = settings.muggins if muggins is None else muggins
        else:
            to = target
        try:
            variant = Variant(players, partnerships, to, muggins)
        except ValueError as err:
            await say(interaction, f"{err}.")
            return
        lobby = await self.manager.create_lobby(
            guild_id=interaction.guild_id,
            channel_id=channel_of(interaction),
            host_id=interaction.user.id,
            variant=variant,
            best_of=match,
        )
        if isinstance(lobby, Refusal):
            await say(interaction, lobby.message)
            return
        level: Level = "standard" if computer == "none" else computer
        if computer != "none":
            for _ in range(players - 1):
                filled = await self.manager.add_computer(lobby.game_id, interaction.user.id, level)
                if isinstance(filled, GameView):
                    lobby = filled
        payload = await self.table.lobby_payload(lobby, level)
        await interaction.response.send_message(**payload)
        message = await interaction.original_response()
        await self.manager.set_message(lobby.game_id, "lobby", message.channel.id, message.id)

    @app_commands.command(name="hand", description="Show your cards in this channel's game")
    async def hand(self, interaction: discord.Interaction) -> None:
        view = self._my_game(interaction)
        if view is None:
            await say(interaction, "You have no cribbage game in this channel.")
            return
        await self.open_hand(interaction, view.game_id)

    @app_commands.command(name="board", description="Post this channel's game table again")
    async def board(self, interaction: discord.Interaction) -> None:
        view = self._channel_game(interaction)
        if view is None or view.status is not GameStatus.ACTIVE:
            await say(interaction, "There's no cribbage game being played in this channel.")
            return
        await interaction.response.send_message("Here's the table:", ephemeral=True)
        await self.table.move_table(view)

    @app_commands.command(name="watch", description="A live view of this channel's game, no hands")
    async def watch(self, interaction: discord.Interaction) -> None:
        await self.watcher.open(interaction, self._channel_game(interaction))

    @app_commands.command(name="rules", description="The short rules and the scoring chart")
    async def rules(self, interaction: discord.Interaction) -> None:
        view = self._channel_game(interaction)
        variant = view.variant if view is not None else None
        await interaction.response.send_message(embed=rules_embed(variant), ephemeral=True)

    @app_commands.command(name="help", description="How to play cribbage here")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)

    @app_commands.command(name="forfeit", description="Concede your game in this channel")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        view = self._my_game(interaction)
        if view is None:
            await say(interaction, "You have no cribbage game in this channel.")
            return
        outcome = await self.manager.forfeit(view.game_id, interaction.user.id)
        if isinstance(outcome, Refusal):
            await say(interaction, outcome.message)
            return
        await interaction.response.send_message("You forfeited the game.", ephemeral=True)
        await self.table.publish(outcome, actor=interaction.user.id)

    def _channel_game(self, interaction: discord.Interaction) -> GameView | None:
        """The lobby or game of the channel an interaction came from."""
        channel_id = interaction.channel_id
        return None if channel_id is None else self.manager.game_in_channel(channel_id)

    def _my_game(self, interaction: discord.Interaction) -> GameView | None:
        """The channel's game, if the user plays in it."""
        view = self._channel_game(interaction)
        if view is None or view.seat_of(interaction.user.id) is None:
            return None
        return view

    # ------------------------------------------------------------------ the lobby

    async def on_lobby_button(
        self, interaction: discord.Interaction, game_id: int, verb: str
    ) -> None:
        user = interaction.user.id
        level = COMPUTER_VERBS.get(verb)
        result: GameView | Outcome | Refusal
        if level is not None:
            result = await self.manager.add_computer(game_id, user, level)
        elif verb == "join":
            result = await self.manager.join(game_id, user)
        elif verb == "leave":
            result = await self.manager.leave(game_id, user)
        elif verb == "cancel":
            result = await self.manager.cancel(game_id, user)
        else:
            result = await self.manager.start(game_id, user)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        view = result.view if isinstance(result, Outcome) else result
        names = await self.names.seat_names(view)
        payload = await self.table.lobby_payload(view, level or "standard", names=names)
        await interaction.response.edit_message(**payload)
        if isinstance(result, Outcome):  # the game started: its table goes below
            await self.table.publish(result, actor=user, names=names)

    # ------------------------------------------------------------------ the hand

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The "Your hand" button: the player's cards, privately, in a new message."""
        private = self.manager.private_view(game_id, interaction.user.id)
        view = self.manager.view(game_id)
        if isinstance(private, Refusal) or view is None:
            await say(interaction, private.message if isinstance(private, Refusal) else GAME_OVER)
            return
        if age(interaction) > DEFER_AFTER:  # a busy moment: keep the 3-second promise first
            await interaction.response.defer(ephemeral=True, thinking=True)
        names = await self.names.seat_names(view)
        images = await self.table.images_enabled(view.guild_id)
        message = hand_message(view, private, names, images=images)
        files = await message.files()
        if interaction.response.is_done():
            await interaction.followup.send(
                message.content, view=message.view, files=files, ephemeral=True
            )
        else:
            await interaction.response.send_message(
                message.content, view=message.view, files=files, ephemeral=True
            )
        self.table.remember_hand(game_id, interaction.user.id, interaction, message.filename)

    async def _update_hand(
        self,
        interaction: discord.Interaction,
        game_id: int,
        *,
        mask: int = 0,
        note: str = "",
        private: PrivateView | Refusal | None = None,
    ) -> None:
        """Redraw the clicked hand message in place, from the game as it is now (``private``:
        the player's view when the caller has it already)."""
        view = self.manager.view(game_id)
        if private is None:
            private = self.manager.private_view(game_id, interaction.user.id)
        if view is None:  # the game has ended
            await self._close_hand(interaction, GAME_OVER, note)
            return
        if isinstance(private, Refusal):
            await self._close_hand(interaction, private.message, note)
            return
        names = await self.names.seat_names(view)
        images = await self.table.images_enabled(view.guild_id)
        await self._redraw_hand(interaction, view, private, names, images, mask=mask, note=note)

    async def _redraw_hand(
        self,
        interaction: discord.Interaction,
        view: GameView,
        private: PrivateView,
        names: Sequence[str],
        images: bool,
        *,
        mask: int = 0,
        note: str = "",
    ) -> None:
        """Redraw the clicked hand message with ``private`` (the answer to a click on it)."""
        if not interaction.response.is_done() and age(interaction) > DEFER_AFTER:
            await interaction.response.defer()
        message = hand_message(view, private, names, mask=mask, note=note, images=images)
        await redraw(interaction, **await message.edit(shown_picture(interaction.message)))
        self.table.remember_hand(view.game_id, interaction.user.id, interaction, message.filename)

    @staticmethod
    async def _close_hand(interaction: discord.Interaction, message: str, note: str = "") -> None:
        """The clicked hand message says why it has no cards to show (and loses its buttons)."""
        await redraw(interaction, content=f"{note}\n{message}".strip(), view=None, attachments=[])

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        if not isinstance(private, Refusal) and private.step != step:
            await self._update_hand(
                interaction, game_id, note="Your hand has changed.", private=private
            )
            return
        await self._update_hand(interaction, game_id, mask=mask, private=private)

    async def on_discard(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        if isinstance(private, Refusal):
            await self._update_hand(interaction, game_id, private=private)
            return
        await self.act(interaction, game_id, Discard(selected_cards(private, mask)), step)

    async def on_play(
        self, interaction: discord.Interaction, game_id: int, step: int, card: Card
    ) -> None:
        await self.act(interaction, game_id, Play(card), step)

    async def on_cut(
        self, interaction: discord.Interaction, game_id: int, step: int, where: str
    ) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        depths = (
            []
            if isinstance(private, Refusal)
            else [a.depth for a in private.legal_actions if isinstance(a, Cut)]
        )
        if not depths:
            await self._update_hand(
                interaction, game_id, note="It's not your cut.", private=private
            )
            return
        third = max(1, len(depths) // 3)
        zone = {"t": depths[:third], "m": depths[third:-third] or depths, "b": depths[-third:]}
        depth = secrets.choice(zone[where])
        await self.act(interaction, game_id, Cut(depth), step)

    async def on_hint(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        await interaction.response.defer()
        advice = await self.manager.advise(game_id, interaction.user.id)
        note = advice.message if isinstance(advice, Refusal) else f"💡 {advice}"
        await self._update_hand(interaction, game_id, note=note)

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, step: int
    ) -> None:
        """Apply a move; answer by redrawing the hand; then tell the table. Everything the
        replies show comes from the outcome: nothing is looked up again."""
        user = interaction.user.id
        outcome = await in_time(interaction, self.manager.act(game_id, user, action, step=step))
        if isinstance(outcome, Refusal):
            await self._update_hand(interaction, game_id, note=f"⚠️ {outcome.message}")
            return
        view, private = outcome.view, outcome.hands.get(user)
        names = await self.names.seat_names(view)
        if not view.status.is_open:
            await self._close_hand(interaction, GAME_OVER)
        elif private is None:  # not in the outcome's hands (never so for a seated player)
            await self._update_hand(interaction, game_id)
        else:
            await self._redraw_hand(interaction, view, private, names, outcome.settings.images)
        await self.table.publish(outcome, actor=user, names=names)

    # ------------------------------------------------------------------ upkeep

    @tasks.loop(minutes=SWEEP_EVERY_MINUTES)
    async def sweep(self) -> None:
        report = await self.manager.sweep_idle()
        for warning in report.warnings:
            mentions = " ".join(f"<@{u}>" for u in warning.user_ids)
            await self.table.channel(warning.channel_id).send(
                f"{mentions} this cribbage game has been idle for a while; it will be abandoned "
                f"<t:{int(warning.abandon_at)}:R> unless someone plays.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        for outcome in (*report.abandoned, *report.resumed):
            await self.table.publish(outcome)

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()

    @sweep.error
    async def sweep_failed(self, error: BaseException) -> None:
        log.error("The idle sweep failed", exc_info=error)

    # ------------------------------------------------------------ standings: cogs/standings.py

    @app_commands.command(name="leaderboard", description="The best cribbage players")
    @app_commands.describe(
        scope="This server's players, or everyone's",
        sort="What to rank by",
        against="Games among people, games with a computer, or every game (default: the "
        "server's setting: people only unless computer games count here)",
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: Scope = "server",
        sort: SortChoice = "rating",
        against: Against | None = None,
    ) -> None:
        if against is None:
            settings = await self.manager.server_settings(interaction.guild_id)
            against = "anyone" if settings.computer_games_count else "people"
        await self.standings.leaderboard(interaction, scope=scope, sort=sort, against=against)

    @app_commands.command(name="stats", description="A player's record, averages and best hand")
    @app_commands.describe(user="Whose stats (you, if left out)", scope="Everywhere, or here")
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
    ) -> None:
        await self.standings.stats(interaction, user or interaction.user, scope=scope)

    @app_commands.command(name="history", description="A player's last games")
    @app_commands.describe(user="Whose games (you, if left out)", scope="Everywhere, or here")
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
    ) -> None:
        await self.standings.history(interaction, user or interaction.user, scope=scope)


def _shows(components: Iterable[object], custom_id: str) -> bool:
    """Whether a message's components (rows of buttons and menus) include ``custom_id``."""
    return any(
        getattr(c, "custom_id", None) == custom_id or _shows(getattr(c, "children", ()), custom_id)
        for c in components
    )


async def setup(bot: CribbageBot) -> None:
    await bot.add_cog(Cribbage(bot))
