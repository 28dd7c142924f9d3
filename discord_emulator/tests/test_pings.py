"""The emulator's pings: who a message notifies by Discord's allowed-mentions rules, ghost
pings, and the messages a client shows below a message (rules and citations: pings.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from discord_emulator.tests.world import World

NONE = discord.AllowedMentions.none()


class PingBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none(),
                         guild_ready_timeout=0.05)

    async def setup_hook(self) -> None:
        self.tree.add_command(call)
        await self.tree.sync()


@app_commands.command(name="call", description="Answer with a mention, in one of many ways")
@app_commands.choices(how=[app_commands.Choice(name=n, value=n) for n in (
    "reply", "quiet", "ephemeral", "defer", "followup", "edit",
)])
async def call(interaction: discord.Interaction, who: discord.Member, how: str) -> None:
    text = f"your move {who.mention}"
    if how == "reply":  # no allowed_mentions: an interaction parses users
        await interaction.response.send_message(text)
    elif how == "quiet":
        await interaction.response.send_message(text, allowed_mentions=NONE)
    elif how == "ephemeral":
        await interaction.response.send_message(text, ephemeral=True)
    elif how == "defer":  # the "thinking" message filled later: an edit, no ping
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(text)
    elif how == "followup":
        await interaction.response.send_message("the table", allowed_mentions=NONE)
        await interaction.followup.send(text)
    elif how == "edit":  # a mention edited in notifies nobody
        await interaction.response.send_message("the table")
        await interaction.edit_original_response(content=text)


@pytest.fixture
async def bot(world: World) -> AsyncIterator[PingBot]:
    async with world.emu.running(PingBot()) as running:
        yield running


def channel_of(bot: PingBot, world: World) -> discord.TextChannel:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_channel_messages_ping_by_allowed_mentions(world: World, bot: PingBot) -> None:
    emu, alice, bob = world.emu, world.alice, world.bob
    emu.rest.limits.enabled = False  # six messages at once: not a test of the 5-per-5-s bucket
    channel = channel_of(bot, world)
    loud = await channel.send(f"{alice.mention} and {bob.mention}")  # default: parse all
    quiet = await channel.send(f"names only: {alice.mention}", allowed_mentions=NONE)
    only_bob = await channel.send(
        f"{alice.mention} {bob.mention}", allowed_mentions=discord.AllowedMentions(users=[bob])
    )
    embed_only = await channel.send(embed=discord.Embed(description=f"hi {alice.mention}"))
    silent = await channel.send(f"psst {bob.mention}", silent=True)
    pinged = [(p.user.name, p.message.id) for p in emu.pings]
    assert pinged == [
        ("alice", loud.id), ("bob", loud.id), ("bob", only_bob.id), ("bob", silent.id),
    ]
    assert all(p.channel is world.channel and p.reason == "mention" for p in emu.pings)
    assert [p.silent for p in emu.pings] == [False, False, False, True]
    assert quiet.id not in {p.message.id for p in emu.pings}
    assert embed_only.id not in {p.message.id for p in emu.pings}
    assert [p.message.id for p in emu.pings_for(alice)] == [loud.id]
    records = emu.transcript.of_kind("ping")
    assert [(r["user"], r["message_id"]) for r in records][:2] == [
        ("alice", str(loud.id)), ("bob", str(loud.id))
    ]


async def test_parse_and_a_user_list_together_are_refused(world: World, bot: PingBot) -> None:
    route = discord.http.Route("POST", "/channels/{channel_id}/messages",
                               channel_id=world.channel.id)
    body = {"content": world.bob.mention,
            "allowed_mentions": {"parse": ["users"], "users": [str(world.bob.id)]}}
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)
    assert refused.value.code == 50035
    assert world.emu.take_violations("invalid_message")
    assert not world.emu.pings and not world.emu.public_messages(world.channel)


async def test_replies_ping_the_author_only_when_asked(world: World, bot: PingBot) -> None:
    emu = world.emu
    said = await emu.say(world.alice, world.channel, "who deals?")
    channel = channel_of(bot, world)
    original = await channel.fetch_message(said.id)
    await original.reply("bob deals", mention_author=False, allowed_mentions=NONE)
    assert not emu.pings
    answer = await original.reply("you deal", mention_author=True)
    [ping] = emu.pings
    assert (ping.user, ping.message.id, ping.reason) == (world.alice, answer.id, "reply")


@pytest.mark.parametrize(
    ("how", "pings"), [
        ("reply", 1),  # an interaction response parses user mentions by default
        ("quiet", 0),  # allowed_mentions none
        ("ephemeral", 0),  # only its viewer sees it: no notification
        ("defer", 0),  # filling a deferred response is an edit (discord-api-docs#4034)
        ("followup", 1),  # a follow-up is a new message
        ("edit", 0),  # edits never notify (discord-api-docs#5497)
    ],
)
async def test_interaction_messages(world: World, bot: PingBot, how: str, pings: int) -> None:
    emu = world.emu
    result = await emu.slash(world.alice, world.channel, "call", who=world.bob, how=how)
    mentioned = [m for m in result.messages if world.bob.mention in m.content]
    assert len(mentioned) == 1  # the mention is shown every time...
    assert [p.user for p in emu.pings] == [world.bob] * pings  # ...it notifies only so
    if pings:
        assert emu.pings[0].message is mentioned[0]


async def test_a_deleted_ping_is_a_ghost_ping(world: World, bot: PingBot) -> None:
    emu = world.emu
    channel = channel_of(bot, world)
    kept = await channel.send(f"{world.alice.mention} it's your turn")
    gone = await channel.send(f"{world.bob.mention} it's your turn")
    await gone.delete()
    assert [p.message.id for p in emu.ghost_pings] == [gone.id]
    assert emu.ghost_pings[0].user is world.bob and emu.ghost_pings[0].ghost
    assert kept.id not in {p.message.id for p in emu.ghost_pings}
    [record] = emu.transcript.of_kind("ghost_ping")
    assert record["users"] == ["bob"] and record["lived_ms"] >= 0


async def test_messages_below(world: World, bot: PingBot) -> None:
    emu = world.emu
    channel = channel_of(bot, world)
    first = await channel.send("table")
    hand = await emu.slash(world.alice, world.channel, "call", who=world.bob, how="ephemeral")
    assert emu.messages_below(hand) == []
    second = await channel.send("next table")
    third = await channel.send("a ping")
    await third.delete()
    said = await emu.say(world.bob, world.channel, "gg")
    below = emu.messages_below(hand)
    assert [m.id for m in below] == [second.id, said.id]  # public, not deleted, in order
    assert [m.id for m in emu.messages_below(emu.message(first.id))][0] == second.id
    # with a viewer: their own ephemeral messages count too
    later = await emu.slash(world.alice, world.channel, "call", who=world.bob, how="ephemeral")
    assert later.message in emu.messages_below(hand, viewer=world.alice)
    assert later.message not in emu.messages_below(hand, viewer=world.bob)


def test_allowed_mentions_checker() -> None:
    from discord_emulator.pings import check_allowed_mentions

    ok: dict[str, Any] = {"allowed_mentions": {"parse": [], "users": ["1"]}}
    assert check_allowed_mentions(ok) == []
    both = {"allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    assert check_allowed_mentions(both)[0][0] == "allowed_mentions.users"
    many = {"allowed_mentions": {"users": [str(i) for i in range(101)]}}
    assert "100 or fewer" in check_allowed_mentions(many)[0][1]
