"""The store: one connection per process (SQLite, the embedded default, or PostgreSQL given a
``postgresql://`` URL: :mod:`db.pg`), and the repositories that use it.

Every SQL statement of the project lives in ``db/``. :class:`Store` is a small front: it opens
the :class:`~db.connection.Database` (:func:`db.opening.open_database`; the connection, its lock
and transactions, the group-commit writer) and hands it to one repository per group of tables:

* ``store.games`` (:class:`~db.games.Games`): the action log, endings, results, message ids,
  points per deal, the reads of a game, compacting and retention;
* ``store.lobbies`` (:class:`~db.lobbies.Lobbies`): lobbies, their seats and variant, their
  start or close;
* ``store.standings`` (:class:`~db.leaderboard.Standings`): ratings, the leaderboard, a
  player's statistics and history;
* ``store.matches`` (:class:`~db.matches.Matches`): matches and rematches;
* ``store.settings`` (:class:`~db.settings.GuildSettings`): each server's settings;
* ``store.players`` (:class:`~db.players.Players`): each person's own settings;
* ``store.seasons`` (:class:`~db.seasons.Seasons`): each server's seasons;
* ``store.turns`` (:class:`~db.turns.TurnMarks`): the turn timers' marks;
* ``store.meta`` (:class:`~db.meta.Meta`): the facts the bot keeps about itself;
* ``store.maintenance`` (:class:`~db.maintenance.Maintenance`): integrity checks, the list of
  every game, the online backup (``python -m bot check`` / ``backup``).

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     store = await Store.open(path)
...     await store.meta.set("greeting", "hello")
...     greeting = await store.meta.get("greeting")
...     await store.close()
...     return store.schema_version > 0, greeting
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(True, 'hello')
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from .connection import CommitObserver, Database
from .games import Games
from .leaderboard import Standings
from .lobbies import Lobbies
from .maintenance import Maintenance
from .matches import Matches
from .meta import Meta
from .opening import Synchronous, open_database
from .players import Players
from .seasons import Seasons
from .settings import GuildSettings
from .tournaments import Tournaments
from .turns import TurnMarks


class Store:
    """The bot's database. Open with ``await Store.open(path)``; close with ``await close()``."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self.standings = Standings(database)
        self.games = Games(database, self.standings)
        self.lobbies = Lobbies(database)
        self.matches = Matches(database)
        self.settings = GuildSettings(database)
        self.players = Players(database)
        self.turns = TurnMarks(database)
        self.meta = Meta(database)
        self.tournaments = Tournaments(database)
        self.seasons = Seasons(database)
        self.maintenance = Maintenance(database)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: Synchronous = "FULL",
        read_only: bool = False,
        exclusive: bool = False,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path``, after checking that it
        can be written (a write inside a transaction, rolled back).

        Raises a :class:`~db.errors.StoreError` naming the file and the cause, leaving the file
        untouched: :class:`~db.errors.NotACribbageDatabase`, :class:`~db.errors.DatabaseTooNew`,
        :class:`~db.errors.DatabaseCorrupt`, :class:`~db.errors.DatabaseBusy`,
        :class:`~db.errors.DatabaseNotWritable`, :class:`~db.errors.CannotOpenDatabase`.
        ``synchronous``: ``"FULL"`` (a commit survives a power cut) or ``"NORMAL"`` (a process
        crash only; for benchmarks). ``read_only``: an existing file, read only, not migrated.
        ``exclusive``: the bot's own opening of an SQLite file, which one process at a time may
        hold (:class:`~db.opening.ProcessLock`; another process holding it:
        :class:`~db.errors.DatabaseBusy`, before anything is read or written); ignored on
        PostgreSQL, where each shard has its lock (:meth:`hold`).
        """
        database = await open_database(
            path,
            busy_timeout_ms=busy_timeout_ms,
            synchronous=synchronous,
            read_only=read_only,
            exclusive=exclusive,
        )
        store = cls(database)
        if not read_only:
            try:  # PostgreSQL: hears the other processes' changes of a person's settings
                await store.players.start()
            except BaseException:
                await database.close()
                raise
            store.games.start_archiving()  # games ended before schema 7: compacted meanwhile
        return store

    async def close(self) -> None:
        """Commit what is queued, then close the connection. Safe to call twice."""
        await self.games.stop_archiving()
        await self._database.close()

    async def check_writable(self) -> None:
        """Check that the database takes a write now, as opening does: a row written inside a
        transaction that is rolled back (nothing changes). Raises what refuses it, a
        :class:`~db.errors.StoreError`: once closed; :class:`~db.errors.DatabaseBusy` when the
        file is locked; :class:`~db.errors.DatabaseNotWritable` when the disk refuses. For a
        health check."""
        try:
            async with self._database.transaction() as conn:
                await conn.execute(_WRITE_CHECK)
                raise _RolledBack
        except _RolledBack:
            pass

    def observe_commits(self, observer: CommitObserver) -> None:
        """Call ``observer(seconds, actions)`` after each group commit of the games' actions
        (e.g. a latency histogram)."""
        self._database.commit_observers.append(observer)

    async def hold(self, name: str) -> bool:
        """Hold the lock ``name`` (e.g. ``shard/3``) for as long as the store is open, unless
        another process holds it; whether this one does. PostgreSQL: a session advisory lock
        (of the URL's schema); SQLite (one process): always ``True``."""
        return await self._database.hold(name)

    async def release(self, name: str) -> None:
        """Give back a lock :meth:`hold` took."""
        await self._database.release(name)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._database.dialect

    @property
    def path(self) -> Path | str:
        """The SQLite file, or the PostgreSQL URL (without its password)."""
        return self._database.path

    @property
    def schema_version(self) -> int:
        return self._database.schema_version

    @property
    def revision(self) -> str | None:
        """The Alembic revision the schema is at (``None``: an older release's schema, opened
        read-only, not yet upgraded)."""
        return self._database.revision


#: A row written (and rolled back) by :meth:`Store.check_writable`: an upsert both dialects read.
_WRITE_CHECK = text(
    "INSERT INTO meta (key, value) VALUES ('write_check', '') "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


class _RolledBack(Exception):
    """Ends :meth:`Store.check_writable`'s transaction, which rolls it back."""
