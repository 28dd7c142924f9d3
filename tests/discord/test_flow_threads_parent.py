"""Commands used in the lobby's channel find the game in its thread: ``forfeit`` and ``board`` act
on the user's game there, ``watch`` shows the channel's game played in a thread, and ``hand``
(which can be played only in the thread) answers with a link to it."""

from __future__ import annotations

import pytest

from tests.support.discord_players import Driver, open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, privacy=False, threads=True) as driver:
        yield driver


async def start_in_a_thread(club: Driver, host, others) -> Driver:
    """A game started from a lobby in the channel: it plays in a thread of it."""
    driver = Driver(club.emu, club.home, club.bot)
    await driver.start_game(host, others, target=61)
    assert driver.channel.id != club.home.id
    assert club.bot.manager.live.in_channel(driver.channel.id) is not None
    return driver


async def in_parent(club: Driver, user, command: str):
    """``/cribbage <command>`` by ``user`` in the lobby's channel; its private answer's text."""
    result = await club.emu.slash(user, club.home, f"cribbage {command}")
    assert result.ephemeral
    return result.message.content or ""


def hands_in(club: Driver, user, channel) -> list:
    return [m for m in club.emu.ephemerals_for(user, channel) if m.selects or m.buttons]


async def test_hand_from_the_channel_links_the_thread_and_opens_nothing_there(club):
    alice, bob, carol, _ = club.users
    game = await start_in_a_thread(club, alice, [bob])
    answer = await in_parent(club, alice, "hand")
    assert f"<#{game.channel.id}>" in answer and "Your hand" in answer
    assert hands_in(club, alice, club.home) == []  # no hand where it could not be played
    assert await in_parent(club, carol, "hand") == "You have no cribbage game in this channel."


async def test_forfeit_from_the_channel_concedes_the_game_in_its_thread(club):
    alice, bob, carol, _ = club.users
    game = await start_in_a_thread(club, alice, [bob])
    assert await in_parent(club, carol, "forfeit") == "You have no cribbage game in this channel."
    assert club.bot.manager.live.in_channel(game.channel.id) is not None  # carol changed nothing
    answer = await in_parent(club, bob, "forfeit")
    assert answer == f"You forfeited the game in <#{game.channel.id}>."
    assert club.bot.manager.live.in_channel(game.channel.id) is None
    result = club.emu.last_public(game.channel)  # the result is told in the thread
    assert "forfeit" in result.text and result.find_button("Rematch")
    line = club.emu.message(club.emu.public_messages(club.home)[0].id)  # the game's line
    assert "playing" not in line.text and "**bob**" in line.text  # how it ended, and where
    assert f"<#{game.channel.id}>" in line.text


async def test_board_from_the_channel_posts_the_table_again_in_the_thread(club):
    alice, bob, carol, _ = club.users
    game = await start_in_a_thread(club, alice, [bob])
    table = game.table_message()
    in_channel = len(club.emu.public_messages(club.home))
    answer = await in_parent(club, alice, "board")
    assert f"posted again in its thread, <#{game.channel.id}>" in answer
    moved = game.table_message()
    assert moved.id != table.id and moved.find_button("Your hand")  # at the thread's bottom
    assert len(club.emu.public_messages(club.home)) == in_channel  # nothing posted here
    other = await in_parent(club, carol, "board")  # not a player: where the game is
    assert f"<#{game.channel.id}>" in other and "/cribbage board" in other
    assert game.table_message().id == moved.id


async def test_watch_from_the_channel_follows_its_game_or_lists_its_threads(club):
    alice, bob, carol, dave = club.users
    first = await start_in_a_thread(club, alice, [bob])
    watched = await club.emu.slash(carol, club.home, "cribbage watch")
    assert not watched.ephemeral and "alice" in watched.message.text
    assert club.bot.manager.live.in_channel(first.channel.id).messages["watch"].message_id == (
        watched.message.id
    )
    second = await start_in_a_thread(club, carol, [dave])
    answer = await in_parent(club, alice, "watch")  # two games: which one is not guessed
    assert f"<#{first.channel.id}>" in answer and f"<#{second.channel.id}>" in answer
    assert "/cribbage watch" in answer
