"""PostgreSQL behind the store: what only PostgreSQL has to prove. The behaviour both
backends share is proven by the store, session, standings, matches, settings and timer suites,
which run on each (the ``database`` fixture)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.app.config import ConfigError, database_target
from bot.ratings import RATER
from db import DatabaseTooNew, MessageRef, NotACribbageDatabase, Store, StoreError
from db.errors import CannotOpenDatabase
from db.migrations import LATEST_VERSION
from tests.support import postgres
from tests.support.leaderboard import record_game
from tests.support.postgres import connect

# Discord's snowflakes use all 64 bits but the sign: far past a float's 2**53 and an INTEGER's
# 2**31 (Discord: "Reference", Snowflakes).
SNOWFLAKE = 2**63 - 1


@pytest.fixture
def url(postgres_server):
    return postgres_server.url()


async def test_a_new_schema_is_created_migrated_and_versioned(url):
    store = await Store.open(url)
    await store.close()
    assert store.schema_version == LATEST_VERSION
    conn = connect(url)
    try:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(LATEST_VERSION,)]
        types = dict(
            conn.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = ?",
                ("games",),
            ).fetchall()
        )
        assert types["guild_id"] == types["channel_id"] == types["host_id"] == "bigint"
        assert types["created_at"] == types["ended_at"] == "double precision"
        parts = dict(
            conn.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = 'archive_parts'"
            ).fetchall()
        )
        assert parts["data"] == "bytea"
    finally:
        conn.close()


async def test_processes_starting_together_migrate_once(url):
    """Eight connections open one new schema at once: the advisory lock lets one migrate."""
    stores = await asyncio.gather(*(Store.open(url) for _ in range(8)))
    try:
        assert {s.schema_version for s in stores} == {LATEST_VERSION}
    finally:
        for store in stores:
            await store.close()
    conn = connect(url)
    try:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)
    finally:
        conn.close()


async def test_discord_ids_and_times_round_trip_exactly(url):
    store = await Store.open(url)
    try:
        game_id = await store.games.create_lobby(
            guild_id=SNOWFLAKE,
            channel_id=SNOWFLAKE - 1,
            host_id=SNOWFLAKE - 2,
            players=2,
            partnerships=False,
            target=121,
            now=1732480000.123456,
        )
        await store.games.set_message(game_id, "table", MessageRef(SNOWFLAKE - 3, SNOWFLAKE))
        record = await store.games.load_game(game_id)
        assert (record.guild_id, record.channel_id, record.host_id) == (
            SNOWFLAKE,
            SNOWFLAKE - 1,
            SNOWFLAKE - 2,
        )
        assert record.created_at == 1732480000.123456
        assert await store.games.messages(game_id) == {
            "table": MessageRef(SNOWFLAKE - 3, SNOWFLAKE)
        }
    finally:
        await store.close()


async def test_reopening_is_idempotent_and_keeps_the_data(url):
    store = await Store.open(url)
    await store.meta.set("k", "v")
    await store.close()
    for _ in range(2):
        store = await Store.open(url)
        assert store.schema_version == LATEST_VERSION
        assert await store.meta.get("k") == "v"
        await store.close()


async def test_a_schema_of_another_application_is_refused_untouched(url):
    conn = connect(url)
    conn.execute("CREATE SCHEMA IF NOT EXISTS " + url.rsplit("schema=", 1)[1])
    conn.execute("CREATE TABLE " + url.rsplit("schema=", 1)[1] + ".invoices (id BIGINT)")
    conn.close()
    with pytest.raises(NotACribbageDatabase, match="invoices"):
        await Store.open(url)


async def test_a_newer_schema_is_refused_untouched(url):
    store = await Store.open(url)
    await store.close()
    conn = connect(url)
    conn.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION + 1,))
    conn.close()
    with pytest.raises(DatabaseTooNew, match="newer cribbage-bot"):
        await Store.open(url)


async def test_read_only_reads_and_refuses_writes(url):
    store = await Store.open(url)
    await store.meta.set("k", "v")
    await store.close()
    store = await Store.open(url, read_only=True)
    try:
        assert await store.meta.get("k") == "v"
        with pytest.raises(StoreError, match="read-only"):
            await store.meta.set("k", "w")
    finally:
        await store.close()


async def test_a_server_that_cannot_be_reached_says_so(postgres_server):
    url = f"postgresql://postgres@127.0.0.1:{postgres._free_port()}/postgres"
    with pytest.raises(CannotOpenDatabase, match="CRIBBAGE_DATABASE_URL"):
        await Store.open(url)


def test_the_url_selects_postgresql_and_sqlite_stays_the_default():
    url = "postgresql://bot:secret@db.example:5432/cribbage"
    assert database_target({"CRIBBAGE_DATABASE_URL": url}, dotenv=False) == url
    assert str(database_target({}, dotenv=False)) == "cribbage.db"
    assert str(database_target({"CRIBBAGE_DB": "x.db"}, dotenv=False)) == "x.db"
    with pytest.raises(ConfigError, match="PostgreSQL URL"):
        database_target({"CRIBBAGE_DATABASE_URL": "mysql://x"}, dotenv=False)


def test_a_missing_postgresql_fails_under_ci_and_make_test(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("CRIBBAGE_TEST_POSTGRES", raising=False)
    assert not postgres.required()
    monkeypatch.setenv("CI", "true")
    assert postgres.required()
    monkeypatch.delenv("CI")
    monkeypatch.setenv("CRIBBAGE_TEST_POSTGRES", "require")
    assert postgres.required()


async def test_a_lock_is_held_by_one_process_at_a_time(url, tmp_path):
    first, second = await Store.open(url), await Store.open(url)
    try:
        assert await first.hold("shard/0") and await first.hold("shard/0")  # re-entrant
        assert not await second.hold("shard/0")
        assert await second.hold("shard/1")
        await first.close()  # a process that ends (or dies) lets its locks go
        assert await second.hold("shard/0")
        await second.release("shard/0")
        assert first.dialect == "postgresql"
    finally:
        await first.close()
        await second.close()
    sqlite = await Store.open(tmp_path / "one.db")
    try:
        assert sqlite.dialect == "sqlite" and await sqlite.hold("shard/0")
    finally:
        await sqlite.close()


async def test_two_processes_ending_games_together_rate_each_once(url):
    """Two stores on one schema (two processes) end games at the same moment: every game is
    rated once, and both see the same board."""
    stores = [await Store.open(url), await Store.open(url)]
    try:
        for store in stores:
            await store.standings.enable_ratings(RATER)
        await asyncio.gather(
            *(
                record_game(
                    stores[n % 2],
                    [11, 12],
                    [121, 100],
                    winner=n % 2,
                    channel_id=900 + n,
                    now=float(n),
                )
                for n in range(12)
            )
        )
        boards = [await s.standings.leaderboard(page_size=10) for s in stores]
        assert boards[0] == boards[1]
        assert {(r.player, r.games, r.wins) for r in boards[0].rows} == {(11, 12, 6), (12, 12, 6)}
        history = await stores[0].standings.rating_history(11)
        assert len(history) == 12 and len({h.game_id for h in history}) == 12
        # one chain: each change starts where another ended (no update lost to a race)
        now = next(r for r in boards[0].rows if r.player == 11)
        befores = {h.before for h in history} - {tuple(RATER.default)}
        assert befores == {h.after for h in history} - {(now.mu, now.sigma)}
    finally:
        for store in stores:
            await store.close()


async def test_a_transaction_cancelled_mid_statement_is_rolled_back(url):
    """A task cancelled while PostgreSQL works (e.g. the archiving stopped at close): nothing
    of its transaction stays, and the connection goes on serving."""
    store = await Store.open(url)
    try:

        async def slow() -> None:
            async with store._database.write() as conn:
                await conn.execute(text("INSERT INTO meta (key, value) VALUES ('half', 'done')"))
                await conn.execute(text("SELECT pg_sleep(5)"))

        task = asyncio.create_task(slow())
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await store.meta.set("after", "yes")
        assert await store.meta.get("after") == "yes"
        assert await store.meta.get("half") is None
    finally:
        await store.close()


async def test_sqlite_text_is_refused_on_postgresql_and_changes_nothing(url):
    """PostgreSQL runs what SQLAlchemy compiled: a statement written as SQLite's text is a
    programming error, refused before it reaches the server; the transaction rolls back."""
    store = await Store.open(url)
    try:
        with pytest.raises(TypeError, match="not SQLite's text"):
            async with store._database.write() as conn:
                await conn.execute(text("INSERT INTO meta (key, value) VALUES ('k', 'v')"))
                await conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("k2", "v"))
        assert await store.meta.get("k") is None
        await store.meta.set("k", "v")
        assert await store.meta.get("k") == "v"
    finally:
        await store.close()
