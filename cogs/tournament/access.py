"""Who may organise a tournament: people who may manage the server, or hold the organisers'
role (a role named :data:`ORGANISER_ROLE`, case and surrounding spaces aside)."""

from __future__ import annotations

import discord

ORGANISER_ROLE = "Tournament organiser"
NOT_AN_ORGANISER = (
    "Only organisers run tournaments: people with the **Manage Server** permission, or the "
    f"**{ORGANISER_ROLE}** role."
)


def may_organise(user: discord.abc.User) -> bool:
    """Whether ``user`` (a server member, from an interaction) may organise tournaments."""
    if not isinstance(user, discord.Member):
        return False
    if user.guild_permissions.manage_guild:
        return True
    wanted = ORGANISER_ROLE.casefold()
    return any(role.name.strip().casefold() == wanted for role in user.roles)
