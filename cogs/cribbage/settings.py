"""``/cribbage settings``: a server's managers choose its defaults, pictures, turn time, the
pause before the next deal and whether each game gets a thread.

:func:`settings_command` builds the subcommand that :class:`cogs.cribbage.Cribbage` adds to the
``/cribbage`` group; it hands over to :func:`answer_settings`: check the permission, ask the
manager, render, answer privately. Discord only applies a command's default permissions to
top-level commands, so the Manage Server permission is checked here, at run time, on every use.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.render.settings import settings_embed, turn_time_text
from bot.sessions import MAX_TURN_MINUTES
from cogs.utils.checks import check_command
from cogs.utils.payloads import to_discord
from cogs.utils.replies import in_time, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager
    from cogs.utils.names import NameBook

log = logging.getLogger(__name__)

NOT_A_MANAGER = (
    "Only people who can manage this server (the **Manage Server** permission) can see or "
    "change its cribbage settings."
)
MAX_NEXT_DEAL_SECONDS = 600  # the store's range for ServerSettings.next_deal_seconds
TURN_TIME_SUGGESTIONS: tuple[int | None, ...] = (None, 1, 2, 3, 5, 10, 15, 30, 60)
_OFF_WORDS = {"off", "none", "no", "0", "never", "untimed"}
_MINUTES = re.compile(r"(\d{1,5})\s*(m|min|mins|minute|minutes)?")


def parse_turn_time(text: str) -> int | None:
    """Minutes from what a person typed (``None`` for off); ``ValueError`` says what is allowed.

    >>> parse_turn_time("5"), parse_turn_time(" 10 minutes "), parse_turn_time("Off")
    (5, 10, None)
    """
    cleaned = text.strip().lower()
    if cleaned in _OFF_WORDS:
        return None
    match = _MINUTES.fullmatch(cleaned)
    if match is None or not 1 <= int(match.group(1)) <= MAX_TURN_MINUTES:
        raise ValueError(
            f"A turn time is a number of minutes from 1 to {MAX_TURN_MINUTES}, or `off`."
        )
    return int(match.group(1))


async def turn_time_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Suggestions for the ``turn_time`` option (whatever is typed is accepted if it parses)."""
    choices = [
        app_commands.Choice(name=turn_time_text(m), value="off" if m is None else str(m))
        for m in TURN_TIME_SUGGESTIONS
    ]
    typed = current.strip().lower()
    if not typed:
        return choices
    matching = [c for c in choices if c.value.startswith(typed) or c.name.startswith(typed)]
    try:
        minutes = parse_turn_time(typed)
    except ValueError:
        return matching
    exact = app_commands.Choice(name=turn_time_text(minutes), value=str(minutes or "off"))
    return [exact] + [c for c in matching if c.value != exact.value]


async def answer_settings(
    manager: GameSessionManager,
    interaction: discord.Interaction,
    *,
    target: int | None = None,
    images: bool | None = None,
    turn_time: str | None = None,
    muggins: bool | None = None,
    computer_games: bool | None = None,
    next_deal_seconds: int | None = None,
    threads: bool | None = None,
) -> None:
    """Show the server's settings (no options) or change those given, then show them all."""
    if interaction.guild_id is None:
        await interaction.response.send_message(
            "Settings belong to a server: use this command in one.", ephemeral=True
        )
        return
    if not interaction.permissions.manage_guild:
        await interaction.response.send_message(NOT_A_MANAGER, ephemeral=True)
        return
    changes: dict[str, Any] = {}
    try:
        if turn_time is not None:
            changes["turn_minutes"] = parse_turn_time(turn_time)
        for name, value in (
            ("target", target),
            ("images", images),
            ("muggins", muggins),
            ("computer_games_count", computer_games),
            ("next_deal_seconds", next_deal_seconds),
            ("threads", threads),
        ):
            if value is not None:
                changes[name] = value
        if changes:
            work = manager.settings.update_server(
                interaction.guild_id, by=interaction.user.id, **changes
            )
        else:
            work = manager.settings.server(interaction.guild_id)
        settings = await in_time(interaction, work, ephemeral=True, thinking=True)
    except ValueError as err:
        await say(interaction, f"Nothing changed: {err}")
        return
    embed = to_discord(
        settings_embed(settings, changed=set(changes), forfeit_after=manager.timers.forfeit_after)
    )
    if interaction.response.is_done():  # deferred: this replaces the "thinking" message
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


def settings_command(
    manager: GameSessionManager, names: NameBook
) -> app_commands.Command[Any, ..., None]:
    """``/cribbage settings`` (a new command object per cog: one bot, one parent), answered
    from ``manager``; ``names`` learns who asked."""

    @app_commands.command(name="settings", description="This server's cribbage settings")
    @app_commands.describe(
        target="New tables play to 121 or 61 unless their host picks",
        images="Show the board, the show and the hands as pictures",
        turn_time="Minutes for a move before the computer plays it (e.g. 5), or off",
        muggins="Muggins on new tables",
        computer_games="Games with a computer count on the leaderboard",
        next_deal_seconds="After a show, seconds until the next deal starts by itself (0: at once)",
        threads="Each game in a thread of its own (the channel keeps one line per game)",
    )
    @app_commands.autocomplete(turn_time=turn_time_choices)
    @app_commands.default_permissions(manage_guild=True)  # a hint only: checked at run time
    @app_commands.check(check_command)  # as the group's other commands (cog.interaction_check)
    async def settings(
        interaction: discord.Interaction,
        target: Literal[121, 61] | None = None,
        images: bool | None = None,
        turn_time: str | None = None,
        muggins: bool | None = None,
        computer_games: bool | None = None,
        next_deal_seconds: app_commands.Range[int, 0, MAX_NEXT_DEAL_SECONDS] | None = None,
        threads: bool | None = None,
    ) -> None:
        names.learn(interaction.user)
        await answer_settings(
            manager,
            interaction,
            target=target,
            images=images,
            turn_time=turn_time,
            muggins=muggins,
            computer_games=computer_games,
            next_deal_seconds=next_deal_seconds,
            threads=threads,
        )

    return settings
