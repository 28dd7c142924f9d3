"""Opening the store: a database that cannot be written is caught at once (a write inside a
transaction, rolled back), with one message naming the file and the cause.

The tests run as root, and root ignores permission bits: :func:`read_only` uses ``chattr +i``
(the immutable attribute binds root too) when running as root and ``chmod`` otherwise, checks
that writing really fails, and skips the test when this machine cannot make a path read-only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from db import (
    LATEST_VERSION,
    CannotOpenDatabase,
    DatabaseNotWritable,
    DatabaseTooNew,
    NotACribbageDatabase,
    Store,
)

NEW_FILE_ADVICE = "point CRIBBAGE_DB at a new file name"


def _writes_fail(path: Path) -> bool:
    try:
        if path.is_dir():
            probe = path / ".write-probe"
            probe.write_bytes(b"")
            probe.unlink()
        else:
            with path.open("ab"):
                pass
    except OSError:
        return True
    return False


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or a directory) read-only for this process, even as root."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a path read-only")
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i refused here: {done.stderr.strip()}")

        def undo() -> None:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)

        def undo() -> None:
            path.chmod(mode)

    try:
        if not _writes_fail(path):
            pytest.skip(f"{path} stays writable here (file system without attributes?)")
        yield
    finally:
        undo()


def dump_database(path: Path) -> list[str]:
    """Every row as SQL text, read by an ordinary connection: the last to close, it leaves no
    -wal or -shm file behind (a read-only connection would, and they let SQLite read a WAL
    database in a read-only directory)."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def a_database_with_a_lobby(path: Path) -> list[str]:
    """A closed cribbage database holding one lobby, alone in its directory; its rows."""
    store = await Store.open(path)
    await store.lobbies.create_lobby(
        guild_id=1, channel_id=2, host_id=3, players=2, partnerships=False, target=121, now=0.0
    )
    await store.close()
    rows = dump_database(path)
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)) == [
        path.name
    ]
    return rows


async def test_a_read_only_file_is_refused_at_open(tmp_path):
    path = tmp_path / "cribbage.db"
    rows = await a_database_with_a_lobby(path)
    before = path.read_bytes()
    with read_only(path), pytest.raises(DatabaseNotWritable) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert str(path) in message and "SQLITE_READONLY" in message
    assert f"the file {path} is read-only" in message
    assert NEW_FILE_ADVICE not in message and "\n" not in message
    assert path.read_bytes() == before and dump_database(path) == rows


async def test_a_read_only_directory_is_refused_at_open(tmp_path):
    """The WAL database's -wal and -shm files cannot be created beside it."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cribbage.db"
    rows = await a_database_with_a_lobby(path)
    with read_only(folder), pytest.raises(DatabaseNotWritable) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert f"the directory {folder} is read-only" in message and "cribbage.db-wal" in message
    assert NEW_FILE_ADVICE not in message
    assert dump_database(path) == rows


async def test_a_restored_backup_in_a_read_only_directory_is_refused(tmp_path):
    """A backup is a rollback-journal file: it reads fine, but its -journal cannot be created."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cribbage.db"
    await a_database_with_a_lobby(tmp_path / "live.db")
    conn = sqlite3.connect(tmp_path / "live.db")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    shutil.copy(tmp_path / "live.db", path)
    with read_only(folder), pytest.raises(DatabaseNotWritable, match="directory .* is read-only"):
        await Store.open(path)


