"""The one connection to the database, its lock, its transactions and the group-commit writer.

The connection is SQLAlchemy's (an :class:`~sqlalchemy.ext.asyncio.AsyncConnection` of an async
engine: ``sqlite+aiosqlite`` for a file, ``postgresql+asyncpg`` given a ``postgresql://`` URL),
held for the life of the process and wrapped in :class:`Connection`, which runs the
repositories' statements: SQLAlchemy Core constructs built against :mod:`db.schema`'s tables
(compiled once per dialect and cached by SQLAlchemy), or, for the statements not yet written as
Core, SQLite's text (translated for PostgreSQL by :mod:`db.pg`). The connection is in
SQLAlchemy's ``AUTOCOMMIT`` mode: :class:`Database` writes ``BEGIN IMMEDIATE`` and ``COMMIT``
itself, so that SQLite's write lock is taken when the transaction begins, not at its first
write, and a transaction is exactly the block that asked for it.

:class:`Database` owns that connection. The repositories of :class:`db.store.Store` each receive
it in their constructor and use only its public methods:

* :meth:`Database.write` (or :meth:`Database.transaction`): ``BEGIN IMMEDIATE … COMMIT`` under
  one :class:`asyncio.Lock`, rolled back on any exception; a transaction awaits nothing but
  SQLite while it is open;
* :meth:`Database.fetchall` and :meth:`Database.read`: reads take the same lock, so they never
  see another coroutine's uncommitted rows on the shared connection;
* :meth:`Database.group_commit`: a :class:`GroupCommit` writer that queues items (the actions of
  the games) and commits whatever is queued in one transaction. If a batch fails, its items are
  written one by one (still holding the lock) so that only the faulty one fails.

Rules of the connection: WAL journal, ``synchronous=FULL`` (a committed transaction survives
the process being killed *and* the machine losing power: SQLite syncs the WAL to the disk at each
commit, and the group commit makes that one sync per batch of actions, not per click), foreign
keys on, a busy timeout.

Errors: whatever the driver raises inside a transaction, a read or a group commit leaves
:class:`Database` as one of :mod:`db.errors`' classes (:func:`db.diagnosis.runtime_error` for
SQLite, :func:`db.pg.store_error` for PostgreSQL): a broken rule of the schema is a
:class:`~db.errors.Conflict`, a lock another program holds a :class:`~db.errors.DatabaseBusy`, a
full disk a :class:`~db.errors.DatabaseFull`. Inside a transaction a repository that expects a
refusal catches :data:`REFUSED` (SQLite's own class, PostgreSQL's already translated).

Opening checks, before any game is loaded, that the file is a cribbage-bot database (or new),
and that it can be written: a write inside a transaction that is rolled back. Every failure
comes out as one of :mod:`db.errors`' classes with a message naming the file and the cause
(:mod:`db.diagnosis`). ``read_only=True`` opens for reading only (``check``, ``backup``): no
write, no migration, and every read sees the database as it was when it was opened (one read
transaction, held until :meth:`Database.close`), however the bot writes meanwhile.

``exclusive=True`` (the bot's own opening): one process per SQLite file. The process holds an
exclusive ``flock`` on ``<database>.lock`` beside the file (:class:`ProcessLock`) from before it
connects until it closes; a second exclusive opening of the file is refused with
:class:`~db.errors.DatabaseBusy` before it reads or writes anything. The operator's commands do
not take it (``check`` and ``backup`` read, ``prune`` writes in short transactions), and the
kernel drops the lock with its process, however it ends (``kill -9`` included). PostgreSQL has
the shards' advisory locks instead (:meth:`Database.hold`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import aiosqlite
from sqlalchemy import exc as sa_exc

from . import diagnosis, migrations, pg, pg_schema
from .errors import CannotOpenDatabase, DatabaseBusy, DatabaseNotWritable, StoreError
from .sql_connection import (
    Connection,
    Dialect,
    Params,
    Statement,
    connect_postgresql,
    connect_sqlite,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Writes a batch of queued items inside the transaction the writer opened.
BatchWrite = Callable[[Connection, Sequence[T]], Awaitable[None]]
#: Told of each group commit: its seconds (``BEGIN`` to ``COMMIT``) and its number of items.
CommitObserver = Callable[[float, int], None]
#: ``FULL``: a commit survives a power cut (the default); ``NORMAL``: only a process crash.
Synchronous = Literal["FULL", "NORMAL"]
SYNCHRONOUS_MODES: tuple[Synchronous, ...] = ("FULL", "NORMAL")


class Database:
    """The process's connection to one database file (or PostgreSQL database, given a
    ``postgresql://`` URL). Open with ``await Database.open(path)``."""

    def __init__(
        self,
        conn: Connection,
        path: Path | str,
        schema_version: int,
        *,
        read_only: bool = False,
        process_lock: ProcessLock | None = None,
        revision: str | None = None,
    ) -> None:
        self.path = path
        self.schema_version = schema_version
        #: The Alembic revision of the schema (``None``: an older release's, not yet upgraded).
        self.revision = revision
        self.read_only = read_only
        self._process_lock = process_lock
        self._conn = conn
        self._lock = asyncio.Lock()
        self._writers: list[GroupCommit[Any]] = []
        self.commit_observers: list[CommitObserver] = []  # every writer's, e.g. metrics
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: Synchronous = "FULL",
        read_only: bool = False,
        exclusive: bool = False,
    ) -> Database:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises (leaving the file untouched) :class:`~db.errors.NotACribbageDatabase`,
        :class:`~db.errors.DatabaseTooNew`, :class:`~db.errors.DatabaseCorrupt`,
        :class:`~db.errors.DatabaseBusy`, :class:`~db.errors.DatabaseNotWritable` or
        :class:`~db.errors.CannotOpenDatabase`, each naming the file and the cause.
        ``read_only``: open an existing file for reading only (no write probe, no migration),
        reading one consistent moment: the database as it was when opened. ``exclusive``
        (SQLite, not with ``read_only``): hold the file's :class:`ProcessLock` until
        :meth:`close`; :class:`~db.errors.DatabaseBusy` when another process holds it.
        """
        if pg.is_url(path):
            return await cls._open_postgresql(str(path), read_only=read_only)
        path = Path(path)
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
        if not path.parent.is_dir() or (read_only and not path.exists()):
            raise CannotOpenDatabase(diagnosis.cannot_open_message(path))
        target = str(path)
        if read_only:
            target = f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro"
        process_lock = ProcessLock.take(path) if exclusive and not read_only else None
        try:
            return await cls._open_sqlite(
                path, target, busy_timeout_ms, synchronous, read_only, process_lock
            )
        except BaseException:
            if process_lock is not None:
                process_lock.release()
            raise

    @classmethod
    async def _open_sqlite(
        cls,
        path: Path,
        target: str,
        busy_timeout_ms: int,
        synchronous: Synchronous,
        read_only: bool,
        process_lock: ProcessLock | None,
    ) -> Database:
        """Connect to the SQLite file, identify it, and (unless ``read_only``) prepare it."""
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
            with _translated(path, "reading its schema revision"):
                revision = await migrations.current_revision(conn)
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
        return cls(
            conn, path, version, read_only=read_only, process_lock=process_lock, revision=revision
        )

    @classmethod
    async def _open_postgresql(cls, url: str, *, read_only: bool) -> Database:
        """Connect and migrate (:mod:`db.pg_schema`); ``read_only``: a read-only session."""
        conn = await connect_postgresql(url)
        try:
            if read_only:  # every read sees one moment, as SQLite's read-only opening does
                await conn.driver_sql("SET default_transaction_read_only = on")
                await conn.driver_sql("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                version = await pg_schema.current(conn)
            else:
                version = await pg_schema.migrate(conn)
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
        return cls(conn, shown, version, read_only=read_only, revision=revision)

    @property
    def dialect(self) -> Dialect:
        return self._conn.dialect

    async def hold(self, name: str) -> bool:
        """Hold the lock ``name`` while this process's connection lives, if no other process
        holds it (PostgreSQL: a session advisory lock of the schema); whether it is held now.
        SQLite serves one process: always held."""
        if self._conn.dialect != "postgresql":
            return True
        async with self._lock:
            return await self._conn.try_lock(name)

    async def release(self, name: str) -> None:
        """Give back a lock :meth:`hold` took (nothing on SQLite)."""
        if self._conn.dialect == "postgresql":
            async with self._lock:
                await self._conn.unlock(name)

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Commit what the writers hold queued, then close the connection. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            for writer in self._writers:
                await writer.close()
            await self._conn.close()
        finally:
            if self._process_lock is not None:  # the next process may open the file now
                self._process_lock.release()
        log.info("database %s closed", self.path)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("The database is closed.")

    # ------------------------------------------------------------------ transactions and reads

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``BEGIN IMMEDIATE … COMMIT`` under the lock; rolled back on any exception."""
        self._check_open()
        if self.read_only:
            raise DatabaseNotWritable(f"The database {self.path} was opened read-only.")
        with _translated(self.path, "writing"):
            async with self._lock, _atomic(self._conn):
                yield self._conn

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[Connection]:
        """A write transaction (:meth:`transaction`); a broken constraint comes out as
        :class:`Conflict`."""
        async with self.transaction() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """The connection under the lock, for several reads that must see the same rows."""
        self._check_open()
        with _translated(self.path, "reading"):
            async with self._lock:
                yield self._conn

    async def fetchall(
        self, statement: Statement, params: Params | None = None
    ) -> list[tuple[Any, ...]]:
        """Every row of one statement, read under the lock."""
        async with self.read() as conn:
            return await conn.execute_fetchall(statement, params)

    async def backup(self, target: Path) -> None:
        """Copy the committed database into the new file ``target`` with SQLite's online backup
        (a consistent snapshot, whatever other connections write meanwhile), synced to the disk
        and in rollback-journal mode: one self-contained file."""
        self._check_open()
        if self._conn.dialect == "postgresql":
            raise StoreError("Back up a PostgreSQL database with pg_dump, not the bot.")

        def finish(dest: sqlite3.Connection) -> None:
            dest.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
            dest.close()

        dest = sqlite3.connect(str(target), isolation_level=None, check_same_thread=False)
        try:
            async with self.read():
                with _translated(target, "copying the database into it"):
                    driver: aiosqlite.Connection = self._conn.driver
                    await driver.backup(dest)
            with _translated(target, "writing the copy"):
                await asyncio.to_thread(finish, dest)
        except BaseException:
            dest.close()
            raise

    # ------------------------------------------------------------------ group commit

    def group_commit(self, write: BatchWrite[T], *, max_batch: int = 256) -> GroupCommit[T]:
        """A writer that commits the items queued on it in batches with ``write``; the database
        commits what it holds queued before it closes."""
        writer = GroupCommit(
            self._conn,
            self._lock,
            write,
            max_batch=max_batch,
            observers=self.commit_observers,
            path=self.path,
        )
        self._writers.append(writer)
        return writer


