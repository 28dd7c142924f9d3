"""``/cribbage notify`` and ``/cribbage autoplay``: each person's own settings, for every game.

Two commands rather than one ``/cribbage me`` with two options: each names the one thing it
changes (the issue's ``/cribbage notify`` is typed as written), takes one option, ``on`` or
``off`` (left out: it shows the setting), and Discord's command picker describes each on its
own line. Both answer privately and are stored per user by the session manager
(``manager.settings.update_player``), so they hold in every server and every game:

- ``notify``: whether the table may ping the person (a real mention, at most once a deal, only
  when the game waits for their move and their hand cannot be shown to them);
- ``autoplay``: whether a card is laid for them when it is the only one they may lay (their
  last card is always laid for them).

:func:`preference_commands` builds both for the :class:`~cogs.cribbage.Cribbage` cog, which adds
them to its ``/cribbage`` group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs.utils.checks import check_command
from cogs.utils.replies import in_time, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager, PlayerSettings
    from cogs.utils.names import NameBook

OnOff = Literal["on", "off"]

SAYINGS: dict[tuple[str, bool], str] = {
    ("notify", True): "🔔 Pings are **on**: when a game waits for your move and the bot cannot "
    "show you your hand (you have not clicked anything in the game for a quarter of an hour), "
    "the table mentions you, at most once a deal.",
    ("notify", False): "🔕 Pings are **off**: the table still names you when it is your move, "
    "without a notification.",
    ("autoplay", True): "⚡ Autoplay is **on**: when only one of your cards can be laid, it is "
    "laid for you. Your last card is always laid for you.",
    ("autoplay", False): "✋ Autoplay is **off**: you lay each card yourself, but for your last "
    "one, which is always laid for you.",
}


def preferences_text(settings: PlayerSettings, name: str, *, changed: bool) -> str:
    """The answer: the setting asked about (``changed``: just set), then the other, small."""
    other = "autoplay" if name == "notify" else "notify"
    first = SAYINGS[(name, bool(getattr(settings, name)))]
    if changed:
        first = f"Saved. {first}"
    command = f"`/cribbage {other} on|off`"
    return f"{first}\n-# {SAYINGS[(other, bool(getattr(settings, other)))]} ({command})"


async def answer_preference(
    manager: GameSessionManager, interaction: discord.Interaction, name: str, value: OnOff | None
) -> None:
    """Show (``value`` None) or set one of the person's own settings, privately."""
    user_id = interaction.user.id
    try:
        if value is None:
            work = manager.settings.player(user_id)
        else:
            work = manager.settings.update_player(user_id, **{name: value == "on"})
        settings = await in_time(interaction, work, ephemeral=True, thinking=True)
    except ValueError as err:
        await say(interaction, f"Nothing changed: {err}")
        return
    await say(interaction, preferences_text(settings, name, changed=value is not None))


def preference_commands(
    manager: GameSessionManager, names: NameBook
) -> list[app_commands.Command[Any, ..., None]]:
    """``/cribbage notify`` and ``/cribbage autoplay`` (new objects per cog), answered from
    ``manager``; ``names`` learns who asked."""

    @app_commands.command(name="notify", description="Whether the table may ping you for your move")
    @app_commands.describe(pings="on: pinged when a game waits for you; off: never pinged")
    @app_commands.check(check_command)  # as the group's other commands (cog.interaction_check)
    async def notify(interaction: discord.Interaction, pings: OnOff | None = None) -> None:
        names.learn(interaction.user)
        await answer_preference(manager, interaction, "notify", pings)

    @app_commands.command(
        name="autoplay", description="Whether your only playable card is laid for you"
    )
    @app_commands.describe(cards="on: your only playable card is laid for you; off: you lay it")
    @app_commands.check(check_command)
    async def autoplay(interaction: discord.Interaction, cards: OnOff | None = None) -> None:
        names.learn(interaction.user)
        await answer_preference(manager, interaction, "autoplay", cards)

    return [notify, autoplay]
