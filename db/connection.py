"""The store's running side: the statement runner, the transactions and the group commit.

:class:`Connection` runs the repositories' statements on the process's one SQLAlchemy connection
(an :class:`~sqlalchemy.ext.asyncio.AsyncConnection`: ``sqlite+aiosqlite`` for a file,
``postgresql+asyncpg`` for a ``postgresql://`` URL; :mod:`db.opening` makes it). A statement is
a SQLAlchemy Core construct built against :mod:`db.schema`'s tables (the frozen migrations and
SQLite's pragmas are SQLite's text): it is compiled once per dialect and handed to the driver's
own connection in one call (aiosqlite's, or asyncpg's), SQLAlchemy's engine being the
migrations' only. The connection is in SQLAlchemy's ``AUTOCOMMIT`` mode: the store writes
``BEGIN IMMEDIATE`` and ``COMMIT`` itself, so that SQLite's write lock is taken when the
transaction begins, not at its first write, and a transaction is exactly the block that asked
for it.

:class:`Database` owns that connection. The repositories of :class:`db.store.Store` each receive
it in their constructor and use only its public methods:

* :meth:`Database.write` (or :meth:`Database.transaction`): ``BEGIN IMMEDIATE … COMMIT`` under
  one :class:`asyncio.Lock`, rolled back on any exception; a transaction awaits nothing but
  the database while it is open;
* :meth:`Database.fetchall` and :meth:`Database.read`: reads take the same lock, so they never
  see another coroutine's uncommitted rows on the shared connection;
* :meth:`Database.group_commit`: a :class:`GroupCommit` writer that queues items (the actions of
  the games) and commits whatever is queued in one transaction, one sync to the disk per batch.
  If a batch fails, its items are written one by one (still holding the lock) so that only the
  faulty one fails.

Errors: whatever the driver raises inside a transaction, a read or a group commit leaves
:class:`Database` as one of :mod:`db.errors`' classes (:func:`db.diagnosis.runtime_error` for
SQLite, :func:`db.pg.store_error` for PostgreSQL): a broken rule of the schema is a
:class:`~db.errors.Conflict`, a lock another program holds a :class:`~db.errors.DatabaseBusy`, a
full disk a :class:`~db.errors.DatabaseFull`. Inside a transaction a repository that expects a
refusal catches :data:`REFUSED` (SQLite's own class, PostgreSQL's already translated).

A :class:`Database` opened ``read_only`` (``check``, ``backup``) refuses transactions, and every
read sees the database as it was when it was opened (one read transaction, held until
:meth:`Database.close`), however the bot writes meanwhile. PostgreSQL's shards hold their
advisory locks through :meth:`Database.hold`.
"""

from __future__ import annotations

import asyncio
import contextlib
import decimal
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import aiosqlite
import asyncpg
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.dialects.postgresql import asyncpg as asyncpg_dialect
from sqlalchemy.engine.interfaces import Compiled
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import TextClause

from . import diagnosis, pg
from .errors import Conflict, DatabaseNotWritable, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")

Dialect = Literal["sqlite", "postgresql"]
#: A statement: a Core construct (select, insert, update, delete, a ``text``) or, on SQLite
#: only, SQLite's own text with ``?`` / ``:name`` parameters (its pragmas, the frozen
#: migrations); PostgreSQL refuses text (:class:`TypeError`): it runs what SQLAlchemy compiled.
Statement = Executable | str
Params = Sequence[Any] | Mapping[str, Any]
#: A write the schema refused, as a repository sees it inside a transaction: SQLite's
#: ``IntegrityError`` (translated when it leaves the transaction) or, on PostgreSQL, already
#: :class:`~db.errors.Conflict`.
REFUSED = (sqlite3.IntegrityError, Conflict)
#: Writes a batch of queued items inside the transaction the writer opened.
BatchWrite = Callable[["Connection", Sequence[T]], Awaitable[None]]
#: Told of each group commit: its seconds (``BEGIN`` to ``COMMIT``) and its number of items.
CommitObserver = Callable[[float, int], None]


