"""The operator's reads of an SQLite database (``store.maintenance``): what SQLite's integrity and
foreign-key checks find, at most ``limit`` of the first, and the list of every game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db import Store


async def lobbies(path: Path, count: int) -> list[int]:
    store = await Store.open(path)
    try:
        return [
            await store.lobbies.create_lobby(
                guild_id=1,
                channel_id=100 + n,
                host_id=3,
                players=2,
                partnerships=False,
                target=121,
                now=0.0,
            )
            for n in range(count)
        ]
    finally:
        await store.close()


def declare_seed_not_null(path: Path) -> None:
    """Declare ``games.seed`` NOT NULL behind SQLite's back: every lobby (no seed yet) breaks it,
    which only ``PRAGMA integrity_check`` notices."""
    conn = sqlite3.connect(path, isolation_level=None)
    (sql,) = conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'games'").fetchone()
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_schema SET sql = ? WHERE name = 'games'",
        (sql.replace("seed TEXT", "seed TEXT NOT NULL"),),
    )
    conn.close()


async def test_integrity_problems_are_sqlites_own_words_at_most_limit(tmp_path):
    path = tmp_path / "bot.db"
    await lobbies(path, 5)
    declare_seed_not_null(path)
    store = await Store.open(path, read_only=True)
    try:
        assert (
            await store.maintenance.integrity_problems(limit=3) == ["NULL value in games.seed"] * 3
        )
        assert len(await store.maintenance.integrity_problems()) == 5
    finally:
        await store.close()


async def test_orphans_and_the_games_are_listed(tmp_path):
    path = tmp_path / "bot.db"
    first, second = await lobbies(path, 2)
    conn = sqlite3.connect(path, isolation_level=None)  # foreign keys are off here
    conn.execute(f"UPDATE games SET match_id = 999 WHERE id = {second}")
    conn.close()
    store = await Store.open(path, read_only=True)
    try:
        assert await store.maintenance.integrity_problems() == [
            f"a row of games (rowid {second}) names a missing row of matches"
        ]
        assert await store.maintenance.games() == [(first, "lobby"), (second, "lobby")]
    finally:
        await store.close()
