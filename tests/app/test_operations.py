"""``python -m bot backup`` and ``python -m bot check``: an online backup taken while a game is
played opens and replays; check passes a good database and names the game of a tampered one."""

from __future__ import annotations

import asyncio
import hashlib
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.app import operations
from bot.app.operations import OperationError, backup, check, describe
from bot.engine import Variant
from bot.sessions import OpenLobby
from db import LATEST_VERSION, MIGRATIONS, NotACribbageDatabase, Store
from db.migrations import head_revision
from db.opening import ProcessLock
from tests.db.test_startup import a_database_with_a_lobby, read_only
from tests.support.postgres import connect
from tests.support.sessions import (
    BOB,
    CAROL,
    DAVE,
    HOST,
    play_one,
    play_to_end,
    running,
    started_game,
)

ROOT = Path(__file__).resolve().parents[2]


async def a_played_database(path: Path) -> dict[str, int]:
    """A finished game, an active game with a computer and muggins, a lobby; their ids."""
    rng = random.Random(5)
    async with running(path, seed_source=lambda: 777) as manager:
        finished = await started_game(manager, channel_id=1)
        await play_to_end(manager, finished.game_id, rng)
        active = await started_game(
            manager,
            humans=(CAROL,),
            computers=("easy",),
            variant=Variant(2, muggins=True),
            channel_id=2,
        )
        for _ in range(25):
            await play_one(manager, active.game_id, rng)
        lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=3, host_id=DAVE))
    return {"finished": finished.game_id, "active": active.game_id, "lobby": lobby.game_id}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    """One played database for the module (a whole game takes a while); tests copy it."""
    path = tmp_path_factory.mktemp("template") / "cribbage.db"
    return path, asyncio.run(a_played_database(path))


@pytest.fixture
def played(tmp_path, template) -> tuple[Path, dict[str, int]]:
    """A copy of the played database in this test's directory, and its games' ids."""
    source, ids = template
    path = tmp_path / "cribbage.db"
    shutil.copy(source, path)
    return path, ids


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tamper(path: Path, *statements: str) -> None:
    """Edit a database behind the bot's back (its append-only triggers dropped first)."""
    conn = sqlite3.connect(path, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'trigger'"):
        conn.execute(f'DROP TRIGGER "{name}"')
    for statement in statements:
        changed = conn.execute(statement).rowcount
        assert changed != 0, statement
    conn.close()


def run_cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---------------------------------------------------------------------- check


async def test_check_passes_a_good_database_without_writing_to_it(tmp_path, played):
    path, _ = played
    before = digest(path)
    report = await check(path)
    assert report.ok, report.lines()
    assert report.games == {"finished": 1, "active": 1, "lobby": 1}
    assert report.lines()[-1] == "OK: no problem found."
    assert digest(path) == before


async def test_check_names_the_game_whose_action_was_edited(tmp_path, played):
    path, ids = played
    game = ids["active"]
    (seq, seat) = (
        sqlite3.connect(path)
        .execute(
            "SELECT seq, seat FROM actions WHERE game_id = ? AND action LIKE '%play%' ORDER BY seq",
            (game,),
        )
        .fetchone()
    )
    tamper(path, f"UPDATE actions SET seat = {1 - seat} WHERE game_id = {game} AND seq = {seq}")
    report = await check(path)
    assert not report.ok and list(report.problems) == [game]
    (problem,) = report.problems[game][1]
    assert f"stops at action {seq}" in problem
    assert f"PROBLEM game {game} (active): its action log" in "\n".join(report.lines())


async def test_check_names_a_snapshot_that_disagrees_with_the_log(tmp_path, played):
    path, ids = played
    game = ids["active"]
    tamper(path, f"UPDATE snapshots SET seq = seq - 1 WHERE game_id = {game}")
    report = await check(path)
    assert list(report.problems) == [game]
    assert "snapshot is of step" in report.problems[game][1][0]


async def test_check_names_a_result_that_the_log_does_not_give(tmp_path, played):
    path, ids = played
    game = ids["finished"]
    tamper(path, f"UPDATE results SET final_score = final_score + 5 WHERE game_id = {game}")
    report = await check(path)
    assert list(report.problems) == [game]
    assert all("result says" in problem for problem in report.problems[game][1])


async def test_check_reports_sqlite_integrity_problems(tmp_path, played):
    path, ids = played
    tamper(path, "PRAGMA foreign_keys = OFF", f"DELETE FROM games WHERE id = {ids['lobby']}")
    report = await check(path)
    assert any("names a missing row of games" in p for p in report.integrity)


@pytest.mark.slow
def test_python_m_bot_check_exit_statuses(tmp_path, played):
    path, ids = played
    good = run_cli("check", str(path), cwd=tmp_path)
    assert good.returncode == 0 and "OK: no problem found." in good.stdout, good.stderr
    tamper(path, f"UPDATE results SET won = 1 - won WHERE game_id = {ids['finished']}")
    bad = run_cli("check", str(path), cwd=tmp_path)
    assert bad.returncode == 1 and f"PROBLEM game {ids['finished']} (finished)" in bad.stdout
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 500)
    refused = run_cli("check", str(garbage), cwd=tmp_path)
    assert refused.returncode == 2 and "not an SQLite database" in refused.stderr
    data = bytearray(path.read_bytes())
    data[4096:] = b"\x77" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    damaged = run_cli("check", str(path), cwd=tmp_path)
    assert damaged.returncode == 1 and "is damaged" in damaged.stderr
    assert "Traceback" not in good.stderr + bad.stderr + refused.stderr + damaged.stderr


