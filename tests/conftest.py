"""Fixtures shared by the test files."""

import pytest

from tests.discord_players import open_club


@pytest.fixture
async def club(tmp_path):
    """A Discord server with the bot running and four users; every click is privacy-checked."""
    async with open_club(tmp_path) as driver:
        yield driver
