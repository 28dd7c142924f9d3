"""The operator's commands on the configured database: ``cribbage-bot backup``, ``check`` and
``migrate`` (``prune`` is :mod:`bot.app.retention`).

Each works on the database the bot is configured with (:func:`bot.app.config.database_target`:
``CRIBBAGE_DATABASE_URL``, else ``CRIBBAGE_DB``, else ``cribbage.db``; ``.env`` is loaded) or on
``--db PATH_OR_URL`` (a ``postgresql://`` value is PostgreSQL), says first which one
(:func:`~bot.app.config.database_label`: never the password), and needs no token. None of them
creates a database, except ``migrate``, whose purpose it is: a missing SQLite file or an empty
PostgreSQL schema is refused, changed in nothing.

* ``backup PATH [--force]``: SQLite: the online backup into ``PATH`` (a new file; ``--force``
  replaces one; a directory gets a dated file), written under a temporary name beside it,
  checked (``PRAGMA integrity_check``), synced, then renamed: an interrupted backup never
  leaves a partial file under the backup's name. Safe while the bot runs. PostgreSQL:
  ``pg_dump --format=custom`` of the bot's schema into ``PATH`` the same way (PATH, then the
  Debian directories ``/usr/lib/postgresql/*/bin``, give ``pg_dump``; without it the command
  refuses and prints the ``pg_dump`` command to run). Exit 0, or 2 with one paragraph.
* ``check``: SQLite's integrity check (PostgreSQL enforces its constraints itself), then every
  started game's action log replayed through the engine to its snapshot and results
  (:mod:`bot.app.verify`), all read from one moment while the bot plays on. Exit 0 when all is
  well, 1 naming each game and what is wrong, 2 when the database cannot be used.
* ``migrate``: applies the schema's migrations as the bot's start does (creating the database
  when there is none), and prints the schema version before and after. An SQLite file the bot
  is running on is refused while it needs upgrading (stop the bot first).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app.config import ConfigError, database_label, database_target
from bot.app.verify import verify_game
from db import LATEST_VERSION, DatabaseCorrupt, NotACribbageDatabase, Store, StoreError, migrations
from db.pg import is_url, split_url

#: Exit statuses: all well, a problem found in the database, the command could not run.
OK, PROBLEM, CANNOT_RUN = 0, 1, 2

#: Where Debian and Ubuntu install PostgreSQL's programs when they are not on PATH.
PG_BIN_DIRS = "/usr/lib/postgresql/*/bin"

#: The database an operator command works on: an SQLite file, or a PostgreSQL URL.
Target = Path | str


class OperationError(Exception):
    """The command cannot do what was asked (the message says why and what to do)."""


# ---------------------------------------------------------------------- the database


def target_of(text: str) -> Target:
    """``--db``'s value: a ``postgresql://`` URL, or an SQLite file's path."""
    if is_url(text):
        return text
    if "://" in text:
        raise argparse.ArgumentTypeError(
            f"{database_label(text)} is not a PostgreSQL URL (postgresql://user:password@host:"
            "port/database) nor a file's path"
        )
    return Path(text)


def describe(target: Target) -> str:
    """The line an operator command starts with: which database it works on."""
    kind = "PostgreSQL" if isinstance(target, str) else "SQLite"
    return f"Database: {database_label(target)} ({kind})"


def require_file(path: Path) -> None:
    """Refuse an SQLite database that is not there (opening it would create it)."""
    if path.is_file():
        return
    where = (
        f"{path} is a directory, not a database file"
        if path.is_dir()
        else f"There is no database at {path}"
    )
    raise OperationError(
        f"{where}; nothing was done and nothing was created. Check CRIBBAGE_DB (or --db), "
        "or set CRIBBAGE_DATABASE_URL if the bot keeps its games in PostgreSQL. "
        "`cribbage-bot migrate` creates a new database on purpose."
    )


async def open_existing(target: Target) -> Store:
    """The database, opened read only; refused if it does not exist yet (nothing created)."""
    if isinstance(target, Path):
        require_file(target)
    try:
        return await Store.open(target, read_only=True)
    except NotACribbageDatabase as err:
        if isinstance(target, Path):
            raise
        raise OperationError(
            f"{err} There is no cribbage database at {database_label(target)}: check "
            "CRIBBAGE_DATABASE_URL (or --db) and its ?schema=; `cribbage-bot migrate` creates "
            "one on purpose."
        ) from err


def require_current(store: Store, label: str) -> None:
    """Refuse a schema older than this version's (writing to it would first upgrade it)."""
    if store.schema_version < LATEST_VERSION:
        raise OperationError(
            f"{label} has schema version {store.schema_version}, older than this cribbage-bot's "
            f"{LATEST_VERSION}; nothing was changed. Upgrade it first: stop the bot, then run "
            "`cribbage-bot migrate` (or start the new version of the bot, which migrates)."
        )


