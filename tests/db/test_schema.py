"""db/schema.py is the schema the migrations make, on both dialects: the same tables, columns
(types, nullability, defaults), keys, indexes (partial and expression ones included), checks
and triggers; and its triggers refuse what the migrated ones refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import event, inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from db import Store, pg
from db.schema import VERSION, metadata

pytestmark = pytest.mark.slow


def _engine(place: Any) -> AsyncEngine:
    if pg.is_url(place):
        dsn, schema = pg.split_url(str(place))
        return create_async_engine(
            dsn.replace("postgresql://", "postgresql+asyncpg://", 1),
            connect_args={"server_settings": {"search_path": schema}},
        )
    engine = create_async_engine(f"sqlite+aiosqlite:///{place}")

    @event.listens_for(engine.sync_engine, "connect")
    def foreign_keys(conn: Any, _: Any) -> None:
        conn.execute("PRAGMA foreign_keys = ON")

    return engine


def _words(sql: object) -> str:
    """SQL text without the differences of spelling: case, spaces, quotes, parentheses."""
    return re.sub(r"[\s()\"']+", " ", str(sql).lower()).strip()


def _foreign_keys(sync_conn: Any, found: Any, table: str) -> list[Any]:
    """(columns, its columns, table, ON DELETE) of each foreign key (SQLite's from its pragma:
    its reflection reads ON DELETE only from a table constraint, not from a column's clause)."""
    if sync_conn.dialect.name == "sqlite":
        rows = sync_conn.execute(text(f"PRAGMA foreign_key_list({table})")).all()
        keys: dict[int, Any] = {}
        for key_id, _, parent, column, parent_column, _, on_delete, _ in rows:
            cols, parent_cols = keys.setdefault(key_id, ([], [], parent, on_delete))[:2]
            cols.append(column)
            parent_cols.append(parent_column)
        return sorted(keys.values())
    return sorted(
        (
            fk["constrained_columns"],
            fk["referred_columns"],
            fk["referred_table"],
            (fk.get("options") or {}).get("ondelete", "NO ACTION"),
        )
        for fk in found.get_foreign_keys(table)
    )


def _describe(sync_conn: Any) -> dict[str, Any]:
    found = inspect(sync_conn)
    dialect = sync_conn.dialect.name
    tables: dict[str, Any] = {}
    for name in sorted(found.get_table_names()):
        if name in ("schema_version", "alembic_version", "cribbage_write_probe"):
            continue
        indexes = []
        for index in found.get_indexes(name):
            where = index.get("dialect_options", {}).get(f"{dialect}_where")
            columns = [c or _words(e) for c, e in zip(
                index["column_names"], index.get("expressions", index["column_names"]),
                strict=True,
            )]  # fmt: skip
            indexes.append(
                (
                    index["name"],
                    columns,
                    bool(index["unique"]),
                    _words("" if where is None else where),
                )
            )
        key = found.get_pk_constraint(name)["constrained_columns"]
        columns = found.get_columns(name)
        # An SQLite table's one INTEGER primary key is its rowid, never NULL, whether NOT NULL
        # is written or not (the migrations did not write it, create_all does).
        rowid = (
            [c["name"] for c in columns if str(c["type"]) == "INTEGER"]
            if dialect == "sqlite"
            else []
        )
        tables[name] = {
            "columns": [
                (
                    c["name"],
                    str(c["type"]),
                    c["nullable"] and not (key == [c["name"]] and c["name"] in rowid),
                    _words(c["default"] or ""),
                )
                for c in columns
            ],
            "primary key": key,
            "foreign keys": _foreign_keys(sync_conn, found, name),
            "indexes": sorted(indexes),
            "checks": sorted(_words(c["sqltext"]) for c in found.get_check_constraints(name)),
        }
    if dialect == "sqlite":
        rows = sync_conn.execute(
            text("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'trigger'")
        )
        triggers = sorted((n, t, _words(s)) for n, t, s in rows)
        # SQLite's reflection skips expression indexes: their statements are compared instead
        triggers += sorted(
            (n, t, _words(s))
            for n, t, s in sync_conn.execute(
                text(
                    "SELECT name, tbl_name, sql FROM sqlite_schema "
                    "WHERE type = 'index' AND sql IS NOT NULL"
                )
            )
        )
        table_options = {
            name: sorted(_words(option) for option in sql[sql.rindex(")") + 1 :].split(","))
            for name, sql in sync_conn.execute(
                text("SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
            )
            if name in tables
        }
    else:
        rows = sync_conn.execute(
            text(
                "SELECT trigger_name, event_object_table, event_manipulation, action_statement "
                "FROM information_schema.triggers WHERE trigger_schema = current_schema()"
            )
        )
        triggers = sorted(tuple(r) for r in rows)
        table_options = {}
    return {"tables": tables, "triggers": triggers, "options": table_options}


async def _created(place: Any) -> dict[str, Any]:
    engine = _engine(place)
    try:
        async with engine.begin() as conn:
            if pg.is_url(place):
                schema = pg.split_url(str(place))[1]
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
            await conn.run_sync(metadata.create_all)
        async with engine.connect() as conn:
            return await conn.run_sync(_describe)
    finally:
        await engine.dispose()


async def _migrated(place: Any) -> dict[str, Any]:
    store = await Store.open(place)
    assert store.schema_version == VERSION
    await store.close()
    engine = _engine(place)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_describe)
    finally:
        await engine.dispose()


async def test_the_tables_are_the_schema_the_migrations_make(databases):
    created = await _created(databases("created", fresh=True))
    migrated = await _migrated(databases("migrated", fresh=True))
    assert sorted(created["tables"]) == sorted(migrated["tables"])
    for name, described in migrated["tables"].items():
        assert created["tables"][name] == described, name
    assert created["triggers"] == migrated["triggers"]
    assert created["options"] == migrated["options"]  # STRICT, WITHOUT ROWID


async def test_the_created_triggers_refuse_rewrites(databases):
    place = databases("created", fresh=True)
    await _created(place)
    engine = _engine(place)
    refused = [
        "UPDATE actions SET seat = 1",
        "DELETE FROM actions WHERE game_id = 2",  # a game still played
        "DELETE FROM game_archive",
        "UPDATE game_archive SET last_seq = 2",
        "UPDATE archive_parts SET data = data",
        "DELETE FROM archive_parts",
    ]
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO games (id, channel_id, status, players, target, host_id, "
                    "created_at, updated_at, started_at, ended_at) "
                    "VALUES (1, 5, 'finished', 2, 121, 9, 0, 0, 0, 1)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO games (id, channel_id, status, players, target, host_id, "
                    "created_at, updated_at, started_at) "
                    "VALUES (2, 6, 'active', 2, 121, 9, 0, 0, 0)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO actions (game_id, seq, seat, action, created_at) "
                    "VALUES (1, 1, 0, '{}', 0), (2, 1, 0, '{}', 0)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO game_archive (game_id, last_seq, deals, first_part, "
                    "points_parts, log_parts) VALUES (1, 1, 1, 1, 1, 1)"
                )
            )
            await conn.execute(
                text("INSERT INTO archive_parts (game_id, data) VALUES (1, :d), (1, :d)"),
                {"d": b"x"},
            )
        for statement in refused:
            with pytest.raises(Exception, match="append-only|kept|pruned") as caught:
                async with engine.begin() as conn:
                    await conn.execute(text(statement))
            assert "IntegrityError" in type(caught.value).__name__, statement
        async with engine.begin() as conn:  # an archived game's rows may go: it is archived
            await conn.execute(text("DELETE FROM actions WHERE game_id = 1"))
            assert (await conn.execute(text("SELECT count(*) FROM actions"))).scalar() == 1
    finally:
        await engine.dispose()
