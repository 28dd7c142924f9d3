"""The bot's commands and embeds against the emulator's checks of Discord's limits
(discord_emulator/limits.py: the OpenAPI request schema and the documentation's rules)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.limits import check_commands
from tests.support.discord_players import make_bot, open_club

INT53 = 2**53 - 1  # OpenAPI, components.schemas.Int53Type


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


async def test_every_command_option_the_bot_syncs_is_within_discords_bounds(emu, tmp_path) -> None:
    """The bot's whole command tree, synced as at every start: accepted against the OpenAPI
    request schema and the docs' rules; every integer bound within Int53Type (the replay's
    game option included)."""
    emu.add_text_channel(emu.add_guild("G"), "cribbage")
    async with emu.running(make_bot(tmp_path / "cribbage.db")):
        commands = emu.registered_commands()
    assert [c["name"] for c in commands] == ["cribbage"]
    assert check_commands(commands, "bulk") == []
    assert not emu.take_violations("invalid_commands")

    def options(node: dict):
        for option in node.get("options") or []:
            yield option
            yield from options(option)

    bounds = [
        (option["name"], option.get(key))
        for command in commands
        for option in options(command)
        for key in ("min_value", "max_value")
        if option.get(key) is not None
    ]
    assert ("game", INT53) in bounds
    assert all(-INT53 <= value <= INT53 for _, value in bounds)


async def test_the_lobby_after_start_drops_its_footer(tmp_path) -> None:
    """The Start click's redraw: the lobby says the game is on, with no footer at all (an empty
    one, ``{}``, is refused: a footer needs its text)."""
    async with open_club(tmp_path, names=("alice", "bob")) as driver:
        alice, bob = driver.users
        lobby = await driver.start_game(alice, [bob], target=61)
        [embed] = lobby.embeds
        assert embed["description"] == "The game is on: the table is below."
        assert "footer" not in embed
        assert all(
            e.get("footer") is None or e["footer"].get("text")
            for version in lobby.versions for e in version.embeds
        )