# ---------------------------------------------------------------------- backup


@dataclass(frozen=True, slots=True)
class BackupReport:
    source: str  # the database's label
    target: Path
    size: int
    schema_version: int
    games: Counter[str]
    seconds: float
    dialect: str = "sqlite"

    def describe(self) -> str:
        statuses = ", ".join(f"{n} {status}" for status, n in sorted(self.games.items()))
        then = (
            f"Check it with: cribbage-bot check --db {self.target}"
            if self.dialect == "sqlite"
            else "Restore it with pg_restore (docs/admin/operations.md)."
        )
        return (
            f"Backed up {self.source} to {self.target}: {self.size:,} bytes, schema version "
            f"{self.schema_version}, {sum(self.games.values())} games ({statuses or 'none'}), "
            f"in {self.seconds:.2f} s. {then}"
        )


def _backup_file(target: Path, stem: str, suffix: str, force: bool) -> Path:
    """Where the backup goes: ``target``, or a dated file in the directory ``target``."""
    if target.is_dir():
        target = target / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}{suffix}"
    if not target.parent.is_dir():
        raise OperationError(f"Cannot write the backup {target}: no directory {target.parent}.")
    if target.exists() and not force:
        raise OperationError(
            f"{target} already exists; it was left as it is. Choose a new name, or pass "
            "--force to replace it."
        )
    return target


async def backup(
    source: Target, target: Path, *, force: bool = False, pg_dump: Path | None = None
) -> BackupReport:
    """Back the database ``source`` up into ``target`` (see the module's docstring).
    ``pg_dump``: the program (PostgreSQL; default: :func:`find_pg_program`)."""
    if isinstance(source, str):
        return await _backup_postgresql(source, target, force=force, pg_dump=pg_dump)
    return await _backup_sqlite(source, target, force=force)


async def _backup_sqlite(source: Path, target: Path, *, force: bool) -> BackupReport:
    began = time.perf_counter()
    target = _backup_file(target, source.stem, source.suffix, force)
    if target.exists() and source.exists() and target.samefile(source):
        raise OperationError(f"{target} is the database itself; back it up somewhere else.")
    store = await open_existing(source)
    partial: Path | None = None
    try:
        try:
            partial = _new_partial(target)
            await store.maintenance.backup(partial)
        finally:
            await store.close()
        schema, games = await _inspect_copy(partial)
        _sync(partial)
        os.replace(partial, target)
        _sync(target.parent)
    except StoreError as err:
        raise OperationError(f"The backup to {target} failed: {err}") from err
    except OSError as err:
        raise OperationError(_cannot_write(target, err, str(source))) from err
    finally:
        if partial is not None:
            partial.unlink(missing_ok=True)
    return BackupReport(
        str(source), target, target.stat().st_size, schema, games, time.perf_counter() - began
    )


def _new_partial(target: Path) -> Path:
    """A new empty file beside ``target`` that the backup is written to before its rename."""
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(handle)
    return Path(name)


