"""The table through interaction tokens (cogs/cribbage/courier.py).

Discord's global limit binds the bot token; "Interaction endpoints are not bound to the bot's
Global Rate Limit" (Rate Limits). So a deal's table is posted as the follow-up of the Next deal
click that starts it and edited through that click's token; a token is used 14 of its 15
minutes, then the bot token takes over; and a token addresses only what it sent itself (the
emulator refuses the rest, as Discord does: Edit Webhook Message, "from the same token").
"""

from __future__ import annotations

import discord
import pytest

from bot.engine import Phase
from tests.support.discord_players import Seat, follow_the_emulated_clock, open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob")) as driver:
        follow_the_emulated_clock(driver)
        yield driver


async def two_people(driver) -> dict[int, Seat]:
    alice, bob = driver.users
    await driver.start_game(alice, [bob], target=121)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(i)
    return seats


def view(driver):
    return driver.bot.manager.live.in_channel(driver.channel.id)


def at(driver, deal: int, phase: Phase):
    return lambda: view(driver).deal_number == deal and view(driver).phase is phase


def edits_of(driver, message) -> list[dict]:
    return [
        r
        for r in driver.emu.transcript.records
        if r["kind"] == "message"
        and r.get("action") == "edit"
        and r.get("message_id") == str(message.id)
    ]


async def start_deal_two(club, seats):
    """Play deal 1 out and start deal 2 by both clicking Next deal on the record."""
    await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
    alice, bob = club.users
    record = club.table_message()
    await club.click(alice, record, "Next deal", kind="next deal")
    last = await club.click(bob, record, "Next deal", kind="next deal")
    assert view(club).deal_number == 2
    return last


async def test_a_deal_started_on_the_table_is_posted_and_edited_through_its_click(club):
    seats = await two_people(club)
    last = await start_deal_two(club, seats)
    table = club.table_message()
    assert table in last.followups  # the new table: bob's click's follow-up
    assert table.interaction_metadata["interacted_message_id"] == str(last.source_message.id)
    limits = club.emu.rest.limits
    bot_edits = limits.by_bucket["message_edit"]
    bot_posts = limits.by_bucket["message_create"]
    await club.play_until(seats, at(club, 2, Phase.NEXT_DEAL))
    edits = edits_of(club, table)
    assert len(edits) >= 5  # discards, cut, every card laid, the show: all on this message
    assert {e["via"] for e in edits} == {"webhook_edit"}  # every one through bob's token
    assert limits.by_bucket["message_edit"] == bot_edits  # not one through the bot token
    assert limits.by_bucket["message_create"] == bot_posts  # nobody was pinged: no post
    assert club.emu.violations == []


async def test_a_token_is_used_14_minutes_then_the_bot_token(club):
    seats = await two_people(club)
    await start_deal_two(club, seats)
    table = club.table_message()
    limits = club.emu.rest.limits
    await club.play_until(seats, lambda: view(club).phase is Phase.PLAY)
    before = len(edits_of(club, table))
    bot_edits = limits.by_bucket["message_edit"]
    club.emu.advance_clock(14 * 60 + 5)  # the token that posted the table is 14 minutes old
    await club.play_until(seats, at(club, 2, Phase.NEXT_DEAL))
    later = edits_of(club, table)[before:]
    assert later and {e["via"] for e in later} == {"channel_edit"}  # the bot token's PATCH
    assert limits.by_bucket["message_edit"] > bot_edits
    assert club.emu.violations == []  # the dead token was never used


async def test_a_token_cannot_edit_a_message_it_did_not_send(club):
    last = await start_deal_two(club, await two_people(club))
    lobby = next(m for m in club.emu.public_messages(club.home) if m.id < last.source_message.id)
    http = club.bot.http
    route = discord.http.Route(
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        webhook_id=club.emu.application_id,
        webhook_token=last.token,
        message_id=lobby.id,
    )
    with club.emu.expect_violation("foreign_message"), pytest.raises(discord.NotFound):
        await http.request(route, json={"content": "not mine"})
    assert "not mine" not in lobby.text


async def test_the_cut_for_the_deal_is_on_the_table_and_its_click_posts_deal_one(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob"), threads=True) as club:
        alice, bob = club.users
        await club.start_game(alice, [bob], target=121)
        assert club.channel is not club.home  # the game is in its thread
        table = club.table_message()
        assert [b.label for b in table.buttons] == ["Your hand", "Cut"]
        # their last clicks were in the parent channel: each is pinged once, to the Cut
        assert sorted(p.user.name for p in club.emu.pings) == ["alice", "bob"]
        assert all("click **Cut** on the table" in p.message.text for p in club.emu.pings)
        first = await club.click(alice, table, "Cut", kind="cut")
        assert first.response_name.startswith("DEFERRED_UPDATE") and not first.followups
        again = await club.click(alice, table, "Cut", kind="cut")  # she cut already
        assert again.ephemeral  # the cut is done: it says so, and whom the cut waits for
        assert "You have cut for the deal: waiting for bob." in again.message.text
        last = await club.click(bob, table, "Cut", kind="cut")
        while view(club).phase is Phase.CUT_FOR_DEAL:  # a tie: both cut again
            for person in (alice, bob):
                last = await club.click(person, club.table_message(), "Cut", kind="cut")
        deal_one = club.table_message()
        assert view(club).deal_number == 1 and "Cut" not in [b.label for b in deal_one.buttons]
        # deal 1's table is bob's cut's follow-up in the thread; his hand comes below it
        assert last.followups[0] is deal_one and deal_one.channel is club.channel
        limits = club.emu.rest.limits
        bot_edits = limits.by_bucket["message_edit"]
        seats = {u.id: Seat(u) for u in (alice, bob)}
        await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
        assert {e["via"] for e in edits_of(club, deal_one)} == {"webhook_edit"}
        assert limits.by_bucket["message_edit"] == bot_edits
