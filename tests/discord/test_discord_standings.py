"""``/cribbage leaderboard``, ``stats`` and ``history`` through the real discord.py client and the
Discord emulator: after a game played out by clicks, and over a recorded league with pages whose
buttons still work after a restart. The three answer privately with a Share
button that posts the same content publicly (once); a forfeit before the first show is aborted
(not rated, not counted); no rating shown is ever negative.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from db import Store
from discord_emulator import DiscordEmulator
from tests.support.discord_players import Driver, Seat, make_bot, open_club
from tests.support.leaderboard import record_game

SHARE = re.compile(r"crib:sh:[bsh]:[0-9]+")


@pytest.fixture
async def emu():
    # scripted people click at machine speed: Discord's limits counted, not enforced
    async with DiscordEmulator(rate_limits=False) as emu:
        emu.guild = emu.add_guild("Cribbage Club")
        emu.channel = emu.add_text_channel(emu.guild, "cribbage")
        emu.people = [emu.add_user(name) for name in ("alice", "bob", "carol")]
        yield emu


def description(message) -> str:
    assert message.embeds, f"an embed was expected: {message.text}"
    return message.embeds[0].get("description", "")


def fields(message) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}


def ratings_shown(message) -> list[int]:
    """Every rating a standings message shows (leaderboard lines, the stats line)."""
    text = description(message)
    found = re.findall(r"— \*\*(-?[0-9.]+)\*\*", text) + re.findall(r"Rating \*\*(-?[0-9.]+)", text)
    return [int(float(x)) for x in found]


def share_id(message) -> str:
    (button,) = [b for b in message.buttons if b.custom_id and SHARE.fullmatch(b.custom_id)]
    return button.custom_id


async def private(emu, asker, command, **options):
    """A standings command: answered privately (nothing public posted), with a Share button."""
    before = len(emu.public_messages(emu.channel))
    answer = await emu.slash(asker, emu.channel, command, **options)
    assert answer.ephemeral and answer.message.visible_to is asker
    assert len(emu.public_messages(emu.channel)) == before
    assert answer.message.find_button("Share").custom_id == share_id(answer.message)
    return answer.message


async def share(emu, user, message):
    """Click Share: the private answer says "Shared ✓" (disabled); one public copy, same embed."""
    before = len(emu.public_messages(emu.channel))
    result = await emu.click(user, message, "Share")
    assert message.find_button("Shared ✓").disabled
    (copy,) = emu.public_messages(emu.channel)[before:]
    assert result.followups == [copy] and copy.public
    assert copy.content == f"📣 Shared by <@{user.id}>"
    assert copy.embeds == message.embeds and not any(b.label == "Share" for b in copy.buttons)
    return copy


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
        emu.channel = driver.channel  # where the game was played (a thread, if it moved)

        board = await private(emu, carol, "cribbage leaderboard")
        assert "Cribbage Club" in board.embeds[0]["title"]
        lines = description(board).splitlines()
        assert lines[0].startswith(f"**1.** <@{winner.id}> — **")
        assert lines[1].startswith(f"**2.** <@{loser.id}> — **")
        assert "1 game · 100% won · *provisional*" in lines[0]
        assert "1 game · 0% won · *provisional*" in lines[1]
        assert [b.label for b in board.buttons] == ["Share"]  # one page: no page buttons
        assert "Page 1 of 1" in board.embeds[0]["footer"]["text"]
        top, second = ratings_shown(board)
        assert top > 1000 > second > 0  # both started at 1000

        stats = await private(emu, winner, "cribbage stats", user=loser)
        assert loser.name in stats.embeds[0]["title"]
        assert fields(stats)["Games"] == "**1**"
        assert fields(stats)["Record"] == "0 won · 1 lost"
        assert fields(stats)["Favourite opponent"].startswith(winner.name)
        assert "#2 of 2" in description(stats)

        history = await private(emu, winner, "cribbage history")
        (line,) = description(history).splitlines()
        assert line.startswith("✅ **Won** 61–") and f"vs {loser.name}" in line
        assert re.search(r"rating \+[0-9]+$", line)

        mine = await private(emu, carol, "cribbage stats")
        assert "has not finished a game" in description(mine)
        empty = await private(emu, carol, "cribbage leaderboard", against="computers")
        assert "against a computer" in description(empty)


async def league(path, alice_id: int, guild_id: int) -> None:
    """24 players in a ring (three pages everywhere), and alice's two games in the server."""
    store = await Store.open(path)  # games ended before the bot rated anything: caught up
    players = list(range(5000, 5024))
    for i, player in enumerate(players):
        await record_game(store, [player, players[(i + 1) % 24]], [121, 100], winner=0)
    await record_game(store, [players[0], alice_id], [121, 50], winner=0, guild_id=guild_id)
    await record_game(store, [alice_id, "expert"], [121, 100], winner=0, guild_id=guild_id)
    await store.close()


