"""The operator's reads and copies: SQLite's own integrity checks, the list of every game, and
the online backup (``python -m bot check`` and ``python -m bot backup``): the repository
``store.maintenance``.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(folder):
...     store = await Store.open(folder / "bot.db")
...     await store.lobbies.create_lobby(
...         guild_id=1, channel_id=2, host_id=3, players=2, partnerships=False, target=121, now=0.0)
...     await store.maintenance.backup(folder / "copy.db")
...     await store.close()
...     copy = await Store.open(folder / "copy.db", read_only=True)
...     found = await copy.maintenance.integrity_problems(), await copy.maintenance.games()
...     await copy.close()
...     return found
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp())))
([], [(1, 'lobby')])
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import bindparam, func, select

from . import schema as t
from .connection import Database

#: SQLite's checks, as its table-valued pragma functions (``PRAGMA integrity_check(N)`` and
#: ``PRAGMA foreign_key_check`` read as tables).
_integrity = func.pragma_integrity_check(bindparam("limit")).table_valued("integrity_check")
_INTEGRITY_CHECK = select(_integrity.c.integrity_check)
_orphans = func.pragma_foreign_key_check().table_valued("table", "rowid", "parent", "fkid")
_FOREIGN_KEY_CHECK = select(_orphans.c.table, _orphans.c.rowid, _orphans.c.parent, _orphans.c.fkid)
_GAMES = select(t.games.c.id, t.games.c.status).order_by(t.games.c.id)


class Maintenance:
    """Checks and copies of the whole database, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def integrity_problems(self, *, limit: int = 100) -> list[str]:
        """What ``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check`` find (empty: none).

        Reads every page of the file; a damaged one raises :class:`~db.errors.DatabaseCorrupt`
        (``SQLITE_CORRUPT``) or comes out here as SQLite's own words.
        """
        rows = await self._database.fetchall(_INTEGRITY_CHECK, {"limit": int(limit)})
        problems = [str(row[0]) for row in rows if row[0] != "ok"]
        orphans = await self._database.fetchall(_FOREIGN_KEY_CHECK)
        for table, rowid, parent, _ in orphans[:limit]:
            problems.append(f"a row of {table} (rowid {rowid}) names a missing row of {parent}")
        return problems

    async def games(self) -> list[tuple[int, str]]:
        """Every game's id and status (lobbies and cancelled ones included), by id."""
        rows = await self._database.fetchall(_GAMES)
        return [(game_id, status) for game_id, status in rows]

    async def backup(self, target: Path) -> None:
        """Copy the database, as committed now, into the new file ``target`` (see
        :meth:`db.connection.Database.backup`); safe while the bot plays."""
        await self._database.backup(target)
