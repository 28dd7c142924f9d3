"""PostgreSQL behind the same store: the dialect layer over asyncpg.

``CRIBBAGE_DATABASE_URL=postgresql://user:password@host:port/database`` selects PostgreSQL
(:meth:`db.connection.Database.open` given such a URL); the repositories of :mod:`db` keep writing
SQLite's dialect and never learn which one they talk to. :class:`PgConnection` offers the part of
:class:`aiosqlite.Connection` they use (``execute`` with a cursor's ``rowcount``, ``lastrowid``,
``fetchone``, ``fetchall``; ``executemany``; ``execute_fetchall``) and turns each statement into
PostgreSQL's (:func:`translate`):

* ``INDEXED BY`` (SQLite's index hints) goes; placeholders ``?`` (and ``:name``) become
  ``$1, $2, ...``; ``BEGIN IMMEDIATE`` becomes ``BEGIN`` (one connection per process under
  the :class:`~db.connection.Database`'s lock, as with SQLite);
* ``CROSS JOIN t x ON`` (SQLite's join-order hint) becomes ``JOIN t x ON``; the few
  statements PostgreSQL reads otherwise are written for it beside SQLite's (:func:`override`);
* ``json_each(?)`` (a JSON list of ids) becomes ``json_array_elements_text(?::json)``;
  ``json_group_array(json_array(...))`` becomes ``json_agg(json_build_array(...))``;
* an ``INSERT`` into a table with an ``id`` identity gains ``RETURNING id`` (``lastrowid``);
* rows come back as tuples, ``NUMERIC`` (PostgreSQL's ``SUM`` of integers) as ``int`` or
  ``float``, as SQLite gives them;
* errors come back as the store's own (:func:`store_error`): a broken constraint or a
  trigger's refusal as :class:`~db.errors.Conflict`, a full disk as
  :class:`~db.errors.DatabaseFull`, a lock or deadlock as :class:`~db.errors.DatabaseBusy`, a
  lost connection as :class:`~db.errors.DatabaseUnavailable`, anything else as
  :class:`~db.errors.StoreError` (each with PostgreSQL's message).

Types (:mod:`db.pg_schema`): ``BIGINT`` for every integer (Discord ids are 64-bit), ``DOUBLE
PRECISION`` for times and ratings, ``BYTEA`` for the compressed archive; the bot's tables live in
one schema (the URL's ``schema`` query parameter, default ``cribbage``) with a version table,
migrated under ``pg_advisory_lock`` so that processes starting together migrate once.

>>> translate("SELECT a FROM t WHERE b = ? AND c IN (SELECT value FROM json_each(?))")[26:]
'$1 AND c IN (SELECT value::bigint FROM json_array_elements_text($2::json))'
>>> translate("INSERT INTO games (x) VALUES (?)")
'INSERT INTO games (x) VALUES ($1) RETURNING id'
>>> split_url("postgresql://u@h:5/db?schema=t1")
('postgresql://u@h:5/db', 't1')
"""

from __future__ import annotations

import decimal
import functools
import re
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from .errors import (
    CannotOpenDatabase,
    Conflict,
    DatabaseBusy,
    DatabaseFull,
    DatabaseUnavailable,
    StoreError,
)

#: Tables whose rows get their ``id`` from PostgreSQL (SQLite's ``INTEGER PRIMARY KEY``).
IDENTITY_TABLES = ("games", "matches", "archive_parts")
DEFAULT_SCHEMA = "cribbage"
#: The first key of the bot's advisory locks ("CRIB", as SQLite's application id); the second
#: is the hash of the schema (migrating) or of ``schema/name`` (:meth:`PgConnection.try_lock`).
LOCK_SPACE = 0x43524942
SCHEMES = ("postgresql://", "postgres://")

_INSERT_WITH_ID = re.compile(rf"^\s*INSERT\s+INTO\s+({'|'.join(IDENTITY_TABLES)})\b", re.I)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.I)
_JSON_EACH = re.compile(r"SELECT\s+value\s+FROM\s+json_each\(\?\)", re.I)
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
#: Statements PostgreSQL cannot read even translated, by their SQLite text (:func:`override`).
_OVERRIDES: dict[str, str] = {}


def override(sqlite_sql: str, postgresql_sql: str) -> str:
    """Run ``postgresql_sql`` (still with ``?``/``:name`` parameters) on PostgreSQL wherever a
    repository runs ``sqlite_sql``: for a statement SQLite's idioms shape (``SUM`` of a
    comparison, say). Returns ``sqlite_sql``, so a module writes
    ``STATS = pg.override(sqlite_text, postgresql_text)``."""
    _OVERRIDES[sqlite_sql] = postgresql_sql
    return sqlite_sql


