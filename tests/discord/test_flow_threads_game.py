"""A thread per game: the lobby opens a thread, the game plays in it, the
channel keeps one line per game; without the permission, in a thread already or with the
setting off, the game plays where the lobby is."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cogs.cribbage.threads import IN_A_THREAD, INVITE_PERMISSIONS, NOT_ALLOWED, thread_name
from discord_emulator import DiscordEmulator, EmuChannel, EmulatorError, EmuUser
from discord_emulator.threads import CREATE_PUBLIC_THREADS
from tests.support.discord_players import Driver, make_bot

MANAGE_GUILD = 1 << 5


@dataclass
class Club:
    emu: DiscordEmulator
    bot: Any
    guild: Any
    channel: EmuChannel
    alice: EmuUser
    bob: EmuUser

    def driver(self, channel: EmuChannel | None = None) -> Driver:
        return Driver(self.emu, channel or self.channel, self.bot)

    def game_channel(self) -> EmuChannel | None:
        """Where the game of the lobby's channel lives now: the channel or one of its threads."""
        for place in (self.channel, *self.emu.threads_in(self.channel)):
            if self.bot.manager.live.in_channel(place.id) is not None:
                return place
        return None


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[Club]:
    # scripted people click at machine speed: Discord's limits counted, not enforced
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        mods = emu.add_role(guild, "mods", permissions=MANAGE_GUILD)
        alice = emu.add_user("alice", roles=[mods])
        bob = emu.add_user("bob")
        async with emu.running(make_bot(tmp_path / "cribbage.db")) as bot:
            yield Club(emu, bot, guild, channel, alice, bob)


async def test_the_lobby_opens_a_thread_and_the_channel_keeps_one_line(club: Club) -> None:
    emu = club.emu
    lobby = await club.driver().start_game(club.alice, [club.bob], target=61)
    [thread] = emu.threads_in(club.channel)
    assert thread.id == lobby.id and thread.name == "Cribbage · alice vs bob"
    view = club.bot.manager.live.in_channel(thread.id)
    assert view is not None and club.bot.manager.live.in_channel(club.channel.id) is None
    # the channel: the lobby, now the game's one line (Discord's notice was removed)
    assert emu.public_messages(club.channel) == [lobby]
    assert lobby.content == f"🃏 alice vs bob — playing in <#{thread.id}>"
    assert not lobby.embeds and not lobby.components
    # the thread: Discord's starter message, then the table with its hand button
    table = Driver(emu, thread, club.bot).table_message()
    assert table.channel is thread
    hand = await emu.click(club.bob, table, "Your hand")
    assert hand.channel is thread and hand.ephemeral
    # the game ends (a forfeit): its line tells how, the channel still has one message; the
    # line is found from the game's lobby message (the thread's id), as after a restart
    club.bot.get_cog("Cribbage").threads._lines.clear()
    result = await emu.slash(club.alice, thread, "cribbage forfeit")
    assert result.ephemeral
    await emu.wait_for(lambda: "playing in" not in lobby.content)
    assert lobby.content.startswith("🃏 alice vs bob — ") and f"<#{thread.id}>" in lobby.content
    assert "alice" in lobby.content.split("—")[1]
    assert emu.public_messages(club.channel) == [lobby]
    assert not emu.ghost_pings


async def test_a_rematch_plays_in_the_same_thread_and_updates_the_line(club: Club) -> None:
    emu = club.emu
    lobby = await club.driver().start_game(club.alice, [club.bob], target=61)
    [thread] = emu.threads_in(club.channel)
    await emu.slash(club.bob, thread, "cribbage forfeit")
    await emu.wait_for(lambda: "bob" in lobby.content.split("—")[1])
    result = next(m for m in reversed(emu.public_messages(thread)) if "Rematch" in m.text)
    asked = await emu.click(club.alice, result, "Rematch")
    await emu.click(club.bob, asked.message, "Accept")
    rematch = club.bot.manager.live.in_channel(thread.id)
    assert rematch is not None and rematch.status.value == "active"
    assert emu.threads_in(club.channel) == [thread]  # no second thread
    await emu.slash(club.alice, thread, "cribbage forfeit")  # the rematch ends: its line
    await emu.wait_for(lambda: "alice" in lobby.content.split("—")[1])
    assert f"<#{thread.id}>" in lobby.content and emu.public_messages(club.channel) == [lobby]


async def test_without_thread_permissions_the_game_plays_in_the_channel(club: Club) -> None:
    emu = club.emu
    emu.set_permissions(club.channel, emu.bot_user, deny=CREATE_PUBLIC_THREADS)
    lobby = await club.driver().start_game(club.alice, [club.bob], target=61)
    assert not emu.threads_in(club.channel)
    assert club.game_channel() is club.channel
    assert lobby.content == NOT_ALLOWED and lobby.embeds  # the lobby, with the one-line note
    assert club.driver().table_message().channel is club.channel


async def test_in_a_thread_already_the_game_plays_there(club: Club) -> None:
    emu = club.emu
    talk = await emu.say(club.alice, club.channel, "anyone for cribbage?")
    thread = await emu.start_thread(club.alice, club.channel, "cribbage night", message=talk)
    lobby = await club.driver(thread).start_game(club.alice, [club.bob], target=61)
    assert lobby.channel is thread and lobby.content == IN_A_THREAD
    assert emu.threads_in(club.channel) == [thread]  # no thread in the thread
    assert club.bot.manager.live.in_channel(thread.id) is not None
    assert club.driver(thread).table_message().channel is thread


async def test_the_setting_off_and_the_pause_in_settings(club: Club) -> None:
    emu = club.emu
    shown = await emu.slash(
        club.alice, club.channel, "cribbage settings", threads=False, next_deal_seconds=45
    )
    fields = {f["name"]: f["value"] for f in shown.message.embeds[0]["fields"]}
    assert "off" in fields["A thread per game ✏️"]
    assert "45 seconds" in fields["Next deal ✏️"]
    settings = await club.bot.manager.settings.server(club.guild.id)
    assert (settings.threads, settings.next_deal_seconds) == (False, 45)
    lobby = await club.driver().start_game(club.alice, [club.bob], target=61)
    assert not emu.threads_in(club.channel) and not lobby.content  # no thread, no note
    assert club.game_channel() is club.channel
    with pytest.raises(EmulatorError, match="outside"):  # Discord offers 0..600 only
        await emu.slash(club.alice, club.channel, "cribbage settings", next_deal_seconds=601)


def test_invite_permissions_and_thread_names() -> None:
    # View Channel, Send Messages, Embed Links, Attach Files, Read Message History (117760)
    # + Create Public Threads (1 << 35) + Send Messages in Threads (1 << 38)
    assert INVITE_PERMISSIONS.value == 117760 + (1 << 35) + (1 << 38) == 309237763072

    class View:
        seats = (1, 2, 3, 4)

        class variant:  # noqa: N801
            partnerships = True

            @staticmethod
            def seats_of(side: int) -> list[int]:
                return [side, side + 2]

    names = ["alice", "bob", "carol", "dave"]
    assert thread_name(View(), names) == "Cribbage · alice & carol vs bob & dave"  # type: ignore[arg-type]
    long = thread_name(View(), ["x" * 60] * 4)  # type: ignore[arg-type]
    assert len(long) == 100 and long.endswith("…")