async def test_leaderboard_pages_and_the_callers_row_survive_a_restart(emu, tmp_path):
    alice, bob = emu.people[:2]
    path = tmp_path / "league.db"
    await league(path, alice.id, emu.guild.id)

    async with emu.running(make_bot(path)):
        board = await private(emu, alice, "cribbage leaderboard", scope="global")
        assert "everywhere" in board.embeds[0]["title"]
        first = description(board).splitlines()
        assert len(first) == 12 and first[10] == "⋯"  # ten rows, then the caller's own
        assert first[11].startswith("📍 **25.** alice — ")
        assert "Page 1 of 3" in board.embeds[0]["footer"]["text"]
        previous, following, share_button = board.buttons
        assert previous.disabled and not following.disabled and share_button.label == "Share"
        await emu.click(alice, board, "Next ▶")
        assert description(board).splitlines()[0].startswith("**11.** ")
        assert "Page 2 of 3" in board.embeds[0]["footer"]["text"]
        assert board.find_button("Share")  # the private copy keeps its Share button
        copy = await share(emu, alice, board)  # page 2, shared
        assert "Page 2 of 3" in copy.embeds[0]["footer"]["text"]

    async with emu.running(make_bot(path)) as bot:  # a new process: the old buttons still work
        await emu.click(bob, copy, "Next ▶")  # anyone pages the public copy
        rows = description(copy).splitlines()
        assert "Page 3 of 3" in copy.embeds[0]["footer"]["text"]
        assert rows[0].startswith("**21.** ") and rows[-1].startswith("📍 **25.** alice")
        assert copy.find_button(label="Next ▶").disabled
        assert "Page 2 of 3" in board.embeds[0]["footer"]["text"]  # the private one stays
        await emu.click(alice, board, "◀ Previous")  # and pages on its own, still shared
        assert "Page 1 of 3" in board.embeds[0]["footer"]["text"]
        assert board.find_button("Shared ✓").disabled
        # a Share click that still reaches the bot (an old client) after the restart: the
        # message says it was shared, so nothing more is posted
        before = len(emu.public_messages(emu.channel))
        again = await emu.forge_click(alice, emu.channel, share_id(board), message=board)
        assert again.ephemeral and "already shared" in again.message.content
        assert len(emu.public_messages(emu.channel)) == before

        here = await private(emu, alice, "cribbage leaderboard", sort="skunks")
        lines = description(here).splitlines()
        assert lines[0].startswith("**1.** <@5000>") and "1 skunk" in lines[0]
        assert lines[1].startswith(f"📍 **2.** <@{alice.id}>")
        computers = await private(emu, alice, "cribbage leaderboard", against="computers")
        lines = description(computers).splitlines()
        assert lines[0].startswith(f"📍 **1.** <@{alice.id}>") and "1 game · 100% won" in lines[0]
        assert lines[1].startswith("**2.** Computer (expert)")
        everyone = await private(emu, alice, "cribbage leaderboard", against="anyone")
        assert "(all games)" in everyone.embeds[0]["title"]
        assert "2 games · 50% won" in description(everyone)
        # by default computer games are kept apart; a server can count them on its board
        default = await private(emu, alice, "cribbage leaderboard")
        assert "(all games)" not in default.embeds[0]["title"]
        await bot.manager.settings.update_server(emu.guild.id, computer_games_count=True)
        counted = await private(emu, alice, "cribbage leaderboard")
        assert "(all games)" in counted.embeds[0]["title"]
        assert all(r >= 0 for m in (here, computers, everyone, counted) for r in ratings_shown(m))


async def test_stats_and_history_answer_privately_and_share_once(emu, tmp_path):
    """/stats, /leaderboard and /history once answered in public in the game's channel. Now
    each answers privately; Share posts the same embed publicly, saying who shared it and
    pinging nobody; a second Share (a double click, an old client) is told so privately and
    posts nothing; only the asker can share."""
    alice, bob, carol = emu.people
    path = tmp_path / "club.db"
    store = await Store.open(path)
    await record_game(store, [alice.id, bob.id], [121, 80], winner=0, guild_id=emu.guild.id)
    await store.close()

    async with emu.running(make_bot(path)):
        stats = await private(emu, carol, "cribbage stats", user=alice)
        assert fields(stats)["Record"] == "1 won · 0 lost"
        copy = await share(emu, carol, stats)
        assert fields(copy) == fields(stats) and copy.embeds[0]["title"] == stats.embeds[0]["title"]
        assert emu.pings == []  # "Shared by @carol" and the embed's mentions ping nobody

        history = await private(emu, bob, "cribbage history")
        assert description(history).startswith("❌ **Lost** 80–121 vs alice")
        # a double click: both clicks leave before the first is answered
        before = len(emu.public_messages(emu.channel))
        first, second = await asyncio.gather(
            emu.click(bob, history, "Share"), emu.click(bob, history, "Share")
        )
        posted = emu.public_messages(emu.channel)[before:]
        assert len(posted) == 1 and posted[0].content == f"📣 Shared by <@{bob.id}>"
        told = next(r for r in (first, second) if not r.followups)
        assert told.ephemeral and told.message.content.startswith("You've already shared this")
        # an old client still showing Share clicks it again: told privately, with the link
        again = await emu.forge_click(bob, emu.channel, share_id(history), message=history)
        assert again.ephemeral and "already shared" in again.message.content
        assert f"/{emu.channel.id}/{posted[0].id}" in again.message.content
        assert len(emu.public_messages(emu.channel)) == before + 1

        # someone else's private answer (a forged click): refused, nothing posted
        board = await private(emu, alice, "cribbage leaderboard")
        theirs = await emu.forge_click(carol, emu.channel, share_id(board), message=board)
        assert theirs.ephemeral and "Only the person who asked" in theirs.message.content
        assert board.find_button("Share") and len(emu.public_messages(emu.channel)) == before + 1
        # Share on a public message (forged: a public copy never has one): refused
        public = await emu.forge_click(alice, emu.channel, share_id(board), message=posted[0])
        assert public.ephemeral and "out of date" in public.message.content
        assert len(emu.public_messages(emu.channel)) == before + 1
        await share(emu, alice, board)  # and alice's own click shares it
        assert emu.pings == []


