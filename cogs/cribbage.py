"""The ``/cribbage`` commands and every button click: read, ask the manager, render, respond.

No rule and no SQL here: the session manager decides, the renderers format, the table
publishes. Every interaction is answered within Discord's 3 seconds (slow moves defer first).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine import Card, Cut, Discard, Play, Variant
from bot.render.embeds import help_embed, rules_embed
from bot.sessions import LEVELS, STALE_MESSAGE, GameStatus, GameView, Outcome, Refusal
from cogs.standings import Against, Scope, SortChoice, desk
from cogs.utils.buttons import ALL_BUTTONS
from cogs.utils.hand import hand_message, selected_cards, shown_picture
from cogs.utils.muggins import MUGGINS_ITEMS, MugginsKeeper
from cogs.utils.names import NameBook
from cogs.utils.pictures import start_painters, stop_painters
from cogs.utils.rematch import REMATCH_BUTTONS, Rematches
from cogs.utils.replies import DEFER_AFTER, age, in_time, redraw, say
from cogs.utils.settings import settings_command
from cogs.utils.table import Table
from cogs.utils.timers import TurnKeeper
from cogs.utils.watch import Watch

log = logging.getLogger(__name__)

SWEEP_EVERY_MINUTES = 5


class Cribbage(commands.GroupCog, group_name="cribbage", group_description="Play cribbage"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.manager = bot.manager  # type: ignore[attr-defined]
        self.names = NameBook(bot)
        self.table = Table(bot, self.manager, self.names)
        self.rematches = Rematches(self)  # the Rematch button and its answers: cogs/rematch.py
        self.watcher = Watch(bot, self.manager, self.names)  # /cribbage watch: cogs/watch.py
        self.table.followers.append(self.watcher.follow)
        self.turns = TurnKeeper(self)  # turn timers: cogs/timers.py
        self.muggins = MugginsKeeper(self)  # claims, muggins calls, their windows: cogs/muggins.py
        super().__init__()
        self.app_command.add_command(settings_command(self))  # /cribbage settings: cogs/settings.py

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ALL_BUTTONS, *REMATCH_BUTTONS, *MUGGINS_ITEMS)
        self.sweep.start()
        self.turns.start()
        self.muggins.start()
        await start_painters()
        resumed = getattr(self.bot, "resume_report", None)
        if resumed is not None and resumed.outcomes:
            self._resumed = asyncio.ensure_future(self._publish_resumed(resumed.outcomes))

    async def _publish_resumed(self, outcomes) -> None:
        """Show the computer moves made while resuming, once connected."""
        await self.bot.wait_until_ready()
        for outcome in outcomes:
            await self.table.publish(outcome)

    async def cog_unload(self) -> None:
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
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        parts = custom_id.split(":")
        if parts[0] != "crib" or len(parts) < 3 or interaction.message is None:
            return
        if _shows(interaction.message.components, custom_id):
            return  # the button is there: its DynamicItem handles the click
        self.names.learn(interaction.user)
        if parts[1] in "psdcin" and parts[2].isdigit():
            await self._update_hand(interaction, int(parts[2]), note=f"⚠️ {STALE_MESSAGE}")
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
        if target is None:
            target = (await self.manager.server_settings(interaction.guild_id)).target
        if muggins is None:
            muggins = bool(
                getattr(await self.manager.server_settings(interaction.guild_id), "muggins", False)
            )
        try:
            variant = Variant(players, partnerships, target, muggins)
        except ValueError as err:
            await say(interaction, f"{err}.")
            return
        lobby = await self.manager.create_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            variant=variant,
            best_of=match,
        )
        if isinstance(lobby, Refusal):
            await say(interaction, lobby.message)
            return
        level = computer if computer != "none" else "standard"
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
        view = self.manager.game_in_channel(interaction.channel_id)
        if view is None or view.status is not GameStatus.ACTIVE:
            await say(interaction, "There's no cribbage game being played in this channel.")
            return
        await interaction.response.send_message("Here's the table:", ephemeral=True)
        await self.table.move_table(view)

    @app_commands.command(name="watch", description="A live view of this channel's game, no hands")
    async def watch(self, interaction: discord.Interaction) -> None:
        await self.watcher.open(interaction)

    @app_commands.command(name="rules", description="The short rules and the scoring chart")
    async def rules(self, interaction: discord.Interaction) -> None:
        view = self.manager.game_in_channel(interaction.channel_id)
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

    def _my_game(self, interaction: discord.Interaction) -> GameView | None:
        view = self.manager.game_in_channel(interaction.channel_id)
        if view is None or view.seat_of(interaction.user.id) is None:
            return None
        return view

    # ------------------------------------------------------------------ the lobby

    async def on_lobby_button(
        self, interaction: discord.Interaction, game_id: int, verb: str
    ) -> None:
        user = interaction.user.id
        level = "standard"
        if verb.startswith("cpu_"):
            verb, level = "cpu", verb[4:] if verb[4:] in LEVELS else "standard"
        if verb == "join":
            result = await self.manager.join(game_id, user)
        elif verb == "leave":
            result = await self.manager.leave(game_id, user)
        elif verb == "cpu":
            result = await self.manager.add_computer(game_id, user, level)
        elif verb == "cancel":
            result = await self.manager.cancel(game_id, user)
        else:
            result = await self.manager.start(game_id, user)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        view = result.view if isinstance(result, Outcome) else result
        payload = await self.table.lobby_payload(view, level)
        await interaction.response.edit_message(**payload)
        if isinstance(result, Outcome):
            await self.table.publish(result, actor=user)

    # ------------------------------------------------------------------ the hand

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        if isinstance(private, Refusal):
            await say(interaction, private.message)
            return
        if age(interaction) > DEFER_AFTER:  # a busy moment: keep the 3-second promise first
            await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self._hand(game_id, private)
        fields = {"view": message.view, "files": await message.files(), "ephemeral": True}
        if interaction.response.is_done():
            await interaction.followup.send(message.content, **fields)
        else:
            await interaction.response.send_message(message.content, **fields)
        self.table.remember_hand(game_id, interaction.user.id, interaction, message.filename)

    async def _hand(self, game_id: int, private, *, mask: int = 0, note: str = ""):
        view = self.manager.view(game_id)
        names = await self.names.seat_names(view)
        images = await self.table.images_enabled(view.guild_id)
        return hand_message(view, private, names, mask=mask, note=note, images=images)

    async def _update_hand(
        self, interaction: discord.Interaction, game_id: int, *, mask: int = 0, note: str = ""
    ) -> None:
        """Redraw the clicked hand message in place (the answer to a click on it)."""
        private = self.manager.private_view(game_id, interaction.user.id)
        if isinstance(private, Refusal):
            if self.manager.view(game_id) is None:  # the game has ended
                private = Refusal(private.reason, "The game is over: the result is in the channel.")
            text = f"{note}\n{private.message}".strip()
            await redraw(interaction, content=text, view=None, attachments=[])
            return
        if not interaction.response.is_done() and age(interaction) > DEFER_AFTER:
            await interaction.response.defer()
        message = await self._hand(game_id, private, mask=mask, note=note)
        await redraw(interaction, **await message.edit(shown_picture(interaction.message)))
        self.table.remember_hand(game_id, interaction.user.id, interaction, message.filename)

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        if not isinstance(private, Refusal) and private.step != step:
            await self._update_hand(interaction, game_id, note="Your hand has changed.")
            return
        await self._update_hand(interaction, game_id, mask=mask)

    async def on_discard(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.manager.private_view(game_id, interaction.user.id)
        if isinstance(private, Refusal):
            await self._update_hand(interaction, game_id)
            return
        await self._act(interaction, game_id, Discard(selected_cards(private, mask)), step)

    async def on_play(
        self, interaction: discord.Interaction, game_id: int, step: int, card: Card
    ) -> None:
        await self._act(interaction, game_id, Play(card), step)

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
            await self._update_hand(interaction, game_id, note="It's not your cut.")
            return
        third = max(1, len(depths) // 3)
        zone = {"t": depths[:third], "m": depths[third:-third] or depths, "b": depths[-third:]}
        depth = secrets.choice(zone[where])
        await self._act(interaction, game_id, Cut(depth), step)

    async def on_hint(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        from bot.ai.coach import hint

        await interaction.response.defer()
        advice = await self.manager.consult(game_id, interaction.user.id, hint)
        note = advice.message if isinstance(advice, Refusal) else f"💡 {advice}"
        await self._update_hand(interaction, game_id, note=note)

    async def _act(self, interaction: discord.Interaction, game_id: int, action, step: int) -> None:
        """Apply a move; answer by redrawing the hand; then tell the table."""
        user = interaction.user.id
        outcome = await in_time(interaction, self.manager.act(game_id, user, action, step=step))
        if isinstance(outcome, Refusal):
            await self._update_hand(interaction, game_id, note=f"⚠️ {outcome.message}")
            return
        await self._update_hand(interaction, game_id)
        await self.table.publish(outcome, actor=user)

    # ------------------------------------------------------------------ after the game

    async def on_rematch(
        self, interaction: discord.Interaction, game_id: int, verb: str = "ask"
    ) -> None:
        """Rematch (``ask``) on a result, Accept (``yes``) / Decline (``no``) on a rematch."""
        await self.rematches.handle(interaction, game_id, verb)

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
        await desk(self).leaderboard(interaction, scope=scope, sort=sort, against=against)

    @app_commands.command(name="stats", description="A player's record, averages and best hand")
    @app_commands.describe(user="Whose stats (you, if left out)", scope="Everywhere, or here")
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
    ) -> None:
        await desk(self).stats(interaction, user or interaction.user, scope=scope)

    @app_commands.command(name="history", description="A player's last games")
    @app_commands.describe(user="Whose games (you, if left out)", scope="Everywhere, or here")
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        scope: Scope = "global",
    ) -> None:
        await desk(self).history(interaction, user or interaction.user, scope=scope)


def _shows(components, custom_id: str) -> bool:
    """Whether a message's components (rows of buttons and menus) include ``custom_id``."""
    return any(
        getattr(c, "custom_id", None) == custom_id or _shows(getattr(c, "children", ()), custom_id)
        for c in components
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Cribbage(bot))
