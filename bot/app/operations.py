"""The operator's commands: ``python -m bot backup PATH`` and ``python -m bot check [DB]``.

Both read the database named by ``CRIBBAGE_DB`` (``.env`` is loaded; default ``cribbage.db``)
unless told another, need no token, and are safe while the bot runs: they open the file read
only, and SQLite's online backup copies a consistent snapshot while the bot keeps writing.

* ``backup PATH [--db DB] [--force]``: copies the database into ``PATH`` (a new file; with
  ``--force`` an existing one is replaced; a directory gets a dated file in it). The copy is
  written beside ``PATH`` under a temporary name, checked (``PRAGMA integrity_check``), synced
  to the disk and only then renamed to ``PATH``: an interrupted backup never leaves a partial
  file under the backup's name. Exit 0, or 2 with one paragraph.
* ``check [DB]``: SQLite's integrity check, then every started game's action log replayed
  through the engine to its snapshot and results (:mod:`bot.app.verify`). Exit 0 when all is
  well, 1 naming each game and what is wrong, 2 when the file cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.app.config import database_path
from bot.app.verify import verify_game
from db import LATEST_VERSION, DatabaseCorrupt, Store, StoreError
from db.diagnosis import explain

#: Exit statuses: all well, a problem found in the database, the command could not run.
OK, PROBLEM, CANNOT_RUN = 0, 1, 2


class OperationError(Exception):
    """The command cannot do what was asked (the message says why and what to do)."""


# ---------------------------------------------------------------------- backup


@dataclass(frozen=True, slots=True)
class BackupReport:
    source: Path
    target: Path
    size: int
    schema_version: int
    games: Counter[str]
    seconds: float

    def describe(self) -> str:
        statuses = ", ".join(f"{n} {status}" for status, n in sorted(self.games.items()))
        return (
            f"Backed up {self.source} to {self.target}: {self.size:,} bytes, schema version "
            f"{self.schema_version}, {sum(self.games.values())} games ({statuses or 'none'}), "
            f"in {self.seconds:.2f} s. Check it with: python -m bot check {self.target}"
        )


async def backup(source: Path, target: Path, *, force: bool = False) -> BackupReport:
    """Copy the database ``source`` into ``target`` (see the module's docstring)."""
    began = time.perf_counter()
    if target.is_dir():
        target = target / f"{source.stem}-{time.strftime('%Y%m%d-%H%M%S')}{source.suffix}"
    if not target.parent.is_dir():
        raise OperationError(f"Cannot write the backup {target}: no directory {target.parent}.")
    if target.exists():
        if source.exists() and target.samefile(source):
            raise OperationError(f"{target} is the database itself; back it up somewhere else.")
        if not force:
            raise OperationError(
                f"{target} already exists; it was left as it is. Choose a new name, or pass "
                "--force to replace it."
            )
    store = await Store.open(source, read_only=True)
    partial: Path | None = None
    try:
        try:
            handle, name = tempfile.mkstemp(
                dir=target.parent, prefix=f".{target.name}.", suffix=".part"
            )
            os.close(handle)
            partial = Path(name)
            await store.maintenance.backup(partial)
        finally:
            await store.close()
        schema, games = await _inspect_copy(partial)
        _sync(partial)
        os.replace(partial, target)
        _sync(target.parent)
    except sqlite3.Error as err:
        why = explain(err, partial or target, "copying")
        raise OperationError(f"The backup to {target} failed: {why}") from err
    except OSError as err:
        raise OperationError(
            f"Cannot write the backup {target}: {err.strerror or err}. Check that the directory "
            f"{target.parent} is writable and has room for a copy of {source}."
        ) from err
    finally:
        if partial is not None:
            partial.unlink(missing_ok=True)
    return BackupReport(
        source, target, target.stat().st_size, schema, games, time.perf_counter() - began
    )


async def _inspect_copy(path: Path) -> tuple[int, Counter[str]]:
    copy = await Store.open(path, read_only=True)
    try:
        problems = await copy.maintenance.integrity_problems()
        games = Counter(status for _, status in await copy.maintenance.games())
    finally:
        await copy.close()
    if problems:
        raise OperationError(f"The copy failed SQLite's integrity check: {'; '.join(problems)}")
    return copy.schema_version, games


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- check


@dataclass(slots=True)
class CheckReport:
    path: Path
    schema_version: int = 0
    upgraded_copy: bool = False
    integrity: list[str] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)
    replayed: int = 0
    problems: dict[int, tuple[str, list[str]]] = field(default_factory=dict)  # id: status, what

    @property
    def ok(self) -> bool:
        return not self.integrity and not self.problems

    def lines(self) -> list[str]:
        out = [f"{self.path}: schema version {self.schema_version}."]
        if self.upgraded_copy:
            out.append(
                f"  (older than this version's {LATEST_VERSION}: checked on an upgraded copy; "
                "the file itself was not changed)"
            )
        out.append(
            "SQLite integrity check: "
            + ("ok." if not self.integrity else f"{len(self.integrity)} problem(s):")
        )
        out += [f"  {problem}" for problem in self.integrity]
        statuses = ", ".join(f"{n} {status}" for status, n in sorted(self.games.items()))
        out.append(
            f"Games: {sum(self.games.values())} ({statuses or 'none'}); {self.replayed} logs "
            "replayed against their snapshots and results (lobbies have none; logs pruned by "
            "a retention are not replayed)."
        )
        for game_id, (status, problems) in sorted(self.problems.items()):
            out += [f"PROBLEM game {game_id} ({status}): {problem}" for problem in problems]
        if self.ok:
            out.append("OK: no problem found.")
        else:
            count = len(self.integrity) + sum(len(p) for _, p in self.problems.values())
            out.append(
                f"{count} problem(s) found. Keep this file, stop the bot, and restore the latest "
                "backup that passes `python -m bot check` (README: Backups and restore)."
            )
        return out


