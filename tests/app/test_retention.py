"""``python -m bot prune --days N``: old games lose their moves, keep their results; the check
still passes; newer games and games in progress are untouched."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bot.__main__ import main
from bot.app.operations import check, describe
from bot.app.retention import DAY, prune
from db import Store
from tests.app.test_operations import configure, digest
from tests.support.postgres import connect
from tests.support.sessions import play_one, play_to_end, running, started_game


async def two_games(path: Path) -> tuple[int, int]:
    """A finished game and one in progress; their ids."""
    rng = random.Random(3)
    async with running(path, seed_source=lambda: 4242) as manager:
        finished = await started_game(manager, channel_id=1)
        await play_to_end(manager, finished.game_id, rng)
        active = await started_game(manager, channel_id=2)
        for _ in range(10):
            await play_one(manager, active.game_id, rng)
    return finished.game_id, active.game_id


async def facts(path: Path, game_id: int) -> tuple[int, list[object], bool]:
    store = await Store.open(path)
    try:
        actions = await store.games.load_actions(game_id)
        results = await store.games.results(game_id)
        return len(actions), list(results), await store.games.log_pruned(game_id)
    finally:
        await store.close()


def test_prune_drops_old_moves_and_keeps_results(tmp_path):
    path = tmp_path / "cribbage.db"
    finished, active = asyncio.run(two_games(path))
    moves, results, pruned = asyncio.run(facts(path, finished))
    assert moves > 50 and results and not pruned
    active_moves = asyncio.run(facts(path, active))[0]

    # Nothing is older than a day yet: nothing goes.
    assert asyncio.run(prune(path, days=1)) == 0
    assert asyncio.run(facts(path, finished))[2] is False

    # Two days later the finished game's moves go; its results stay; the game in progress keeps
    # every move; the database still checks out.
    assert asyncio.run(prune(path, days=1, now=time.time() + 2 * DAY)) == 1
    moves_after, results_after, pruned_after = asyncio.run(facts(path, finished))
    assert pruned_after and moves_after == 0
    assert results_after == results
    assert asyncio.run(facts(path, active))[0] == active_moves
    assert asyncio.run(check(path)).ok


def test_prune_command_line(tmp_path, capsys):
    path = tmp_path / "cribbage.db"
    asyncio.run(two_games(path))
    assert main(["prune", "--days", "0", "--db", str(path)]) == 0
    assert "Dropped the moves of 1 game that ended more than 0 days ago." in capsys.readouterr().out
    assert main(["prune", "--days", "-1", "--db", str(path)]) == 2
    assert "--days must be 0 or more" in capsys.readouterr().err
    missing = tmp_path / "nowhere" / "x.db"
    assert main(["prune", "--days", "5", "--db", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"There is no database at {missing}" in err and "Traceback" not in err
    assert not missing.parent.exists()


def test_prune_works_on_the_configured_database_not_a_file_in_the_directory(
    tmp_path, database, monkeypatch, capsys
):
    """With CRIBBAGE_DATABASE_URL (or CRIBBAGE_DB) set, a stale cribbage.db where the command
    runs is left alone: the bot's own database is pruned, SQLite or PostgreSQL."""
    finished, active = asyncio.run(two_games(database))
    stale = configure(monkeypatch, tmp_path, database)
    before = digest(stale)
    assert main(["prune", "--days", "0"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.splitlines() == [
        describe(database),
        "Dropped the moves of 1 game that ended more than 0 days ago.",
    ]
    assert asyncio.run(facts(database, finished))[2] is True
    assert asyncio.run(facts(database, active))[0] > 0
    assert digest(stale) == before


def test_prune_of_a_postgresql_schema_that_does_not_exist_creates_nothing(
    tmp_path, postgres_server, monkeypatch, capsys
):
    url = postgres_server.url()  # a schema nothing has created
    schema = url.rsplit("schema=", 1)[1]
    monkeypatch.chdir(tmp_path)
    assert main(["prune", "--days", "5", "--db", url]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [describe(url)]
    assert f"schema {schema} holds no cribbage tables" in err and "cribbage-bot migrate" in err
    conn = connect(postgres_server.url("public"))
    try:
        found = conn.execute(
            "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", (schema,)
        ).fetchone()
    finally:
        conn.close()
    assert found == (0,)
    assert list(tmp_path.iterdir()) == []
