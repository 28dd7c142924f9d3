"""Alembic keeps the schema on both backends: a fresh database is created at the head revision,
an older release's SQLite file is brought up by the numbered migrations and stamped, a revision
this code does not know is refused, and a crash halfway leaves the revision the database had.
(PostgreSQL has no numbered migrations: its release schema, and the older ones no release made,
are tested in ``test_postgres.py``.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

import db.migrations
from db import DatabaseTooNew, Store
from db.migrations import BASE_REVISION, LATEST_VERSION, head_revision
from tests.db.fixtures.make_v8 import replays
from tests.db.test_schema import _created, _describe, _engine

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures"


async def _query(place: Any, sql: str) -> list[tuple[Any, ...]]:
    engine = _engine(place)
    try:
        async with engine.begin() as conn:
            result = await conn.execute(text(sql))
            return [tuple(row) for row in result.all()] if result.returns_rows else []
    finally:
        await engine.dispose()


async def _schema(place: Any) -> dict[str, Any]:
    engine = _engine(place)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_describe)
    finally:
        await engine.dispose()


async def test_a_fresh_database_is_created_at_the_head_revision(databases):
    place = databases("fresh", fresh=True)
    store = await Store.open(place)
    try:
        assert store.revision == head_revision()
        assert store.schema_version == LATEST_VERSION
    finally:
        await store.close()
    assert await _query(place, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    assert await _schema(place) == await _created(databases("created", fresh=True))
    again = await Store.open(place)  # up to date: opens as it is
    assert again.revision == head_revision()
    await again.close()


async def test_an_older_release_is_migrated_by_number_then_stamped(tmp_path, monkeypatch):
    place = tmp_path / "old.db"
    monkeypatch.setattr(db.migrations, "MIGRATIONS", db.migrations.MIGRATIONS[:5])
    store = await Store.open(place)
    assert store.schema_version == 5
    await store.close()
    monkeypatch.undo()
    before = await Store.open(place, read_only=True)
    assert before.revision is None
    await before.close()
    store = await Store.open(place)
    try:
        assert store.schema_version == LATEST_VERSION
        assert store.revision == head_revision()
    finally:
        await store.close()
    assert await _schema(place) == await _created(tmp_path / "created.db")


async def test_the_release_fixture_is_stamped_and_replays_identically(tmp_path):
    copy = tmp_path / "release-0.1.0.db"
    shutil.copyfile(FIXTURES / "release-0.1.0.db", copy)
    before = await Store.open(copy, read_only=True)
    assert (before.schema_version, before.revision) == (8, None)
    await before.close()
    store = await Store.open(copy)
    try:
        assert store.revision == head_revision()
    finally:
        await store.close()
    assert await _query(copy, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    expected = json.loads((FIXTURES / "release-0.1.0.json").read_text())
    assert (await replays(copy))["games"] == expected["games"]


async def test_a_revision_this_code_does_not_know_is_refused(databases):
    place = databases("newer", fresh=True)
    await (await Store.open(place)).close()
    await _query(place, "UPDATE alembic_version SET version_num = 'f00d_from_the_future'")
    for read_only in (False, True):
        with pytest.raises(DatabaseTooNew, match="newer cribbage-bot") as caught:
            await Store.open(place, read_only=read_only)
        assert "f00d_from_the_future" in str(caught.value)
        assert head_revision() in str(caught.value)
    # nothing was changed
    assert await _query(place, "SELECT version_num FROM alembic_version") == [
        ("f00d_from_the_future",)
    ]


async def test_a_user_version_above_the_numbered_ones_is_refused(tmp_path):
    path = tmp_path / "newer.db"
    await (await Store.open(path)).close()
    await _query(path, f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(DatabaseTooNew, match="newer cribbage-bot"):
        await Store.open(path)


async def test_a_crash_halfway_leaves_the_old_revision_and_the_next_start_finishes(
    databases, monkeypatch
):
    place = databases("crash", fresh=True)
    module = db.migrations.script().get_revision(BASE_REVISION).module
    created = module.upgrade

    def crash() -> None:
        created()  # the tables are made, then the process dies before the version row
        raise RuntimeError("the power went out")

    monkeypatch.setattr(module, "upgrade", crash)
    with pytest.raises(RuntimeError, match="power"):
        await Store.open(place)
    monkeypatch.undo()
    if isinstance(place, Path):
        tables = await _query(place, "SELECT name FROM sqlite_schema WHERE type = 'table'")
    else:
        tables = await _query(
            place,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()",
        )
    assert {name for (name,) in tables} <= {"schema_version"}  # nothing of the revision stayed
    store = await Store.open(place)
    try:
        assert store.revision == head_revision()
        assert store.schema_version == LATEST_VERSION
    finally:
        await store.close()
    assert await _schema(place) == await _created(databases("created", fresh=True))


async def test_a_crash_while_stamping_an_older_release_leaves_it_unstamped(tmp_path, monkeypatch):
    copy = tmp_path / "release-0.1.0.db"
    shutil.copyfile(FIXTURES / "release-0.1.0.db", copy)

    def crash(self: Any) -> None:  # after the stamp, before the transaction commits
        raise RuntimeError("the power went out")

    monkeypatch.setattr(db.migrations.ScriptDirectory, "run_env", crash)
    with pytest.raises(RuntimeError, match="power"):
        await Store.open(copy)
    monkeypatch.undo()
    held = await _query(copy, "SELECT name FROM sqlite_schema WHERE name = 'alembic_version'")
    assert held == []  # the stamp's table went with its transaction
    assert await _query(copy, "PRAGMA user_version") == [(LATEST_VERSION,)]
    store = await Store.open(copy)
    try:
        assert store.revision == head_revision()
    finally:
        await store.close()
    expected = json.loads((FIXTURES / "release-0.1.0.json").read_text())
    assert (await replays(copy))["games"] == expected["games"]
