"""Fixtures shared by the test files."""

import pytest

from cogs.utils import pictures
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
async def setup(tmp_path):
    """The session tests' manager on a fresh database, fixed seeds; yields (manager, path)."""
    path = tmp_path / "sessions.db"
    store, manager = await open_manager(path, seed_source=lambda: 20240611)
    yield manager, path
    await store.close()
