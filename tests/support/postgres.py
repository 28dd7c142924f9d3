"""A real PostgreSQL for the tests, started from the system's binaries in a temporary directory.

:func:`start` runs ``initdb`` and ``pg_ctl`` (Debian's ``/usr/lib/postgresql/<version>/bin``,
or any ``initdb`` on ``PATH``) in a new directory, on a free port of 127.0.0.1, with ``trust``
authentication (nothing but this machine can reach it); as root, through ``runuser -u postgres``
(PostgreSQL refuses to run as root), with no durability (``fsync``, ``synchronous_commit`` and
``full_page_writes`` off: a test server). :func:`start_soon` does it on a thread while the first
tests run (the conftest calls it once the run's tests are collected, if any needs PostgreSQL).

Each test gets a database of its own: :meth:`Server.migrated_url` lends a migrated one, which
:meth:`Server.give_back` empties after the test (~25 ms) for the next, instead of a new copy of
a migrated template (~40-300 ms) or a fresh schema the store migrates (~130 ms, still
:meth:`Server.url` for the tests of migrations). :func:`stop` stops the server and removes the
directory.

Environment: ``CRIBBAGE_TEST_PG_BINDIR`` names another directory of ``initdb`` and ``pg_ctl``;
``CRIBBAGE_TEST_POSTGRES=0`` skips the PostgreSQL half of the suites;
``CRIBBAGE_TEST_POSTGRES=require`` (set by ``make test``), or ``CI`` set, turns a missing
PostgreSQL into a failure instead of a skip. Install it with ``apt-get install -y postgresql``.
"""

from __future__ import annotations

import asyncio
import decimal
import glob
import itertools
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from db import pg

T = TypeVar("T")

_counter = itertools.count(1)
_TEMPLATE = "cribbage_template"
_watchdogs: list[subprocess.Popen[bytes]] = []  # kept: they outlive the test process


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL binaries, or the server did not start (the message says which)."""


def required() -> bool:
    """Whether a missing PostgreSQL fails the run (``make test``, CI) rather than skips."""
    flag = os.environ.get("CRIBBAGE_TEST_POSTGRES", "").strip().lower()
    return flag == "require" or (flag != "0" and bool(os.environ.get("CI")))


def wanted() -> bool:
    return os.environ.get("CRIBBAGE_TEST_POSTGRES", "").strip() != "0"


def find_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``: ``CRIBBAGE_TEST_PG_BINDIR`` (e.g. the
    ``bin`` of a server installed with pip), else the newest Debian version, else PATH."""
    given = os.environ.get("CRIBBAGE_TEST_PG_BINDIR", "").strip()
    if given and (Path(given) / "initdb").exists():
        return Path(given)

    def version(initdb: str) -> int:
        name = Path(initdb).parent.parent.name
        return int(name) if name.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    directory: Path
    bindir: Path
    port: int
    as_user: list[str]
    admin: SyncConnection | None = None
    #: Migrated databases no test uses: emptied after their last test, lent again.
    free: list[str] = field(default_factory=list)
    #: The fingerprint of a freshly migrated database's schema (see :data:`_FINGERPRINT`).
    pristine: str | None = None
    stopped: bool = False

    def url(self, schema: str | None = None) -> str:
        """The URL of the server's ``postgres`` database; ``schema``: a new one by default (the
        store creates and migrates it at its first opening)."""
        schema = schema or f"t{os.getpid()}_{next(_counter)}"
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres?schema={schema}"

    def migrated_url(self) -> str:
        """A migrated database no test uses: one a test gave back (:meth:`give_back`), else
        a new copy of a template the store migrated once."""
        if self.free:
            return self.free.pop()
        admin = self._admin()
        name = f"d{os.getpid()}_{next(_counter)}"
        try:  # PostgreSQL 15: a small database is copied fastest file by file
            admin.execute(f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE} STRATEGY FILE_COPY")
        except sqlite3.OperationalError:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE}")
        return self._database_url(name)

    def give_back(self, url: str) -> None:
        """A test is done with a database :meth:`migrated_url` lent it: emptied as it was
        after the migration and lent again, unless something still uses it or its schema
        changed (then it is left aside)."""
        if self._admin().run(_empty(url, self.pristine)):
            self.free.append(url)

    def warm(self) -> None:
        """Create the migrated template now (the first :meth:`migrated_url` would)."""
        self._admin()

    def _admin(self) -> SyncConnection:
        if self.admin is None:
            self.admin = SyncConnection(self.url("public"))
            self.admin.execute(f"CREATE DATABASE {_TEMPLATE}")
            template = self._database_url(_TEMPLATE)
            self.admin.run(_open_and_close(template))
            self.pristine = self.admin.run(_fingerprint(template))
        return self.admin

    def _database_url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, *args], capture_output=True, text=True, timeout=60, check=False
        )


