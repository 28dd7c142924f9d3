"""Shards: the emulator's gateway keeps one session per shard and routes each guild's events and
interactions to its shard's session (Discord's Gateway docs, "Sharding"); the bot runs the
shards of its configuration and answers only the games of the servers they own."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot.app.client import CribbageBot
from bot.app.config import Config
from bot.app.failures import CONFIGURATION, start_failure
from bot.app.shards import Shards, ShardTaken
from bot.sessions import OTHER_PROCESS
from discord_emulator import DiscordEmulator, EmulatorError
from discord_emulator.gateway import CLOSE_INVALID_SHARD, on_shard
from tests.support.discord_players import TOKEN


def sharded_bot(database, shards: Shards) -> CribbageBot:
    config = Config(token=TOKEN, database=database, guild_id=None, shards=shards)
    bot = CribbageBot(config, guild_ready_timeout=0.05)
    bot.identify_spacing = 0.0  # the emulator does not limit IDENTIFYs
    return bot


def test_a_snowflake_is_moved_onto_a_shard():
    for shard in ((0, 2), (1, 2), (2, 3), (0, 1)):
        snowflake = on_shard(1234567 << 22 | 99, shard)
        assert (snowflake >> 22) % shard[1] == shard[0] and snowflake & 0x3FFFFF == 99


async def identify(emu: DiscordEmulator, shard) -> tuple[list[dict], int | None]:
    """A raw gateway connection that IDENTIFYs with ``shard``: the dispatches it got before
    going quiet, and the close code (None: still open)."""
    frames: list[dict] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(emu.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        data = {"token": "t", "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": data}))
        while True:
            try:
                msg = await ws.receive(timeout=0.3)
            except TimeoutError:
                return frames, None
            if msg.type is not aiohttp.WSMsgType.TEXT:
                return frames, ws.close_code
            frames.append(json.loads(msg.data))


async def test_each_shard_session_is_told_only_of_its_guilds():
    async with DiscordEmulator() as emu:
        zero, one = emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))
        for shard, guild in (([0, 2], zero), ([1, 2], one)):
            frames, closed = await identify(emu, shard)
            ready, *creates = frames
            assert closed is None and ready["t"] == "READY" and ready["d"]["shard"] == shard
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(guild.id)]
            assert [(f["t"], f["d"]["id"]) for f in creates] == [("GUILD_CREATE", str(guild.id))]
        frames, _ = await identify(emu, None)  # no shard: every guild
        assert {g["id"] for g in frames[0]["d"]["guilds"]} == {str(zero.id), str(one.id)}
        for bad in ([2, 2], [-1, 2], [0, 0], "0,2"):
            frames, closed = await identify(emu, bad)
            assert frames == [] and closed == CLOSE_INVALID_SHARD, bad


class TwoShards(commands.AutoShardedBot):
    """A bare sharded bot that answers ``/where`` with the shard that got it."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.none(),
            shard_count=2,
            guild_ready_timeout=0.05,
        )

    async def before_identify_hook(self, shard_id, *, initial=False) -> None:
        return None  # no 5 s between shards: the emulator does not limit IDENTIFYs

    async def setup_hook(self) -> None:
        @self.tree.command(name="where")
        async def where(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            assert guild is not None
            await interaction.response.send_message(f"shard {guild.shard_id}")

        await self.tree.sync()


async def test_an_auto_sharded_bot_with_two_shards_sees_both_shards_guilds():
    async with DiscordEmulator() as emu:
        zero, one = emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))
        channels = [emu.add_text_channel(g, "general") for g in (zero, one)]
        alice = emu.add_user("alice")
        async with emu.running(TwoShards()) as bot:
            assert sorted(bot.shards) == [0, 1]
            assert {g.id: g.shard_id for g in bot.guilds} == {zero.id: 0, one.id: 1}
            sessions = {s.shard: s for s in emu.gateway.live_sessions()}
            assert set(sessions) == {(0, 2), (1, 2)}
            dm = emu.gateway.route(None)  # a DM's interactions: shard 0 ("Sharding")
            assert dm is sessions[(0, 2)] and emu.gateway.receivers(None) == [dm]
            for shard, channel in enumerate(channels):
                before = {key: s.seq for key, s in sessions.items()}
                result = await emu.slash(alice, channel, "where")
                assert result.content == f"shard {shard}"
                moved = {key for key, s in sessions.items() if s.seq != before[key]}
                assert moved == {(shard, 2)}  # the interaction went to that shard's session only
            for shard, guild in enumerate((zero, one)):  # and so does each guild's event
                before = {key: s.seq for key, s in sessions.items()}
                channel = emu.add_text_channel(guild, "new")
                await emu.wait_for(lambda c=channel: bot.get_channel(c.id) is not None)
                moved = {key for key, s in sessions.items() if s.seq != before[key]}
                assert moved == {(shard, 2)}
            before = {key: s.seq for key, s in sessions.items()}
            late = emu.add_guild("Late", shard=(1, 2))  # GUILD_CREATE: the guild's id is "id"
            await emu.wait_for(lambda: bot.get_guild(late.id) is not None)
            assert bot.get_guild(late.id).shard_id == 1
            assert {k for k, s in sessions.items() if s.seq != before[k]} == {(1, 2)}