def is_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def split_url(url: str) -> tuple[str, str]:
    """The URL asyncpg connects to, and the schema (the ``schema`` query parameter)."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), DEFAULT_SCHEMA)
    if not _SCHEMA_NAME.match(schema):
        raise ValueError(f"schema must be a lower-case SQL name, not {schema!r}")
    rest = urllib.parse.urlencode([(k, v) for k, v in query if k != "schema"])
    return urllib.parse.urlunsplit(parts._replace(query=rest)), schema


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def translate(sql: str) -> str:
    """One statement of SQLite's dialect (as :mod:`db` writes them) in PostgreSQL's."""
    return compile_sql(sql)[0]


def sum_of_truths(sql: str, *conditions: str) -> str:
    """``sql`` with each ``SUM(condition)`` (SQLite: a comparison is 0 or 1) as PostgreSQL's
    ``SUM((condition)::int)``."""
    for condition in conditions:
        sql = sql.replace(f"SUM({condition})", f"SUM(({condition})::int)")
    return sql


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=1024)
def compile_sql(sql: str) -> tuple[str, tuple[str, ...]]:
    """The statement in PostgreSQL's dialect, and the names of its ``:name`` parameters in the
    order of their numbers (empty for ``?`` parameters)."""
    sql = _OVERRIDES.get(sql, sql)
    sql = re.sub(r"--[^\n]*", "", sql)  # comments (their apostrophes are no quotes)
    # SQLite's CROSS JOIN ... ON fixes the join order; PostgreSQL's planner chooses its own.
    sql = re.sub(r"\bCROSS\s+JOIN(\s+\w+\s+\w+\s+ON)\b", r"JOIN\1", sql, flags=re.I)
    sql = re.sub(r"^\s*BEGIN\s+IMMEDIATE\b", "BEGIN", sql, flags=re.I)
    sql = re.sub(r"\s+(INDEXED\s+BY\s+\w+|NOT\s+INDEXED)\b", "", sql, flags=re.I)
    sql = _JSON_EACH.sub("SELECT value::bigint FROM json_array_elements_text(?::json)", sql)
    sql = sql.replace("json_group_array(json_array(", "json_agg(json_build_array(")
    out: list[str] = []
    names: list[str] = []
    number = 0
    for i, piece in enumerate(sql.split("'")):
        if i % 2:  # inside a string literal
            out.append(piece)
            continue
        chars: list[str] = []
        for char in piece:
            if char == "?":
                number += 1
                chars.append(f"${number}")
            else:
                chars.append(char)
        out.append(_NAMED.sub(lambda m: _name(m.group(1), names), "".join(chars)))
    sql = "'".join(out)
    if _INSERT_WITH_ID.match(sql) and not re.search(r"\bRETURNING\b", sql, re.I):
        sql = sql.rstrip().rstrip(";") + " RETURNING id"
    return sql, tuple(names)


def _name(name: str, names: list[str]) -> str:
    if name not in names:
        names.append(name)
    return f"${names.index(name) + 1}"


def _value(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _row(record: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(_value(v) for v in record)


def _count(status: str) -> int:
    """The rows an ``INSERT``/``UPDATE``/``DELETE`` touched, from PostgreSQL's status line."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


#: What asyncpg raises: the server's refusals, the client's (a connection closed, an operation
#: in progress), and the socket's.
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
_BUSY = (
    asyncpg.LockNotAvailableError,
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
)
_UNAVAILABLE = (
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    OSError,
)


def store_error(err: BaseException) -> StoreError:
    """PostgreSQL's (or asyncpg's: a connection lost, an operation still in progress) error as
    the store's own.

    >>> type(store_error(asyncpg.UniqueViolationError("duplicate key"))).__name__
    'Conflict'
    >>> type(store_error(asyncpg.DiskFullError("no space left on device"))).__name__
    'DatabaseFull'
    """
    message = f"PostgreSQL: {err}"
    if isinstance(err, asyncpg.IntegrityConstraintViolationError):
        return Conflict(f"The database refused the write ({message}).")
    if isinstance(err, asyncpg.DiskFullError):
        return DatabaseFull(
            f"The PostgreSQL server's disk is full ({message}): nothing more can be written "
            "until its administrator frees space. What was saved before is intact."
        )
    if isinstance(err, _BUSY):
        return DatabaseBusy(f"The database was busy ({message}); nothing was done.")
    if isinstance(err, _UNAVAILABLE):
        return DatabaseUnavailable(f"The PostgreSQL server cannot be reached now ({message}).")
    return StoreError(f"The database refused ({message}).")


