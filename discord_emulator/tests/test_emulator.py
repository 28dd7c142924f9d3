"""The Discord emulator, proven with a throw-away demo bot built from real discord.py parts."""

from __future__ import annotations

import asyncio
import io
import json
import re
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from discord_emulator import (
    BotError,
    DiscordEmulator,
    EmulatorError,
    ViolationError,
)
from discord_emulator.tests.world import World

# ---------------------------------------------------------------------------------------------
# The demo bot


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<count>\d+)"):
    """A persistent button that survives restarts: its state lives in its custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {count}",
                style=discord.ButtonStyle.primary,
                custom_id=f"demo:count:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.count + 1))
        await interaction.response.edit_message(content=f"count={self.count + 1}", view=view)


class HandView(discord.ui.View):
    """An ephemeral hand: clicking a card edits the private message in place."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__(timeout=None)
        for card in cards:
            button = discord.ui.Button(label=card, custom_id=f"demo:card:{card}")
            button.callback = self.make_play(card)
            self.add_item(button)

    def make_play(self, card: str) -> Callable[[discord.Interaction], Any]:
        async def play(interaction: discord.Interaction) -> None:
            await interaction.response.edit_message(content=f"you played {card}", view=None)

        return play


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="demo:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"players: {', '.join(self.players)}")

    @discord.ui.button(label="Your hand", custom_id="demo:hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        cards = ["5♥", "J♣"] if interaction.user.name == "alice" else ["K♠", "2♦"]
        await interaction.response.send_message(
            f"your hand: {' '.join(cards)}", view=HandView(cards), ephemeral=True
        )

    @discord.ui.button(label="Defer", custom_id="demo:defer")
    async def defer(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited after a deferred update")
        await interaction.followup.send("a private note", ephemeral=True)


class TooManyRows(discord.ui.View):
    def to_components(self) -> list[dict[str, Any]]:
        row = {"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": "x"}
        ]}
        return [{**row, "components": [{**row["components"][0], "custom_id": f"x{i}"}]}
                for i in range(6)]


class DemoBot(commands.Bot):
    def __init__(self, **options: Any) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,
        )
        self.last_interaction: discord.Interaction | None = None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.tree.add_command(cribbage)
        self.tree.add_command(demo)
        self.tree.add_command(reset)
        await self.tree.sync()


cribbage = app_commands.Group(name="cribbage", description="Play cribbage")
admin = app_commands.Group(name="admin", description="Admin tools", parent=cribbage)
demo = app_commands.Group(name="demo", description="Emulator demos")


@cribbage.command(name="start", description="Start a game")
@app_commands.describe(players="How many seats", target="Points to win")
async def cribbage_start(
    interaction: discord.Interaction,
    players: app_commands.Range[int, 2, 4],
    target: int = 121,
    rival: discord.Member | None = None,
) -> None:
    rival_text = f" vs {rival.name}" if rival else ""
    await interaction.response.send_message(
        f"new game: {players} players to {target}{rival_text}", view=TableView()
    )


@admin.command(name="ping", description="Nested group")
async def admin_ping(interaction: discord.Interaction, loud: bool = False) -> None:
    await interaction.response.send_message("PONG" if loud else "pong", ephemeral=True)


@demo.command(name="counter", description="A persistent counter")
async def demo_counter(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(0))
    await interaction.response.send_message("count=0", view=view)


@demo.command(name="think", description="Defer, then followups")
async def demo_think(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send("thought about it")  # fills the ephemeral "thinking"
    await interaction.followup.send("second followup, public")
    await interaction.edit_original_response(content="thought about it (edited)")


@demo.command(name="announce", description="channel.send plus a file")
async def demo_announce(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        "with a file", file=discord.File(io.BytesIO(b"hello"), filename="hello.txt")
    )
    first = await interaction.original_response()  # GET @original
    second = discord.File(io.BytesIO(b"second"), filename="second.txt")
    await interaction.edit_original_response(attachments=[*first.attachments, second])
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    async with channel.typing():
        scores = await channel.send(embed=discord.Embed(title="Scores", description="alice 5"))
    await scores.edit(content="final scores")
    await scores.add_reaction("👍")
    temporary = await channel.send("temporary")
    await temporary.delete()


@demo.command(name="slow", description="Answers too late")
async def demo_slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.15)
    await interaction.response.send_message("too late")


