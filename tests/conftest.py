"""Fixtures shared by the test files."""

import os

import pytest

from cogs.utils import pictures
from tests.support import postgres
from tests.support.discord_players import open_club
from tests.support.sessions import open_manager

# Every emulator of the suite checks its own answers against Discord's OpenAPI description too, so
# a test passes only on answers Discord could give.
os.environ.setdefault("DISCORD_EMULATOR_CHECK_ANSWERS", "1")


@pytest.fixture(scope="session", autouse=True)
def shared_painters():
    """The bots of one test run share their painter processes: each bot's cog would otherwise
    start two and stop them again (half a second a test, most of a Discord test's set-up).
    Yields the real ``stop_painters`` for the tests of the painters themselves."""
    stop = pictures.stop_painters
    pictures.stop_painters = lambda: None
    yield stop
    pictures.stop_painters = stop
    stop()


@pytest.fixture
async def club(tmp_path):
    """A Discord server with the bot running and four users; every click is privacy-checked."""
    async with open_club(tmp_path) as driver:
        yield driver


@pytest.fixture
async def setup(database):
    """The session tests' manager on a fresh database (SQLite, then PostgreSQL), fixed seeds;
    yields (manager, path or URL)."""
    path = database
    store, manager = await open_manager(path, seed_source=lambda: 20240611)
    yield manager, path
    await store.close()


# ---------------------------------------------------------------- the two backends of the store


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "sqlite_only: runs on SQLite alone, though it takes `databases`/`database`: the logic "
        "it proves does not depend on the backend (the store's suites prove that part on both)",
    )


def _on_postgresql(item) -> bool:
    callspec = getattr(item, "callspec", None)
    on = callspec is not None and callspec.params.get("databases") == "postgresql"
    return on or "postgres_server" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config, items):
    """The PostgreSQL runs of ``sqlite_only`` tests are deselected, and the ``slow`` tests run
    first: on several workers (``make test``: pytest-xdist's work stealing) a long test picked
    up last would keep one worker busy after the others are done."""
    kept, dropped = [], []
    for item in items:
        pg_run = getattr(item, "callspec", None) and item.callspec.params.get("databases")
        if pg_run == "postgresql" and item.get_closest_marker("sqlite_only"):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = sorted(kept, key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session):
    """PostgreSQL starts (initdb, pg_ctl, the migrated template: ~3 s) on a thread of its own
    while the first tests run, when any test will need it."""
    if postgres.wanted() and any(_on_postgresql(item) for item in session.items):
        postgres.start_soon()


def pytest_sessionfinish(session):
    postgres.finish()  # a server started early that no test used


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL for the whole run (tests/support/postgres.py), started once (early:
    :func:`pytest_collection_finish`); skipped when it cannot start, unless required (``make
    test``, CI): then the run fails."""
    if not postgres.wanted():
        pytest.skip("CRIBBAGE_TEST_POSTGRES=0: the PostgreSQL half is not run")
    try:
        server = postgres.started()
    except postgres.PostgresUnavailable as err:
        if postgres.required():
            pytest.fail(f"PostgreSQL is required here and did not start: {err}", pytrace=False)
        pytest.skip(f"no PostgreSQL: {err}")
    yield server
    postgres.stop(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request, tmp_path):
    """Makes the places a test's stores live, on each backend in turn: ``databases(name)`` is
    the SQLite file ``tmp_path / f"{name}.db"``, or on PostgreSQL a migrated database of its own
    for each name (lent from the server's pool, emptied again after the test);
    ``databases(name, fresh=True)``: a new empty schema instead, which the store creates and
    migrates at its first opening (for the tests of migrations)."""
    if request.param == "sqlite":
        yield lambda name="store", fresh=False: tmp_path / f"{name}.db"
        return
    server = request.getfixturevalue("postgres_server")
    lent: dict[str, str] = {}

    def place(name: str = "store", fresh: bool = False) -> str:
        if fresh:
            return server.url()
        if name not in lent:
            lent[name] = server.migrated_url()
        return lent[name]

    yield place
    for url in lent.values():
        server.give_back(url)


@pytest.fixture
def database(databases):
    """Where a test's store lives: an SQLite file, then a migrated PostgreSQL database."""
    return databases("store")
