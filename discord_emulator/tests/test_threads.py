"""Threads in the emulator: started from a message or without one, messages and interactions in
a thread, the permissions Discord checks, names, archiving (rules and citations: threads.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from discord_emulator import EmulatorError
from discord_emulator.tests.world import World
from discord_emulator.threads import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)


class HandButton(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Your hand", custom_id="t:hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        channel = interaction.channel
        kind = type(channel).__name__
        perms = interaction.app_permissions
        await interaction.response.send_message(
            f"hand in {kind} {getattr(channel, 'id', None)} "
            f"send_in_threads={perms.send_messages_in_threads}",
            ephemeral=True,
        )


class ThreadBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents(guilds=True),
                         guild_ready_timeout=0.05)
        self.errors: list[discord.HTTPException] = []
        self.threads: list[discord.Thread] = []

    async def setup_hook(self) -> None:
        self.tree.add_command(table)
        self.add_view(HandButton())
        await self.tree.sync()


@app_commands.command(name="table", description="A lobby that opens a thread")
async def table(interaction: discord.Interaction, name: str = "alice vs bob",
                bare: bool = False) -> None:
    bot = interaction.client
    assert isinstance(bot, ThreadBot)
    await interaction.response.send_message("lobby")
    lobby = await interaction.original_response()
    try:
        if bare:
            assert isinstance(interaction.channel, discord.TextChannel)
            thread = await interaction.channel.create_thread(
                name=name, type=discord.ChannelType.public_thread
            )
        else:
            thread = await lobby.create_thread(name=name)
        await thread.send("the table", view=HandButton())
    except discord.HTTPException as exc:
        bot.errors.append(exc)
        await interaction.edit_original_response(content=f"refused: {exc.code}")
        return
    bot.threads.append(thread)
    await interaction.edit_original_response(content=f"playing in {thread.jump_url}")


@pytest.fixture
async def bot(world: World) -> AsyncIterator[ThreadBot]:
    async with world.emu.running(ThreadBot()) as running:
        yield running


async def test_a_thread_from_the_lobby_message(world: World, bot: ThreadBot) -> None:
    emu, channel = world.emu, world.channel
    result = await emu.slash(world.alice, channel, "table")
    lobby = result.message
    assert lobby is not None
    [thread] = emu.threads_in(channel)
    assert thread.is_thread and thread.type == 11 and thread.parent is channel
    assert thread.id == lobby.id and lobby.thread is thread  # shares the message's id
    assert thread.name == "alice vs bob" and thread.owner_id == emu.bot_user.id
    assert lobby.content == f"playing in {thread.jump_url}"
    # THREAD_CREATE reached discord.py: the thread is in its cache, parented
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.parent_id == channel.id
    # the thread starts with the starter message, then the bot's table
    starter, table_message = emu.public_messages(thread)
    assert starter.message_type == 21 and starter.message_reference is not None
    assert starter.message_reference["message_id"] == str(lobby.id)
    assert table_message.content == "the table"
    # the parent channel: the lobby, then Discord's "started a thread" notice
    lobby_again, notice = emu.public_messages(channel)
    assert lobby_again is lobby
    assert notice.message_type == 18 and notice.content == "alice vs bob"
    assert notice.message_reference == {"channel_id": str(thread.id),
                                        "guild_id": str(world.guild.id)}
    assert [r["action"] for r in emu.transcript.of_kind("thread")] == ["create"]


async def test_interactions_in_a_thread(world: World, bot: ThreadBot) -> None:
    emu = world.emu
    await emu.slash(world.alice, world.channel, "table")
    [thread] = emu.threads_in(world.channel)
    table_message = emu.last_public(thread)
    hand = await emu.click(world.bob, table_message, "Your hand")
    assert hand.channel is thread and hand.message is not None
    assert hand.message.channel is thread and hand.ephemeral
    assert hand.content == f"hand in Thread {thread.id} send_in_threads=True"
    assert emu.messages_below(hand) == []
    said = await emu.say(world.alice, thread, "good luck")
    assert emu.messages_below(hand) == [said]
    assert said not in emu.public_messages(world.channel)


async def test_the_notice_only_for_older_messages_when_configured(world: World) -> None:
    emu = world.emu
    emu.thread_rules.notice_age = 3600.0
    async with emu.running(ThreadBot()):
        await emu.slash(world.alice, world.channel, "table")
        assert [m.message_type for m in emu.public_messages(world.channel)] == [20]
        await emu.slash(world.alice, world.channel, "table", name="bare", bare=True)
        notices = [m for m in emu.public_messages(world.channel) if m.message_type == 18]
        assert [m.content for m in notices] == ["bare"]  # without a message: always
    assert emu.threads_in(world.channel)[-1].type == 11


async def test_the_bot_needs_create_public_threads(world: World, bot: ThreadBot) -> None:
    emu = world.emu
    emu.set_permissions(world.channel, emu.bot_user, deny=CREATE_PUBLIC_THREADS)
    await emu.wait_for(lambda: not bot.get_channel(world.channel.id).permissions_for(  # type: ignore[union-attr]
        bot.get_guild(world.guild.id).me).create_public_threads)  # type: ignore[union-attr]
    result = await emu.slash(world.alice, world.channel, "table")
    assert [e.code for e in bot.errors] == [50013]
    assert result.content == "refused: 50013" and not emu.threads_in(world.channel)
    # users are refused the same way
    emu.set_permissions(world.channel, world.guild.everyone, deny=CREATE_PUBLIC_THREADS)
    with pytest.raises(EmulatorError, match="50013"):
        await emu.start_thread(world.bob, world.channel, "mine", message=result.message)


async def test_posting_in_a_thread_needs_send_messages_in_threads(world: World,
                                                                  bot: ThreadBot) -> None:
    emu = world.emu
    emu.set_permissions(world.channel, emu.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    result = await emu.slash(world.alice, world.channel, "table")
    assert [e.code for e in bot.errors] == [50013]  # created, but not allowed to post there
    [thread] = emu.threads_in(world.channel)
    assert [m.message_type for m in emu.public_messages(thread)] == [21]
    assert result.content == "refused: 50013"
    emu.set_permissions(world.channel, world.guild.everyone, deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(EmulatorError, match="may not post"):
        await emu.say(world.bob, thread, "hello?")
    await emu.say(world.bob, world.channel, "the channel itself is fine")


async def test_what_discord_refuses(world: World, bot: ThreadBot) -> None:
    emu = world.emu
    with emu.expect_violation("invalid_request") as refused:
        await emu.slash(world.alice, world.channel, "table", name="x" * 101)
    assert [e.code for e in bot.errors] == [50035]  # names are 1-100 characters
    assert [v.detail for v in refused] == ["name: Must be between 1 and 100 in length."]
    lobby = emu.last_public(world.channel)
    assert lobby is not None
    thread = await emu.start_thread(world.bob, world.channel, "x" * 100, message=lobby)
    with pytest.raises(EmulatorError, match="160004"):  # one thread per message
        await emu.start_thread(world.bob, world.channel, "again", message=lobby)
    inside = await emu.say(world.bob, thread, "hi")
    with pytest.raises(EmulatorError, match="50024"):  # no thread in a thread
        await emu.start_thread(world.bob, thread, "nested", message=inside)
    hidden = emu.add_text_channel(world.guild, "staff")
    emu.set_permissions(hidden, world.guild.everyone, deny=VIEW_CHANNEL)
    with pytest.raises(EmulatorError, match="cannot view"):
        await emu.start_thread(world.bob, hidden, "peek")


async def test_archived_and_locked_threads(world: World, bot: ThreadBot) -> None:
    emu = world.emu
    await emu.slash(world.alice, world.channel, "table")
    [thread] = emu.threads_in(world.channel)
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread)
    await cached.edit(archived=True)
    assert thread.archived
    with pytest.raises(EmulatorError, match="archived"):
        await emu.slash(world.alice, thread, "table")
    await cached.send("a message unarchives it")
    assert not thread.archived
    await cached.edit(archived=True, locked=True)
    await emu.say(world.alice, world.channel, "meanwhile")
    everyone_can_post = emu.permissions_in(world.bob, thread) & SEND_MESSAGES_IN_THREADS
    assert everyone_can_post
    with pytest.raises(EmulatorError, match="locked"):
        await emu.say(world.bob, thread, "let me in")
    assert [r["action"] for r in emu.transcript.of_kind("thread")] == [
        "create", "update", "update"
    ]
