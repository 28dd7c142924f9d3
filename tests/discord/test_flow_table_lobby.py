"""The lobby through the emulator: a full table's Join and computer menu are disabled, and the
host picks the computer's level."""

from __future__ import annotations

import pytest

from discord_emulator import EmulatorError
from tests.support.discord_players import open_club

PICKER = "Add a computer player (host): pick its level"


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as driver:
        yield driver


def picker(message):
    return next(s for s in message.selects if s.custom_id.startswith("crib:k:"))


async def test_a_full_lobby_disables_join_and_the_computer_menu(club):
    alice, bob, carol = club.users
    lobby = await club.open_lobby(alice)
    assert not lobby.find_button("Join").disabled and not picker(lobby).disabled
    await club.click(bob, lobby, "Join")
    lobby = club.emu.message(lobby.id)
    assert lobby.find_button("Join").disabled  # two seats, two people: full
    assert picker(lobby).disabled
    assert not lobby.find_button("Start").disabled and not lobby.find_button("Leave").disabled
    with pytest.raises(EmulatorError, match="disabled"):  # Discord greys them out
        await club.click(carol, lobby, "Join")
    with pytest.raises(EmulatorError, match="disabled"):
        await club.select(alice, lobby, ["expert"], custom_id=picker(lobby).custom_id)
    await club.click(bob, lobby, "Leave")  # a seat again: both come back
    lobby = club.emu.message(lobby.id)
    assert not lobby.find_button("Join").disabled and not picker(lobby).disabled


async def test_the_host_picks_the_computers_level(club):
    alice = club.users[0]
    lobby = await club.open_lobby(alice, players=3)
    menu = picker(lobby)
    assert menu.values == ["easy", "standard", "expert"]
    await club.select(alice, lobby, ["expert"], custom_id=menu.custom_id)
    await club.select(alice, lobby, ["easy"], custom_id=menu.custom_id)
    view = club.bot.manager.live.in_channel(club.channel.id)
    assert [s.level for s in view.seats if s is not None] == [None, "expert", "easy"]
    lobby = club.emu.message(lobby.id)
    assert "Computer (expert)" in lobby.text and "Computer (easy)" in lobby.text
    assert picker(lobby).disabled and lobby.find_button("Join").disabled  # full now


async def test_a_forged_level_or_a_guest_adds_nothing(club):
    alice, bob = club.users[:2]
    lobby = await club.open_lobby(alice, players=3)
    menu = picker(lobby)
    forged = await club.emu.forge_select(
        alice, club.channel, menu.custom_id, ["godlike"], message=lobby
    )
    assert forged.ephemeral and "easy, standard or expert" in forged.message.content
    guest = await club.select(bob, lobby, ["easy"], custom_id=menu.custom_id)
    assert guest.ephemeral and "host" in guest.message.content.lower()
    view = club.bot.manager.live.in_channel(club.channel.id)
    assert sum(s is not None for s in view.seats) == 1