async def test_a_forfeit_before_the_first_show_is_aborted_and_not_rated(tmp_path):
    """A forfeit at 0-0 in the first deal was a rated win, and the loser showed -18.3
    on the public leaderboard. Now the game is aborted: no rating change, no win, no loss, in a
    single game and in a match; a forfeit after the first show still counts."""
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as club:
        emu, (alice, bob, carol) = club.emu, club.users
        manager = club.bot.manager
        await club.start_game(alice, [bob], target=61)
        left = await emu.slash(bob, club.channel, "cribbage forfeit")
        assert left.ephemeral
        assert "not rated" in emu.last_public(club.channel).text
        assert manager.live.in_channel(club.channel.id) is None

        await club.start_game(alice, [carol], target=61, match=3)  # a match: the same
        await emu.slash(alice, club.channel, "cribbage forfeit")
        assert "without a winner" in emu.last_public(club.channel).text
        assert manager.live.in_channel(club.channel.id) is None

        emu.channel = club.channel
        for user in (alice, bob, carol):
            stats = await private(emu, user, "cribbage stats")
            assert "has not finished a game" in description(stats)
            assert await club.bot.store.standings.rating_history(user.id) == []
        board = await private(emu, carol, "cribbage leaderboard")
        assert "No finished games counted" in description(board)
        lines = description(await private(emu, alice, "cribbage history")).splitlines()
        assert lines[0].startswith(f"⏹️ **Aborted** 0–0 vs {carol.name}")
        assert "alice left before the first show: not counted" in lines[0]
        assert lines[1].startswith(f"⏹️ **Aborted** 0–0 vs {bob.name}")
        assert "bob left before the first show: not counted" in lines[1]
        assert not any("rating" in line or "Won" in line for line in lines)

        # past the first show, a forfeit is a forfeit: rated, a win and a loss
        await club.start_game(alice, [bob], target=61)
        seats = {u.id: Seat(u) for u in (alice, bob)}
        game_id = club.game_id()
        await club.play_until(seats, lambda: manager.live[game_id].game.deal_number >= 2)
        await emu.slash(bob, club.channel, "cribbage forfeit")
        assert "forfeited. Final scores" in emu.last_public(club.channel).text
        won = await private(emu, alice, "cribbage history")
        assert re.search(r"^✅ \*\*Won\*\* .* by forfeit .* rating \+[0-9]+", description(won))
        board = await private(emu, carol, "cribbage leaderboard")
        winner, loser = ratings_shown(board)
        assert winner > 1000 > loser > 0


async def test_no_rating_shown_is_negative_after_a_string_of_losses(emu, tmp_path):
    """Ratings were shown as (mu - 3 sigma) x 10, negative for every new loser. Now
    a new player shows 1000, and even sixty double-skunked losses in a row show 0 or more."""
    alice, bob = emu.people[:2]
    path = tmp_path / "losses.db"
    store = await Store.open(path)
    for i in range(60):  # bob loses to a new player every time, double skunked
        await record_game(store, [7000 + i, bob.id], [121, 40], winner=0, guild_id=emu.guild.id)
    await record_game(store, [alice.id, 9999], [121, 100], winner=0, guild_id=emu.guild.id)
    await store.close()

    async with emu.running(make_bot(path)) as bot:
        board = await private(emu, bob, "cribbage leaderboard", sort="wins")
        shown = ratings_shown(board)
        assert shown and min(shown) >= 0
        mine = description(board).splitlines()[-1]
        assert mine.startswith(f"📍 **63.** <@{bob.id}> — **") and "60 games · 0% won" in mine
        stats = await private(emu, bob, "cribbage stats")
        (rating,) = ratings_shown(stats)
        assert 0 <= rating < 1000
        (mu, sigma) = (await bot.store.standings.player_stats(bob.id)).rating
        assert mu - 3 * sigma < -10  # on the old scale bob showed below -100
        alice_stats = await private(emu, alice, "cribbage stats")
        assert ratings_shown(alice_stats)[0] > 1000