class Cursor:
    """What a statement left: its rows (tuples, as SQLite gives them), the rows it touched, the
    rowid an SQLite insert made."""

    __slots__ = ("_rows", "lastrowid", "rowcount")

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows, []
        return rows

    def all(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows, []
        return rows

    def first(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None


class Connection:
    """The process's SQLAlchemy connection, as the repositories use it: :meth:`execute` a Core
    statement (on SQLite its own text too), :meth:`executemany`, and on PostgreSQL the advisory
    locks and notifications of the schema, which need asyncpg's own connection (``driver``). Made by
    :mod:`db.opening`; the migrations run on it too.

    Errors: a driver's exception leaves as the driver's own on SQLite (``sqlite3.Error``, told
    apart by :mod:`db.diagnosis` where the transaction ends, with the file's name) and as the
    store's on PostgreSQL (:func:`db.pg.store_error`), never as SQLAlchemy's wrapper.
    """

    def __init__(
        self,
        conn: AsyncConnection,
        driver: Any,
        dialect: Dialect,
        schema: str = "",
    ) -> None:
        self.sa = conn
        #: The driver's own connection: aiosqlite's, or asyncpg's.
        self.driver = driver
        self.dialect: Dialect = dialect
        self.schema = schema
        self._pg = dialect == "postgresql"
        #: A statement whose caller was cancelled, still running to its end (see :meth:`_run`).
        self._unfinished: asyncio.Future[Any] | None = None

    async def execute(self, statement: Statement, parameters: Params | None = None) -> Cursor:
        """Run one statement; its rows (all fetched), ``rowcount`` and ``lastrowid``."""
        if not self._pg:
            return await self._sqlite_execute(statement, parameters)
        if isinstance(statement, str):
            raise TypeError(
                "PostgreSQL runs SQLAlchemy statements, not SQLite's text: build it with "
                f"sqlalchemy (a Core construct, or text(...)): {statement[:80]!r}"
            )
        return await self._pg_execute(_pg_compiled(statement), parameters)

    async def executemany(self, statement: Statement, parameters: Sequence[Params]) -> Cursor:
        """Run one statement once per set of parameters; ``rowcount`` is the sum of the rows
        touched. SQLite: the driver's ``executemany`` (one call); PostgreSQL: one statement per
        set, as asyncpg's batch cannot count the rows each touched."""
        if not parameters:
            return Cursor([], 0, None)
        if self._pg:
            if isinstance(statement, str):
                raise TypeError("PostgreSQL runs SQLAlchemy statements, not SQLite's text")
            compiled = _pg_compiled(statement)
            if _plain_insert(statement, compiled):
                # every set inserts its one row or the whole call fails: asyncpg's batch (one
                # round trip) is counted without asking the server
                args = [_pg_positional(compiled, p) for p in parameters]
                await self._pg_call(self.driver.executemany(compiled.string, args))
                return Cursor([], len(args), None)
            total = 0
            for params in parameters:
                total += max(0, (await self._pg_execute(compiled, params)).rowcount)
            return Cursor([], total, None)
        driver: aiosqlite.Connection = self.driver
        if isinstance(statement, str):
            rows = [p if isinstance(p, Mapping) else tuple(p) for p in parameters]
            cursor = await driver.executemany(statement, rows)
        else:
            compiled = _sqlite_compiled(statement)
            cursor = await driver.executemany(
                compiled.string, [_positional(compiled, p) for p in parameters]
            )
        return Cursor([], cursor.rowcount, None)

    async def execute_fetchall(
        self, statement: Statement, parameters: Params | None = None
    ) -> list[tuple[Any, ...]]:
        return (await self.execute(statement, parameters)).all()

    async def driver_sql(self, sql: str) -> None:
        """One statement of the driver's dialect without parameters (``BEGIN IMMEDIATE``,
        ``COMMIT``, ``PRAGMA ...``)."""
        if not self._pg:
            await self.driver.execute(sql)
            return
        await self._pg_call(self.driver.execute(sql))

    async def _sqlite_execute(self, statement: Statement, parameters: Params | None) -> Cursor:
        """SQLite: the statement (a Core construct compiled by SQLAlchemy's SQLite dialect, once
        per construct) run on aiosqlite's connection in one call to its thread. SQLAlchemy's
        own aiosqlite adapter makes four (cursor, execute, fetch, close), which would cost the
        group commit a quarter of its throughput; the statement is the same."""
        driver: aiosqlite.Connection = self.driver
        if isinstance(statement, str):
            sql = statement
            args: Params = (
                parameters if isinstance(parameters, Mapping) else tuple(parameters or ())
            )
            returns_rows = _RETURNS_ROWS.match(sql) is not None
        else:
            compiled = _sqlite_compiled(statement)
            sql, args = compiled.string, _positional(compiled, parameters)
            returns_rows = _returns_rows(compiled)
        if returns_rows:
            rows = [tuple(row) for row in await driver.execute_fetchall(sql, args)]
            return Cursor(rows, len(rows), None)
        cursor = await driver.execute(sql, args)
        return Cursor([], cursor.rowcount, cursor.lastrowid)

    async def _pg_execute(self, compiled: Compiled, parameters: Params | None) -> Cursor:
        """PostgreSQL: the statement compiled by SQLAlchemy's asyncpg dialect (once per
        construct) run on asyncpg's own connection, inside the transaction the store began on
        it. SQLAlchemy's engine path costs several times the statement's own time on the
        client; the statement is the same. Rows as SQLite gives them (:func:`_value`); the rows
        a write touched from the server's status (``UPDATE 3``)."""
        driver: asyncpg.Connection = self.driver
        args = _pg_positional(compiled, parameters)
        if _returns_rows(compiled):
            records = await self._pg_call(driver.fetch(compiled.string, *args))
            rows = [tuple(_value(v) for v in record) for record in records]
            return Cursor(rows, len(rows), None)
        status: str = await self._pg_call(driver.execute(compiled.string, *args))
        return Cursor([], _status_count(status), None)

    async def _pg_call(self, call: Awaitable[T]) -> T:
        """One call to asyncpg, shielded as :meth:`_run`; its errors as the store's."""
        try:
            return await self._run(call)
        except pg.DRIVER_ERRORS as err:
            raise pg.store_error(err) from err

    async def _run(self, statement: Awaitable[T]) -> T:
        """Await one statement; when the caller is cancelled meanwhile, the statement still runs
        to its end on the connection (the next one waits for it). SQLAlchemy takes a
        cancellation inside a statement for a lost connection and drops it, and with it
        SQLite's pragmas, PostgreSQL's session locks and its ``LISTEN``: the caller's
        transaction is rolled back instead (:func:`_atomic`)."""
        if self._unfinished is not None:
            unfinished, self._unfinished = self._unfinished, None
            with contextlib.suppress(Exception):
                await unfinished
        task: asyncio.Future[T] = asyncio.ensure_future(statement)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._unfinished = task
            raise

    def _driver_error(self, err: sa_exc.DBAPIError) -> BaseException:
        """The driver's exception beneath SQLAlchemy's: SQLite's as it is, PostgreSQL's as the
        store's."""
        original: BaseException | None = err.orig
        if not self._pg:
            return original if isinstance(original, sqlite3.Error) else StoreError(str(err))
        while original is not None and not isinstance(original, pg.DRIVER_ERRORS):
            original = original.__cause__
        return pg.store_error(original if original is not None else err)

    # ------------------------------------------------------------------ PostgreSQL's own

    async def transaction_lock(self, name: str) -> None:
        """Wait for the advisory lock ``name`` (of this schema) until the transaction ends:
        processes sharing the database do this part one at a time (e.g. rating games)."""
        await self.execute(
            pg.xact_lock_statement(), {"space": pg.LOCK_SPACE, "key": self._key(name)}
        )

    async def try_lock(self, name: str) -> bool:
        """Take the advisory lock ``name`` (of this schema) for as long as the connection
        lives, if no other connection holds it; whether this one holds it now."""
        held = await self.execute(
            pg.try_lock_statement(), {"space": pg.LOCK_SPACE, "key": self._key(name)}
        )
        return bool(held.scalar())

    async def unlock(self, name: str) -> None:
        await self.execute(pg.unlock_statement(), {"space": pg.LOCK_SPACE, "key": self._key(name)})

    def _key(self, name: str) -> str:
        return f"{self.schema}/{name}"

    def channel(self, name: str) -> str:
        """The notification channel ``name`` of this schema (schemas sharing a database do not
        hear each other; PostgreSQL's names stop at 63 bytes)."""
        return f"{self.schema}/{name}"[:63]

    async def listen(self, name: str, heard: Callable[[str], None]) -> None:
        """Call ``heard(payload)`` for each :meth:`notify` of ``name`` that another connection
        commits (PostgreSQL's ``LISTEN`` on asyncpg's own connection, which reads the notices
        as they come, between statements too)."""
        raw: asyncpg.Connection = self.driver
        own = raw.get_server_pid()

        def deliver(conn: object, pid: int, channel: str, payload: object) -> None:
            if pid != own:  # this connection's own notices: it knows already
                heard(str(payload))

        try:
            await raw.add_listener(self.channel(name), deliver)
        except pg.DRIVER_ERRORS as err:
            raise pg.store_error(err) from err

    async def notify(self, name: str, payload: str) -> None:
        """Tell the connections listening to ``name`` ``payload``, when (and only if) the
        current transaction commits (``pg_notify``)."""
        await self.execute(
            pg.notify_statement(), {"channel": self.channel(name), "payload": payload}
        )

    async def close(self) -> None:
        if self._unfinished is not None:
            with contextlib.suppress(Exception):
                await self._unfinished
        with contextlib.suppress(sa_exc.DBAPIError, OSError):
            await self.sa.close()
        await self.sa.engine.dispose()


class Database:
    """The process's connection to one database: an SQLite file, or a PostgreSQL schema given a
    ``postgresql://`` URL. :func:`db.opening.open_database` opens, checks and migrates it."""

    def __init__(
        self,
        conn: Connection,
        path: Path | str,
        schema_version: int,
        *,
        read_only: bool = False,
        revision: str | None = None,
        on_close: Sequence[Callable[[], None]] = (),
    ) -> None:
        self.path = path
        self.schema_version = schema_version
        #: The Alembic revision of the schema (``None``: an older release's, not yet upgraded).
        self.revision = revision
        self.read_only = read_only
        #: Called once the connection is closed (the opening's process lock, its leftovers).
        self._on_close = tuple(on_close)
        self._conn = conn
        self._lock = asyncio.Lock()
        self._writers: list[GroupCommit[Any]] = []
        self.commit_observers: list[CommitObserver] = []  # every writer's, e.g. metrics
        self._closed = False

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
            for then in self._on_close:  # e.g. the next process may open the file now
                then()
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


_SQLITE = sqlite_dialect.dialect(paramstyle="qmark")
_RETURNS_ROWS = re.compile(r"\s*(SELECT|WITH|VALUES|PRAGMA)\b|.*\bRETURNING\b", re.I | re.S)
_COMPILED: dict[Executable, Compiled] = {}


def _sqlite_compiled(statement: Executable) -> Compiled:
    """The statement compiled for SQLite, kept for the life of the process: the repositories
    build theirs once, at import, so the cache holds as many as the store has statements."""
    compiled = _COMPILED.get(statement)
    if compiled is None:
        compiled = statement.compile(dialect=_SQLITE)  # type: ignore[attr-defined]
        if len(_COMPILED) < 4096:  # a statement built per call is compiled per call
            _COMPILED[statement] = compiled
    return compiled


def _returns_rows(compiled: Compiled) -> bool:
    """A select (or a ``text`` reading rows), or a write with ``RETURNING``; not DDL."""
    if compiled.is_ddl:
        return False
    writes = compiled.isinsert or compiled.isupdate or compiled.isdelete  # type: ignore[attr-defined]
    if writes:
        return bool(compiled.effective_returning)  # type: ignore[attr-defined]
    if isinstance(compiled.statement, TextClause):  # a text write tells its rows by its status
        return _RETURNS_ROWS.match(compiled.string) is not None
    return True


def _positional(compiled: Compiled, parameters: Params | None) -> tuple[Any, ...]:
    """The values of a compiled statement's ``?`` in order: the caller's, or the bound ones."""
    values: Mapping[str, Any] = compiled.construct_params(parameters) or {}  # type: ignore[arg-type]
    names: Sequence[str] = getattr(compiled, "positiontup", None) or ()
    return tuple(values[name] for name in names)


_POSTGRESQL = asyncpg_dialect.dialect()  # type: ignore[no-untyped-call]
_PG_COMPILED: dict[Executable, Compiled] = {}


def _pg_compiled(statement: Executable) -> Compiled:
    """The statement compiled for PostgreSQL (asyncpg's ``$1`` with its type's cast), kept as
    :func:`_sqlite_compiled` keeps SQLite's."""
    compiled = _PG_COMPILED.get(statement)
    if compiled is None:
        compiled = statement.compile(dialect=_POSTGRESQL)  # type: ignore[attr-defined]
        if len(_PG_COMPILED) < 4096:
            _PG_COMPILED[statement] = compiled
    return compiled


def _pg_positional(compiled: Compiled, parameters: Params | None) -> tuple[Any, ...]:
    """The values of a compiled statement's ``$n`` in order, through the bind processors of
    their types where the dialect has one (none of :mod:`db.schema`'s types has today)."""
    values = _positional(compiled, parameters)
    processors: Mapping[str, Callable[[Any], Any]] = getattr(compiled, "_bind_processors", {})
    if not processors:
        return values
    names: Sequence[str] = compiled.positiontup or ()  # type: ignore[attr-defined]
    return tuple(
        processors[name](value) if name in processors and value is not None else value
        for name, value in zip(names, values, strict=True)
    )


def _plain_insert(statement: Executable, compiled: Compiled) -> bool:
    """An ``INSERT`` of one row per set of parameters, without ``ON CONFLICT`` (which may skip
    a row) or ``RETURNING``."""
    return (
        bool(compiled.isinsert)  # type: ignore[attr-defined]
        and getattr(statement, "_post_values_clause", None) is None
        and not compiled.effective_returning  # type: ignore[attr-defined]
    )


def _status_count(status: str) -> int:
    """The rows a statement touched, from PostgreSQL's status (``INSERT 0 2``, ``UPDATE 3``);
    ``-1`` when it tells none (``SELECT`` aside, e.g. ``CREATE TABLE``)."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else -1


def _value(value: Any) -> Any:
    """PostgreSQL's ``NUMERIC`` (its ``SUM`` of integers) as SQLite gives it: ``int`` or
    ``float``."""
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


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