# Stops the server and removes its directory once the test process is gone, however it ended
# (a test run killed with SIGKILL leaves no server behind).
_WATCHDOG = """
import os, shutil, subprocess, sys, time
parent, directory, *stop = sys.argv[1:]
while True:
    try:
        os.kill(int(parent), 0)
    except ProcessLookupError:
        break
    time.sleep(1)
subprocess.run(stop, capture_output=True, timeout=60, check=False)
shutil.rmtree(directory, ignore_errors=True)
"""


def start() -> Server:
    """Initialise and start a server; raises :class:`PostgresUnavailable`."""
    bindir = find_bindir()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): "
            "apt-get install -y postgresql"
        )
    as_user: list[str] = []
    directory = Path(tempfile.mkdtemp(prefix="cribbage-pg-"))
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(directory, "postgres")
    data = directory / "data"
    server = Server(directory, bindir, _free_port(), as_user)
    steps = (
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        ],
        [
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(directory / "log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {server.port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            "start",
        ],
    )
    for step in steps:
        done = server.run(*step)
        if done.returncode != 0:
            log = directory / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            shutil.rmtree(directory, ignore_errors=True)
            raise PostgresUnavailable(
                f"{Path(step[0]).name} failed ({done.returncode}): {done.stderr.strip()} {tail}"
            )
    stop_command = [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
    _watchdogs.append(
        subprocess.Popen(
            [sys.executable, "-c", _WATCHDOG, str(os.getpid()), str(directory), *stop_command],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    return server


_starting: Future[Server] | None = None


def start_soon() -> None:
    """Start the server and its template on a thread: :func:`started` waits for it."""
    global _starting
    if _starting is not None:
        return
    _starting = Future()

    def run(future: Future[Server]) -> None:
        try:
            server = start()
            server.warm()
        except BaseException as err:
            future.set_exception(err)
        else:
            future.set_result(server)

    threading.Thread(target=run, args=(_starting,), name="postgres-start", daemon=True).start()


def started() -> Server:
    """The server :func:`start_soon` started (starting it now if it did not)."""
    start_soon()
    assert _starting is not None
    return _starting.result()


def finish() -> None:
    """At the end of the run: stop a server :func:`start_soon` started that no test stopped."""
    if _starting is None:
        return
    try:
        server = _starting.result(timeout=120)
    except Exception:
        return
    if not server.stopped:
        stop(server)


async def _open_and_close(url: str) -> None:
    from db import Store

    store = await Store.open(url)
    await store.close()


# What a test may not leave behind in a database lent to the next one: the schema's tables,
# columns, indexes, triggers, functions and sequences, and the schema version.
_FINGERPRINT = """
SELECT md5(string_agg(item, ',' ORDER BY item)) FROM (
    SELECT c.relname || ':' || c.relkind::text || ':' || n.nspname AS item
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL SELECT a.attrelid::regclass::text || '.' || a.attname || ':' || a.atttypid::text
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL SELECT 'trigger ' || tgname || ':' || tgenabled::text FROM pg_trigger
    UNION ALL SELECT 'function ' || p.proname
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT 'version ' || version FROM schema_version
) AS items
"""


async def _connect(url: str) -> asyncpg.Connection:
    """asyncpg's own connection to the URL's database, the URL's schema first on the
    ``search_path`` (as the store's)."""
    dsn, schema = pg.split_url(url)
    return await asyncpg.connect(dsn, server_settings={"search_path": schema})


async def _fingerprint(url: str) -> str:
    conn = await _connect(url)
    try:
        return str(await conn.fetchval(_FINGERPRINT))
    finally:
        await conn.close()


async def _empty(url: str, pristine: str | None) -> bool:
    """Delete every row a test left in the migrated database at ``url`` (triggers and foreign
    keys off meanwhile: the log's append-only triggers would refuse) and restart its ids;
    whether it is now as the migration left it. ``False`` (untouched) if another connection
    still uses it (a store the test did not close; a closed one's backend may take a few
    milliseconds to leave) or if its schema is not the migration's any more."""
    raw = await _connect(url)
    try:
        for _ in range(50):
            others = await raw.fetchval(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND backend_type = 'client backend'"
            )
            if not others:
                break
            await asyncio.sleep(0.01)
        else:
            return False
        if await raw.fetchval(_FINGERPRINT) != pristine:
            return False
        tables = await raw.fetch(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r' "
            "AND c.relname NOT IN ('schema_version', 'alembic_version')"
        )
        sequences = await raw.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        )
        script = ["SET session_replication_role = replica"]
        script += [f'DELETE FROM "{r[0]}"' for r in tables]
        script += [f"SELECT setval('\"{r[0]}\"', 1, false)" for r in sequences]
        script.append("SET session_replication_role = DEFAULT")
        await raw.execute(";\n".join(script))
        return True
    finally:
        await raw.close()


def stop(server: Server) -> None:
    server.stopped = True
    if server.admin is not None:
        server.admin.close()
    server.run(
        str(server.bindir / "pg_ctl"),
        "-D",
        str(server.directory / "data"),
        "-m",
        "immediate",
        "-w",
        "stop",
    )
    shutil.rmtree(server.directory, ignore_errors=True)


# ---------------------------------------------------------------- a test's look into the store


class _Rows:
    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows.pop(0) if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows, []
        return rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())


class SyncConnection:
    """What tests do with ``sqlite3.connect(path)``, on a PostgreSQL URL: one statement at a
    time with SQLite's ``?`` parameters (numbered ``$1, $2, ...`` for PostgreSQL, nothing else
    rewritten), rows as tuples with ``NUMERIC`` as ``int`` or ``float`` (as SQLite gives them),
    errors as :mod:`sqlite3`'s classes, autocommit. Its asyncpg connection lives on a thread of
    its own, so synchronous test code can use it."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._run(_connect(url))

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the connection's thread (e.g. to open a store there)."""
        return self._run(coro)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=60)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        async def run() -> _Rows:
            statement = await self._conn.prepare(numbered(sql))
            rows = await statement.fetch(*params)
            status = statement.get_statusmsg() or ""
            touched = status.rsplit(" ", 1)[-1]
            rowcount = int(touched) if touched.isdigit() else -1
            return _Rows([tuple(_as_sqlite(v) for v in row) for row in rows], rowcount)

        try:
            return self._run(run())
        except asyncpg.IntegrityConstraintViolationError as err:  # a broken rule, a trigger's
            raise sqlite3.IntegrityError(str(err)) from err
        except asyncpg.PostgresError as err:
            raise sqlite3.OperationalError(str(err)) from err

    def executescript(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self.execute(statement)

    def commit(self) -> None:
        """Nothing: every statement commits by itself."""

    def __enter__(self) -> SyncConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        """Nothing to commit or roll back (autocommit), as ``with sqlite3_connection:``."""

    def iterdump(self) -> Iterator[str]:
        """Every row of every table of the schema, as ``INSERT`` lines (like SQLite's dump), in
        a stable order."""
        tables = [
            name
            for (name,) in self.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema() ORDER BY table_name"
            )
        ]
        for table in tables:
            rows = self.execute(f"SELECT * FROM {table}")
            yield from sorted(f'INSERT INTO "{table}" VALUES{row!r};' for row in rows)

    def close(self) -> None:
        self._run(self._conn.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


def numbered(sql: str) -> str:
    """SQLite's ``?`` parameters as PostgreSQL's ``$1, $2, ...`` (not inside quotes).

    >>> numbered("SELECT '?' FROM t WHERE a = ? AND b = ?")
    "SELECT '?' FROM t WHERE a = $1 AND b = $2"
    """
    pieces = sql.split("'")
    number = itertools.count(1)
    for i in range(0, len(pieces), 2):  # outside string literals
        pieces[i] = "".join(f"${next(number)}" if c == "?" else c for c in pieces[i])
    return "'".join(pieces)


def _as_sqlite(value: Any) -> Any:
    """PostgreSQL's ``NUMERIC`` (its ``SUM`` of integers) as SQLite gives it."""
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def connect(target: Path | str, *, read_only: bool = False) -> Any:
    """``sqlite3.connect`` for an SQLite file (``read_only``: ``mode=ro``), a
    :class:`SyncConnection` for a PostgreSQL URL."""
    if pg.is_url(target):
        return SyncConnection(str(target))
    if read_only:
        return sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    return sqlite3.connect(target)
