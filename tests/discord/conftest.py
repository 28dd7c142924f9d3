"""Fixtures of the emulator's own tests (a module may define its own `world` instead)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.emulator import DiscordEmulator
from tests.support.emulator_world import World


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with DiscordEmulator() as emu:
        yield World(emu)
