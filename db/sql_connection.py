"""The link to the database: one SQLAlchemy connection, as the repositories use it.

:class:`Connection` runs a statement (a Core construct built against :mod:`db.schema`'s tables,
or SQLite's text for the statements not yet written as Core) and gives back a :class:`Cursor`; on
PostgreSQL it also reaches asyncpg's own connection for the advisory locks and notifications.
:func:`connect_sqlite` and :func:`connect_postgresql` make one. The store's lock, transactions
and group commit sit above it in :mod:`db.connection`; the migrations take a :class:`Connection`
too, which is why it lives apart from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import decimal
import re
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

import aiosqlite
import asyncpg
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import CursorResult
from sqlalchemy.engine.interfaces import Compiled
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.base import Executable

from . import pg
from .errors import CannotOpenDatabase, Conflict, StoreError

Dialect = Literal["sqlite", "postgresql"]
#: A statement: a Core construct (select, insert, update, delete, a ``text``) or, until every
#: repository builds its own, SQLite's text with ``?`` / ``:name`` parameters.
Statement = Executable | str
Params = Sequence[Any] | Mapping[str, Any]
#: A write the schema refused, as a repository sees it inside a transaction: SQLite's
#: ``IntegrityError`` (translated when it leaves the transaction) or, on PostgreSQL, already
#: :class:`~db.errors.Conflict`.
REFUSED = (sqlite3.IntegrityError, Conflict)


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
    statement (or SQLite's text), :meth:`executemany`, and on PostgreSQL the advisory locks and
    notifications of the schema, which need asyncpg's own connection (``driver``).

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
        try:
            if isinstance(statement, str):
                return await self._execute_text(statement, parameters or ())
            result = await self._run(self.sa.execute(statement, parameters))
        except sa_exc.DBAPIError as err:
            raise self._driver_error(err) from err.orig
        return self._cursor(result)

    async def executemany(self, statement: Statement, parameters: Sequence[Params]) -> Cursor:
        """Run one statement once per set of parameters; ``rowcount`` is the sum of the rows
        touched. SQLite: the driver's ``executemany`` (one call); PostgreSQL: one statement per
        set, as asyncpg's batch cannot count the rows each touched."""
        if not parameters:
            return Cursor([], 0, None)
        if self._pg:
            total = 0
            for params in parameters:
                total += max(0, (await self.execute(statement, params)).rowcount)
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
        try:
            await self._run(self.sa.exec_driver_sql(sql))
        except sa_exc.DBAPIError as err:
            raise self._driver_error(err) from err.orig

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

    async def _execute_text(self, sql: str, parameters: Params) -> Cursor:
        if not self._pg:
            if not isinstance(parameters, Mapping):
                parameters = tuple(parameters)
            result = await self._run(self.sa.exec_driver_sql(sql, parameters))
            return self._cursor(result)
        text, names = pg.compile_sql(sql)
        if isinstance(parameters, Mapping):
            parameters = [parameters[name] for name in names]
        result = await self._run(self.sa.exec_driver_sql(text, tuple(parameters)))
        cursor = self._cursor(result)
        if pg.inserts_with_id(text) and cursor._rows:
            cursor.lastrowid = cursor._rows[-1][0]
            cursor.rowcount = len(cursor._rows)
        return cursor

    async def _run(self, statement: Awaitable[CursorResult[Any]]) -> CursorResult[Any]:
        """Await one statement; when the caller is cancelled meanwhile, the statement still runs
        to its end on the connection (the next one waits for it). SQLAlchemy takes a
        cancellation inside a statement for a lost connection and drops it, and with it
        SQLite's pragmas, PostgreSQL's session locks and its ``LISTEN``: the caller's
        transaction is rolled back instead (:func:`_atomic`)."""
        if self._unfinished is not None:
            unfinished, self._unfinished = self._unfinished, None
            with contextlib.suppress(Exception):
                await unfinished
        task = asyncio.ensure_future(statement)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._unfinished = task
            raise

    def _cursor(self, result: CursorResult[Any]) -> Cursor:
        rows: list[tuple[Any, ...]] = []
        if result.returns_rows:
            if self._pg:
                rows = [tuple(_value(v) for v in row) for row in result.all()]
            else:
                rows = [tuple(row) for row in result.all()]
        lastrowid = None if self._pg else result.lastrowid
        return Cursor(rows, result.rowcount, lastrowid)

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
    """A select (or a ``text``), or a write with ``RETURNING``."""
    writes = compiled.isinsert or compiled.isupdate or compiled.isdelete  # type: ignore[attr-defined]
    return not writes or bool(compiled.effective_returning)  # type: ignore[attr-defined]


def _positional(compiled: Compiled, parameters: Params | None) -> tuple[Any, ...]:
    """The values of a compiled statement's ``?`` in order: the caller's, or the bound ones."""
    values: Mapping[str, Any] = compiled.construct_params(parameters) or {}  # type: ignore[arg-type]
    names: Sequence[str] = getattr(compiled, "positiontup", None) or ()
    return tuple(values[name] for name in names)


def _value(value: Any) -> Any:
    """PostgreSQL's ``NUMERIC`` (its ``SUM`` of integers) as SQLite gives it: ``int`` or
    ``float``."""
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


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
