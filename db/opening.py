"""The store's opening side: from an SQLite file or a PostgreSQL URL to a :class:`Database`.

:func:`open_database` connects (SQLAlchemy's async engine with one connection: ``sqlite+aiosqlite``
for a file, ``postgresql+asyncpg`` for a ``postgresql://`` URL, :func:`connect_sqlite` and
:func:`connect_postgresql`), checks, before any game is loaded, that the file is a cribbage-bot
database (or new) and that it can be written (a write inside a transaction that is rolled back),
sets SQLite's rules, and migrates (:mod:`db.migrations`, for both). What runs on the open
database afterwards is :mod:`db.connection`'s.

Rules of an SQLite connection: WAL journal, ``synchronous=FULL`` (a committed transaction
survives the process being killed *and* the machine losing power: SQLite syncs the WAL to the
disk at each commit, and the group commit makes that one sync per batch of actions, not per
click), foreign keys on, a busy timeout.

Every failure comes out as one of :mod:`db.errors`' classes with a message naming the file and
the cause (:mod:`db.diagnosis`). ``read_only=True`` opens for reading only (``check``,
``backup``): no write, no migration, one read transaction until it closes. Reading a database in
WAL mode makes SQLite create its ``-wal`` and ``-shm`` files beside it, which a read-only
connection cannot remove: the ones a read-only opening created are removed again when it closes
(or fails), unless another connection has the database open by then.

``exclusive=True`` (the bot's own opening): one process per SQLite file. The process holds an
exclusive ``flock`` on ``<database>.lock`` beside the file (:class:`ProcessLock`) from before it
connects until it closes; a second exclusive opening of the file is refused with
:class:`~db.errors.DatabaseBusy` before it reads or writes anything. The operator's commands do
not take it (``check`` and ``backup`` read, ``prune`` writes in short transactions), and the
kernel drops the lock with its process, however it ends (``kill -9`` included). PostgreSQL has
the shards' advisory locks instead (:meth:`db.connection.Database.hold`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import aiosqlite
import asyncpg
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from . import diagnosis, migrations, pg
from .connection import Connection, Database, Dialect
from .errors import CannotOpenDatabase, DatabaseBusy, DatabaseNotWritable, StoreError

log = logging.getLogger(__name__)

#: ``FULL``: a commit survives a power cut (the default); ``NORMAL``: only a process crash.
Synchronous = Literal["FULL", "NORMAL"]
SYNCHRONOUS_MODES: tuple[Synchronous, ...] = ("FULL", "NORMAL")
#: The files SQLite writes beside a database in WAL mode.
WAL_FILES = ("-wal", "-shm")


async def open_database(
    path: str | Path,
    *,
    busy_timeout_ms: int = 5000,
    synchronous: Synchronous = "FULL",
    read_only: bool = False,
    exclusive: bool = False,
) -> Database:
    """Open (creating if needed) and migrate the database at ``path`` (a file, or a
    ``postgresql://`` URL).

    Raises (leaving the file untouched) :class:`~db.errors.NotACribbageDatabase`,
    :class:`~db.errors.DatabaseTooNew`, :class:`~db.errors.DatabaseCorrupt`,
    :class:`~db.errors.DatabaseBusy`, :class:`~db.errors.DatabaseNotWritable` or
    :class:`~db.errors.CannotOpenDatabase`, each naming the file and the cause.
    ``read_only``: open an existing file for reading only (no write probe, no migration),
    reading one consistent moment: the database as it was when opened. ``exclusive``
    (SQLite, not with ``read_only``): hold the file's :class:`ProcessLock` until the database
    closes; :class:`~db.errors.DatabaseBusy` when another process holds it.
    """
    if pg.is_url(path):
        return await _open_postgresql(str(path), read_only=read_only)
    path = Path(path)
    if synchronous not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
    if not path.parent.is_dir() or (read_only and not path.exists()):
        raise CannotOpenDatabase(diagnosis.cannot_open_message(path))
    on_close: list[Callable[[], None]] = []
    if read_only:
        on_close.append(_remover_of_new_wal_files(path))
    elif exclusive:
        on_close.append(ProcessLock.take(path).release)
    try:
        return await _open_sqlite(path, busy_timeout_ms, synchronous, read_only, on_close)
    except BaseException:
        for then in on_close:
            then()
        raise


async def _open_sqlite(
    path: Path,
    busy_timeout_ms: int,
    synchronous: Synchronous,
    read_only: bool,
    on_close: list[Callable[[], None]],
) -> Database:
    """Connect to the SQLite file, identify it, and (unless ``read_only``) prepare it."""
    target = str(path)
    if read_only:
        target = f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro"
    try:
        # Tried first on a worker thread: when aiosqlite's own connect fails, its thread
        # may report to an event loop that has closed meanwhile (a traceback at exit).
        await asyncio.to_thread(_try_connect, target, read_only)
        conn = await connect_sqlite(target, uri=read_only)
    except sqlite3.Error as err:
        raise diagnosis.explain(err, path, "opening it") from err
    try:
        await conn.driver_sql(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if read_only:  # from its first read on, the transaction sees one moment
            await conn.driver_sql("BEGIN")
        _, version = await migrations.identify(conn, path)  # writes nothing
        if not read_only:
            version = await _prepare(conn, path, synchronous)
        try:
            revision = await migrations.current_revision(conn)
        except sqlite3.Error as err:
            raise diagnosis.runtime_error(err, path, "reading its schema revision") from err
    except BaseException:
        await conn.close()
        raise
    log.info(
        "database %s open%s (schema version %d, revision %s)",
        path,
        " read-only" * read_only,
        version,
        revision,
    )
    return Database(conn, path, version, read_only=read_only, revision=revision, on_close=on_close)


async def _open_postgresql(url: str, *, read_only: bool) -> Database:
    """Connect and migrate (:func:`db.migrations.migrate_postgresql`); ``read_only``: a
    read-only session."""
    conn = await connect_postgresql(url)
    try:
        if read_only:  # every read sees one moment, as SQLite's read-only opening does
            await conn.driver_sql("SET default_transaction_read_only = on")
            await conn.driver_sql("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            version = await migrations.current_postgresql(conn)
        else:
            version = await migrations.migrate_postgresql(conn)
        revision = await migrations.current_revision(conn)
    except pg.DRIVER_ERRORS as err:
        await conn.close()
        raise pg.store_error(err) from err
    except BaseException:
        await conn.close()
        raise
    shown = pg.redact(url)
    log.info(
        "database %s open (schema %s, version %d, revision %s)",
        shown,
        conn.schema,
        version,
        revision,
    )
    return Database(conn, shown, version, read_only=read_only, revision=revision)


# ---------------------------------------------------------------------- connecting


async def _connect(engine: AsyncEngine, dialect: Dialect, schema: str = "") -> Connection:
    """The engine's one connection, in ``AUTOCOMMIT`` mode (the store begins and commits)."""
    conn = await engine.connect()
    try:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        raw = await conn.get_raw_connection()
    except BaseException:
        await conn.close()
        await engine.dispose()
        raise
    return Connection(conn, raw.driver_connection, dialect, schema)


async def connect_sqlite(target: str, *, uri: bool) -> Connection:
    """``sqlite+aiosqlite`` on ``target`` (a path, or a ``file:`` URI), the driver in
    autocommit (``isolation_level=None``): the store writes ``BEGIN IMMEDIATE`` itself."""

    async def creator() -> aiosqlite.Connection:
        return await aiosqlite.connect(target, isolation_level=None, uri=uri)

    engine = create_async_engine("sqlite+aiosqlite://", async_creator=creator, poolclass=NullPool)
    try:
        return await _connect(engine, "sqlite")
    except sa_exc.DBAPIError as err:
        if isinstance(err.orig, sqlite3.Error):
            raise err.orig from None
        raise


async def connect_postgresql(url: str) -> Connection:
    """``postgresql+asyncpg`` on the URL's database, the URL's schema first on the
    ``search_path``."""
    dsn, schema = pg.split_url(url)

    async def creator() -> asyncpg.Connection:
        return await asyncpg.connect(dsn, server_settings={"search_path": schema})

    # JSON comes back as its text, as SQLite's json functions give it: the repositories parse
    # what they read the same way on both.
    engine = create_async_engine(
        "postgresql+asyncpg://",
        async_creator=creator,
        poolclass=NullPool,
        json_deserializer=str,
    )
    try:
        return await _connect(engine, "postgresql", schema)
    except (sa_exc.DBAPIError, *pg.DRIVER_ERRORS) as err:
        raise CannotOpenDatabase(
            f"Cannot connect to the PostgreSQL database {pg.redact(dsn)}: "
            f"{getattr(err, 'orig', None) or err}. Check CRIBBAGE_DATABASE_URL (host, port, "
            "user, password, database) and that the server is running."
        ) from err


def _try_connect(target: str, uri: bool) -> None:
    sqlite3.connect(target, uri=uri).close()


# ---------------------------------------------------------------------- preparing SQLite


async def _prepare(conn: Connection, path: Path, synchronous: Synchronous) -> int:
    """Probe a write, set the connection's rules, migrate; the schema version."""
    doing = "checking that it can be written"
    try:
        await _probe_write(conn)
        if diagnosis.disk_full(path):  # the probe's page never reached the disk
            raise DatabaseNotWritable(diagnosis.not_writable_message(path, "before writing"))
        doing = "switching it to write-ahead logging"
        cursor = await conn.execute("PRAGMA journal_mode = WAL")
        row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            log.warning("database %s: journal mode is %s, not wal", path, row and row[0])
        await conn.driver_sql(f"PRAGMA synchronous = {synchronous}")
        await conn.driver_sql("PRAGMA foreign_keys = ON")
        doing = "upgrading its schema"
        return await migrations.migrate(conn, path)
    except sqlite3.Error as err:
        raise diagnosis.explain(err, path, doing) from err


async def _probe_write(conn: Connection) -> None:
    """Write inside a transaction and roll it back: fails now, with SQLite's reason, when the
    file, its directory (no room for the -journal / -wal file) or the disk refuses writes, or
    another program holds the write lock. Leaves the file as it was."""
    await conn.driver_sql("BEGIN IMMEDIATE")
    try:
        await conn.driver_sql("CREATE TABLE IF NOT EXISTS cribbage_write_probe (written INTEGER)")
        await conn.driver_sql("INSERT INTO cribbage_write_probe DEFAULT VALUES")
    finally:
        with contextlib.suppress(sqlite3.Error):
            await conn.driver_sql("ROLLBACK")


def _remover_of_new_wal_files(database: Path) -> Callable[[], None]:
    """What removes, once a read-only opening of ``database`` is closed, the ``-wal`` and
    ``-shm`` files its reads made SQLite create (they were not there before it).

    A read-only connection cannot remove them itself. A read-write connection that closes last
    does, after checkpointing what the ``-wal`` holds; it is opened only when that is nothing
    (an empty ``-wal``), so the database file is not written. When another connection has the
    database open by then (the bot started meanwhile), it cannot be the last and leaves them."""
    wal, shm = (database.with_name(database.name + suffix) for suffix in WAL_FILES)
    existed = wal.exists() or shm.exists()

    def remove() -> None:
        if existed or not wal.exists():
            return
        try:
            if wal.stat().st_size != 0:
                return
            tidy = sqlite3.connect(database, isolation_level=None)
            try:
                tidy.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            finally:
                tidy.close()
        except (OSError, sqlite3.Error) as err:  # a read-only directory, a file not SQLite's
            log.debug("left %s's WAL files beside it: %s", database, err)

    return remove


# ---------------------------------------------------------------------- one bot per file


class ProcessLock:
    """The exclusive ``flock`` on ``<database>.lock`` that the one process running the bot on an
    SQLite file holds (the lock file stays, empty but for the holder's pid: deleting it would
    let two processes lock two different files of the same name)."""

    def __init__(self, fd: int, path: Path) -> None:
        self.path = path
        self._fd: int | None = fd

    @staticmethod
    def path_of(database: Path) -> Path:
        return database.with_name(database.name + ".lock")

    @classmethod
    def take(cls, database: Path) -> ProcessLock:
        """Lock ``database``'s lock file without waiting; :class:`~db.errors.DatabaseBusy`
        naming the holder when another process has it."""
        import fcntl  # POSIX; the bot runs on Linux and macOS

        path = cls.path_of(database)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            detail = f"creating its lock file {path.name}: {err.strerror or err}"
            raise DatabaseNotWritable(diagnosis.not_writable_message(database, detail)) from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise DatabaseBusy(diagnosis.in_use_message(database, path, holder)) from None
        except OSError as err:
            os.close(fd)
            raise StoreError(
                f"Cannot lock {path} ({err.strerror or err}), which keeps a second bot off the "
                f"database {database}: keep the database on a local disk."
            ) from err
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(fd, path)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the lock back (closing the file drops it). Safe to call twice."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


def _holder(fd: int) -> int | None:
    """The pid the holder of a lock file wrote in it, if it reads as one."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
