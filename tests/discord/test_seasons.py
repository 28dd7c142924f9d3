"""Seasons through the real discord.py client and the Discord emulator: an organiser starts a
season, games are played and forfeited, the season's leaderboard, stats and history count only
those; the season ends, another starts, and the past one is read by name. Everyone else is
refused privately, and a refusal changes nothing."""

from __future__ import annotations

import re
import time

from discord_emulator import DiscordEmulator
from tests.support.discord_players import Driver, Seat, make_bot
from tests.support.leaderboard import record_game
from tests.support.sessions import dump_database

MANAGE_GUILD = 1 << 5


def lines(message) -> list[str]:
    return message.embeds[0].get("description", "").splitlines()


async def private(emu, user, channel, command, **options):
    answer = await emu.slash(user, channel, command, **options)
    assert answer.ephemeral and answer.message.visible_to is user, answer.message.text
    return answer.message


async def refused(emu, user, channel, database, command, words, **options) -> None:
    """Answered privately with ``words``; nothing public posted, nothing stored changed."""
    before, stored = len(emu.public_messages(channel)), dump_database(database)
    answer = await private(emu, user, channel, command, **options)
    assert words in answer.content, answer.content
    assert len(emu.public_messages(channel)) == before and dump_database(database) == stored


async def test_a_season_from_start_to_its_end_and_the_next(tmp_path):
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        managers = emu.add_role(guild, "Managers", permissions=MANAGE_GUILD)
        olga = emu.add_user("olga", roles=[managers])
        organisers = emu.add_role(guild, "Tournament organiser")  # the role, no Manage Server
        tess = emu.add_user("tess", roles=[organisers])
        alice, bob, carol = (emu.add_user(name) for name in ("alice", "bob", "carol"))
        database = tmp_path / "cribbage.db"
        async with emu.running(make_bot(database)) as bot:
            store = bot.store
            # a game before any season: the server's standings only
            await record_game(store, [carol.id, bob.id], [121, 80], winner=0, guild_id=guild.id,
                              now=time.time() - 100)  # fmt: skip

            await refused(emu, alice, channel, database, "cribbage season start", "Only organisers",
                          name="Spring")  # fmt: skip
            await refused(emu, olga, channel, database, "cribbage season end", "No season is open")
            await refused(emu, alice, channel, database, "cribbage leaderboard",
                          "No season is open", scope="season")  # fmt: skip

            started = await emu.slash(olga, channel, "cribbage season start", name="Spring",
                                      carry="reset")  # fmt: skip
            assert not started.ephemeral
            assert "Season **Spring** has started (everyone starts afresh)" in started.message.text
            await refused(emu, olga, channel, database, "cribbage season start", "still open",
                          name="Summer")  # fmt: skip
            await refused(emu, alice, channel, database, "cribbage season end", "Only organisers")

            # a game played out to its first show, then forfeited: rated, in the season
            driver = Driver(emu, channel, bot)
            await driver.start_game(alice, [bob], target=61)
            seats = {u.id: Seat(u) for u in (alice, bob)}
            game_id = driver.game_id()
            live = bot.manager.live
            await driver.play_until(seats, lambda: live[game_id].game.deal_number >= 2)
            await emu.slash(bob, channel, "cribbage forfeit")
            assert "**bob** forfeited" in emu.last_public(channel).text
            await record_game(store, [alice.id, carol.id], [121, 90], winner=0,
                              guild_id=guild.id, now=time.time())  # fmt: skip

            board = await private(emu, carol, channel, "cribbage leaderboard", scope="season")
            assert "season Spring" in board.embeds[0]["title"]
            shown = lines(board)
            assert shown[0].startswith(f"**1.** <@{alice.id}> — ") and "2 games" in shown[0]
            assert len(shown) == 3  # alice, then bob and carol: one game each in the season
            server = lines(await private(emu, carol, channel, "cribbage leaderboard"))
            assert any(f"<@{carol.id}>" in line and "2 games" in line for line in server)

            stats = await private(emu, bob, channel, "cribbage stats", scope="season")
            assert "season Spring" in stats.embeds[0]["title"]
            history = await private(emu, carol, channel, "cribbage history", scope="season")
            (line,) = lines(history)  # her game before the season is not in it
            assert line.startswith("❌ **Lost** 90–121") and re.search(r"rating [-−]", line)

            ended = await emu.slash(olga, channel, "cribbage season end")
            assert not ended.ephemeral
            text = ended.message.text
            assert "Season **Spring** is over." in text and f"🥇 <@{alice.id}>" in text

            await refused(emu, tess, channel, database, "cribbage season start", "already had",
                          name="spring")  # fmt: skip
            summer = await emu.slash(tess, channel, "cribbage season start", name="Summer")
            assert "Season **Summer** has started (ratings carried over" in summer.message.text
            await record_game(store, [bob.id, alice.id], [121, 70], winner=0, guild_id=guild.id,
                              now=time.time())  # fmt: skip

            now = lines(await private(emu, carol, channel, "cribbage leaderboard", scope="season"))
            assert now[0].startswith(f"**1.** <@{bob.id}>") and len(now) == 2
            past = await private(emu, carol, channel, "cribbage leaderboard", season="SPRING")
            assert "season Spring" in past.embeds[0]["title"] and lines(past) == shown
            old = await private(emu, alice, channel, "cribbage stats", season="Spring")
            fields = {f["name"]: f["value"] for f in old.embeds[0]["fields"]}
            assert fields["Games"] == "**2**" and fields["Record"] == "2 won · 0 lost"
            await refused(emu, carol, channel, database, "cribbage history",
                          "no season named **Autumn**", season="Autumn")  # fmt: skip

            listed = await private(emu, alice, channel, "cribbage season list")
            summer_line, spring_line = listed.content.splitlines()
            assert summer_line.startswith("**Summer**") and "**open**" in summer_line
            assert spring_line.startswith("**Spring**") and "reset" in spring_line


async def test_a_season_boards_pages_stay_on_that_season(tmp_path):
    """◀ / ▶ on a season's leaderboard page through that season (its id is in the buttons),
    even once it has ended and another has started."""
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        managers = emu.add_role(guild, "Managers", permissions=MANAGE_GUILD)
        olga = emu.add_user("olga", roles=[managers])
        async with emu.running(make_bot(tmp_path / "cribbage.db")) as bot:
            await emu.slash(olga, channel, "cribbage season start", name="League")
            league = await bot.store.seasons.current(guild.id)
            players = list(range(7000, 7012))  # twelve: two pages
            for i in range(0, 12, 2):
                await record_game(bot.store, players[i : i + 2], [121, 100], winner=0,
                                  guild_id=guild.id, now=time.time())  # fmt: skip
            board = await private(emu, olga, channel, "cribbage leaderboard", scope="season")
            ids = [b.custom_id for b in board.buttons if b.custom_id.startswith("crib:b:")]
            assert ids and all(f":n{league.id}r" in custom_id for custom_id in ids)
            await emu.slash(olga, channel, "cribbage season end")
            await emu.slash(olga, channel, "cribbage season start", name="Next")
            await emu.click(olga, board, "Next ▶")
            assert "season League" in board.embeds[0]["title"]
            assert "Page 2 of 2" in board.embeds[0]["footer"]["text"]
            assert len(lines(board)) == 2
