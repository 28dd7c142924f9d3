"""One bot process per SQLite file: the exclusive opening (``Store.open(..., exclusive=True)``,
the bot's own) holds ``<database>.lock`` until the store closes or its process dies; another
process's exclusive opening is refused before it reads or writes anything, while the operator's
read-only and ordinary openings go on."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import sys
from pathlib import Path

import pytest

from db import DatabaseBusy, Store
from db.opening import ProcessLock
from tests.db.test_startup import a_database_with_a_lobby

ROOT = Path(__file__).resolve().parents[2]

# Opens the database as the bot does, says so, and holds it until its stdin closes.
HOLDER = """
import asyncio, sys
from db import Store

async def main(path):
    store = await Store.open(path, exclusive=True)
    print("held", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    await store.close()

asyncio.run(main(sys.argv[1]))
"""


async def hold(path: Path) -> asyncio.subprocess.Process:
    """Another process holding ``path`` as the bot does, until :func:`let_go` (or a kill)."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-c", HOLDER, str(path)),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    assert await asyncio.wait_for(process.stdout.readline(), 30) == b"held\n"
    return process


async def let_go(process: asyncio.subprocess.Process) -> None:
    assert process.stdin is not None
    process.stdin.close()
    assert await asyncio.wait_for(process.wait(), 30) == 0


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_a_second_process_is_refused_by_name_and_changes_nothing(tmp_path):
    path = tmp_path / "cribbage.db"
    await a_database_with_a_lobby(path)
    holder = await hold(path)
    try:
        before = digest(path)
        with pytest.raises(DatabaseBusy) as refused:
            await Store.open(path, exclusive=True)
        message = str(refused.value)
        assert f"The database {path} is already in use" in message
        assert f"pid {holder.pid}" in message and f"{path}.lock" in message
        assert "\n" not in message
        assert digest(path) == before
        # The operator's commands still open it: check and backup read, prune writes.
        reader = await Store.open(path, read_only=True)
        assert [status for _, status in await reader.maintenance.games()] == ["lobby"]
        await reader.close()
        writer = await Store.open(path)
        await writer.meta.set("operator", "was here")
        await writer.close()
    finally:
        await let_go(holder)
    store = await Store.open(path, exclusive=True)  # the holder closed its store: free again
    try:
        assert await store.meta.get("operator") == "was here"
    finally:
        await store.close()


async def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    path = tmp_path / "cribbage.db"
    holder = await hold(path)
    assert ProcessLock.path_of(path).read_text().strip() == str(holder.pid)
    with pytest.raises(DatabaseBusy):
        await Store.open(path, exclusive=True)
    holder.send_signal(signal.SIGKILL)
    assert await asyncio.wait_for(holder.wait(), 30) == -signal.SIGKILL
    assert ProcessLock.path_of(path).exists()  # the file stays; its lock died with the process
    store = await Store.open(path, exclusive=True)
    try:
        assert ProcessLock.path_of(path).read_text().strip() == str(os.getpid())
    finally:
        await store.close()


async def test_closing_the_store_gives_the_lock_back(tmp_path):
    path = tmp_path / "cribbage.db"
    first = await Store.open(path, exclusive=True)
    with pytest.raises(DatabaseBusy):  # a second opening of the file is refused in-process too
        await Store.open(path, exclusive=True)
    await first.close()
    second = await Store.open(path, exclusive=True)
    await second.close()


async def test_a_refused_opening_of_a_missing_database_creates_nothing(tmp_path):
    path = tmp_path / "data" / "cribbage.db"
    path.parent.mkdir()
    lock = ProcessLock.take(path)
    try:
        with pytest.raises(DatabaseBusy):
            await Store.open(path, exclusive=True)
        assert not path.exists()
    finally:
        lock.release()
