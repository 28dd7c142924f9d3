"""Server settings (``/cribbage settings``): what a server's managers chose for its tables.

The turn timers read the turn time from here, and every :class:`~bot.sessions.Outcome`
carries its server's settings. Reads come from the store's cache of the settings rows
(``store.settings``; every change refreshes it), so asking once per click or per sweep costs
no database read.
"""

from __future__ import annotations

import logging
from typing import Any

from db.settings import MAX_TURN_MINUTES, SETTING_NAMES, GuildSettings, ServerSettings

__all__ = ["MAX_TURN_MINUTES", "SETTING_NAMES", "ServerSettings", "Settings"]

log = logging.getLogger("bot.sessions")


class Settings:
    """Each server's settings (the defaults for a game outside any server)."""

    def __init__(self, rows: GuildSettings) -> None:
        self._rows = rows

    async def of(self, guild_id: int | None) -> ServerSettings:
        """A server's settings; the defaults outside a server."""
        return await self._rows.get(guild_id)

    async def update(
        self, guild_id: int, *, by: int | None, now: float, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings (see :data:`db.settings.SETTING_NAMES`).
        ``ValueError`` if a value is out of range (nothing changes)."""
        settings = await self._rows.update(guild_id, by=by, now=now, **changes)
        log.info("guild %d: settings changed by %s: %s", guild_id, by, sorted(changes))
        return settings

    def cached(self, guild_id: int | None) -> ServerSettings:
        """A server's settings without a database read: as last read (every outcome reads its
        server's), else the defaults."""
        return self._rows.cached(guild_id) or ServerSettings(guild_id)

    async def turn_time(self, guild_id: int | None) -> float | None:
        """A server's turn time in seconds (``None``: its turns are not timed)."""
        return (await self.of(guild_id)).turn_seconds
