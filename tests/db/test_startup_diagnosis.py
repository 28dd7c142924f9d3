"""``migrations.identify`` (and so ``Store.open``) tells the causes apart by SQLite's result
codes: not a database, damaged, locked by another program, read-only, cannot be opened. Only a
file that really is not a cribbage database gets the advice to point CRIBBAGE_DB elsewhere."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import aiosqlite
import pytest

from db import (
    CannotOpenDatabase,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseTooNew,
    NotACribbageDatabase,
    Store,
    StoreError,
)
from db.diagnosis import explain
from db.migrations import identify
from tests.db.test_startup import a_database_with_a_lobby, dump_database, read_only

NEW_FILE_ADVICE = "at a new file name"

HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


async def hold_lock(path: Path) -> asyncio.subprocess.Process:
    """Another process holding ``BEGIN EXCLUSIVE`` on ``path`` until :func:`release`."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLD_LOCK,
        str(path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    assert await asyncio.wait_for(process.stdout.readline(), 20) == b"locked\n"
    return process


async def release(process: asyncio.subprocess.Process) -> None:
    assert process.stdin is not None
    process.stdin.close()
    await asyncio.wait_for(process.wait(), 20)


async def identify_file(path: Path, *, busy_timeout_ms: int = 100) -> tuple[int, int]:
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        return await identify(conn, path)
    finally:
        await conn.close()


def rollback_journal(path: Path) -> None:
    """Switch a closed database to the rollback journal (as a backup file is)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


# ---------------------------------------------------------------------- not a database


async def test_random_bytes_are_not_a_database(tmp_path):
    path = tmp_path / "noise.db"
    path.write_bytes(os.urandom(16384))
    with pytest.raises(NotACribbageDatabase, match="not an SQLite database.*SQLITE_NOTADB"):
        await identify_file(path)
    with pytest.raises(NotACribbageDatabase, match=NEW_FILE_ADVICE):
        await Store.open(path)


async def test_a_damaged_database_is_not_called_a_stranger(tmp_path):
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xab" * (len(data) - 4096)  # every page after the first scribbled over
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseCorrupt) as caught:
        await identify_file(path)
    message = str(caught.value)
    assert str(path) in message and "SQLITE_CORRUPT" in message and "backup" in message
    assert NEW_FILE_ADVICE not in message
    assert path.read_bytes() == bytes(data)  # left as it was


# ---------------------------------------------------------------------- locked by another program


async def test_a_lock_held_by_another_process_is_busy_not_a_stranger(tmp_path):
    """A rollback-journal file (a restored backup) under another process's exclusive lock:
    even reading its header waits, then fails with SQLITE_BUSY. It used to be reported as
    "not an SQLite database ... point CRIBBAGE_DB at a new file name"."""
    path = tmp_path / "cribbage.db"
    rows = await a_database_with_a_lobby(path)
    rollback_journal(path)
    holder = await hold_lock(path)
    try:
        with pytest.raises(DatabaseBusy) as caught:
            await identify_file(path)
        message = str(caught.value)
        assert str(path) in message and "SQLITE_BUSY" in message
        assert "another program" in message and "The file itself is fine" in message
        assert NEW_FILE_ADVICE not in message
        with pytest.raises(DatabaseBusy, match="while reading its header"):
            await Store.open(path, busy_timeout_ms=100)
    finally:
        await release(holder)
    store = await Store.open(path)  # once the other program lets go, all is there
    assert [g.id for g in await store.games.load_active_games()] == [1]
    await store.close()
    assert dump_database(path) == rows


async def test_a_write_lock_on_a_wal_database_is_busy_at_the_write_probe(tmp_path):
    """In WAL mode readers pass, so the header reads fine; the write probe waits, then says."""
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    holder = await hold_lock(path)
    try:
        assert (await identify_file(path))[1] > 0
        with pytest.raises(DatabaseBusy, match="while checking that it can be written"):
            await Store.open(path, busy_timeout_ms=100)
    finally:
        await release(holder)


# ---------------------------------------------------------------------- read-only, cannot open


async def test_a_wal_database_in_a_read_only_directory_is_read_only(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cribbage.db"
    await a_database_with_a_lobby(path)
    with read_only(folder), pytest.raises(DatabaseNotWritable) as caught:
        await identify_file(path)
    message = str(caught.value)
    assert "SQLITE_CANTOPEN" in message and f"the directory {folder} is read-only" in message
    assert NEW_FILE_ADVICE not in message


async def test_a_directory_in_place_of_the_file_cannot_be_opened(tmp_path):
    with pytest.raises(CannotOpenDatabase, match="is a directory, not a file"):
        await Store.open(tmp_path)


async def test_a_missing_directory_cannot_be_opened(tmp_path):
    with pytest.raises(CannotOpenDatabase, match="directory .* does not exist"):
        await Store.open(tmp_path / "nowhere" / "cribbage.db")


# ---------------------------------------------------------------------- every code, one class


def sqlite_error(code: int, name: str, text: str) -> sqlite3.Error:
    err = sqlite3.OperationalError(text)
    err.sqlite_errorcode, err.sqlite_errorname = code, name  # type: ignore[attr-defined]
    return err


@pytest.mark.parametrize(
    ("code", "name", "kind"),
    [
        (sqlite3.SQLITE_NOTADB, "SQLITE_NOTADB", NotACribbageDatabase),
        (sqlite3.SQLITE_CORRUPT, "SQLITE_CORRUPT", DatabaseCorrupt),
        (sqlite3.SQLITE_BUSY, "SQLITE_BUSY", DatabaseBusy),
        (517, "SQLITE_BUSY_SNAPSHOT", DatabaseBusy),  # an extended code: its primary is BUSY
        (sqlite3.SQLITE_LOCKED, "SQLITE_LOCKED", DatabaseBusy),
        (sqlite3.SQLITE_READONLY, "SQLITE_READONLY", DatabaseNotWritable),
        (sqlite3.SQLITE_FULL, "SQLITE_FULL", DatabaseFull),
        (sqlite3.SQLITE_CANTOPEN, "SQLITE_CANTOPEN", CannotOpenDatabase),
        (sqlite3.SQLITE_PERM, "SQLITE_PERM", CannotOpenDatabase),
        (sqlite3.SQLITE_AUTH, "SQLITE_AUTH", CannotOpenDatabase),
        (sqlite3.SQLITE_IOERR, "SQLITE_IOERR", StoreError),
    ],
)
def test_each_result_code_has_its_error(tmp_path, code, name, kind):
    path = tmp_path / "cribbage.db"
    path.write_bytes(b"")
    err = explain(sqlite_error(code, name, "some words"), path, "opening it")
    assert type(err) is kind
    assert str(path) in str(err) and name in str(err)
    if kind is not NotACribbageDatabase:
        assert NEW_FILE_ADVICE not in str(err)


def test_the_causes_have_distinct_classes():
    kinds = {
        NotACribbageDatabase,
        DatabaseCorrupt,
        DatabaseBusy,
        DatabaseNotWritable,
        CannotOpenDatabase,
        DatabaseTooNew,
    }
    assert len(kinds) == 6 and all(issubclass(k, StoreError) for k in kinds)
    assert not any(issubclass(a, b) for a in kinds for b in kinds if a is not b)
