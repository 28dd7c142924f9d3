"""Fixtures of the emulator's own tests (a module may define its own `world` instead)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.tests.world import World


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with DiscordEmulator() as emu:
        yield World(emu)
