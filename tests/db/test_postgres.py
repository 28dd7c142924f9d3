"""PostgreSQL behind the store: what only PostgreSQL has to prove. The behaviour both
backends share is proven by the store, session, standings, matches, settings and timer suites,
which run on each (the ``database`` fixture).

A PostgreSQL schema of a release is release 0.1.0's (PostgreSQL support was released at schema
version 8): :func:`_release_schema` builds one as that release left it, holding the games of
release 0.1.0's own database (``fixtures/release-0.1.0.db``)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, text
from sqlalchemy.schema import CreateSchema

import db.migrations
from bot.app.config import ConfigError, database_target
from bot.ratings import RATER
from db import DatabaseTooNew, MessageRef, NotACribbageDatabase, Store, StoreError, pg
from db.errors import CannotOpenDatabase
from db.migrations import BASE_REVISION, LATEST_VERSION, head_revision
from db.schema import metadata
from tests.db.fixtures.make_v8 import replays
from tests.db.test_schema import _engine
from tests.support import postgres
from tests.support.leaderboard import record_game
from tests.support.postgres import connect

FIXTURES = Path(__file__).parent / "fixtures"
#: The tables release 0.1.0 had: what Alembic's first revision creates.
RELEASE_TABLES: tuple[str, ...] = db.migrations.script().get_revision(BASE_REVISION).module.TABLES

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
        game_id = await store.lobbies.create_lobby(
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


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
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


# ---------------------------------------------------------------------- release 0.1.0's schema


def _fill_release_schema(sync: Any, schema: str, version: int, rows_of: Path | None) -> None:
    """Release 0.1.0's tables and triggers (what Alembic's first revision creates), its
    ``schema_version`` row at ``version`` and no ``alembic_version``; the rows of the SQLite
    database ``rows_of``, every identity going on after them as the release's would."""
    sync.execute(CreateSchema(schema, if_not_exists=True))
    tables = [t for t in metadata.sorted_tables if t.name in RELEASE_TABLES]
    metadata.create_all(sync, tables=tables, checkfirst=False)  # with the triggers
    sync.execute(text("CREATE TABLE schema_version (version BIGINT NOT NULL)"))
    sync.execute(text("INSERT INTO schema_version VALUES (:v)"), {"v": version})
    if rows_of is None:
        return
    source = sqlite3.connect(rows_of)
    source.row_factory = sqlite3.Row
    try:
        for table in tables:  # parents before children
            rows = [dict(r) for r in source.execute(f"SELECT * FROM {table.name} ORDER BY 1")]
            if rows:
                sync.execute(insert(table), rows)
            if "id" in table.c and table.c.id.identity is not None:
                sync.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence(:t, 'id'), "
                        "(SELECT COALESCE(MAX(id), 0) + 1 FROM " + table.name + "), false)"
                    ),
                    {"t": table.name},
                )
    finally:
        source.close()


async def _release_schema(url: str, *, version: int = 8, rows_of: Path | None = None) -> None:
    """Build, at ``url``'s schema, the PostgreSQL schema release 0.1.0 made (``version``: the
    ``schema_version`` it says instead)."""
    engine = _engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_fill_release_schema, pg.split_url(url)[1], version, rows_of)
    finally:
        await engine.dispose()


def _tables(url: str) -> set[str]:
    conn = connect(url)
    try:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
        return {name for (name,) in rows}
    finally:
        conn.close()


async def test_a_release_0_1_0_schema_is_stamped_upgraded_and_its_games_load(url):
    await _release_schema(url, rows_of=FIXTURES / "release-0.1.0.db")
    assert "alembic_version" not in _tables(url)
    before = await Store.open(url, read_only=True)  # `cribbage-bot check` reads it as it is
    assert (before.schema_version, before.revision) == (LATEST_VERSION, None)
    await before.close()
    stores = await asyncio.gather(*(Store.open(url) for _ in range(3)))  # starting together
    try:
        assert {(s.schema_version, s.revision) for s in stores} == {
            (LATEST_VERSION, head_revision())
        }
        assert await stores[0].tournaments.load_open() == []  # the tournaments' tables work
    finally:
        for store in stores:
            await store.close()
    tables = _tables(url)
    assert {"tournaments", "tournament_players", "tournament_pairings"} <= tables
    conn = connect(url)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)
        ]
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(8,)]
    finally:
        conn.close()
    expected = json.loads((FIXTURES / "release-0.1.0.json").read_text())
    statuses = {facts["status"] for facts in expected["games"].values()}
    assert {"active", "finished"} <= statuses  # games in progress and ended ones
    assert (await replays(url))["games"] == expected["games"]


async def test_a_crash_while_stamping_a_release_schema_leaves_it_unstamped(url, monkeypatch):
    await _release_schema(url)

    def crash(self: Any) -> None:  # after the stamp, before the transaction commits
        raise RuntimeError("the power went out")

    monkeypatch.setattr(db.migrations.ScriptDirectory, "run_env", crash)
    with pytest.raises(RuntimeError, match="power"):
        await Store.open(url)
    monkeypatch.undo()
    assert "alembic_version" not in _tables(url)  # the stamp went with its transaction
    store = await Store.open(url)
    try:
        assert store.revision == head_revision()
    finally:
        await store.close()


async def test_a_schema_older_than_any_release_is_refused_untouched(url):
    """No release made a PostgreSQL schema below version 8 (a development build did): the
    store refuses it, saying how to keep its data and start anew, and changes nothing."""
    await _release_schema(url, version=5)
    tables = _tables(url)
    for read_only in (False, True):
        with pytest.raises(StoreError, match="no release of cribbage-bot made") as caught:
            await Store.open(url, read_only=read_only)
        message = str(caught.value)
        assert "schema version 5" in message and "It was not changed" in message
        assert "pg_dump" in message and "?schema=" in message
        assert "\n" not in message  # one paragraph
        assert not isinstance(caught.value, (NotACribbageDatabase, DatabaseTooNew))
    assert _tables(url) == tables
    conn = connect(url)
    try:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(5,)]
    finally:
        conn.close()
