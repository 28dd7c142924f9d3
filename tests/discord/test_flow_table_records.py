"""A show you can read through the emulator: the deal's record waits as the
newest message with **Next deal** until every person clicks it or the pause runs out; with no
pause the record and the new table follow at once, as before. A new table is posted once, not
posted and edited at once (item 10)."""

from __future__ import annotations

import time

import pytest

from bot.engine import Phase
from tests.support.discord_players import Seat, open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False) as driver:
        yield driver


def live_game(club):
    return club.bot.manager.live[club.game_id()].game


async def start(club, **settings) -> dict[int, Seat]:
    if settings:
        await club.bot.manager.settings.update_server(club.guild.id, **settings)
    alice, bob = club.users
    await club.start_game(alice, [bob], target=61)
    return {alice.id: Seat(alice), bob.id: Seat(bob)}


async def play_until(club, seats, done, *, limit: int = 200) -> None:
    """Everyone moves as the table says (never clicking Next deal) until ``done()``."""
    for _ in range(limit):
        for user_id in club.whose_move():
            if done():
                return
            await club.move(seats[user_id])
    raise AssertionError("never got there")


def in_pause(club) -> bool:
    return live_game(club).phase is Phase.NEXT_DEAL


def buttons(message) -> list[str]:
    return [b.label for b in message.buttons]


async def test_the_record_waits_as_the_newest_message_until_everyone_clicks_next_deal(club):
    alice, bob = club.users
    seats = await start(club)
    await play_until(club, seats, lambda: in_pause(club))
    record = club.emu.last_public(club.channel)
    assert "Deal 1 — the story" in record.embeds[0]["title"]
    assert buttons(record) == ["Your hand", "Next deal"]
    assert "**Next deal** <t:" in record.content  # a relative time Discord counts down
    assert f"<@{alice.id}>" in record.content and f"<@{bob.id}>" in record.content
    assert "show.png" in [a.filename for a in record.attachments]  # the counts, drawn
    assert "Scores" in record.text
    pings_before = len(club.emu.pings)

    await club.click(alice, record, "Next deal")
    record = club.emu.message(record.id)
    assert club.emu.last_public(club.channel).id == record.id  # still the newest
    assert f"<@{alice.id}>" not in record.content and f"<@{bob.id}>" in record.content
    assert live_game(club).phase is Phase.NEXT_DEAL

    await club.click(bob, record, "Next deal")  # the last one: the deal starts
    record = club.emu.message(record.id)
    assert not record.buttons and not record.content  # a plain record now
    assert "show.png" in [a.filename for a in record.attachments]
    below = club.emu.messages_below(record)
    assert len(below) == 1  # the new table, and nothing else
    table = below[0]
    assert "Your hand" in buttons(table) and "deal 2" in table.embeds[0]["title"]
    assert len(table.versions) == 1  # posted once, with everything it shows
    assert len(club.emu.pings) == pings_before  # nobody needed a ping: both just clicked
    for user in (alice, bob):  # each one's new hand came below the new table
        mine = [m for m in club.emu.messages_below(table, viewer=user) if m.ephemeral]
        assert mine and all(m.visible_to is user for m in mine)


async def test_the_pause_starts_the_deal_by_itself(club):
    seats = await start(club)
    keeper = club.bot.get_cog("Cribbage").deals
    assert keeper.ticker.is_running()  # the cog's loop (every 2 s)
    await play_until(club, seats, lambda: in_pause(club))
    record = club.emu.last_public(club.channel)
    assert await keeper.tick(time.time()) == 0  # 20 s by default: not yet
    assert club.emu.last_public(club.channel).id == record.id
    ends_at = club.bot.manager.deals.due_at(club.game_id())
    assert ends_at is not None and str(int(ends_at)) in record.content

    assert await keeper.tick(ends_at + 1) == 1
    record = club.emu.message(record.id)
    assert not record.buttons
    (table,) = club.emu.messages_below(record)
    assert "deal 2" in table.embeds[0]["title"] and len(table.versions) == 1
    assert live_game(club).phase is not Phase.NEXT_DEAL


