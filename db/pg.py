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

import functools
import re
import urllib.parse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from sqlalchemy import Integer, Select, Text, bindparam, func, select

from .errors import (
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


def inserts_with_id(sql: str) -> bool:
    """Whether the (translated) statement inserts into a table whose ``id`` PostgreSQL numbers,
    returning it."""
    return bool(_INSERT_WITH_ID.match(sql))


_SPACE = bindparam("space", type_=Integer)
_KEY = func.hashtext(bindparam("key", type_=Text))
_XACT_LOCK = select(func.pg_advisory_xact_lock(_SPACE, _KEY))
_TRY_LOCK = select(func.pg_try_advisory_lock(_SPACE, _KEY))
_UNLOCK = select(func.pg_advisory_unlock(_SPACE, _KEY))
_NOTIFY = select(func.pg_notify(bindparam("channel", type_=Text), bindparam("payload", type_=Text)))


def xact_lock_statement() -> Select[Any]:
    """``pg_advisory_xact_lock(:space, hashtext(:key))``: held until the transaction ends."""
    return _XACT_LOCK


def try_lock_statement() -> Select[Any]:
    """``pg_try_advisory_lock(:space, hashtext(:key))``: held while the connection lives."""
    return _TRY_LOCK


def unlock_statement() -> Select[Any]:
    return _UNLOCK


def notify_statement() -> Select[Any]:
    """``pg_notify(:channel, :payload)``: sent when the transaction commits."""
    return _NOTIFY


@asynccontextmanager
async def advisory_lock(conn: asyncpg.Connection, key: int, schema: str) -> AsyncIterator[None]:
    """``pg_advisory_lock(key, hashtext(schema))`` held while the block runs."""
    await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", key, schema)
    try:
        yield
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", key, schema)
