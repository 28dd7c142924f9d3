"""The facts the bot keeps about itself (``meta``: key and value), e.g. when it last synced its
commands: the repository ``store.meta``.

Its statements are SQLAlchemy Core against :data:`db.schema.meta`, built once; the upsert is
written per dialect (SQLite's and PostgreSQL's ``INSERT ... ON CONFLICT``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Insert, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .connection import Database, Dialect

_GET = select(t.meta.c.value).where(t.meta.c.key == bindparam("key"))


def _upsert(dialect_insert: Any) -> Insert:
    statement = dialect_insert(t.meta).values(key=bindparam("key"), value=bindparam("value"))
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[t.meta.c.key], set_={"value": statement.excluded.value}
    )
    return upsert


#: Keep ``value`` under ``key``, replacing what was there: per dialect.
SET: dict[Dialect, Insert] = {
    "sqlite": _upsert(sqlite.insert),
    "postgresql": _upsert(postgresql.insert),
}


class Meta:
    """Keys and values, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def get(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``None`` if never set)."""
        rows = await self._database.fetchall(_GET, {"key": key})
        return rows[0][0] if rows else None

    async def set(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` (replacing what was there)."""
        async with self._database.write() as conn:
            await conn.execute(SET[conn.dialect], {"key": key, "value": value})
