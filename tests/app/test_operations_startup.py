"""``python -m bot`` that cannot start says why in one paragraph on stderr and exits with 2, for
every store and configuration error, without a traceback, and before touching the network.

The bot runs in a subprocess pointed at the Discord emulator, which accepts only another token:
had the bot tried to log in before opening its database, it would have been refused (and said
so) instead of naming the database's problem.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from db import LATEST_VERSION
from discord_emulator import DiscordEmulator
from tests.db.test_startup import a_database_with_a_lobby, read_only
from tests.db.test_startup_diagnosis import hold_lock, release
from tests.support.discord_players import TOKEN, bot_environment

OTHER_TOKEN = "OTg3NjU0MzIxMDk4NzY1NDMy.XyZaBc.zyxwvutsrqponmlkjihgfedcba9876543210"

# Each starts `python -m bot` in a subprocess: the quick loop leaves them to `make test`.
pytestmark = pytest.mark.slow


async def start_bot(
    emu: DiscordEmulator, database: Path, env: dict[str, str] | None = None
) -> tuple[int, str]:
    """Run ``python -m bot`` against ``emu``; (exit status, stderr)."""
    process = await asyncio.create_subprocess_exec(
        *emu.launch_command(module="bot"),
        cwd=next(folder for folder in database.parents if folder.is_dir()),  # no .env there
        env=env or bot_environment(database),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, err.decode()


def assert_one_paragraph(status: int, stderr: str, *needles: str) -> None:
    assert status == 2, stderr
    assert "Traceback" not in stderr, stderr
    assert stderr.strip() and "\n" not in stderr.strip(), stderr  # one paragraph, nothing else
    assert TOKEN not in stderr
    for needle in needles:
        assert needle in stderr, stderr


async def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(9000))


async def too_new(path: Path) -> None:
    await a_database_with_a_lobby(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()


async def damaged(path: Path) -> None:
    await a_database_with_a_lobby(path)
    data = bytearray(path.read_bytes())
    data[4096:] = b"\x5a" * (len(data) - 4096)
    path.write_bytes(bytes(data))


async def lacking_tables(path: Path) -> None:
    await a_database_with_a_lobby(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE results")
    conn.commit()
    conn.close()


async def a_directory(path: Path) -> None:
    path.mkdir()


CASES: dict[str, tuple[Callable[[Path], Awaitable[None]] | None, str, tuple[str, ...]]] = {
    # name: (how to spoil the database, the path relative to tmp_path, what stderr must say)
    "missing directory": (None, "gone/cribbage.db", ("does not exist",)),
    "a directory": (a_directory, "cribbage.db", ("is a directory",)),
    "garbage": (garbage, "cribbage.db", ("is not an SQLite database", "SQLITE_NOTADB")),
    "too new": (too_new, "cribbage.db", ("newer cribbage-bot", "Upgrade")),
    "damaged": (damaged, "cribbage.db", ("is damaged", "SQLITE_CORRUPT", "backup")),
    "tables missing": (lacking_tables, "cribbage.db", ("lacks the tables results",)),
}


#: The quick loop runs these; the rest (same path, other messages) run in ``make test``.
QUICK = ("missing directory", "garbage", "damaged")


@pytest.mark.parametrize(
    "case",
    [case if case in QUICK else pytest.param(case, marks=pytest.mark.slow) for case in CASES],
)
async def test_a_database_that_cannot_be_used_stops_the_start(tmp_path, case):
    spoil, relative, needles = CASES[case]
    database = tmp_path / relative
    if spoil is not None:
        await spoil(database)
    async with DiscordEmulator(bot_token=OTHER_TOKEN) as emu:
        status, stderr = await start_bot(emu, database)
    assert_one_paragraph(status, stderr, str(database), *needles)


async def test_a_read_only_database_stops_the_start(tmp_path):
    database = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(database)
    async with DiscordEmulator(bot_token=OTHER_TOKEN) as emu:
        with read_only(database):
            status, stderr = await start_bot(emu, database)
    assert_one_paragraph(status, stderr, f"the file {database} is read-only", "SQLITE_READONLY")


@pytest.mark.slow  # the same path as a read-only file (tests/db covers the directory in-process)
async def test_a_read_only_directory_stops_the_start(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "cribbage.db"
    await a_database_with_a_lobby(database)
    async with DiscordEmulator(bot_token=OTHER_TOKEN) as emu:
        with read_only(folder):
            status, stderr = await start_bot(emu, database)
    assert_one_paragraph(status, stderr, f"the directory {folder} is read-only")


@pytest.mark.slow  # the start waits out its 5 s busy timeout
async def test_a_database_locked_by_another_program_stops_the_start(tmp_path):
    database = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(database)
    holder = await hold_lock(database)
    try:
        async with DiscordEmulator(bot_token=OTHER_TOKEN) as emu:
            status, stderr = await start_bot(emu, database)
    finally:
        await release(holder)
    assert_one_paragraph(status, stderr, str(database), "locked by another program")
    assert "new file" not in stderr


@pytest.mark.parametrize(
    ("token", "needle"),
    [
        (None, "DISCORD_TOKEN is not set"),
        pytest.param("not-a-token", "does not look like", marks=pytest.mark.slow),
    ],
)
async def test_a_missing_or_malformed_token_stops_the_start(tmp_path, token, needle):
    env = bot_environment(tmp_path / "cribbage.db")
    del env["DISCORD_TOKEN"]
    if token is not None:
        env["DISCORD_TOKEN"] = token
    async with DiscordEmulator() as emu:
        status, stderr = await start_bot(emu, tmp_path / "cribbage.db", env)
    assert_one_paragraph(status, stderr, needle)
    assert "not-a-token" not in stderr


async def test_a_token_discord_refuses_stops_the_start(tmp_path):
    """The database is fine, Discord says 401: one paragraph after the start-up log lines."""
    async with DiscordEmulator(bot_token=OTHER_TOKEN) as emu:
        status, stderr = await start_bot(emu, tmp_path / "cribbage.db")
    assert status == 2 and "Traceback" not in stderr, stderr
    *log_lines, paragraph = stderr.strip().splitlines()
    assert paragraph.startswith("Discord refused the token") and "Reset Token" in paragraph
    assert all(" INFO " in line or " WARNING " in line for line in log_lines), log_lines
    assert TOKEN not in stderr and OTHER_TOKEN not in stderr


def test_the_module_runs_without_the_emulator_too(tmp_path):
    """Plain ``python -m bot`` (no launcher): the same paragraph, before any network."""
    import subprocess

    database = tmp_path / "not-a-db.txt"
    database.write_text("hello\n" * 400)
    env = bot_environment(database)
    result = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert_one_paragraph(result.returncode, result.stderr, f"{database} is not an SQLite")


async def test_a_second_bot_on_the_same_sqlite_file_is_refused_until_the_first_dies(tmp_path):
    """The first bot runs; a second on its file stops at once with one paragraph (before any
    network: the emulator sees no second client); once the first is killed with SIGKILL, a new
    one starts (the lock died with its process)."""
    import signal

    database = tmp_path / "cribbage.db"
    async with DiscordEmulator() as emu:
        first = await asyncio.create_subprocess_exec(
            *emu.launch_command(module="bot"),
            cwd=tmp_path,
            env=bot_environment(database),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await emu.wait_ready(require_commands=False, timeout=60)
            session = emu.gateway.target()
            status, stderr = await start_bot(emu, database)
            assert emu.gateway.target() is session and session.connected
        finally:
            first.send_signal(signal.SIGKILL)
            await first.wait()
        assert_one_paragraph(
            status, stderr, f"The database {database} is already in use", f"pid {first.pid}"
        )
        await emu.wait_for(lambda: not session.connected, timeout=30, what="the socket to close")
        third = await asyncio.create_subprocess_exec(
            *emu.launch_command(module="bot"),
            cwd=tmp_path,
            env=bot_environment(database),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await emu.wait_ready(require_commands=False, timeout=60)
            assert emu.gateway.target() is not session
        finally:
            third.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(third.communicate(), 30)
        assert third.returncode == 0, err.decode()
