"""Fixtures shared by the test files."""

import pytest

from tests.support.discord_players import open_club
from tests.support.sessions import open_manager


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