async def check(path: Path) -> CheckReport:
    """Check the database ``path`` (see the module's docstring); never writes to it."""
    report = CheckReport(path)
    store = await Store.open(path, read_only=True)
    report.schema_version = store.schema_version
    with tempfile.TemporaryDirectory(prefix="cribbage-check-") as scratch:
        if store.schema_version < LATEST_VERSION:  # the reads below need today's schema
            copy = Path(scratch) / path.name
            try:
                await store.maintenance.backup(copy)
            finally:
                await store.close()
            store = await Store.open(copy)
            report.upgraded_copy = True
        try:
            await _check_open(store, report)
        finally:
            await store.close()
    return report


async def _check_open(store: Store, report: CheckReport) -> None:
    try:
        report.integrity = await store.maintenance.integrity_problems()
    except sqlite3.DatabaseError as err:
        report.integrity = [f"SQLite cannot read every page: {err}"]
    try:
        games = await store.maintenance.games()
    except sqlite3.DatabaseError as err:
        report.integrity.append(f"the list of games cannot be read: {err}")
        return
    for game_id, status in games:
        report.games[status] += 1
        found = await verify_game(store, game_id)
        report.replayed += found.replayed
        if found.problems:
            report.problems[game_id] = (status, found.problems)


# ---------------------------------------------------------------------- command lines


def _source(given: Path | None) -> Path:
    return given if given is not None else database_path()


def backup_main(argv: Sequence[str]) -> int:
    """``python -m bot backup``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the bot's database with SQLite's online backup (safe while it runs).",
    )
    parser.add_argument("path", type=Path, help="the new backup file (or a directory)")
    parser.add_argument("--db", type=Path, help="the database (default: CRIBBAGE_DB)")
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(backup(_source(args.db), args.path, force=args.force))
    except (StoreError, OperationError) as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    print(report.describe())
    return OK


def check_main(argv: Sequence[str]) -> int:
    """``python -m bot check``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot check",
        description="Check the database: SQLite's integrity, and every game's log replayed.",
    )
    parser.add_argument("db", type=Path, nargs="?", help="the database (default: CRIBBAGE_DB)")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(check(_source(args.db)))
    except DatabaseCorrupt as err:  # a problem found, not a wrong command
        print(err, file=sys.stderr)
        return PROBLEM
    except StoreError as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    print("\n".join(report.lines()))
    return OK if report.ok else PROBLEM
