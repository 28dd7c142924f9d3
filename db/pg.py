"""What is PostgreSQL's own behind the store: its URL, its advisory locks and notifications,
and its errors as the store's.

``CRIBBAGE_DATABASE_URL=postgresql://user:password@host:port/database`` selects PostgreSQL
(:func:`db.opening.open_database` given such a URL, :func:`is_url`); the ``schema`` query
parameter names the schema the bot's tables live in (default ``cribbage``, :func:`split_url`),
and :func:`redact` drops the password from what is logged. The repositories write their
statements once as SQLAlchemy Core, which compiles them for either dialect; where the dialects
differ (an upsert, a JSON aggregate) a repository writes both side by side.

* The advisory locks (key :data:`LOCK_SPACE` and the hash of the schema or of a lock's name):
  :func:`lock_statement` while the schema is migrated (:func:`db.migrations.migrate_postgresql`),
  and the statements of :meth:`db.connection.Connection.try_lock`, ``transaction_lock`` and
  ``notify``;
* errors come back as the store's own (:func:`store_error`): a broken constraint or a
  trigger's refusal as :class:`~db.errors.Conflict`, a full disk as
  :class:`~db.errors.DatabaseFull`, a lock or deadlock as :class:`~db.errors.DatabaseBusy`, a
  lost connection as :class:`~db.errors.DatabaseUnavailable`, anything else as
  :class:`~db.errors.StoreError` (each with PostgreSQL's message).

Types (:mod:`db.schema`): ``BIGINT`` for every integer (Discord ids are 64-bit), ``DOUBLE
PRECISION`` for times and ratings, ``BYTEA`` for the compressed archive.

>>> split_url("postgresql://u@h:5/db?schema=t1")
('postgresql://u@h:5/db', 't1')
>>> redact("postgresql://bot:secret@h/db")
'postgresql://bot:***@h/db'
"""

from __future__ import annotations

import re
import urllib.parse
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

DEFAULT_SCHEMA = "cribbage"
#: The first key of the bot's advisory locks ("CRIB", as SQLite's application id); the second
#: is the hash of the schema (migrating) or of ``schema/name`` (:meth:`Connection.try_lock
#: <db.connection.Connection.try_lock>`).
LOCK_SPACE = 0x43524942
SCHEMES = ("postgresql://", "postgres://")

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


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


_SPACE = bindparam("space", type_=Integer)
_KEY = func.hashtext(bindparam("key", type_=Text))
_LOCK = select(func.pg_advisory_lock(_SPACE, _KEY))
_XACT_LOCK = select(func.pg_advisory_xact_lock(_SPACE, _KEY))
_TRY_LOCK = select(func.pg_try_advisory_lock(_SPACE, _KEY))
_UNLOCK = select(func.pg_advisory_unlock(_SPACE, _KEY))
_NOTIFY = select(func.pg_notify(bindparam("channel", type_=Text), bindparam("payload", type_=Text)))


def lock_statement() -> Select[Any]:
    """``pg_advisory_lock(:space, hashtext(:key))``: waited for, then held until unlocked (or
    the connection ends)."""
    return _LOCK


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