def _cannot_write(target: Path, err: OSError, source: str) -> str:
    return (
        f"Cannot write the backup {target}: {err.strerror or err}. Check that the directory "
        f"{target.parent} is writable and has room for a copy of {source}."
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


def find_pg_program(name: str) -> Path | None:
    """PostgreSQL's program ``name`` (``pg_dump``, ``pg_restore``): on PATH, else in the newest
    of :data:`PG_BIN_DIRS`."""
    found = shutil.which(name)
    if found:
        return Path(found)

    def version(program: str) -> int:
        folder = Path(program).parent.parent.name
        return int(folder) if folder.isdigit() else 0

    candidates = sorted(glob.glob(f"{PG_BIN_DIRS}/{name}"), key=version)
    return Path(candidates[-1]) if candidates else None


def dump_command(url: str, file: Path, pg_dump: Path | str = "pg_dump") -> tuple[list[str], str]:
    """The ``pg_dump`` command line that backs the bot's schema of ``url`` up into ``file``
    (no password in it: it is passed as ``PGPASSWORD``), and the password ('' when none)."""
    dsn, schema = split_url(url)
    parts = urllib.parse.urlsplit(dsn)
    password = urllib.parse.unquote(parts.password or "")
    if parts.password is not None:
        userinfo, _, host = parts.netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        dsn = urllib.parse.urlunsplit(parts._replace(netloc=f"{user}@{host}"))
    argv = [
        str(pg_dump),
        "--format=custom",
        f"--schema={schema}",
        f"--file={file}",
        f"--dbname={dsn}",
    ]
    return argv, password


async def _backup_postgresql(
    url: str, target: Path, *, force: bool, pg_dump: Path | None
) -> BackupReport:
    began = time.perf_counter()
    target = _backup_file(target, "cribbage", ".dump", force)
    program = pg_dump or find_pg_program("pg_dump")
    if program is None:
        argv, password = dump_command(url, target)
        secret = " (the password from PGPASSWORD or ~/.pgpass)" if password else ""
        raise OperationError(
            "A PostgreSQL database is backed up with pg_dump, PostgreSQL's client program, and "
            f"there is none here (not on PATH nor in {PG_BIN_DIRS}); nothing was written. "
            "Install it (Debian and Ubuntu: apt-get install postgresql-client, of the server's "
            f"version or newer), or run on a machine that has it{secret}: {shlex.join(argv)}"
        )
    store = await open_existing(url)  # the schema must exist: pg_dump would dump nothing
    try:
        schema = store.schema_version
        games = Counter(status for _, status in await store.maintenance.games())
    finally:
        await store.close()
    partial = None
    try:
        partial = _new_partial(target)
        argv, password = dump_command(url, partial, program)
        env = dict(os.environ)
        if password:
            env["PGPASSWORD"] = password
        done = await asyncio.to_thread(
            subprocess.run, argv, env=env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise OperationError(
                f"pg_dump failed (exit status {done.returncode}), nothing was written to "
                f"{target}: {done.stderr.strip()}"
            )
        await _inspect_dump(partial, split_url(url)[1])
        _sync(partial)
        os.replace(partial, target)
        _sync(target.parent)
    except OSError as err:
        raise OperationError(_cannot_write(target, err, database_label(url))) from err
    finally:
        if partial is not None:
            partial.unlink(missing_ok=True)
    return BackupReport(
        database_label(url),
        target,
        target.stat().st_size,
        schema,
        games,
        time.perf_counter() - began,
        "postgresql",
    )


async def _inspect_dump(path: Path, schema: str) -> None:
    """The dump lists the bot's tables (``pg_restore --list``, when it is installed)."""
    pg_restore = find_pg_program("pg_restore")
    if pg_restore is None:
        return
    listed = await asyncio.to_thread(
        subprocess.run,
        [str(pg_restore), "--list", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0 or f"TABLE {schema} games " not in listed.stdout:
        raise OperationError(
            f"pg_dump wrote a file that pg_restore cannot read back or that lacks the table "
            f"{schema}.games: {listed.stderr.strip() or 'no such table in its list'}"
        )


# ---------------------------------------------------------------------- check


@dataclass(slots=True)
class CheckReport:
    path: str  # the database's label
    dialect: str = "sqlite"
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
        if self.dialect == "sqlite":
            out.append(
                "SQLite integrity check: "
                + ("ok." if not self.integrity else f"{len(self.integrity)} problem(s):")
            )
        else:
            out.append("PostgreSQL enforces the tables' constraints itself: no file to check.")
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
                f"{count} problem(s) found. Keep this database as it is, stop the bot, and "
                "restore the latest backup that passes `cribbage-bot check` "
                "(docs/admin/operations.md: Restore)."
            )
        return out


async def check(target: Target) -> CheckReport:
    """Check the database ``target`` (see the module's docstring); never writes to it."""
    store = await open_existing(target)
    report = CheckReport(database_label(target), store.dialect, store.schema_version)
    if isinstance(target, str) and store.schema_version < LATEST_VERSION:
        await store.close()  # no copy to upgrade: the schema must be upgraded itself
        require_current(store, report.path)
    with tempfile.TemporaryDirectory(prefix="cribbage-check-") as scratch:
        if isinstance(target, Path) and store.schema_version < LATEST_VERSION:
            copy = Path(scratch) / target.name  # the reads below need today's schema
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
    if store.dialect == "sqlite":
        try:
            report.integrity = await store.maintenance.integrity_problems()
        except StoreError as err:
            report.integrity = [f"SQLite cannot read every page: {err}"]
    try:
        games = await store.maintenance.games()
    except StoreError as err:
        report.integrity.append(f"the list of games cannot be read: {err}")
        return
    for game_id, status in games:
        report.games[status] += 1
        found = await verify_game(store, game_id)
        report.replayed += found.replayed
        if found.problems:
            report.problems[game_id] = (status, found.problems)


# ---------------------------------------------------------------------- migrate


@dataclass(frozen=True, slots=True)
class MigrateReport:
    before: int | None  # None: there was no database
    after: int
    #: The Alembic revision before (None: none yet, or no database) and after.
    revision_before: str | None = None
    revision_after: str | None = None

    def lines(self) -> list[str]:
        before = "none (no database yet)" if self.before is None else str(self.before)
        if (self.before, self.revision_before) == (self.after, self.revision_after):
            outcome = "up to date; nothing was changed."
        elif self.before is None:
            outcome = "created."
        else:
            outcome = "migrated."
        return [
            f"Schema version before: {before}",
            f"Schema version after: {self.after} ({outcome})",
            f"Schema revision before: {self.revision_before or 'none'}",
            f"Schema revision after: {self.revision_after or 'none'}",
        ]


async def migrate(target: Target) -> MigrateReport:
    """Create or upgrade the database ``target`` to this version's schema."""
    before: int | None = None
    revision: str | None = None
    if isinstance(target, str) or target.exists():
        try:
            store = await Store.open(target, read_only=True)
        except NotACribbageDatabase:
            if isinstance(target, Path):
                raise
            # PostgreSQL: no cribbage schema yet (or another app's tables: refused below)
        else:
            before, revision = store.schema_version, store.revision
            await store.close()
    if before == LATEST_VERSION and revision == migrations.head_revision():
        return MigrateReport(before, before, revision, revision)
    store = await Store.open(target, exclusive=True)  # not under a running bot (SQLite)
    after = store.schema_version
    report = MigrateReport(before, after, revision, store.revision)
    await store.close()
    return report


# ---------------------------------------------------------------------- command lines

DB_HELP = (
    "the database: an SQLite file, or a postgresql:// URL (default: CRIBBAGE_DATABASE_URL, "
    "else CRIBBAGE_DB, else cribbage.db)"
)


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=target_of, metavar="PATH_OR_URL", help=DB_HELP)


def run_on_database(
    given: Target | None,
    work: Callable[[Target], Coroutine[Any, Any, int]],
    *,
    problem: int = CANNOT_RUN,
) -> int:
    """Resolve the database (``given``, else the configured one), say which it is, then run
    ``work`` on it; one paragraph on stderr and exit 2 when it cannot (``problem`` for a
    database found damaged)."""
    try:
        target = given if given is not None else database_target()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN
    print(describe(target), flush=True)
    try:
        return asyncio.run(work(target))
    except DatabaseCorrupt as err:
        print(err, file=sys.stderr)
        return problem
    except (StoreError, OperationError) as err:
        print(err, file=sys.stderr)
        return CANNOT_RUN


def add_backup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        type=Path,
        metavar="PATH",
        help="the new backup file, or a directory to write a dated one in (SQLite: a database "
        "file; PostgreSQL: pg_dump's custom format)",
    )
    add_db_argument(parser)
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")


def run_backup(args: argparse.Namespace) -> int:
    """``cribbage-bot backup``; the exit status."""

    async def work(target: Target) -> int:
        print((await backup(target, args.path, force=args.force)).describe())
        return OK

    return run_on_database(args.db, work)


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "database",
        type=target_of,
        nargs="?",
        metavar="DB",
        help="the database (the same as --db)",
    )
    add_db_argument(parser)


def run_check(args: argparse.Namespace) -> int:
    """``cribbage-bot check``; the exit status."""
    if args.database is not None and args.db is not None and args.database != args.db:
        print("cribbage-bot check: give the database once (DB or --db).", file=sys.stderr)
        return CANNOT_RUN

    async def work(target: Target) -> int:
        report = await check(target)
        print("\n".join(report.lines()))
        return OK if report.ok else PROBLEM

    return run_on_database(args.db or args.database, work, problem=PROBLEM)


def add_migrate_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)


def run_migrate(args: argparse.Namespace) -> int:
    """``cribbage-bot migrate``; the exit status."""

    async def work(target: Target) -> int:
        print("\n".join((await migrate(target)).lines()))
        return OK

    return run_on_database(args.db, work)
