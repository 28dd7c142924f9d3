"""Replays and reviews through the real discord.py client and the Discord emulator:
``/cribbage replay`` (its pages reproduce the game as it was played, paging, Share), the
result's summary and its Replay and Review my game buttons, a game in progress refused to
anyone, a stranger's review refused, an unknown or pruned game, and the buttons after a restart.

Two tests play one short game each (to 61, against an easy computer) by clicks: about a second.
"""

from __future__ import annotations

import re
import sqlite3
import time

import pytest

from bot.render.words import hand_line
from tests.support.discord_players import Seat, make_bot, open_club
from tests.support.sessions import stored_deal_points

PLAYED = re.compile(r"plays (\S+) — count ([0-9]+)")
PAGE = re.compile(r"crib:rp:[0-9]+:[0-9]+:[fpnl]")


async def play_a_game(club) -> int:
    """alice against an easy computer, to 61, click by click; the game's id."""
    alice = club.users[0]
    await club.open_lobby(alice, computer="easy", target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    game_id = club.game_id()
    seats = {alice.id: Seat(alice)}
    for _ in range(3000):
        if club.bot.manager.live.in_channel(club.channel.id) is None:
            return game_id
        for user_id in club.whose_move():
            if await club.move(seats[user_id]) == "wait":
                await club.move(seats[user_id])
    raise AssertionError("the game did not end")


def description(message) -> str:
    return message.embeds[0].get("description", "")


def title(message) -> str:
    return message.embeds[0].get("title", "")


async def private(club, user, command, **options):
    """A command answered privately: nothing public posted."""
    before = len(club.emu.public_messages(club.channel))
    answer = await club.emu.slash(user, club.channel, command, **options)
    assert answer.ephemeral and answer.message.visible_to is user
    assert len(club.emu.public_messages(club.channel)) == before
    return answer.message


async def test_a_replay_steps_through_the_game_as_it_was_played(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob")) as club:
        alice, bob = club.users
        game_id = await play_a_game(club)
        replay = await club.bot.manager.records.replay(game_id)
        deals = len(replay.deals)
        assert deals >= 2

        history = await private(club, alice, "cribbage history")
        assert f"game #{game_id}" in description(history)

        page = await private(club, alice, "cribbage replay")  # her last game by default
        assert title(page) == f"🔁 Replay of game #{game_id} · Deal 1 of {deals}"
        assert "Cutting for the deal" in description(page)
        assert [b.emoji for b in page.buttons[:4]] == ["⏮", "◀", "▶", "⏭"]
        assert [b.disabled for b in page.buttons[:4]] == [True, True, False, False]
        assert all(len(b.custom_id) <= 100 for b in page.buttons)

        # every page: the hands as dealt, the discards, the play card by card with the count
        # (as the public deal records told it while the game was played), the show's totals
        # (as stored for the game's statistics)
        pages = []
        for number in range(1, deals + 1):
            text = description(page)
            assert f"Deal {number} of {deals}" in title(page)
            deal = replay.deals[number - 1]
            for seat, hand in enumerate(deal.hands):
                assert hand_line(hand) in text, (number, seat)
            pages.append(text)
            if number < deals:
                await club.click(alice, page, emoji="▶")
        assert page.find_button(emoji="▶").disabled and page.find_button(emoji="⏭").disabled

        told = [m.text for m in club.emu.public_messages(club.channel) if "Replay" not in m.text]
        plays = PLAYED.findall("\n".join(pages))
        assert plays and plays == PLAYED.findall("\n".join(told))
        conn = sqlite3.connect(club.database)
        try:
            points = stored_deal_points(conn, game_id)
        finally:
            conn.close()
        for deal, seat, _, _, _, _, hand_value, hand_cards, crib_value, _ in points:
            text = pages[deal - 1]
            if hand_cards:
                assert f"— **{hand_value}**" in text, (deal, seat, hand_value)
            if crib_value is not None:
                assert f"— **{crib_value}**" in text, (deal, seat, crib_value)

        # ⏮ and ◀ page back
        await club.click(alice, page, emoji="⏮")
        assert "Deal 1 of" in title(page)
        await club.click(alice, page, emoji="⏭")
        await club.click(alice, page, emoji="◀")
        assert f"Deal {deals - 1} of" in title(page)

        # Share: the page, publicly, once
        before = len(club.emu.public_messages(club.channel))
        await club.click(alice, page, "Share")
        (copy,) = club.emu.public_messages(club.channel)[before:]
        assert copy.content == f"📣 Shared by <@{alice.id}>"
        assert copy.embeds == page.embeds and not copy.buttons
        assert page.find_button("Shared ✓").disabled

        # anyone may replay a finished game by its number
        other = await private(club, bob, "cribbage replay", game=game_id)
        assert title(other).startswith(f"🔁 Replay of game #{game_id}")


@pytest.mark.slow  # a game, its review (a worker process starts), a restart, a review again
async def test_the_result_sums_the_game_up_and_reviews_it_for_its_player_only(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob")) as club:
        alice, bob = club.users
        game_id = await play_a_game(club)
        result = [m for m in club.emu.public_messages(club.channel) if "🏆" in m.text][-1]
        assert [b.label for b in result.buttons] == ["Rematch", "Replay", "Review my game"]
        summary = await club.bot.manager.analysis.summary(game_id)
        (field,) = [f for f in result.embeds[0]["fields"] if f["name"] == "📊 How the points came"]
        for side in summary.sides:
            assert (
                f"· pegging {side.pegging} · hands {side.hand} · crib {side.crib}" in field["value"]
            )
        assert "alice" in field["value"] and "Computer (easy)" in field["value"]

        stranger = await club.click(bob, result, "Review my game")
        assert stranger.ephemeral and "didn't play in that game" in stranger.message.content
        mine = await club.click(alice, result, "Review my game")
        assert mine.response_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"  # "thinking" first
        assert mine.ephemeral and mine.message.visible_to is alice
        assert title(mine.message) == f"🔍 Your game #{game_id}, decision by decision"
        given = mine.message.embeds[0]["fields"][0]
        assert given["name"] == "Given away, deal by deal"
        replay = await club.bot.manager.records.replay(game_id)
        assert given["value"].count("given away") == len(replay.deals)

        watched = await club.click(bob, result, "Replay")  # a replay is anyone's
        assert watched.ephemeral and "Deal 1 of" in title(watched.message)

        # after a restart: the page buttons, Share, Replay and Review my game still work
        page = await private(club, alice, "cribbage replay", game=game_id)
        await club.bot.close()
        club.bot = make_bot(club.database)
        async with club.emu.running(club.bot):
            await club.click(alice, page, emoji="▶")
            assert "Deal 2 of" in title(page)
            await club.click(alice, page, "Share")
            assert club.emu.last_public(club.channel).embeds == page.embeds
            answer = await club.click(alice, result, "Replay")
            assert answer.ephemeral and "Deal 1 of" in title(answer.message)
            again = await club.click(alice, result, "Review my game")
            assert again.message.embeds == mine.message.embeds  # the same review


async def test_a_game_in_progress_an_unknown_or_pruned_game_is_refused(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob", "carol")) as club:
        alice, bob, carol = club.users
        nothing = await private(club, carol, "cribbage replay")
        assert "no finished game" in nothing.content
        await club.start_game(alice, [bob], target=61)
        game_id = club.game_id()
        for user in (alice, bob, carol):
            refused = await private(club, user, "cribbage replay", game=game_id)
            assert "still being played" in refused.content and not refused.embeds
        unknown = await private(club, carol, "cribbage replay", game=game_id + 1000)
        assert "can't find that game" in unknown.content
        for bad in (0, 2**60, "7"):  # not a game number (a client may send anything)
            forged = await club.emu.forge_slash(carol, club.channel, "cribbage replay", game=bad)
            assert forged.ephemeral and "**game** must be" in forged.message.content
        await club.slash(bob, "cribbage forfeit")
        await club.bot.store.games.prune_logs(ended_before=time.time() + 10)
        pruned = await private(club, alice, "cribbage replay", game=game_id)
        assert "no longer kept" in pruned.content
