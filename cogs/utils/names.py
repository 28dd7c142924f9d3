"""Display names of players: learned from their interactions, fetched when unknown.

The bot runs without the privileged members intent, so names come from the interactions
players make (which carry their member data) and, after a restart, from one REST lookup each.
"""

from __future__ import annotations

import logging

import discord

from bot.sessions import GameView

log = logging.getLogger(__name__)

COMPUTER_NAMES = {"easy": "Computer (easy)", "standard": "Computer", "expert": "Computer (expert)"}


class NameBook:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._names: dict[int, str] = {}

    def learn(self, user: discord.abc.User) -> None:
        """Remember the name a user shows in the server (from an interaction)."""
        self._names[user.id] = user.display_name

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        known = self._names.get(user_id)
        if known is not None:
            return known
        name = await self._fetch(user_id, guild_id)
        self._names[user_id] = name
        return name

    async def _fetch(self, user_id: int, guild_id: int | None) -> str:
        try:
            if guild_id is not None:
                guild = self.bot.get_guild(guild_id)
                if guild is not None:
                    return (await guild.fetch_member(user_id)).display_name
            return (await self.bot.fetch_user(user_id)).display_name
        except discord.HTTPException:
            log.info("Could not look up the name of user %d", user_id)
            return f"Player {str(user_id)[-4:]}"

    async def seat_names(self, view: GameView) -> list[str]:
        """One display name per seat (``"open seat"`` for a lobby's empty ones)."""
        names = []
        for seat in view.seats:
            if seat is None:
                names.append("open seat")
            elif seat.user_id is None:
                names.append(COMPUTER_NAMES.get(seat.level or "standard", "Computer"))
            else:
                names.append(await self.name(seat.user_id, view.guild_id))
        # two computers of the same level need telling apart
        for i, name in enumerate(names):
            if names.count(name) > 1 and view.seats[i] is not None:
                names[i] = f"{name} {i + 1}"
        return names
