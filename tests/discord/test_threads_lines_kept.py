"""The game threads remember each thread's line only while its game plays: N games, each in its
own thread, and a rematch, leave the count where it started."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator
from tests.support.discord_players import Driver, make_bot

GAMES = 4


@pytest.fixture
async def club(tmp_path):
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        channels = [emu.add_text_channel(guild, f"table-{n}") for n in range(GAMES)]
        async with emu.running(make_bot(tmp_path / "cribbage.db")) as bot:
            yield emu, bot, channels, alice, bob


async def test_every_finished_game_lets_go_of_its_line(club):
    emu, bot, channels, alice, bob = club
    threads = bot.get_cog("Cribbage").threads
    start = threads.lines_kept
    played = []
    for channel in channels:
        lobby = await Driver(emu, channel, bot).start_game(alice, [bob], target=61)
        [thread] = emu.threads_in(channel)
        played.append((lobby, thread))
    assert threads.lines_kept == start + GAMES  # each game playing keeps its line
    for lobby, thread in played:
        await emu.slash(bob, thread, "cribbage forfeit")
        await emu.wait_for(lambda lobby=lobby: "playing in" not in lobby.content)
    assert threads.lines_kept == start
    # a rematch in a thread whose line was let go finds the line again and updates it
    lobby, thread = played[0]
    result = next(m for m in reversed(emu.public_messages(thread)) if "Rematch" in m.text)
    asked = await emu.click(alice, result, "Rematch")
    await emu.click(bob, asked.message, "Accept")
    assert bot.manager.live.in_channel(thread.id).status.value == "active"
    await emu.slash(alice, thread, "cribbage forfeit")
    await emu.wait_for(lambda: "playing in" not in lobby.content)
    assert "alice" in lobby.content.split("—")[1] and emu.public_messages(channels[0]) == [lobby]
    assert threads.lines_kept == start