@demo.command(name="twice", description="Responds twice")
async def demo_twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("once")
    interaction.response._response_type = None  # defeat discord.py's own guard
    await interaction.response.send_message("twice")


@demo.command(name="crash", description="Fails after responding")
async def demo_crash(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("about to fail")
    raise RuntimeError("boom")


@demo.command(name="limits", description="Breaks a message limit")
@app_commands.choices(
    what=[app_commands.Choice(name=n, value=n) for n in ("custom_id", "rows", "content")]
)
async def demo_limits(interaction: discord.Interaction, what: str) -> None:
    if what == "custom_id":
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="long", custom_id="x" * 101))
        await interaction.response.send_message("long id", view=view)
    elif what == "rows":
        await interaction.response.send_message("six rows", view=TooManyRows())
    else:
        await interaction.response.send_message("x" * 2001)


@demo.command(name="remember", description="Keeps the interaction for later")
async def demo_remember(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.client, DemoBot)
    interaction.client.last_interaction = interaction
    await interaction.response.send_message("remembered", ephemeral=True)


class DiscardSelect(discord.ui.Select):
    def __init__(self) -> None:
        cards = ["A♠", "7♦", "9♣", "Q♥"]
        options = [discord.SelectOption(label=c, value=f"card-{i}") for i, c in enumerate(cards)]
        super().__init__(custom_id="demo:discard", min_values=2, max_values=2, options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        labels = {o.value: o.label for o in self.options}
        chosen = " ".join(labels[v] for v in self.values)
        await interaction.response.edit_message(content=f"crib gets {chosen}", view=None)


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name = discord.ui.TextInput(label="New name", custom_id="demo:rename:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


@demo.command(name="discard", description="A select menu")
async def demo_discard(interaction: discord.Interaction) -> None:
    view = discord.ui.View()
    view.add_item(DiscardSelect())
    await interaction.response.send_message("choose two for the crib", view=view, ephemeral=True)


@demo.command(name="rename", description="A modal")
async def demo_rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RenameModal())


@demo.command(name="dm", description="Sends a direct message")
async def demo_dm(interaction: discord.Interaction) -> None:
    await interaction.user.send(f"psst {interaction.user.mention}")
    await interaction.response.send_message("check your DMs", ephemeral=True)


@demo.command(name="variant", description="Autocomplete")
async def demo_variant(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.send_message(f"variant {name}")


@demo_variant.autocomplete("name")
async def variant_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = ["standard", "five-card", "three-player", "captain"]
    return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]


@app_commands.command(name="reset", description="Admins only")
@app_commands.default_permissions(administrator=True)
async def reset(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("reset done", ephemeral=True)


# ---------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture
async def bot(world: World) -> AsyncIterator[DemoBot]:
    async with world.emu.running(DemoBot()) as running:
        yield running


# ---------------------------------------------------------------------------------------------
# Tests


async def test_startup_syncs_commands_and_sees_the_guild(world: World, bot: DemoBot) -> None:
    emu = world.emu
    names = {c["name"] for c in emu.registered_commands()}
    assert names == {"cribbage", "demo", "reset"}
    assert bot.user is not None and bot.user.id == emu.bot_user.id
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "cribbage"
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.member_count == 3  # the bot, alice, bob
    kinds = [r["kind"] for r in emu.transcript.records]
    assert kinds.index("command_sync") < kinds.index("gateway")


async def test_slash_command_with_options_in_a_group(world: World, bot: DemoBot) -> None:
    emu = world.emu
    result = await emu.slash(world.alice, world.channel, "cribbage start", players=3,
                             rival=world.bob)
    assert result.response_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    assert not result.ephemeral and result.settled
    assert result.content == "new game: 3 players to 121 vs bob"
    assert emu.last_public(world.channel) is result.message
    assert [b.label for b in result.message.components[0]] == ["Join", "Your hand", "Defer"]

    nested = await emu.slash(world.bob, world.channel, "cribbage admin ping", loud=True)
    assert nested.content == "PONG" and nested.ephemeral
    assert nested.message in emu.ephemerals_for(world.bob)

    record = emu.transcript.of_kind("interaction")[0]
    assert record["command"] == "cribbage start"
    assert record["options"]["players"] == 3 and record["options"]["rival"]["name"] == "bob"


async def test_bad_slash_options_are_refused_like_discord_would(world: World, bot: DemoBot):
    emu = world.emu
    with pytest.raises(EmulatorError, match="outside"):
        await emu.slash(world.alice, world.channel, "cribbage start", players=9)
    with pytest.raises(EmulatorError, match="required"):
        await emu.slash(world.alice, world.channel, "cribbage start")
    with pytest.raises(EmulatorError, match="no slash command"):
        await emu.slash(world.alice, world.channel, "poker start")
    with pytest.raises(EmulatorError, match="not one of"):
        await emu.slash(world.alice, world.channel, "demo limits", what="nope")


async def test_click_by_label_updates_the_message_in_place(world: World, bot: DemoBot):
    emu = world.emu
    table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
    result = await emu.click(world.bob, table, "Join")
    assert result.response_name == "UPDATE_MESSAGE"
    assert result.message is table
    assert table.content == "players: bob" and len(table.versions) == 2
    await emu.click(world.alice, table, custom_id="demo:join")
    assert table.content == "players: bob, alice"
    assert emu.public_messages(world.channel) == [table]
    assert "new game: 2 players to 121" in emu.all_public_text()[0]


async def test_ephemeral_hand_is_visible_only_to_the_clicker(world: World, bot: DemoBot):
    emu = world.emu
    table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
    hand = await emu.click(world.alice, table, "Your hand")
    assert hand.ephemeral and hand.message is not None
    assert hand.message.visible_to is world.alice
    assert emu.ephemerals_for(world.alice) == [hand.message]
    assert emu.ephemerals_for(world.bob) == []
    assert all("5♥" not in text for text in emu.all_public_text())
    with pytest.raises(EmulatorError, match="cannot see"):
        await emu.click(world.bob, hand.message, "5♥")

    played = await emu.click(world.alice, hand.message, "5♥")  # edits the ephemeral in place
    assert played.message is hand.message and hand.message.content == "you played 5♥"
    assert hand.message.components == []
    with pytest.raises(LookupError):
        await emu.click(world.alice, hand.message, "J♣")

    records = [r for r in emu.transcript.of_kind("message") if r["visibility"] == "ephemeral"]
    assert {r["visible_to_name"] for r in records} == {"alice"}


async def test_deferred_update_then_edit_original_and_followup(world: World, bot: DemoBot):
    emu = world.emu
    table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
    result = await emu.click(world.bob, table, "Defer")
    assert result.response_name == "DEFERRED_UPDATE_MESSAGE" and result.deferred
    assert table.content == "edited after a deferred update"  # @original = the clicked message
    [note] = result.followups
    assert note.ephemeral and note.visible_to is world.bob and note.content == "a private note"


async def test_defer_thinking_then_followups(world: World, bot: DemoBot) -> None:
    emu = world.emu
    result = await emu.slash(world.alice, world.channel, "demo think")
    assert result.response_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE" and result.ephemeral
    original = result.message
    assert original is not None and not original.loading
    assert original.content == "thought about it (edited)"
    assert original.ephemeral  # the first followup took the defer's visibility
    assert [m.content for m in result.followups] == [
        "thought about it (edited)",
        "second followup, public",
    ]
    assert result.followups[0] is original and not result.followups[1].ephemeral
    fill = [r for r in emu.transcript.of_kind("message") if r["action"] == "fill"]
    assert fill and fill[0]["via"] == "followup"


async def test_channel_send_embed_and_attachment(world: World, bot: DemoBot) -> None:
    emu = world.emu
    result = await emu.slash(world.alice, world.channel, "demo announce")
    first, second = result.message.attachments
    assert (first.filename, first.size, first.data) == ("hello.txt", 5, b"hello")
    assert (second.filename, second.data) == ("second.txt", b"second")
    assert [a.filename for a in result.message.versions[0].attachments] == ["hello.txt"]
    scores = emu.last_public(world.channel)
    assert scores.via == "channel" and scores.embeds[0]["title"] == "Scores"
    assert scores.content == "final scores" and "alice 5" in scores.text
    assert scores.reactions == {"👍": {emu.bot_user.id}}
    assert emu.public_messages(world.channel) == [result.message, scores]
    assert "temporary" in emu.all_public_text()  # deleted, but it was seen
    record = emu.transcript.of_kind("message")[0]
    assert record["attachments"] == [{"filename": "hello.txt", "size": 5}]


async def test_concurrent_clicks_are_all_answered(world: World, bot: DemoBot) -> None:
    emu = world.emu
    table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
    results = await asyncio.gather(
        emu.click(world.alice, table, "Join"), emu.click(world.bob, table, "Join")
    )
    assert all(r.response_name == "UPDATE_MESSAGE" for r in results)
    assert sorted(table.content.removeprefix("players: ").split(", ")) == ["alice", "bob"]


async def test_select_menu(world: World, bot: DemoBot) -> None:
    emu = world.emu
    prompt = (await emu.slash(world.alice, world.channel, "demo discard")).message
    [menu] = prompt.selects
    assert menu.labels == ["A♠", "7♦", "9♣", "Q♥"] and menu.max_values == 2
    with pytest.raises(EmulatorError, match="between 2 and 2"):
        await emu.select(world.alice, prompt, ["A♠"])
    result = await emu.select(world.alice, prompt, ["7♦", "card-3"])  # labels or values
    assert result.message is prompt and prompt.content == "crib gets 7♦ Q♥"
    assert emu.transcript.of_kind("interaction")[-1]["values"] == ["card-1", "card-3"]


async def test_modal(world: World, bot: DemoBot) -> None:
    emu = world.emu
    shown = await emu.slash(world.alice, world.channel, "demo rename")
    assert shown.response_name == "MODAL" and shown.modal is not None
    assert shown.modal["title"] == "Rename the table"
    result = await emu.submit_modal(world.alice, shown, {"New name": "The Crib"})
    assert result.content == "renamed to The Crib"


async def test_autocomplete(world: World, bot: DemoBot) -> None:
    choices = await world.emu.autocomplete(
        world.alice, world.channel, "demo variant", "name", name="f"
    )
    assert choices == [{"name": "five-card", "value": "five-card"}]


async def test_direct_message_and_mentions(world: World, bot: DemoBot) -> None:
    emu = world.emu
    await emu.slash(world.alice, world.channel, "demo dm")
    [dm] = emu.dms_for(world.alice)
    assert dm.content == f"psst {world.alice.mention}" and not dm.public
    assert emu.dms_for(world.bob) == [] and emu.public_messages() == []


async def test_command_permissions_are_enforced(world: World, bot: DemoBot) -> None:
    emu = world.emu
    with pytest.raises(EmulatorError, match="lacks the permissions"):
        await emu.slash(world.alice, world.channel, "reset")
    admins = emu.add_role(world.guild, "admins", permissions=1 << 3)
    carol = emu.add_user("carol", roles=[admins])
    assert (await emu.slash(carol, world.channel, "reset")).content == "reset done"


async def test_missed_deadline_is_a_violation() -> None:
    async with DiscordEmulator(response_deadline=0.05) as emu:
        world = World(emu)
        async with emu.running(DemoBot()):
            with pytest.raises(ViolationError) as caught:
                await emu.slash(world.alice, world.channel, "demo slow")
            assert caught.value.kinds == ["no_response"]
            assert any("Unknown interaction" in e for e in caught.value.bot_errors)
            [response] = emu.transcript.of_kind("response")
            assert response["accepted"] is False
            assert emu.public_messages() == []


async def test_double_response_is_a_violation(world: World, bot: DemoBot) -> None:
    with world.emu.expect_violation("double_response"):
        await world.emu.slash(world.alice, world.channel, "demo twice")


async def test_handler_crash_is_a_bot_error(world: World, bot: DemoBot) -> None:
    with pytest.raises(BotError, match="boom"):
        await world.emu.slash(world.alice, world.channel, "demo crash")
    assert world.emu.last_public(world.channel).content == "about to fail"


@pytest.mark.parametrize(
    ("what", "detail"),
    [
        ("custom_id", "custom_id: Must be between 1 and 100 in length"),
        ("rows", "components: Must be 5 or fewer"),
        ("content", "content: Must be 2000 or fewer"),
    ],
)
async def test_message_limits_are_violations(
    world: World, bot: DemoBot, what: str, detail: str
) -> None:
    with pytest.raises(ViolationError) as caught:
        await world.emu.slash(world.alice, world.channel, "demo limits", what=what)
    # Discord refuses the message; the bot's handler crashes, so the user gets no answer.
    assert caught.value.kinds == ["invalid_message", "no_response"]
    assert detail in caught.value.violations[0].detail
    assert any("50035" in e for e in caught.value.bot_errors)  # the bot got Discord's 400
    assert world.emu.public_messages() == []


async def test_expired_token_is_a_violation(world: World, bot: DemoBot) -> None:
    emu = world.emu
    await emu.slash(world.alice, world.channel, "demo remember")
    interaction = bot.last_interaction
    assert interaction is not None
    await interaction.edit_original_response(content="still fresh")
    assert emu.last_ephemeral(world.alice).content == "still fresh"
    emu.advance_clock(15 * 60 + 1)
    with pytest.raises(discord.HTTPException):
        await interaction.edit_original_response(content="too old")
    [violation] = emu.take_violations("expired_token")
    assert violation.interaction_id == interaction.id


async def test_editing_another_users_ephemeral_is_a_violation(world: World, bot: DemoBot):
    emu = world.emu
    table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
    hand = (await emu.click(world.alice, table, "Your hand")).message
    await emu.slash(world.bob, world.channel, "demo remember")
    bobs = bot.last_interaction
    assert bobs is not None and hand is not None
    with pytest.raises(discord.NotFound):
        await bobs.followup.edit_message(hand.id, content="bob's token, alice's hand")
    [violation] = emu.take_violations("foreign_token")
    assert "alice" in violation.detail and hand.content.startswith("your hand")


async def test_unknown_route_is_visible(world: World, bot: DemoBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("POST", "/channels/1/webhooks"))
    [violation] = world.emu.take_violations("unknown_route")
    assert violation.route == "POST /channels/1/webhooks"


def test_limits_checker() -> None:
    from discord_emulator.limits import check_message

    def button(i: int, **extra: Any) -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"id{i}", **extra}

    assert check_message({"content": "ok"}, creating=True, has_files=False) == []
    empty = check_message({}, creating=True, has_files=False)
    assert empty == [("", "Cannot send an empty message")]
    assert check_message({}, creating=False, has_files=False) == []
    long_embed = {"content": "", "embeds": [{"description": "d" * 4097}]}
    [(path, _)] = check_message(long_embed, creating=True, has_files=False)
    assert path == "embeds.0.description"
    six = {"components": [{"type": 1, "components": [button(i) for i in range(6)]}]}
    assert check_message(six, creating=True, has_files=False)[0][0] == "components.0.components"
    dup = {"components": [{"type": 1, "components": [button(1), button(2, custom_id="id1")]}]}
    assert "duplicated" in check_message(dup, creating=True, has_files=False)[0][1]


async def test_restart_old_dynamic_buttons_still_work(world: World) -> None:
    emu = world.emu
    async with emu.running(DemoBot()):
        table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2)).message
        counter = (await emu.slash(world.alice, world.channel, "demo counter")).message
        await emu.click(world.bob, counter, "Count 0")
        assert counter.content == "count=1"
    # the first client is gone, discord.py points at discord.com again
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    with pytest.raises(EmulatorError, match="no bot is connected"):
        await emu.click(world.bob, counter, "Count 1")
    async with emu.running(DemoBot()):
        result = await emu.click(world.bob, counter, "Count 1")
        assert result.response_name == "UPDATE_MESSAGE" and counter.content == "count=2"
        # a view that was not registered as persistent is dead after a restart: fail fast
        with pytest.raises(ViolationError, match="found nothing to handle it"):
            await emu.click(world.bob, table, "Join")
    events = [r["event"] for r in emu.transcript.of_kind("gateway")]
    assert events.count("identify") == 2


