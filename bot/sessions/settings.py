"""Settings that shape the tables: each server's (``/cribbage settings``) and each person's.

The turn timers read the turn time from here, and every :class:`~bot.sessions.Outcome`
carries its server's settings and its people's. Reads come from the store's caches of the
settings rows (``store.settings``, ``store.players``; every change refreshes them), so asking
once per click or per sweep costs no database read.
"""

from __future__ import annotations

import logging
from typing import Any

from db.players import Players, PlayerSettings
from db.settings import MAX_TURN_MINUTES, SETTING_NAMES, GuildSettings, ServerSettings

from .tables import Clock

__all__ = ["MAX_TURN_MINUTES", "SETTING_NAMES", "ServerSettings", "TableSettings"]

log = logging.getLogger("bot.sessions")


class TableSettings:
    """Each server's settings (the defaults for a game outside any server) and each person's."""

    def __init__(self, servers: GuildSettings, players: Players, clock: Clock) -> None:
        self._servers = servers
        self._players = players
        self._clock = clock

    async def server(self, guild_id: int | None) -> ServerSettings:
        """A server's settings; the defaults outside a server."""
        return await self._servers.get(guild_id)

    async def update_server(
        self, guild_id: int, *, by: int | None = None, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings (see :data:`db.settings.SETTING_NAMES`); a new
        turn time applies at once, to the turns running too, and so does a new pause between
        deals. ``ValueError`` if a value is out of range (nothing changes)."""
        settings = await self._servers.update(guild_id, by=by, now=self._clock(), **changes)
        log.info("guild %d: settings changed by %s: %s", guild_id, by, sorted(changes))
        return settings

    def cached(self, guild_id: int | None) -> ServerSettings:
        """A server's settings without a database read: as last read (every outcome reads its
        server's), else the defaults."""
        return self._servers.cached(guild_id) or ServerSettings(guild_id)

    async def turn_time(self, guild_id: int | None) -> float | None:
        """A server's turn time in seconds (``None``: its turns are not timed)."""
        return (await self.server(guild_id)).turn_seconds

    async def player(self, user_id: int) -> PlayerSettings:
        """A person's own settings (cached; the defaults for one who never changed any)."""
        return await self._players.get(user_id)

    async def update_player(self, user_id: int, **changes: Any) -> PlayerSettings:
        """Change some of a person's settings (``notify``, ``autoplay``: see
        :data:`db.PLAYER_SETTING_NAMES`); returns them all. ``ValueError`` for an unknown name
        or a value that is not on or off (nothing changes). A change of ``autoplay`` counts
        from that person's next card."""
        settings = await self._players.update(user_id, now=self._clock(), **changes)
        log.info("user %d: player settings changed: %s", user_id, sorted(changes))
        return settings
