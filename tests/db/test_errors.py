"""The store's own errors: whatever the driver raises (SQLite's, asyncpg's) leaves ``db`` as one
of db.errors' classes, on both backends. That nothing outside ``db`` imports a driver is an
import contract (pyproject.toml, [tool.importlinter], checked by ``make lint``)."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest
from sqlalchemy import text

from db import (
    Conflict,
    DatabaseBusy,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseUnavailable,
    Store,
    StoreError,
)
from db.diagnosis import runtime_error
from db.pg import store_error
from tests.db.test_startup_diagnosis import sqlite_error


async def test_a_second_open_game_in_a_channel_is_a_conflict(database):
    store = await Store.open(database)
    try:
        await store.lobbies.create_lobby(
            guild_id=1, channel_id=7, host_id=1, players=2, partnerships=False, target=121, now=0
        )
        with pytest.raises(Conflict, match="already has an open game"):
            await store.lobbies.create_lobby(
                guild_id=1,
                channel_id=7,
                host_id=2,
                players=2,
                partnerships=False,
                target=121,
                now=1,
            )

        async def refused(conn):
            await conn.execute(text("INSERT INTO games (id) VALUES (NULL)"))

        with pytest.raises(Conflict):  # a NOT NULL column: a rule of the schema, not a bug
            async with store._database.write() as conn:
                await refused(conn)
        assert [status for _, status in await store.maintenance.games()] == ["lobby"]
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_a_lock_held_by_another_program_is_busy_while_playing(database):
    store = await Store.open(database, busy_timeout_ms=50)
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy, match="locked by another program") as caught:
            await store.meta.set("k", "v")
        assert isinstance(caught.value.__cause__, sqlite3.OperationalError)  # kept for the log
        other.execute("ROLLBACK")
        await store.meta.set("k", "v")  # free again: the connection still works
        assert await store.meta.get("k") == "v"
    finally:
        other.close()
        await store.close()


def test_a_full_disk_says_the_disk_is_full(tmp_path):
    path = tmp_path / "cribbage.db"
    path.write_bytes(b"")
    err = runtime_error(
        sqlite_error(sqlite3.SQLITE_FULL, "SQLITE_FULL", "database or disk is full"),
        path,
        "writing",
    )
    assert type(err) is DatabaseFull and isinstance(err, DatabaseNotWritable)
    assert "is full" in str(err) and str(path) in str(err) and "intact" in str(err)


def test_sqlite_refusals_while_playing_are_the_stores_errors(tmp_path):
    path = tmp_path / "cribbage.db"
    constraint = sqlite3.IntegrityError("UNIQUE constraint failed: games.channel_id")
    assert type(runtime_error(constraint, path, "writing")) is Conflict
    busy = sqlite_error(sqlite3.SQLITE_BUSY, "SQLITE_BUSY", "database is locked")
    assert type(runtime_error(busy, path, "writing")) is DatabaseBusy
    io = sqlite_error(sqlite3.SQLITE_IOERR, "SQLITE_IOERR", "disk I/O error")
    assert type(runtime_error(io, path, "writing")) is StoreError


@pytest.mark.parametrize(
    ("error", "kind", "words"),
    [
        (asyncpg.UniqueViolationError("duplicate key value"), Conflict, "refused the write"),
        (asyncpg.RaiseError("actions are append-only"), StoreError, "append-only"),
        (asyncpg.DiskFullError("could not extend file: No space left"), DatabaseFull, "full"),
        (asyncpg.LockNotAvailableError("could not obtain lock"), DatabaseBusy, "busy"),
        (asyncpg.DeadlockDetectedError("deadlock detected"), DatabaseBusy, "busy"),
        (asyncpg.ConnectionDoesNotExistError("connection was closed"), DatabaseUnavailable, ""),
        (asyncpg.AdminShutdownError("terminating connection"), DatabaseUnavailable, "reached"),
        (ConnectionResetError("reset by peer"), DatabaseUnavailable, "reset by peer"),
        (asyncpg.UndefinedTableError('relation "x" does not exist'), StoreError, "relation"),
    ],
)
def test_postgresql_refusals_are_the_stores_errors(error, kind, words):
    err = store_error(error)
    assert type(err) is kind
    assert words in str(err) and "PostgreSQL" in str(err)


async def test_the_append_only_log_refuses_through_the_store(database):
    """A trigger's refusal (SQLite's RAISE(ABORT), PostgreSQL's SQLSTATE 23000) is a Conflict."""
    store = await Store.open(database)
    try:
        with pytest.raises(Conflict, match="append-only"):
            async with store._database.write() as conn:
                await conn.execute(
                    text(
                        "INSERT INTO games (id, channel_id, status, players, target, host_id, "
                        "created_at, updated_at) VALUES (50, 9, 'active', 2, 121, 1, 0, 0)"
                    )
                )
                await conn.execute(
                    text(
                        "INSERT INTO actions (game_id, seq, seat, action, created_at) "
                        "VALUES (50, 1, 0, '{}', 0)"
                    )
                )
                await conn.execute(text("DELETE FROM actions WHERE game_id = 50"))
        assert await store.maintenance.games() == []
    finally:
        await store.close()