async def test_a_new_database_in_a_read_only_directory_cannot_be_created(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    with read_only(folder), pytest.raises(CannotOpenDatabase, match="cannot be created"):
        await Store.open(folder / "cribbage.db")
    assert not (folder / "cribbage.db").exists()


async def test_a_full_disk_is_named(tmp_path, monkeypatch):
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    real = os.statvfs(tmp_path)

    class Full:
        f_flag, f_frsize, f_bavail = real.f_flag, real.f_frsize, 0

    monkeypatch.setattr("db.diagnosis.os.statvfs", lambda _: Full)
    with pytest.raises(DatabaseNotWritable, match=r"the disk holding .* is full \(0 bytes free\)"):
        await Store.open(path)


async def test_the_write_probe_leaves_no_trace(tmp_path):
    path = tmp_path / "cribbage.db"
    rows = await a_database_with_a_lobby(path)
    store = await Store.open(path)
    await store.close()
    assert dump_database(path) == rows
    assert not any("cribbage_write_probe" in row for row in rows)


async def test_a_read_only_open_writes_nothing_and_refuses_writes(tmp_path):
    path = tmp_path / "cribbage.db"
    rows = await a_database_with_a_lobby(path)
    store = await Store.open(path, read_only=True)
    try:
        assert [g.id for g in await store.games.load_active_games()] == [1]
        with pytest.raises(DatabaseNotWritable, match="opened read-only"):
            await store.meta.set("k", "v")
    finally:
        await store.close()
    assert dump_database(path) == rows
    reader = await Store.open(path, read_only=True)  # sees the moment it was opened
    try:
        writer = await Store.open(path)
        await writer.meta.set("later", "yes")
        await writer.close()
        assert await reader.meta.get("later") is None
    finally:
        await reader.close()
    with pytest.raises(CannotOpenDatabase, match="no such file"):
        await Store.open(tmp_path / "missing.db", read_only=True)


def files_in(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


async def test_a_read_only_opening_leaves_no_wal_files_behind(tmp_path):
    """Reading a WAL database makes SQLite create its -wal and -shm files, which a read-only
    connection cannot remove: ``check`` and ``backup`` would leave them beside the file."""
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    before = files_in(tmp_path)
    store = await Store.open(path, read_only=True)
    try:
        assert [g.id for g in await store.games.load_active_games()] == [1]
        assert path.with_name("cribbage.db-shm").exists()  # SQLite's, while it reads
    finally:
        await store.close()
    assert files_in(tmp_path) == before


def wal_database_of_another_program(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.close()


async def a_newer_database(path: Path) -> None:
    await a_database_with_a_lobby(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()


async def test_a_refused_read_only_opening_leaves_the_directory_as_it_was(tmp_path):
    other = tmp_path / "notes.db"
    wal_database_of_another_program(other)
    newer = tmp_path / "newer.db"
    await a_newer_database(newer)
    before = files_in(tmp_path)
    assert before == ["newer.db", "notes.db"]
    with pytest.raises(NotACribbageDatabase):
        await Store.open(other, read_only=True)
    with pytest.raises(DatabaseTooNew):
        await Store.open(newer, read_only=True)
    with pytest.raises(CannotOpenDatabase, match="no such file"):
        await Store.open(tmp_path / "missing.db", read_only=True)
    assert files_in(tmp_path) == before
    conn = sqlite3.connect(other)
    assert conn.execute("SELECT body FROM notes").fetchall() == [("mine",)]
    conn.close()


async def test_a_read_only_opening_leaves_the_wal_files_of_a_running_bot(tmp_path):
    """The bot holds the database open: its -wal and -shm stay while it runs, its writes
    after the reader closed are kept, and it removes them itself when it closes."""
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    before = files_in(tmp_path)
    bot = await Store.open(path, exclusive=True)
    try:
        await bot.meta.set("before", "1")
        reader = await Store.open(path, read_only=True)
        try:
            assert await reader.meta.get("before") == "1"
        finally:
            await reader.close()
        assert {"cribbage.db-wal", "cribbage.db-shm"} <= set(files_in(tmp_path))
        await bot.meta.set("after", "2")
        assert await bot.meta.get("before") == "1"
    finally:
        await bot.close()
    assert files_in(tmp_path) == [*before, "cribbage.db.lock"]  # the lock file stays
    reader = await Store.open(path, read_only=True)
    try:
        assert [await reader.meta.get(k) for k in ("before", "after")] == ["1", "2"]
    finally:
        await reader.close()


async def test_acknowledged_commits_are_synced_to_the_disk(tmp_path):
    """synchronous=FULL: a commit survives a power cut, not only a killed process."""
    store = await Store.open(tmp_path / "cribbage.db")
    try:
        assert await store._database.fetchall("PRAGMA synchronous") == [(2,)]  # FULL
        assert await store._database.fetchall("PRAGMA journal_mode") == [("wal",)]
    finally:
        await store.close()
    store = await Store.open(tmp_path / "cribbage.db", synchronous="NORMAL")
    try:
        assert await store._database.fetchall("PRAGMA synchronous") == [(1,)]
    finally:
        await store.close()
