"""What ``/healthz`` and ``/metrics`` read from the store, on SQLite and PostgreSQL: the write
check (a write rolled back) and the group commit's observers."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest
from sqlalchemy import text

from db import Store
from db.errors import DatabaseBusy, StoreError
from db.opening import open_database


async def test_the_write_check_passes_and_writes_nothing(database):
    store = await Store.open(database)
    try:
        await store.check_writable()
        await store.check_writable()
        assert await store.meta.get("write_check") is None  # rolled back
    finally:
        await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.check_writable()


@pytest.mark.sqlite_only
async def test_the_write_check_fails_while_another_program_holds_the_file(tmp_path):
    path = tmp_path / "held.db"
    store = await Store.open(path, busy_timeout_ms=50)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy, match="locked"):
            await store.check_writable()
        other.execute("ROLLBACK")
        await store.check_writable()  # free again: it passes, and the connection still works
        await store.meta.set("after", "yes")
        assert await store.meta.get("after") == "yes"
    finally:
        other.close()
        await store.close()


_INSERT = text("INSERT INTO meta (key, value) VALUES (:key, :value)")


async def write_pairs(conn, items) -> None:
    for key, value in items:
        await conn.execute(_INSERT, {"key": key, "value": value})


async def test_each_group_commit_is_told_to_the_observers_and_a_failing_one_changes_nothing(
    database, caplog
):
    db = await open_database(database)
    seen: list[tuple[float, int]] = []

    def broken(seconds: float, items: int) -> None:
        raise RuntimeError("an observer's bug")

    db.commit_observers.extend([lambda s, n: seen.append((s, n)), broken])
    writer = db.group_commit(write_pairs)
    try:
        with caplog.at_level(logging.ERROR, logger="db.connection"):
            await asyncio.gather(*(writer.submit((f"k{i}", "v")) for i in range(3)))
        rows = await db.fetchall(text("SELECT key FROM meta WHERE key LIKE 'k%' ORDER BY key"))
    finally:
        await db.close()
    assert rows == [("k0",), ("k1",), ("k2",)]  # written once each, not retried one by one
    assert sum(n for _, n in seen) == 3 and all(s > 0 for s, _ in seen)
    assert "A commit observer failed" in caplog.text