class GroupCommit(Generic[T]):
    """Queued items committed in batches: one transaction for whatever is queued (at most
    ``max_batch`` items) when the writer takes the lock. Made by :meth:`Database.group_commit`."""

    def __init__(
        self,
        conn: Connection,
        lock: asyncio.Lock,
        write: BatchWrite[T],
        *,
        max_batch: int,
        observers: Sequence[CommitObserver] = (),
        path: Path | str = "",
    ) -> None:
        self.max_batch = max_batch
        self._path = path
        self._observers = observers
        self._conn = conn
        self._lock = lock
        self._write = write
        self._queue: list[tuple[T, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def submit(self, item: T) -> asyncio.Future[None]:
        """Queue ``item``; the future resolves once it is committed (or fails with its error).
        The write happens even if the awaiting task is cancelled."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self._closed:
            fut.set_exception(StoreError("The database is closed."))
            return fut
        self._queue.append((item, fut))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._write_queued())
        return fut

    async def close(self) -> None:
        """Refuse new items and wait until the queued ones are written."""
        self._closed = True
        if self._task is not None:
            await self._task

    async def _write_queued(self) -> None:
        while self._queue:
            async with self._lock:
                batch = self._queue[: self.max_batch]
                del self._queue[: len(batch)]
                try:
                    await self._commit([item for item, _ in batch])
                except asyncio.CancelledError:
                    for _, fut in batch:  # outcome unknown: callers reload from the database
                        _settle(fut, StoreError("The write was interrupted."))
                    raise
                except Exception as err:
                    if len(batch) == 1:
                        _settle(batch[0][1], err)
                        continue
                    log.warning(
                        "a batch of %d writes failed (%s); retrying one by one", len(batch), err
                    )
                    for item, fut in batch:
                        try:
                            await self._commit([item])
                        except Exception as single_err:
                            _settle(fut, single_err)
                        else:
                            _settle(fut, None)
                else:
                    for _, fut in batch:
                        _settle(fut, None)

    async def _commit(self, items: Sequence[T]) -> None:
        started = time.perf_counter()
        with _translated(self._path, "writing the games' moves"):
            async with _atomic(self._conn):
                await self._write(self._conn, items)
        seconds = time.perf_counter() - started
        for observe in self._observers:
            try:  # committed: an observer's failure must not make the items look unwritten
                observe(seconds, len(items))
            except Exception:
                log.exception("A commit observer failed")


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


def _try_connect(target: str, uri: bool) -> None:
    sqlite3.connect(target, uri=uri).close()


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


@contextlib.asynccontextmanager
async def _atomic(conn: Connection) -> AsyncIterator[None]:
    """``BEGIN IMMEDIATE … COMMIT`` (PostgreSQL: ``BEGIN``), rolled back on any exception (the
    caller holds the lock)."""
    try:
        if conn.dialect == "postgresql":
            if conn.driver.is_in_transaction():
                # a transaction a cancelled task left open: roll it back, as SQLite's would be
                await conn.driver_sql("ROLLBACK")
            await conn.driver_sql("BEGIN")
        else:
            await conn.driver_sql("BEGIN IMMEDIATE")
        yield
        await conn.driver_sql("COMMIT")
    except BaseException:
        # Queued after whatever is still running on the connection's thread, so it rolls back
        # even when this task was cancelled mid-statement.
        with contextlib.suppress(sqlite3.Error, StoreError, sa_exc.SQLAlchemyError):
            await conn.driver_sql("ROLLBACK")
        raise


@contextlib.contextmanager
def _translated(path: Path | str, doing: str) -> Iterator[None]:
    """SQLite's errors raised in the block as the store's own (PostgreSQL's come translated
    from :mod:`db.pg`)."""
    try:
        yield
    except sqlite3.Error as err:
        raise diagnosis.runtime_error(err, Path(path), doing) from err


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