async def test_with_no_pause_the_record_and_the_new_table_come_at_once(club):
    seats = await start(club, next_deal_seconds=0)
    await play_until(club, seats, lambda: live_game(club).deal_number >= 2)
    messages = club.emu.public_messages(club.channel)
    record = next(m for m in messages if "Deal 1 — the story" in m.text)
    assert not record.buttons and not record.content
    (table,) = club.emu.messages_below(record)
    assert "deal 2" in table.embeds[0]["title"]
    assert len(table.versions) == 1  # posted once, with everything it shows
    assert not any("Next deal" in buttons(m) for m in messages)
    assert not club.emu.pings and not club.emu.ghost_pings


async def test_a_forfeit_before_the_first_show_is_called_off_not_rated(club):
    alice, bob = club.users
    await start(club)
    await club.slash(alice, "cribbage forfeit")
    result = club.emu.last_public(club.channel)
    assert "**alice** forfeited; the game was called off before the first show: not rated." in (
        result.text
    )
    assert buttons(result) == ["Rematch"]


async def test_a_forfeit_in_the_pause_closes_the_record_and_posts_the_result(club):
    alice, bob = club.users
    seats = await start(club)
    await play_until(club, seats, lambda: in_pause(club))
    record = club.emu.last_public(club.channel)
    await club.slash(bob, "cribbage forfeit")
    record = club.emu.message(record.id)
    assert not record.buttons and not record.content  # the record, as the deal left it
    assert "show.png" in [a.filename for a in record.attachments]
    (result,) = club.emu.messages_below(record)
    assert "**bob** forfeited" in result.text and buttons(result) == ["Rematch"]
    assert club.bot.manager.live.in_channel(club.channel.id) is None


async def test_after_a_restart_in_the_pause_the_record_keeps_its_story(club):
    from tests.support.discord_players import make_bot

    alice, bob = club.users
    seats = await start(club)
    await play_until(club, seats, lambda: in_pause(club))
    record = club.emu.last_public(club.channel)
    story = record.embeds[0]["description"]
    assert story
    await club.bot.close()
    async with club.emu.running(make_bot(club.database)) as bot:
        club.bot = bot
        await club.click(alice, record, "Next deal")  # a new process: it knows no story
        record = club.emu.message(record.id)
        assert record.embeds[0]["description"] == story  # kept, not redrawn empty
        assert "show.png" in [a.filename for a in record.attachments]
        assert f"<@{alice.id}>" not in record.content and f"<@{bob.id}>" in record.content
        ends_at = bot.manager.deals.due_at(club.game_id())
        assert await bot.get_cog("Cribbage").deals.tick(ends_at + 1) == 1
        record = club.emu.message(record.id)
        assert record.embeds[0]["description"] == story and not record.buttons
        table, ping = club.emu.messages_below(record)
        assert "deal 2" in table.embeds[0]["title"]
        # alice clicked in this process: her hand came to her; bob's token died with the old
        # process, so the new deal pings him, once, to open his hand
        assert [p.user for p in club.emu.pings] == [bob] and ping.content.startswith(f"<@{bob.id}>")


async def test_board_in_the_pause_moves_the_waiting_record_down(club):
    alice, bob = club.users
    seats = await start(club)
    await play_until(club, seats, lambda: in_pause(club))
    old = club.emu.last_public(club.channel)
    await club.emu.say(bob, club.channel, "nice crib!")  # the channel moves on
    await club.slash(alice, "cribbage board")
    new = club.emu.last_public(club.channel)
    assert new.id != old.id and buttons(new) == ["Your hand", "Next deal"]
    assert new.embeds[0]["description"] == club.emu.message(old.id).embeds[0]["description"]
    old = club.emu.message(old.id)
    assert not old.buttons and not old.content  # one record waits, the new one
    await club.click(bob, new, "Next deal")
    await club.click(alice, new, "Next deal")
    (table,) = club.emu.messages_below(club.emu.message(new.id))
    assert "deal 2" in table.embeds[0]["title"]
