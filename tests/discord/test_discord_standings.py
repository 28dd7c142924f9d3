"""``/cribbage leaderboard``, ``stats`` and ``history`` through the real discord.py client and the
Discord emulator: after a game played out by clicks, and over a recorded league with pages whose
buttons still work after a restart.
"""

from __future__ import annotations

import pytest

from db import Store
from tests.support.discord_players import Driver, Seat, make_bot
from tests.support.emulator import DiscordEmulator
from tests.support.leaderboard import record_game


@pytest.fixture
async def emu():
    async with DiscordEmulator() as emu:
        emu.guild = emu.add_guild("Cribbage Club")
        emu.channel = emu.add_text_channel(emu.guild, "cribbage")
        emu.people = [emu.add_user(name) for name in ("alice", "bob", "carol")]
        yield emu


def description(message) -> str:
    assert message.embeds, f"an embed was expected: {message.text}"
    return message.embeds[0].get("description", "")


def fields(message) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}


@pytest.mark.slow  # a whole game, click by click
async def test_a_played_game_shows_on_the_leaderboard_stats_and_history(emu, tmp_path):
    alice, bob, carol = emu.people
    bot = make_bot(tmp_path / "cribbage.db")
    async with emu.running(bot):
        driver = Driver(emu, emu.channel, bot)
        await driver.start_game(alice, [bob], target=61)
        game_id = driver.game_id()
        seats = {u.id: Seat(u) for u in (alice, bob)}
        for i, seat in enumerate(seats.values()):
            seat.rng.seed(i)
        await driver.play_out(seats)
        (result,) = [r for r in await bot.store.games.results(game_id) if r.outcome == "won"]
        winner, loser = (alice, bob) if result.seat == 0 else (bob, alice)

        answer = await emu.slash(carol, emu.channel, "cribbage leaderboard")
        board = answer.message
        assert not answer.ephemeral and "Cribbage Club" in board.embeds[0]["title"]
        lines = description(board).splitlines()
        assert lines[0].startswith(f"**1.** <@{winner.id}> — **")
        assert lines[1].startswith(f"**2.** <@{loser.id}> — **")
        assert "1 game · 100% won · *provisional*" in lines[0]
        assert "1 game · 0% won · *provisional*" in lines[1]
        assert not board.buttons  # one page: no page buttons
        assert "Page 1 of 1" in board.embeds[0]["footer"]["text"]

        stats = (await emu.slash(winner, emu.channel, "cribbage stats", user=loser)).message
        assert loser.name in stats.embeds[0]["title"]
        assert fields(stats)["Games"] == "**1**"
        assert fields(stats)["Record"] == "0 won · 1 lost"
        assert fields(stats)["Favourite opponent"].startswith(winner.name)
        assert "#2 of 2" in description(stats)

        history = (await emu.slash(winner, emu.channel, "cribbage history")).message
        (line,) = description(history).splitlines()
        assert line.startswith("✅ **Won** 61–") and f"vs {loser.name}" in line
        assert "rating +" in line

        mine = (await emu.slash(carol, emu.channel, "cribbage stats")).message
        assert "has not finished a game" in description(mine)
        empty = await emu.slash(carol, emu.channel, "cribbage leaderboard", against="computers")
        assert "against a computer" in description(empty.message)


async def test_leaderboard_pages_and_the_callers_row_survive_a_restart(emu, tmp_path):
    alice = emu.people[0]
    path = tmp_path / "league.db"
    store = await Store.open(path)  # games ended before the bot rated anything: caught up
    players = list(range(5000, 5024))
    for i, player in enumerate(players):
        await record_game(store, [player, players[(i + 1) % 24]], [121, 100], winner=0)
    await record_game(store, [players[0], alice.id], [121, 50], winner=0, guild_id=emu.guild.id)
    await record_game(store, [alice.id, "expert"], [121, 100], winner=0, guild_id=emu.guild.id)
    await store.close()

    async with emu.running(make_bot(path)):
        answer = await emu.slash(alice, emu.channel, "cribbage leaderboard", scope="global")
        board = answer.message
        assert "everywhere" in board.embeds[0]["title"]
        first = description(board).splitlines()
        assert len(first) == 12 and first[10] == "⋯"  # ten rows, then the caller's own
        assert first[11].startswith("📍 **25.** alice — ")
        assert "Page 1 of 3" in board.embeds[0]["footer"]["text"]
        previous, following = board.buttons
        assert previous.disabled and not following.disabled
        await emu.click(alice, board, "Next ▶")
        assert description(board).splitlines()[0].startswith("**11.** ")
        assert "Page 2 of 3" in board.embeds[0]["footer"]["text"]

    async with emu.running(make_bot(path)) as bot:  # a new process: the old buttons still work
        await emu.click(emu.people[1], board, "Next ▶")
        rows = description(board).splitlines()
        assert "Page 3 of 3" in board.embeds[0]["footer"]["text"]
        assert rows[0].startswith("**21.** ") and rows[-1].startswith("📍 **25.** alice")
        assert board.find_button(label="Next ▶").disabled

        here = (await emu.slash(alice, emu.channel, "cribbage leaderboard", sort="skunks")).message
        lines = description(here).splitlines()
        assert lines[0].startswith("**1.** <@5000>") and "1 skunk" in lines[0]
        assert lines[1].startswith(f"📍 **2.** <@{alice.id}>")
        computers = await emu.slash(alice, emu.channel, "cribbage leaderboard", against="computers")
        lines = description(computers.message).splitlines()
        assert lines[0].startswith(f"📍 **1.** <@{alice.id}>") and "1 game · 100% won" in lines[0]
        assert lines[1].startswith("**2.** Computer (expert)")
        everyone = await emu.slash(alice, emu.channel, "cribbage leaderboard", against="anyone")
        assert "(all games)" in everyone.message.embeds[0]["title"]
        assert "2 games · 50% won" in description(everyone.message)
        # by default computer games are kept apart; a server can count them on its board
        default = await emu.slash(alice, emu.channel, "cribbage leaderboard")
        assert "(all games)" not in default.message.embeds[0]["title"]
        await bot.manager.update_settings(emu.guild.id, computer_games_count=True)
        counted = await emu.slash(alice, emu.channel, "cribbage leaderboard")
        assert "(all games)" in counted.message.embeds[0]["title"]