async def test_resume_after_reconnect(world: World, bot: DemoBot) -> None:
    emu = world.emu
    await emu.force_reconnect()
    await emu.drop_connection()
    result = await emu.slash(world.alice, world.channel, "cribbage start", players=2)
    assert result.content.startswith("new game")
    events = [r["event"] for r in emu.transcript.of_kind("gateway")]
    assert events.count("resume") == 2 and events.count("identify") == 1


async def test_transcript_is_written_as_jsonl(tmp_path, monkeypatch) -> None:
    path = tmp_path / "transcript.jsonl"
    monkeypatch.setenv("DISCORD_EMULATOR_TRANSCRIPT", str(path))
    async with DiscordEmulator() as emu:
        world = World(emu)
        async with emu.running(DemoBot()):
            table = (await emu.slash(world.alice, world.channel, "cribbage start", players=2))
            await emu.click(world.bob, table, "Join")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    kinds = {r["kind"] for r in records}
    assert {"start", "gateway", "command_sync", "interaction", "response", "message"} <= kinds
    click = next(r for r in records if r["kind"] == "interaction" and r.get("custom_id"))
    assert (click["user"], click["custom_id"], click["label"]) == ("bob", "demo:join", "Join")
    edit = next(r for r in records if r["kind"] == "message" and r["action"] == "edit")
    assert edit["visibility"] == "public" and edit["content"] == "players: bob"
    assert edit["components"][0]["components"][0]["label"] == "Join"


async def test_subprocess_bot_via_launcher(tmp_path) -> None:
    script = tmp_path / "tiny_bot.py"
    script.write_text(
        "import discord\n"
        "from discord import app_commands\n"
        "client = discord.Client(intents=discord.Intents.default())\n"
        "tree = app_commands.CommandTree(client)\n"
        "@tree.command(name='hello', description='hi')\n"
        "async def hello(interaction):\n"
        "    await interaction.response.send_message('hello from a subprocess')\n"
        "@client.event\n"
        "async def setup_hook():\n"
        "    await tree.sync()\n"
        "client.run('subprocess-token', log_handler=None)\n",
        encoding="utf-8",
    )
    async with DiscordEmulator() as emu:
        world = World(emu)
        process = await asyncio.create_subprocess_exec(*emu.launch_command(str(script)))
        try:
            await emu.wait_ready(timeout=20)
            result = await emu.slash(world.alice, world.channel, "hello")
            assert result.content == "hello from a subprocess"
        finally:
            process.kill()
            await process.wait()


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX only")
