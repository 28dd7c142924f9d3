"""Why SQLite refused: an ``sqlite3.Error`` turned into the store's error for the operator.

SQLite says *what* failed in its result code (``sqlite3.Error.sqlite_errorcode``); the file
system says *why*. :func:`explain` reads both and returns one of :mod:`db.errors`' classes with
a one-paragraph message that names the file, the likely cause and what to do:

===========================================  ==============================================
SQLite result code                           error
===========================================  ==============================================
``SQLITE_NOTADB``                            :class:`~db.errors.NotACribbageDatabase`
``SQLITE_CORRUPT``                           :class:`~db.errors.DatabaseCorrupt`
``SQLITE_BUSY``, ``SQLITE_LOCKED``           :class:`~db.errors.DatabaseBusy`
``SQLITE_READONLY``                          :class:`~db.errors.DatabaseNotWritable`
``SQLITE_FULL``                              :class:`~db.errors.DatabaseFull`
``SQLITE_CANTOPEN``, ``SQLITE_PERM``,        :class:`~db.errors.CannotOpenDatabase` (or
``SQLITE_AUTH``                              ``DatabaseNotWritable`` when the file is there
                                             but its directory is read-only)
===========================================  ==============================================

While the bot runs, :func:`runtime_error` does the same for a statement's error, and a broken
constraint (``SQLITE_CONSTRAINT``) becomes :class:`~db.errors.Conflict`.

>>> import sqlite3
>>> err = sqlite3.DatabaseError("database is locked")
>>> err.sqlite_errorcode, err.sqlite_errorname = sqlite3.SQLITE_BUSY, "SQLITE_BUSY"
>>> type(explain(err, Path("cribbage.db"), "opening it")).__name__
'DatabaseBusy'
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .errors import (
    CannotOpenDatabase,
    Conflict,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseNotWritable,
    NotACribbageDatabase,
    StoreError,
)

#: Below this much free space the disk counts as full (a deal's writes need a few pages).
MIN_FREE_BYTES = 1 << 20

_CANNOT_OPEN = (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH)
#: What the driver raises: SQLite's DB-API errors (aiosqlite passes them through).
DRIVER_ERRORS = (sqlite3.Error,)


def primary_code(err: sqlite3.Error) -> int | None:
    """SQLite's primary result code of ``err`` (``SQLITE_BUSY`` for ``SQLITE_BUSY_SNAPSHOT``)."""
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _sqlite_says(err: sqlite3.Error) -> str:
    name = getattr(err, "sqlite_errorname", None)
    return f"SQLite: {err}" + (f", {name}" if name else "")