def an_older_database(path: Path) -> Path:
    """A database of the schema before this version's."""
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:-1]:
        for statement in migration.statements:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {MIGRATIONS[-2].version}")
    conn.close()
    return path


async def test_check_upgrades_a_copy_of_an_older_database_not_the_file(tmp_path):
    path = an_older_database(tmp_path / "old.db")
    before = digest(path)
    report = await check(path)
    assert report.ok and report.upgraded_copy
    assert report.schema_version == MIGRATIONS[-2].version
    assert digest(path) == before


async def test_check_while_games_are_played_sees_one_moment_and_no_false_problem(database):
    """Each game's snapshot and log are read from the same moment, whatever is committed
    between the two reads (the clicks run on the same event loop as the check); on SQLite and
    on PostgreSQL."""
    path = database
    rng = random.Random(3)
    async with running(path, seed_source=lambda: 99) as manager:
        games = [
            (await started_game(manager, humans=(10 + n, 20 + n), channel_id=n)).game_id
            for n in range(4)
        ]
        stop = asyncio.Event()
        played = 0

        async def keep_playing() -> None:
            nonlocal played
            while not stop.is_set():
                for game in games:
                    if await play_one(manager, game, rng) is not None:
                        played += 1
                await asyncio.sleep(0)

        player = asyncio.create_task(keep_playing())
        reports = []
        try:
            while len(reports) < 10 or (played < 40 and len(reports) < 500):
                reports.append(await check(path))
        finally:
            stop.set()
            await player
        clicks = played
    assert clicks > 30
    for report in reports:
        assert report.ok, report.lines()
        assert report.games["active"] + report.games["finished"] == 4


