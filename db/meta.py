"""The facts the bot keeps about itself (``meta``: key and value), e.g. when it last synced its
commands: the repository ``store.meta``."""

from __future__ import annotations

from .connection import Database


class Meta:
    """Keys and values, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def get(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``None`` if never set)."""
        rows = await self._database.fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` (replacing what was there)."""
        async with self._database.write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
