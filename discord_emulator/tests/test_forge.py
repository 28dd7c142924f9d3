"""The emulator's forged interactions (discord_emulator/forge.py), on the demo bot.

What Discord's own client would refuse to send, the forging methods deliver, with the structure
Discord gives every interaction: a DM one without a guild, a member payload for a user outside
the guild, any custom id on any live message, option values outside their choices and ranges.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from discord_emulator import EmulatorError
from discord_emulator.tests.test_emulator import DemoBot
from discord_emulator.tests.world import World


@pytest.fixture
async def bot(world: World) -> AsyncIterator[DemoBot]:
    async with world.emu.running(DemoBot()) as running:
        yield running


async def test_options_outside_their_ranges_and_permissions_not_held(world: World, bot: DemoBot):
    emu = world.emu
    with pytest.raises(EmulatorError, match="outside"):
        await emu.slash(world.alice, world.channel, "cribbage start", players=9)
    result = await emu.forge_slash(world.alice, world.channel, "cribbage start", players=9)
    assert result.content == "new game: 9 players to 121"
    record = emu.transcript.of_kind("interaction")[-1]
    assert record["forged"] is True and record["options"] == {"players": 9}

    with pytest.raises(EmulatorError, match="lacks the permissions"):
        await emu.slash(world.alice, world.channel, "reset")
    result = await emu.forge_slash(world.alice, world.channel, "reset")
    assert result.content == "reset done"  # discord.py does not check default permissions


async def test_a_command_from_a_dm_comes_without_a_guild(world: World, bot: DemoBot):
    emu = world.emu
    result = await emu.forge_slash(world.bob, emu.dm_channel(world.bob), "demo remember")
    assert result.ephemeral and result.content == "remembered"
    interaction = bot.last_interaction
    assert interaction is not None and interaction.guild_id is None
    assert interaction.user.id == world.bob.id and interaction.context.dm_channel


async def test_any_custom_id_on_any_message_by_anyone(world: World, bot: DemoBot):
    emu = world.emu
    counter = (await emu.slash(world.alice, world.channel, "demo counter")).message
    # a user in no guild (sent as a member without roles), on the newest bot message
    mallory = emu.stranger("mallory")
    await emu.forge_click(mallory, world.channel, "demo:count:0")
    assert counter.content == "count=1"
    assert emu.transcript.of_kind("interaction")[-1]["user"] == "mallory"
    # an id the message does not show: discord.py finds no item for it (only a listener of
    # the bot's own could answer), and the emulator reports the silence at once
    with emu.expect_violation("no_response"):
        await emu.forge_click(world.bob, world.channel, "demo:count:41", message=counter)
    assert counter.content == "count=1"
    # from a DM, on a message of a guild channel
    await emu.forge_click(world.bob, emu.dm_channel(world.bob), "demo:count:1", message=counter)
    assert counter.content == "count=2"
    # a deleted message cannot be clicked
    note = await emu.say(world.alice, world.channel, "a note")
    note.deleted = True
    with pytest.raises(EmulatorError, match="deleted"):
        await emu.forge_click(world.alice, world.channel, "demo:count:1", message=note)