# ---------------------------------------------------------------------- backup


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_backup_taken_while_a_game_is_played_opens_and_replays(tmp_path):
    """The backup runs in another process (as an operator would) while clicks keep coming."""
    path = tmp_path / "cribbage.db"
    copies = [tmp_path / f"backup-{n}.db" for n in range(3)]
    rng = random.Random(9)
    async with running(path, seed_source=lambda: 4242) as manager:
        game = (await started_game(manager, humans=(HOST, BOB), channel_id=9)).game_id
        stop = asyncio.Event()

        async def keep_playing() -> int:
            nonlocal game
            clicks = 0
            while not stop.is_set():
                if await play_one(manager, game, rng) is None:  # it ended: the next one
                    game = (await started_game(manager, humans=(HOST, BOB), channel_id=9)).game_id
                clicks += 1
                await asyncio.sleep(0)
            return clicks

        player = asyncio.create_task(keep_playing())
        try:
            for copy in copies:
                done = await asyncio.create_subprocess_exec(
                    *(sys.executable, "-m", "bot", "backup", str(copy), "--db", str(path)),
                    cwd=tmp_path,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
                out, err = await asyncio.wait_for(done.communicate(), 60)
                assert done.returncode == 0, err.decode()
                assert f"Backed up {path} to {copy}" in out.decode()
        finally:
            stop.set()
            clicks = await player
    assert clicks > 20
    for copy in copies:
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
        report = await check(copy)
        assert report.ok and report.replayed >= 1, report.lines()
        store = await Store.open(copy)
        try:
            for record in await store.games.load_active_games():  # (none between two games)
                assert record.step == len(await store.games.load_actions(record.id))
        finally:
            await store.close()


async def test_backup_refuses_to_overwrite_unless_forced(tmp_path, played):
    path, _ = played
    target = tmp_path / "kept.db"
    target.write_bytes(b"an older backup")
    with pytest.raises(OperationError, match="already exists.*--force"):
        await backup(path, target)
    assert target.read_bytes() == b"an older backup"
    report = await backup(path, target, force=True)
    assert report.games == {"finished": 1, "active": 1, "lobby": 1}
    assert (await check(target)).ok
    with pytest.raises(OperationError, match="is the database itself"):
        await backup(path, path, force=True)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


async def test_backup_into_a_directory_writes_a_dated_file(tmp_path, played):
    path, _ = played
    folder = tmp_path / "backups"
    folder.mkdir()
    report = await backup(path, folder)
    assert report.target.parent == folder and report.target.name.startswith("cribbage-")
    assert (await check(report.target)).ok


async def test_backup_into_a_read_only_directory_says_why(tmp_path, played):
    path, _ = played
    folder = tmp_path / "backups"
    folder.mkdir()
    with read_only(folder), pytest.raises(OperationError, match="Cannot write the backup"):
        await backup(path, folder / "copy.db")
    assert list(folder.iterdir()) == []


async def test_backup_and_check_leave_nothing_beside_the_database_but_the_copy(tmp_path, played):
    """Reading a WAL database read-only makes SQLite create its -wal and -shm files; the
    operator's commands remove the ones they made, a refused one included."""
    path, _ = played
    other = tmp_path / "notes.db"
    conn = sqlite3.connect(other, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert before == ["cribbage.db", "notes.db"]
    await backup(path, tmp_path / "copy.db")
    assert (await check(path)).ok and (await check(tmp_path / "copy.db")).ok
    with pytest.raises(NotACribbageDatabase):
        await backup(other, tmp_path / "other-copy.db")
    with pytest.raises(NotACribbageDatabase):
        await check(other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", *before]


def test_python_m_bot_backup_of_a_bad_database_says_why(tmp_path):
    garbage = tmp_path / "cribbage.db"
    garbage.write_bytes(b"\x00garbage" * 600)
    result = run_cli("backup", str(tmp_path / "copy.db"), "--db", str(garbage), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{garbage} is not an SQLite database" in result.stderr
    assert not (tmp_path / "copy.db").exists()


def test_backup_and_check_read_cribbage_db_from_the_environment(
    tmp_path, played, monkeypatch, capsys
):
    path, _ = played
    monkeypatch.setenv("CRIBBAGE_DB", str(path))
    monkeypatch.chdir(tmp_path)
    assert main(["backup", "copy.db"]) == 0
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert f"Backed up {path} to copy.db" in out and f"{path}: schema version" in out
    assert main(["chekc"]) == 2 and "invalid choice: 'chekc'" in capsys.readouterr().err


# ---------------------------------------------------------------------- the configured database


def configure(monkeypatch, tmp_path: Path, database: Path | str) -> Path:
    """The environment of an operator whose bot keeps its games in ``database``, working in
    ``tmp_path``, where a stale ``cribbage.db`` (another database) lies; that file."""
    for name in ("CRIBBAGE_DB", "CRIBBAGE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    if isinstance(database, str):
        monkeypatch.setenv("CRIBBAGE_DATABASE_URL", database)
    else:
        monkeypatch.setenv("CRIBBAGE_DB", str(database))
    monkeypatch.chdir(tmp_path)
    stale = tmp_path / "cribbage.db"
    asyncio.run(a_database_with_a_lobby(stale))
    return stale


def first_line(out: str) -> str:
    return out.splitlines()[0]


def test_check_replays_the_configured_database_on_sqlite_and_postgresql(
    tmp_path, database, monkeypatch, capsys
):
    ids = asyncio.run(a_played_database(database))
    stale = configure(monkeypatch, tmp_path, database)
    before = digest(stale)
    assert main(["check"]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert first_line(out) == describe(database)
    assert "Games: 3 (1 active, 1 finished, 1 lobby); 2 logs replayed" in out
    assert out.rstrip().endswith("OK: no problem found.")
    with connect(database) as conn:
        conn.execute(
            "UPDATE results SET final_score = final_score + 5 WHERE game_id = ?",
            (ids["finished"],),
        )
    if not isinstance(database, str):
        conn.close()
    # The same database named explicitly, with nothing configured.
    monkeypatch.delenv("CRIBBAGE_DB", raising=False)
    monkeypatch.delenv("CRIBBAGE_DATABASE_URL", raising=False)
    assert main(["check", "--db", str(database)]) == 1
    out = capsys.readouterr().out
    assert first_line(out) == describe(database)
    assert f"PROBLEM game {ids['finished']} (finished): seat" in out
    assert digest(stale) == before


def test_the_operator_commands_name_postgresql_without_its_password(tmp_path, monkeypatch, capsys):
    url = "postgresql://bot:s3cret@db.example:5432/cribbage?schema=club"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(operations, "PG_BIN_DIRS", "/nonexistent")
    assert main(["backup", "nightly.dump", "--db", url]) == 2
    out, err = capsys.readouterr()
    assert first_line(out) == (
        "Database: postgresql://bot:***@db.example:5432/cribbage?schema=club (PostgreSQL)"
    )
    assert "pg_dump --format=custom --schema=club --file=nightly.dump" in err
    assert "--dbname=postgresql://bot@db.example:5432/cribbage" in err and "PGPASSWORD" in err
    assert "s3cret" not in out + err and not Path("nightly.dump").exists()
    assert main(["check", "--db", "mysql://bot:s3cret@db/x"]) == 2
    err = capsys.readouterr().err
    assert "is not a PostgreSQL URL" in err and "s3cret" not in err


@pytest.mark.parametrize("command", [["check"], ["backup", "copy.db"], ["prune", "--days", "5"]])
def test_a_missing_sqlite_database_is_refused_and_not_created(
    tmp_path, monkeypatch, capsys, command
):
    for name in ("CRIBBAGE_DB", "CRIBBAGE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert first_line(out) == "Database: cribbage.db (SQLite)"
    assert "There is no database at cribbage.db; nothing was done and nothing was created" in err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []


def test_backup_of_postgresql_is_a_pg_dump_that_pg_restore_brings_back(
    tmp_path, postgres_server, monkeypatch, capsys
):
    url = postgres_server.migrated_url()
    try:
        ids = asyncio.run(a_played_database(url))
        stale = configure(monkeypatch, tmp_path, url)
        before = digest(stale)
        assert main(["backup", "nightly.dump"]) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        assert first_line(out) == describe(url)
        assert f"Backed up {url} to nightly.dump:" in out and "3 games" in out
        assert (tmp_path / "nightly.dump").read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
        assert digest(stale) == before and sorted(p.name for p in tmp_path.iterdir()) == [
            "cribbage.db",
            "nightly.dump",
        ]

        # A game started after the backup; the restore brings the database back as it was.
        asyncio.run(a_lobby(url))
        restore = operations.find_pg_program("pg_restore")
        assert restore is not None
        done = subprocess.run(
            [str(restore), "--clean", "--if-exists", f"--dbname={url}", "nightly.dump"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert main(["check"]) == 0
        out = capsys.readouterr().out
        assert "Games: 3 (1 active, 1 finished, 1 lobby); 2 logs replayed" in out, out
        assert ids["lobby"] == 3
    finally:
        postgres_server.give_back(url)


async def a_lobby(target: Path | str) -> None:
    store = await Store.open(target)
    try:
        await store.lobbies.create_lobby(
            guild_id=1,
            channel_id=99,
            host_id=DAVE,
            players=2,
            partnerships=False,
            target=121,
            now=0.0,
        )
    finally:
        await store.close()


# ---------------------------------------------------------------------- migrate


def test_migrate_creates_then_finds_the_database_up_to_date(databases, monkeypatch, capsys):
    target = databases("migrated", fresh=True)
    assert main(["migrate", "--db", str(target)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        describe(target),
        "Schema version before: none (no database yet)",
        f"Schema version after: {LATEST_VERSION} (created.)",
        "Schema revision before: none",
        f"Schema revision after: {head_revision()}",
    ]
    assert main(["migrate", "--db", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"Schema version before: {LATEST_VERSION}",
        f"Schema version after: {LATEST_VERSION} (up to date; nothing was changed.)",
        f"Schema revision before: {head_revision()}",
        f"Schema revision after: {head_revision()}",
    ]


def test_migrate_upgrades_an_older_file_unless_a_bot_runs_on_it(tmp_path, capsys):
    path = an_older_database(tmp_path / "old.db")
    lock = ProcessLock.take(path)  # as the running bot holds it
    try:
        assert main(["migrate", "--db", str(path)]) == 2
        assert "is already in use" in capsys.readouterr().err
    finally:
        lock.release()
    assert main(["migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"Schema version before: {MIGRATIONS[-2].version}",
        f"Schema version after: {LATEST_VERSION} (migrated.)",
        "Schema revision before: none",
        f"Schema revision after: {head_revision()}",
    ]


def test_prune_refuses_an_older_schema_rather_than_upgrading_it(tmp_path, capsys):
    path = an_older_database(tmp_path / "old.db")
    before = digest(path)
    assert main(["prune", "--days", "1", "--db", str(path)]) == 2
    assert "cribbage-bot migrate" in capsys.readouterr().err
    assert digest(path) == before
