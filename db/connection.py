"""The one connection to SQLite, its lock, its transactions and the group-commit writer.

:class:`Database` owns the aiosqlite connection of the process. The repositories of
:class:`db.store.Store` each receive it in their constructor and use only its public methods:

* :meth:`Database.write` (or :meth:`Database.transaction`): ``BEGIN IMMEDIATE … COMMIT`` under
  one :class:`asyncio.Lock`, rolled back on any exception; a transaction awaits nothing but
  SQLite while it is open;
* :meth:`Database.fetchall` and :meth:`Database.read`: reads take the same lock, so they never
  see another coroutine's uncommitted rows on the shared connection;
* :meth:`Database.group_commit`: a :class:`GroupCommit` writer that queues items (the actions of
  the games) and commits whatever is queued in one transaction. If a batch fails, its items are
  written one by one (still holding the lock) so that only the faulty one fails.

Rules of the connection: WAL journal, ``synchronous=NORMAL`` (a committed transaction survives
the process being killed), foreign keys on, a busy timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import aiosqlite

from . import migrations
from .errors import Conflict, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Writes a batch of queued items inside the transaction the writer opened.
BatchWrite = Callable[[aiosqlite.Connection, Sequence[T]], Awaitable[None]]
Params = Sequence[Any] | Mapping[str, Any]


class Database:
    """The process's connection to one database file. Open with ``await Database.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, schema_version: int) -> None:
        self.path = path
        self.schema_version = schema_version
        self._conn = conn
        self._lock = asyncio.Lock()
        self._writers: list[GroupCommit[Any]] = []
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Database:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises :class:`~db.errors.NotACribbageDatabase` or :class:`~db.errors.DatabaseTooNew`
        (leaving the file untouched) when the file is not one this version may use.
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise StoreError(
                f"Cannot open the database {path}: the directory {path.parent} does not exist. "
                "Create it, or point CRIBBAGE_DB at a file in an existing directory."
            )
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"Cannot open the database {path}: {err}") from err
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await migrations.identify(conn, path)  # before any pragma that writes the file
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            version = await migrations.migrate(conn, path)
        except BaseException:
            await conn.close()
            raise
        log.info("database %s open (schema version %d)", path, version)
        return cls(conn, path, version)

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Commit what the writers hold queued, then close the connection. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for writer in self._writers:
            await writer.close()
        await self._conn.close()
        log.info("database %s closed", self.path)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("The database is closed.")

    # ------------------------------------------------------------------ transactions and reads

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE … COMMIT`` under the lock; rolled back on any exception."""
        self._check_open()
        async with self._lock, _atomic(self._conn):
            yield self._conn

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction; a broken constraint comes out as :class:`Conflict`."""
        try:
            async with self.transaction() as conn:
                yield conn
        except sqlite3.IntegrityError as err:
            raise Conflict(f"The database refused the write: {err}") from err

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection under the lock, for several reads that must see the same rows."""
        self._check_open()
        async with self._lock:
            yield self._conn

    async def fetchall(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """Every row of one statement, read under the lock."""
        async with self.read() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return cast("list[tuple[Any, ...]]", list(rows))  # no row factory: rows are tuples

    # ------------------------------------------------------------------ group commit

    def group_commit(self, write: BatchWrite[T], *, max_batch: int = 256) -> GroupCommit[T]:
        """A writer that commits the items queued on it in batches with ``write``; the database
        commits what it holds queued before it closes."""
        writer = GroupCommit(self._conn, self._lock, write, max_batch=max_batch)
        self._writers.append(writer)
        return writer


class GroupCommit(Generic[T]):
    """Queued items committed in batches: one transaction for whatever is queued (at most
    ``max_batch`` items) when the writer takes the lock. Made by :meth:`Database.group_commit`."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        lock: asyncio.Lock,
        write: BatchWrite[T],
        *,
        max_batch: int,
    ) -> None:
        self.max_batch = max_batch
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
        try:
            async with _atomic(self._conn):
                await self._write(self._conn, items)
        except sqlite3.IntegrityError as err:
            raise Conflict(f"The action log refused the write: {err}") from err


@contextlib.asynccontextmanager
async def _atomic(conn: aiosqlite.Connection) -> AsyncIterator[None]:
    """``BEGIN IMMEDIATE … COMMIT``, rolled back on any exception (the caller holds the lock)."""
    try:
        await conn.execute("BEGIN IMMEDIATE")
        yield
        await conn.execute("COMMIT")
    except BaseException:
        # Queued after whatever is still running on the connection's thread, so it rolls back
        # even when this task was cancelled mid-statement.
        with contextlib.suppress(sqlite3.Error):
            await conn.execute("ROLLBACK")
        raise


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
