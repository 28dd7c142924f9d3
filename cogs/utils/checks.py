"""What every ``/cribbage`` command checks before it runs: a server channel, and allowed options.

Discord shows the group only in servers (``guild_only`` on the group: a subcommand's own
``guild_only`` is ignored) and offers only the choices and ranges each option declares. But a
client may send what it likes (an old command cache, a modified client), and discord.py checks
neither the context nor an option's choices, ranges or lengths. So :func:`check_command` checks
them from the command's own parameters, before the command reads or writes anything, and refuses
with a :class:`app_commands.CheckFailure` whose message the tree's error handler
(:func:`~cogs.utils.replies.answer_command_error`) shows privately.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.sessions import known_game_id

SERVER_ONLY = (
    "Cribbage is played in a server channel: use `/cribbage` in a channel of a server the bot "
    "is in, not in a direct message. Nothing was done."
)
NO_ACCOUNT = "This account can't use the cribbage commands. Nothing was done."
AppCommandOptionType = discord.AppCommandOptionType
_NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)
_PEOPLE = (AppCommandOptionType.user, AppCommandOptionType.mentionable)


class NotInAServer(app_commands.CheckFailure):
    """A ``/cribbage`` command from a direct message."""


class BadOption(app_commands.CheckFailure):
    """An option value the command does not allow (its message names the option and why)."""


def check_command(interaction: discord.Interaction) -> bool:
    """Refuse (raise) a command used outside a server, or with an option it does not allow."""
    if interaction.guild_id is None:
        raise NotInAServer(SERVER_ONLY)
    if not known_game_id(interaction.user.id):  # the store keeps people by id, as SQLite can
        raise BadOption(NO_ACCOUNT)
    command = interaction.command
    if isinstance(command, app_commands.Command):
        problem = option_problem(command, interaction.namespace)
        if problem is not None:
            raise BadOption(f"{problem} Nothing was done.")
    return True


def option_problem(
    command: app_commands.Command[Any, ..., Any], namespace: app_commands.Namespace
) -> str | None:
    """Why the options given are not ones ``command`` allows (``None`` if they are)."""
    for param in command.parameters:
        value = getattr(namespace, param.name)  # a Namespace answers None for an option not given
        if value is None:
            if param.required:
                return f"`/{command.qualified_name}` needs **{param.display_name}**."
            continue
        rule = _broken_rule(param, value)
        if rule is not None:
            return f"**{param.display_name}** {rule} (not `{_shown(value)}`)."
    return None


def _broken_rule(param: app_commands.Parameter, value: object) -> str | None:
    """The rule of ``param`` that ``value`` breaks, in words (``None``: it keeps them all)."""
    kind = param.type
    if kind is AppCommandOptionType.boolean and not isinstance(value, bool):
        return "must be True or False"
    if kind is AppCommandOptionType.string and not isinstance(value, str):
        return "must be text"
    if kind in _NUMBERS and (isinstance(value, bool) or not isinstance(value, int | float)):
        return "must be a number"
    if kind is AppCommandOptionType.integer and not isinstance(value, int):
        return "must be a whole number"
    if kind in _PEOPLE and not known_game_id(getattr(value, "id", None)):
        return "must be an account the bot can look up"
    if param.choices:
        allowed = [choice.value for choice in param.choices]
        if value not in allowed:
            return "must be one of " + ", ".join(f"`{c}`" for c in allowed)
    if kind in _NUMBERS and isinstance(value, int | float):
        low, high = param.min_value, param.max_value
        if low is not None and high is not None and not low <= value <= high:
            return f"must be from {low} to {high}"
        if low is not None and value < low:
            return f"must be {low} or more"
        if high is not None and value > high:
            return f"must be {high} or less"
    if isinstance(value, str):  # a text option's min_value and max_value are lengths
        shortest, longest = param.min_value or 0, param.max_value
        if len(value) < shortest or (longest is not None and len(value) > longest):
            return f"must be {shortest} to {longest or 6000} characters long"
    return None


def _shown(value: object) -> str:
    """A value a client sent, safe to quote back: short, on one line, no markdown or mention."""
    text = " ".join(str(value).split())
    if len(text) > 40:
        text = text[:39] + "…"
    return discord.utils.escape_mentions(text.replace("`", "'"))