async def test_each_shard_process_answers_only_its_own_guilds_games(tmp_path):
    database = tmp_path / "cribbage.db"  # in one test process: both share the file
    async with DiscordEmulator() as emu:
        zero, one = emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))
        channels = {g.id: emu.add_text_channel(g, "cribbage") for g in (zero, one)}
        alice = emu.add_user("alice")
        first = sharded_bot(database, Shards(2, (0,)))
        second = sharded_bot(database, Shards(2, (1,)))

        async def never() -> bool:
            raise AssertionError("only the process of shard 0 syncs the commands")

        second.sync_commands_if_changed = never  # type: ignore[method-assign]
        async with emu.running(first) as bot0, emu.running(second, require_commands=False) as bot1:
            assert [g.id for g in bot0.guilds] == [zero.id]
            assert [g.id for g in bot1.guilds] == [one.id]
            for guild, bot, other in ((zero, bot0, bot1), (one, bot1, bot0)):
                channel = channels[guild.id]
                result = await emu.slash(alice, channel, "cribbage start", computer="easy")
                assert result.responded and not result.ephemeral, result.content
                assert bot.manager.live.in_channel(channel.id) is not None
                assert other.manager.live.in_channel(channel.id) is None  # never saw it
            # a click of shard 0's guild that reaches the shard 1 process is refused cleanly
            session1 = emu.gateway.route(one.id)
            assert session1 is not None and session1.shard == (1, 2)
            emu.gateway.route = lambda guild_id: session1  # type: ignore[method-assign]
            channel = emu.add_text_channel(zero, "elsewhere")
            result = await emu.slash(alice, channel, "cribbage start")
            said = " ".join(m.content for m in result.messages)
            assert result.ephemeral and OTHER_PROCESS in said, said
            assert bot0.manager.live.in_channel(channel.id) is None
            assert bot1.manager.live.in_channel(channel.id) is None
            del emu.gateway.route  # the class's own routing again


async def test_a_process_with_shard_1_of_2_gets_only_guild_1s_interactions(tmp_path):
    database = tmp_path / "cribbage.db"
    async with DiscordEmulator() as emu:
        zero, one = emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))
        alice = emu.add_user("alice")
        async with emu.running(sharded_bot(database, Shards(2, (0, 1)))):
            pass  # the process that runs shard 0 synced the commands once
        one_shard = sharded_bot(database, Shards(2, (1,)))
        async with emu.running(one_shard, require_commands=False) as bot:
            assert [g.id for g in bot.guilds] == [one.id]
            result = await emu.slash(alice, emu.add_text_channel(one, "cribbage"), "cribbage help")
            assert result.responded
            with pytest.raises(EmulatorError, match="no bot is connected .* this guild's shard"):
                await emu.slash(alice, emu.add_text_channel(zero, "cribbage"), "cribbage help")


async def test_a_second_process_with_the_same_shard_refuses_until_the_first_closes(
    postgres_server,
):
    url = postgres_server.url()  # one schema: the two processes' shared database
    async with DiscordEmulator() as emu:
        emu.add_guild("One", shard=(1, 2))
        async with emu.running(sharded_bot(url, Shards(2, (0, 1)))):
            pass  # shard 0 synced the commands
        first = sharded_bot(url, Shards(2, (1,)))
        async with emu.running(first, require_commands=False):
            second = sharded_bot(url, Shards(2, (1,)))
            with pytest.raises(ShardTaken) as taken:
                async with emu.running(second, require_commands=False):
                    raise AssertionError("two processes run shard 1")
            await second.close()
            assert taken.value.shard == 1 and second._manager is None  # resumed nothing
            failure = start_failure(taken.value, url)
            assert failure is not None and failure.status == CONFIGURATION
            assert failure.text.startswith("Shard 1 of 2 is already run by another process")
            assert "CRIBBAGE_SHARDS" in failure.text and "\n" not in failure.text
            other = sharded_bot(url, Shards(2, (0,)))  # another shard: free
            async with emu.running(other, require_commands=False) as bot:
                assert bot.manager is not None
        again = sharded_bot(url, Shards(2, (1,)))  # the first closed: its shard is free
        async with emu.running(again, require_commands=False) as bot:
            assert bot.resume_report.active == 0
