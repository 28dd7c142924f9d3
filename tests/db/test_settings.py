"""Per-server settings in the store: defaults, updates, validation, persistence, migration."""

from __future__ import annotations

import pytest

import db.migrations
from db import Store
from db.settings import SETTING_NAMES, ServerSettings
from tests.support.postgres import connect


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def test_a_server_that_changed_nothing_has_the_defaults(store):
    settings = await store.settings.get(7)
    assert settings == ServerSettings(
        guild_id=7,
        target=121,
        images=True,
        turn_minutes=5,
        muggins=False,
        computer_games_count=False,  # computer games kept apart by default
        next_deal_seconds=20,  # the show stays readable for 20 s
        threads=True,  # a thread per game
    )
    assert settings.turn_seconds == 300.0
    assert await store.settings.get(None) == ServerSettings()
    assert set(SETTING_NAMES) == {
        "target",
        "images",
        "turn_minutes",
        "muggins",
        "computer_games_count",
        "next_deal_seconds",
        "threads",
    }


async def test_an_update_changes_only_what_it_names_and_lasts(databases):
    path = databases("settings")
    store = await Store.open(path)
    try:
        changed = await store.settings.update(7, target=61, images=False, by=99, now=5.0)
        assert (changed.target, changed.images, changed.turn_minutes) == (61, False, 5)
        changed = await store.settings.update(7, turn_minutes=None, muggins=True)
        assert (changed.target, changed.turn_minutes, changed.muggins) == (61, None, True)
        assert changed.turn_seconds is None
        assert await store.settings.get(8) == ServerSettings(8)  # other servers untouched
    finally:
        await store.close()
    store = await Store.open(path)  # a fresh process: no cache
    try:
        assert await store.settings.get(7) == changed
    finally:
        await store.close()
    conn = connect(path)
    rows = conn.execute("SELECT turn_minutes, updated_at, updated_by FROM guild_settings")
    assert [(minutes, by) for minutes, _, by in rows] == [(0, None)]  # off is stored as 0
    conn.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"target": 100},
        {"turn_minutes": 0},
        {"turn_minutes": 24 * 60 + 1},
        {"turn_minutes": 2.5},
        {"images": "yes"},
        {"next_deal_seconds": -1},
        {"next_deal_seconds": 601},
        {"next_deal_seconds": 2.5},
        {"next_deal_seconds": True},
        {"threads": 1},
        {"colour": "green"},
    ],
)
async def test_a_bad_value_is_refused_and_changes_nothing(store, changes):
    await store.settings.update(7, target=61)
    with pytest.raises(ValueError):
        await store.settings.update(7, **changes)
    assert (await store.settings.get(7)).target == 61
    assert await store.settings.get(7) == ServerSettings(7, target=61)


@pytest.mark.sqlite_only  # the numbered migrations are SQLite's alone
async def test_an_older_database_gains_the_settings_table(databases, monkeypatch):
    path = databases("old", fresh=True)
    mine = next(m for m in db.migrations.MIGRATIONS if "server settings" in m.title)
    older = tuple(m for m in db.migrations.MIGRATIONS if m.version < mine.version)
    with monkeypatch.context() as patched:
        patched.setattr(db.migrations, "MIGRATIONS", older)
        patched.setattr(db.migrations, "LATEST_VERSION", older[-1].version)
        store = await Store.open(path)
        await store.close()
    store = await Store.open(path)
    try:
        assert store.schema_version >= mine.version
        assert (await store.settings.update(3, target=61)).target == 61
    finally:
        await store.close()


async def test_the_pause_between_deals_and_threads_are_stored(databases):
    path = databases("settings")
    store = await Store.open(path)
    try:
        changed = await store.settings.update(7, next_deal_seconds=0, threads=False)
        assert (changed.next_deal_seconds, changed.threads) == (0, False)
        assert (await store.settings.update(7, next_deal_seconds=600)).next_deal_seconds == 600
        assert store.settings.cached(7) == ServerSettings(7, next_deal_seconds=600, threads=False)
        assert store.settings.cached(8) is None  # never read: not cached
    finally:
        await store.close()
    store = await Store.open(path)  # a fresh process: read back from the row
    try:
        assert await store.settings.get(7) == ServerSettings(
            7, next_deal_seconds=600, threads=False
        )
    finally:
        await store.close()


@pytest.mark.sqlite_only  # the numbered migrations are SQLite's alone
async def test_a_version_7_database_gains_the_pause_threads_and_player_settings(
    databases, monkeypatch
):
    path = databases("v7", fresh=True)
    older = tuple(m for m in db.migrations.MIGRATIONS if m.version <= 7)
    with monkeypatch.context() as patched:
        patched.setattr(db.migrations, "MIGRATIONS", older)
        patched.setattr(db.migrations, "LATEST_VERSION", 7)
        store = await Store.open(path)
        await store.close()
    conn = connect(path)  # a server's row as version 7 wrote it
    with conn:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, target, images, turn_minutes, muggins, "
            "computer_games_count, updated_at) VALUES (7, 61, 1, 0, 0, 0, 1.0)"
        )
    conn.close()
    store = await Store.open(path)
    try:
        assert store.schema_version == db.migrations.LATEST_VERSION >= 8
        # a server that changed its settings before keeps them and gets the new defaults
        assert await store.settings.get(7) == ServerSettings(7, target=61, turn_minutes=None)
        assert (await store.players.update(5, notify=False)).notify is False
    finally:
        await store.close()
