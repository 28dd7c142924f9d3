"""The store's exceptions. Messages are written for the operator who starts the bot: each names
the file and the likely cause, and says what to do (see :mod:`db.diagnosis`).

Only :class:`NotACribbageDatabase` ever suggests pointing ``CRIBBAGE_DB`` at a new file: every
other error concerns the bot's own database, whose games a new file would leave behind.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises: nothing outside :mod:`db` sees a driver's
    own exception (``sqlite3``'s, asyncpg's). Anything the database refuses that no subclass
    names comes out as a plain :class:`StoreError` whose message quotes the database."""


class NotACribbageDatabase(StoreError):
    """The file is not a cribbage-bot database (another app's SQLite file, a text file, ...).

    Raised before anything is written: the file is left exactly as it was.
    """


class DatabaseCorrupt(StoreError):
    """The file is an SQLite database but damaged (``SQLITE_CORRUPT``): restore a backup."""


class DatabaseTooNew(StoreError):
    """The database was written by a newer cribbage-bot; this version will not touch it."""


class DatabaseBusy(StoreError):
    """Another program holds the database's lock (``SQLITE_BUSY`` / ``SQLITE_LOCKED``): another
    cribbage-bot, an ``sqlite3`` shell in a transaction, a backup tool (PostgreSQL: a lock that
    could not be had, a deadlock). The file is fine; nothing was done: try again."""


class DatabaseNotWritable(StoreError):
    """The database can be read but not written: a read-only file, a read-only directory (so the
    ``-wal`` / ``-journal`` files cannot be created), a read-only file system, a full disk."""


class CannotOpenDatabase(StoreError):
    """The file cannot be opened at all (``SQLITE_CANTOPEN`` / ``SQLITE_PERM`` /
    ``SQLITE_AUTH``): a missing directory, a directory in its place, no permission to read."""


class Conflict(StoreError):
    """A write broke a rule of the schema (a second open game in a channel, a taken seat, a
    change to the append-only log, ...); it was rolled back."""


class DatabaseFull(DatabaseNotWritable):
    """The disk (or the PostgreSQL server's disk, or a quota) is full: nothing more can be
    written until space is freed. What was committed before is intact."""


class DatabaseUnavailable(StoreError):
    """The database server cannot be reached now (PostgreSQL: the connection was lost, the
    server is shutting down or refuses more connections); the data is not in question."""