def explain(err: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """The store's error for ``err``, raised while ``doing`` (e.g. "reading its header")."""
    code = primary_code(err)
    says = _sqlite_says(err)
    if code == sqlite3.SQLITE_NOTADB:
        return NotACribbageDatabase(
            f"{path} is not an SQLite database ({says}). cribbage-bot did not change it. "
            "Point CRIBBAGE_DB at the bot's own database file, or at a new file name."
        )
    if code == sqlite3.SQLITE_CORRUPT:
        return DatabaseCorrupt(
            f"The database {path} is damaged ({says}, while {doing}). cribbage-bot did not "
            "change it. Stop the bot, keep a copy of the damaged file, restore your latest "
            "backup over it and run `cribbage-bot check` before starting again "
            "(docs/admin/operations.md: Restore). Do not start the bot on a new file: it would "
            "begin with no games and no standings."
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return DatabaseBusy(
            f"The database {path} is locked by another program ({says}, while {doing}): most "
            "likely another cribbage-bot on the same file, an sqlite3 shell with a transaction "
            "open, or a backup or copy tool holding a lock. The file itself is fine. Stop the "
            "other program (or wait until it finishes) and start the bot again."
        )
    if code == sqlite3.SQLITE_FULL:
        return DatabaseFull(full_message(path, f"{says}, while {doing}"))
    if code == sqlite3.SQLITE_READONLY:
        return DatabaseNotWritable(not_writable_message(path, f"{says}, while {doing}"))
    if code in _CANNOT_OPEN:
        if path.is_file() and os.access(path, os.R_OK) and not _writable_dir(path.parent):
            return DatabaseNotWritable(not_writable_message(path, f"{says}, while {doing}"))
        return CannotOpenDatabase(cannot_open_message(path, says))
    return StoreError(f"The database {path} failed while {doing} ({says}).")


def runtime_error(err: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """The store's error for a statement SQLite refused while the bot runs: a broken constraint
    or a trigger's refusal is a :class:`~db.errors.Conflict`, the rest as :func:`explain`."""
    if isinstance(err, sqlite3.IntegrityError):
        return Conflict(f"The database refused the write ({_sqlite_says(err)}).")
    return explain(err, path, doing)


def full_message(path: Path, detail: str) -> str:
    """The disk holding ``path`` is full (SQLite said ``SQLITE_FULL``)."""
    cause = disk_full(path) or (
        f"the disk holding {path.parent} is full, or the bot's user reached its quota, or the "
        "file reached the largest size the file system allows. Free some space."
    )
    return (
        f"The database {path} cannot be written ({detail}): {cause} Nothing more can be saved "
        "until there is room; the games saved so far are intact (do not point CRIBBAGE_DB at a "
        "new file)."
    )


def cannot_open_message(path: Path, says: str | None = None) -> str:
    """Why ``path`` cannot be opened at all, as far as the file system tells."""
    parent = path.parent
    if not parent.is_dir():
        cause = (
            f"the directory {parent} does not exist. Create it, or point CRIBBAGE_DB at a file "
            "in an existing directory."
        )
    elif path.is_dir():
        cause = f"{path} is a directory, not a file. Point CRIBBAGE_DB at the database file."
    elif path.exists() and not os.access(path, os.R_OK):
        cause = (
            "the bot's user may not read the file. Give it read and write permission (chown / "
            "chmod), or run the bot as the user that owns the file."
        )
    elif not path.exists() and not _writable_dir(parent):
        cause = (
            f"the file does not exist and the directory {parent} is read-only, so it cannot be "
            "created. Make the directory writable for the bot's user, or point CRIBBAGE_DB at a "
            "file in a writable directory."
        )
    elif not path.exists():
        cause = "there is no such file. Check the path."
    else:
        cause = "check that the path is right and that the bot's user may read and write it."
    return f"Cannot open the database {path}" + (f" ({says})" if says else "") + f": {cause}"


def in_use_message(path: Path, lock: Path, holder: int | None) -> str:
    """Why a second bot process may not open ``path``: another one holds its ``lock`` file."""
    who = "another process" if holder is None else f"another process (pid {holder})"
    return (
        f"The database {path} is already in use: {who} runs cribbage-bot on it (it holds "
        f"the lock {lock}). Two bots on one SQLite file would both resume and answer the same "
        "games, so this one stops here and changed nothing. Stop the other process first (or "
        "give this one its own file with CRIBBAGE_DB). The lock goes with its process, even "
        "one that was killed, so once the other process is gone the bot starts again."
    )


def not_writable_message(path: Path, detail: str) -> str:
    """Why ``path`` can be read but not written, as far as the file system tells."""
    cause = write_blocker(path)
    if cause is None:
        cause = "SQLite could not write to it; check the disk and the file's permissions."
    return (
        f"The database {path} cannot be written ({detail}): {cause} The bot would start and "
        "then fail every move, so it stops here. Fix it and start again; the games in the "
        "file are intact (do not point CRIBBAGE_DB at a new file)."
    )


def write_blocker(path: Path) -> str | None:
    """The reason the file system gives for ``path`` not being writable, or ``None``."""
    parent = path.parent
    try:
        fs = os.statvfs(parent)
    except OSError:
        fs = None
    if fs is not None and fs.f_flag & os.ST_RDONLY:
        return f"the file system holding {parent} is mounted read-only."
    if path.exists() and not os.access(path, os.W_OK):
        return (
            f"the file {path} is read-only (its permissions, its owner, or an immutable "
            "attribute: see ls -l and lsattr). Make it writable for the bot's user."
        )
    if not _writable_dir(parent):
        return (
            f"the directory {parent} is read-only, so SQLite cannot create the files it writes "
            f"next to the database ({path.name}-wal, {path.name}-shm, {path.name}-journal). "
            "Make the directory writable for the bot's user."
        )
    for sidecar in ("-wal", "-shm", "-journal"):
        extra = path.with_name(path.name + sidecar)
        if extra.exists() and not os.access(extra, os.W_OK):
            return f"the file {extra} (SQLite's own, next to the database) is read-only."
    return disk_full(path)


def disk_full(path: Path) -> str | None:
    """A full disk, when less than :data:`MIN_FREE_BYTES` are free beside ``path``.

    A write that is rolled back never reaches the disk in WAL mode, so the probe at start
    cannot see a full disk: this is asked separately."""
    try:
        fs = os.statvfs(path.parent)
    except OSError:
        return None
    free = fs.f_bavail * fs.f_frsize
    if free >= MIN_FREE_BYTES:
        return None
    return f"the disk holding {path.parent} is full ({free} bytes free). Free some space."


def _writable_dir(directory: Path) -> bool:
    return os.access(directory, os.W_OK | os.X_OK)
