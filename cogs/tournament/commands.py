"""``/cribbage tournament …``: the commands, and the sign-up message's Join and Leave clicks.

Each command reads the interaction, asks ``manager.tournaments`` with one request made where
it was used (the tournament's channel, or a thread of one of its pairings), and answers the
person privately; what the channel and the threads show is the :class:`~.announce.Announcer`'s.
A refusal (a bad option, someone not allowed, a tournament in the wrong state) is answered
privately with the session's reason and changes nothing.

The tournament a command acts on is the one of the channel it was used in (one per channel);
``create`` needs an organiser (:func:`~.access.may_organise`), and so do ``start``, ``pause``,
``resume``, ``extend``, ``drop``, ``replace`` and ``cancel`` unless the person created the
tournament.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands

from bot.render.tournament import standings_embed
from bot.render.tournament_bracket import bracket_pictures
from bot.sessions import Refusal
from bot.sessions.requests import (
    CancelTournament,
    CreateTournament,
    DropPlayer,
    ExtendDeadline,
    JoinTournament,
    LeaveTournament,
    PauseTournament,
    ReplacePlayer,
    ResumeTournament,
    StartTournament,
    TournamentRequest,
    WithdrawFromTournament,
)
from bot.sessions.tournament_views import TournamentOutcome, TournamentView
from bot.tournament import Format, standings
from cogs.tournament.access import NOT_AN_ORGANISER, may_organise
from cogs.tournament.announce import THREAD_PERMISSIONS, Announcer
from cogs.tournament.words import dropped_of, results_until, rules_of
from cogs.utils.checks import check_command
from cogs.utils.names import NameBook, markdown_name, plain_name
from cogs.utils.payloads import to_discord
from cogs.utils.replies import channel_of, in_time, place_of, redraw, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager

log = logging.getLogger(__name__)
RequestT = TypeVar("RequestT", bound=TournamentRequest)

FormatChoice = Literal["swiss", "round robin", "single elimination"]
DEFAULT_SWISS_ROUNDS = 3
NO_TOURNAMENT = (
    "There's no tournament in this channel: an organiser opens one with "
    "`/cribbage tournament create`."
)
IN_A_THREAD = (
    "A tournament is run from a text channel (each pairing gets a thread of it): use "
    "`/cribbage tournament create` in one, not in a thread."
)
NO_THREAD_RIGHTS = (
    "I need **Create Public Threads** and **Send Messages in Threads** in this channel to "
    "give each pairing its thread. Nothing was created."
)
ROUNDS_FOR_SWISS = (
    "Only a Swiss takes **rounds**: a round robin's and an elimination's follow from the "
    "field. Nothing was created."
)
NOT_A_PERSON = "Only people play in a tournament, not bots. Nothing changed."


class TournamentCommands(app_commands.Group):
    """The ``tournament`` group, added to ``/cribbage`` by the cog; also the answerer of the
    sign-up buttons (:class:`~.buttons.TournamentAnswers`)."""

    def __init__(self, manager: GameSessionManager, names: NameBook, announcer: Announcer):
        super().__init__(name="tournament", description="Tournaments in this channel")
        self.manager = manager
        self.names = names
        self.announcer = announcer

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A server channel and options within their choices, as every ``/cribbage``
        command (:mod:`cogs.utils.checks`)."""
        self.names.learn(interaction.user)
        return check_command(interaction)

    # ------------------------------------------------------------------ helpers

    def _here(self, interaction: discord.Interaction) -> TournamentView | None:
        return self.manager.tournaments.in_channel(channel_of(interaction))

    async def _ask(
        self,
        interaction: discord.Interaction,
        work: Awaitable[TournamentOutcome | Refusal],
        done: str,
        *,
        about: int | None = None,
    ) -> TournamentOutcome | None:
        """Run a request, answer privately (``done``, or the refusal), then show the news."""
        result = await in_time(interaction, work, ephemeral=True, thinking=True)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return None
        await say(interaction, done)
        await self.announcer.tell(result, about=about)
        return result

    async def _organiser_request(
        self,
        interaction: discord.Interaction,
        make: type[RequestT],
        act: Callable[[RequestT], Awaitable[TournamentOutcome | Refusal]],
        done: str,
    ) -> None:
        """A request of the organiser's with no option: ``start``, ``pause``, ``resume``,
        ``cancel``."""
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        request = make(
            view.tournament_id,
            interaction.user.id,
            where=place_of(interaction),
            organiser_rights=may_organise(interaction.user),
        )
        await self._ask(interaction, act(request), done)

    # ------------------------------------------------------------------ sign-up

    @app_commands.command(name="create", description="Open a tournament here (organisers)")
    @app_commands.describe(
        name="Its name",
        format="Swiss, round robin or single elimination",
        rounds="A Swiss's rounds (default 3)",
        target="Each game to 121 or 61",
        best_of="Games a pairing plays",
        cap="The most players",
        starts_in="Minutes until it starts (default: at /start)",
        deadline_hours="Hours each round has",
        deadline_rule="An unfinished game at the deadline goes by",
        spread_cap="Most spread one game counts",
        bye_spread="Spread of a bye",
        forfeit_spread="Spread of a forfeit",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        format: FormatChoice,
        rounds: app_commands.Range[int, 1, 11] | None = None,
        target: Literal[121, 61] = 121,
        best_of: Literal[1, 3, 5] = 1,
        cap: app_commands.Range[int, 2, 256] = 64,
        starts_in: app_commands.Range[int, 1, 10080] | None = None,
        deadline_hours: app_commands.Range[int, 1, 168] = 24,
        deadline_rule: Literal["forfeit", "score"] = "forfeit",
        spread_cap: app_commands.Range[int, 1, 121] | None = None,
        bye_spread: app_commands.Range[int, 0, 121] = 0,
        forfeit_spread: app_commands.Range[int, 0, 121] = 0,
    ) -> None:
        if not may_organise(interaction.user):
            await say(interaction, NOT_AN_ORGANISER)
            return
        if not isinstance(interaction.channel, discord.TextChannel):
            await say(interaction, IN_A_THREAD)
            return
        if not interaction.app_permissions >= THREAD_PERMISSIONS:
            await say(interaction, NO_THREAD_RIGHTS)
            return
        if format != "swiss" and rounds is not None:
            await say(interaction, ROUNDS_FOR_SWISS)
            return
        now = self.manager.tables.now()
        request = CreateTournament(
            guild_id=interaction.guild_id,
            channel_id=channel_of(interaction),
            organiser_id=interaction.user.id,
            name=plain_name(name),
            format=format,
            rounds=(rounds or DEFAULT_SWISS_ROUNDS) if format == "swiss" else 0,
            target=target,
            best_of=best_of,
            cap=cap,
            starts_at=None if starts_in is None else now + 60 * starts_in,
            deadline_minutes=60 * deadline_hours,
            deadline_rule=deadline_rule,
            spread_cap=spread_cap,
            bye_spread=bye_spread,
            forfeit_spread=forfeit_spread,
        )
        work = self.manager.tournaments.signup.create(request)
        made = await in_time(interaction, work, ephemeral=True, thinking=True)
        if isinstance(made, Refusal):
            await say(interaction, f"{made.message} Nothing was created.")
            return
        view = made.view
        embed, buttons = await self.announcer.signup_payload(view)
        assert buttons is not None
        message: discord.Message
        if interaction.response.is_done():  # deferred (a slow database): posted on its own
            message = await self.announcer.channel(view.channel_id).send(embed=embed, view=buttons)
            await say(interaction, "Your tournament is open for sign-up below.")
        else:
            await interaction.response.send_message(embed=embed, view=buttons)
            message = await interaction.original_response()
        await self.manager.tournaments.signup.set_message(view.tournament_id, message.id)

    @app_commands.command(name="join", description="Enter this channel's tournament")
    async def join_command(self, interaction: discord.Interaction) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        here = place_of(interaction)
        request = JoinTournament(view.tournament_id, interaction.user.id, where=here)
        title = markdown_name(plain_name(view.settings.name))
        await self._ask(
            interaction, self.manager.tournaments.signup.join(request), f"You're in **{title}**."
        )

    @app_commands.command(name="leave", description="Leave this channel's tournament")
    async def leave_command(self, interaction: discord.Interaction) -> None:
        """Before the start, off the list; once it started, a withdrawal."""
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        if view.status == "signup":
            request = LeaveTournament(
                view.tournament_id, interaction.user.id, where=place_of(interaction)
            )
            title = markdown_name(plain_name(view.settings.name))
            work = self.manager.tournaments.signup.leave(request)
            await self._ask(interaction, work, f"You've left **{title}**.")
            return
        await self._withdraw(interaction, view)

    @app_commands.command(name="withdraw", description="Withdraw from this channel's tournament")
    async def withdraw(self, interaction: discord.Interaction) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        await self._withdraw(interaction, view)

    async def _withdraw(self, interaction: discord.Interaction, view: TournamentView) -> None:
        user = interaction.user.id
        request = WithdrawFromTournament(view.tournament_id, user, where=place_of(interaction))
        title = markdown_name(plain_name(view.settings.name))
        done = (
            f"You've left **{title}**."
            if view.status == "signup"
            else f"You've withdrawn from **{title}**: your results so far stay in the standings."
        )
        work = self.manager.tournaments.controls.withdraw(request)
        await self._ask(interaction, work, done, about=user)

    # ------------------------------------------------------------------ the organiser

    @app_commands.command(name="start", description="Close sign-up and pair round 1 (organisers)")
    async def start(self, interaction: discord.Interaction) -> None:
        signup = self.manager.tournaments.signup
        done = "Started: round 1 is posted below."
        await self._organiser_request(interaction, StartTournament, signup.start, done)

    @app_commands.command(name="pause", description="Stop the clock (organisers)")
    async def pause(self, interaction: discord.Interaction) -> None:
        controls = self.manager.tournaments.controls
        await self._organiser_request(interaction, PauseTournament, controls.pause, "Paused.")

    @app_commands.command(name="resume", description="Restart the clock (organisers)")
    async def resume(self, interaction: discord.Interaction) -> None:
        controls = self.manager.tournaments.controls
        await self._organiser_request(interaction, ResumeTournament, controls.resume, "Resumed.")

    @app_commands.command(name="cancel", description="Call the tournament off (organisers)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        controls = self.manager.tournaments.controls
        await self._organiser_request(interaction, CancelTournament, controls.cancel, "Cancelled.")

    @app_commands.command(name="extend", description="Give this round more time (organisers)")
    @app_commands.describe(hours="Hours more")
    async def extend(
        self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 168]
    ) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        request = ExtendDeadline(
            view.tournament_id,
            interaction.user.id,
            where=place_of(interaction),
            organiser_rights=may_organise(interaction.user),
            minutes=60 * hours,
        )
        done = f"Round {view.round} has {hours} more hour{'s' if hours != 1 else ''}."
        await self._ask(interaction, self.manager.tournaments.controls.extend(request), done)

    @app_commands.command(name="drop", description="Take a player out (organisers)")
    @app_commands.describe(player="Who")
    async def drop(self, interaction: discord.Interaction, player: discord.User) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        request = DropPlayer(
            view.tournament_id,
            interaction.user.id,
            where=place_of(interaction),
            organiser_rights=may_organise(interaction.user),
            player=player.id,
        )
        done = f"**{markdown_name(plain_name(player.display_name))}** is out of the tournament."
        work = self.manager.tournaments.controls.drop(request)
        await self._ask(interaction, work, done, about=player.id)

    @app_commands.command(name="replace", description="Someone else plays a place (organisers)")
    @app_commands.describe(player="Who leaves", by="Who plays the place")
    async def replace(
        self, interaction: discord.Interaction, player: discord.User, by: discord.User
    ) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        if by.bot:
            await say(interaction, NOT_A_PERSON)
            return
        self.names.learn(by)
        request = ReplacePlayer(
            view.tournament_id,
            interaction.user.id,
            where=place_of(interaction),
            organiser_rights=may_organise(interaction.user),
            player=player.id,
            by=by.id,
        )
        done = (
            f"**{markdown_name(plain_name(by.display_name))}** plays "
            f"**{markdown_name(plain_name(player.display_name))}**'s place from its next game on."
        )
        work = self.manager.tournaments.controls.replace(request)
        place = next((e.user_id for e in view.entrants if e.plays == player.id), player.id)
        await self._ask(interaction, work, done, about=place)

    # ------------------------------------------------------------------ reading

    @app_commands.command(name="standings", description="This channel's tournament so far")
    @app_commands.describe(page="Which page, for a big field")
    async def standings_command(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 13] = 1
    ) -> None:
        view = self._here(interaction)
        if view is None:
            await say(interaction, NO_TOURNAMENT)
            return
        if view.status == "signup":
            embed, _ = await self.announcer.signup_payload(view)
            await _private(interaction, embed=embed)
            return
        setup, names = await self.announcer.setup(view)
        rules = rules_of(view)
        title = markdown_name(plain_name(view.settings.name))
        if rules.format is Format.SINGLE_ELIMINATION:
            results = [p.result for p in view.pairings if p.result is not None]
            drawing = asyncio.to_thread(
                bracket_pictures, rules, results, names, dropped_of(view), name=setup.name
            )
            pictures = await in_time(interaction, drawing, ephemeral=True, thinking=True)
            files = [
                discord.File(io.BytesIO(p.png), p.file_name, description=p.alt) for p in pictures
            ]
            await _private(interaction, f"🏆 **{title}**: the bracket so far.", files=files)
            return
        done = max(view.round - 1, 0)  # the rounds every pairing of which is decided
        table = standings_embed(
            setup,
            standings(rules, results_until(view, done)),
            names,
            after_round=done,
            total=view.total_rounds,
            dropped=dropped_of(view),
            page=page - 1,
        )
        await _private(interaction, embed=to_discord(table))

    # ------------------------------------------------------------------ the buttons

    async def join(self, interaction: discord.Interaction, tournament: int) -> None:
        """Join on the sign-up message."""
        user = interaction.user.id
        request = JoinTournament(tournament, user, where=place_of(interaction))
        await self._signup_click(interaction, self.manager.tournaments.signup.join(request))

    async def leave(self, interaction: discord.Interaction, tournament: int) -> None:
        """Leave on the sign-up message."""
        user = interaction.user.id
        request = LeaveTournament(tournament, user, where=place_of(interaction))
        await self._signup_click(interaction, self.manager.tournaments.signup.leave(request))

    async def _signup_click(
        self, interaction: discord.Interaction, work: Awaitable[TournamentOutcome | Refusal]
    ) -> None:
        result = await in_time(interaction, work)
        if isinstance(result, Refusal):
            await say(interaction, result.message)
            return
        embed, buttons = await self.announcer.signup_payload(result.view)
        await redraw(interaction, embed=embed, view=buttons)


async def _private(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """A private answer with an embed or pictures, whether or not the interaction was
    deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content or "", embed=embed or discord.utils.MISSING,
                                        files=list(files), ephemeral=True)  # fmt: skip
    else:
        await interaction.response.send_message(
            content, embed=embed or discord.utils.MISSING, files=list(files), ephemeral=True
        )
