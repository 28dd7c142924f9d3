"""Server settings and turn timers through the real discord.py client and the Discord emulator."""

from __future__ import annotations

import time

import pytest

from discord_emulator import DiscordEmulator
from tests.support.discord_players import Driver, Seat, make_bot

MANAGE_GUILD = 1 << 5


@pytest.fixture
async def club(tmp_path):
    # scripted people click at machine speed: Discord's limits counted, not enforced
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        managers = emu.add_role(guild, "Managers", permissions=MANAGE_GUILD)
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        mona = emu.add_user("mona", roles=[managers])
        bot = make_bot(tmp_path / "cribbage.db")
        async with emu.running(bot):
            await bot.manager.settings.update_server(guild.id, threads=False)  # the game stays here
            driver = Driver(emu, channel, bot)
            driver.users = [alice, bob]
            driver.mona = mona
            driver.guild = guild
            yield driver


class FakeClock:
    """The manager's clock, moved by the test (the emulator keeps its own)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def embed_fields(message) -> dict[str, str]:
    return {f["name"].replace(" ✏️", ""): f["value"] for f in message.embeds[0]["fields"]}


async def test_settings_are_for_server_managers_only(club):
    alice = club.users[0]
    result = await club.slash(alice, "cribbage settings")
    assert result.ephemeral and "Manage Server" in result.message.content
    result = await club.slash(alice, "cribbage settings", target=61, turn_time="off")
    assert result.ephemeral and "Manage Server" in result.message.content
    settings = await club.bot.manager.settings.server(club.guild.id)
    assert (settings.target, settings.turn_minutes) == (121, 5)
    assert not club.emu.public_messages(club.channel)


async def test_a_manager_sees_and_changes_the_settings(club):
    mona = club.mona
    shown = await club.slash(mona, "cribbage settings")
    assert shown.ephemeral
    fields = embed_fields(shown.message)
    assert fields["Game to"].startswith("121") and fields["Turn time"].startswith("5 minutes")

    saved = await club.slash(
        mona, "cribbage settings", target=61, turn_time="2", muggins=True, computer_games=True
    )
    assert saved.ephemeral and "saved" in saved.message.embeds[0]["title"]
    fields = embed_fields(saved.message)
    assert fields["Game to"].startswith("61") and fields["Turn time"].startswith("2 minutes")
    assert fields["Muggins"].startswith("on")
    assert fields["Games with a computer"] == "count on the leaderboard"
    marked = [f["name"] for f in saved.message.embeds[0]["fields"] if "✏️" in f["name"]]
    assert len(marked) == 4

    refused = await club.slash(mona, "cribbage settings", turn_time="forever")
    assert refused.ephemeral and "Nothing changed" in refused.message.content
    settings = await club.bot.manager.settings.server(club.guild.id)
    assert (settings.target, settings.turn_minutes, settings.images) == (61, 2, True)

    choices = await club.emu.autocomplete(
        mona, club.channel, "cribbage settings", "turn_time", turn_time="1"
    )
    assert choices and choices[0]["value"] == "1"

    lobby = await club.open_lobby(club.users[0])  # no target given: the server's default
    assert club.bot.manager.live.in_channel(club.channel.id).variant.target == 61
    assert "61" in lobby.text


async def test_a_turn_that_runs_out_is_played_and_shown_in_the_channel(club):
    alice, bob = club.users
    clock = FakeClock()
    manager = club.bot.manager
    manager.set_clock(clock)
    keeper = club.bot.get_cog("Cribbage").turns
    await club.start_game(alice, [bob])
    await club.move(Seat(bob))  # bob cuts for the deal; alice does not

    clock.offset = 150
    public = len(club.emu.public_messages(club.channel))
    report = await keeper.tick()
    assert [r.user_id for r in report.reminders] == [alice.id]
    # alice clicked Start a moment ago: the reminder is a note on her hand, not a ping
    reminder = club.emu.last_ephemeral(alice)
    assert "time runs out" in reminder.content
    assert len(club.emu.public_messages(club.channel)) == public and not club.emu.pings

    clock.offset = 301
    step = manager.live.view(club.game_id()).step
    report = await keeper.tick()
    (outcome,) = report.expired
    assert [(t.user_id, t.step) for t in outcome.timeouts] == [(alice.id, step + 1)]
    story = "\n".join(club.emu.all_public_text())
    assert "played for **alice**: time ran out" in story
    assert manager.live.view(club.game_id()).step > step  # (a tied cut is cut again: no phase here)

    await club.slash(alice, "cribbage forfeit")
    assert manager.live.in_channel(club.channel.id) is None
