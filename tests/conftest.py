"""Fixtures shared by the test files."""

import pytest

from cogs.utils import pictures
from tests.support import postgres
from tests.support.discord_players import open_club
from tests.support.sessions import open_manager


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


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL for the whole run (tests/support/postgres.py), started on first use;
    skipped when it cannot start, unless required (``make test``, CI): then the run fails."""
    if not postgres.wanted():
        pytest.skip("CRIBBAGE_TEST_POSTGRES=0: the PostgreSQL half is not run")
    try:
        server = postgres.start()
    except postgres.PostgresUnavailable as err:
        if postgres.required():
            pytest.fail(f"PostgreSQL is required here and did not start: {err}", pytrace=False)
        pytest.skip(f"no PostgreSQL: {err}")
    yield server
    postgres.stop(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request, tmp_path):
    """Makes the places a test's stores live, on each backend in turn: ``databases(name)`` is
    the SQLite file ``tmp_path / f"{name}.db"``, or a fresh schema of the session's PostgreSQL
    (a ``postgresql://...?schema=...`` URL; the name is only SQLite's)."""
    if request.param == "sqlite":
        return lambda name="store": tmp_path / f"{name}.db"
    server = request.getfixturevalue("postgres_server")
    return lambda name="store": server.url()


@pytest.fixture
def database(request, databases):
    """Where a test's store lives: an SQLite file, then a PostgreSQL database copied from one
    the store migrated once (faster than a fresh schema: ``databases`` for that)."""
    target = databases()
    if isinstance(target, str):
        return request.getfixturevalue("postgres_server").migrated_url()
    return target
