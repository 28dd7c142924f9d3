"""Fixtures of the emulator's own tests (a module may define its own `world` instead)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.emulator import CHECK_ANSWERS
from discord_emulator.tests.world import World

# every emulator these tests start checks its answers against Discord's OpenAPI description
os.environ.setdefault(CHECK_ANSWERS, "1")


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with DiscordEmulator() as emu:
        yield World(emu)