class PgCursor:
    """What a statement left: its rows, the rows it touched, the ``id`` an insert made."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows, []
        return rows


class PgConnection:
    """One asyncpg connection speaking to the repositories in SQLite's dialect."""

    def __init__(self, conn: asyncpg.Connection, schema: str) -> None:
        self.raw = conn
        self.schema = schema

    async def execute(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()
    ) -> PgCursor:
        text, names = compile_sql(sql)
        if isinstance(parameters, Mapping):
            parameters = [parameters[name] for name in names]
        try:
            if text == "BEGIN" and self.raw.is_in_transaction():
                # a transaction a cancelled task left open: roll it back, as SQLite's would be
                await self.raw.execute("ROLLBACK")
            if _RETURNS_ROWS.search(text):
                rows = [_row(r) for r in await self.raw.fetch(text, *parameters)]
                lastrowid = rows[-1][0] if rows and _INSERT_WITH_ID.match(text) else None
                returning = "RETURNING" in text.upper()
                return PgCursor(rows, len(rows) if returning else -1, lastrowid)
            status = await self.raw.execute(text, *parameters)
        except DRIVER_ERRORS as err:
            raise store_error(err) from err
        return PgCursor([], _count(status), None)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> PgCursor:
        total = 0
        for params in parameters:
            total += max(0, (await self.execute(sql, params)).rowcount)
        return PgCursor([], total, None)

    async def execute_fetchall(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[tuple[Any, ...]]:
        return await (await self.execute(sql, parameters)).fetchall()

    async def transaction_lock(self, name: str) -> None:
        """Wait for the advisory lock ``name`` (of this schema) until the transaction ends:
        processes sharing the database do this part one at a time (e.g. rating games)."""
        await self.raw.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCK_SPACE, f"{self.schema}/{name}"
        )

    async def try_lock(self, name: str) -> bool:
        """Take the advisory lock ``name`` (of this schema) for as long as the connection
        lives, if no other connection holds it; whether this one holds it now."""
        held = await self.raw.fetchval(
            "SELECT pg_try_advisory_lock($1, hashtext($2))", LOCK_SPACE, f"{self.schema}/{name}"
        )
        return bool(held)

    def channel(self, name: str) -> str:
        """The notification channel ``name`` of this schema (schemas sharing a database do not
        hear each other; PostgreSQL's names stop at 63 bytes)."""
        return f"{self.schema}/{name}"[:63]

    async def listen(self, name: str, heard: Callable[[str], None]) -> None:
        """Call ``heard(payload)`` for each :meth:`notify` of ``name`` that another connection
        commits (PostgreSQL's ``LISTEN``; asyncpg reads the notices as they come, between
        statements too)."""
        own = self.raw.get_server_pid()

        def deliver(conn: object, pid: int, channel: str, payload: object) -> None:
            if pid != own:  # this connection's own notices: it knows already
                heard(str(payload))

        try:
            await self.raw.add_listener(self.channel(name), deliver)
        except DRIVER_ERRORS as err:
            raise store_error(err) from err

    async def notify(self, name: str, payload: str) -> None:
        """Tell the connections listening to ``name`` ``payload``, when (and only if) the
        current transaction commits (``pg_notify``)."""
        await self.execute("SELECT pg_notify(?, ?)", (self.channel(name), payload))

    async def unlock(self, name: str) -> None:
        await self.raw.execute(
            "SELECT pg_advisory_unlock($1, hashtext($2))", LOCK_SPACE, f"{self.schema}/{name}"
        )

    async def close(self) -> None:
        await self.raw.close()


@asynccontextmanager
async def advisory_lock(conn: asyncpg.Connection, key: int, schema: str) -> AsyncIterator[None]:
    """``pg_advisory_lock(key, hashtext(schema))`` held while the block runs."""
    await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", key, schema)
    try:
        yield
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", key, schema)


async def connect(url: str) -> PgConnection:
    """Connect to the URL's database with the URL's schema first on the ``search_path``."""
    dsn, schema = split_url(url)
    try:
        conn = await asyncpg.connect(dsn, server_settings={"search_path": schema})
    except DRIVER_ERRORS as err:
        raise CannotOpenDatabase(
            f"Cannot connect to the PostgreSQL database {redact(dsn)}: {err}. Check "
            "CRIBBAGE_DATABASE_URL (host, port, user, password, database) and that the server "
            "is running."
        ) from err
    return PgConnection(conn, schema)
