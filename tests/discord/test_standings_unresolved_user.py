"""``/cribbage stats`` and ``history`` with a forged **user** option: a bare id that Discord sent
no data for, or text. Discord's own client always sends the person's data; a forged option is
refused privately, naming the option, and changes nothing."""

from __future__ import annotations

import discord
import pytest

from cogs.standings import StandingsDesk, unresolved_person
from tests.support.discord_players import open_club
from tests.support.sessions import dump_database

FORGED_USERS = ("1099511627776", "alice", "", "@everyone", "１２", "12 ", "x" * 200)


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False) as driver:
        yield driver


@pytest.mark.parametrize("command", ["cribbage stats", "cribbage history"])
async def test_a_user_option_naming_nobody_is_refused_privately(club, command, caplog):
    alice, bob = club.users[0], club.users[1]
    before = dump_database(club.database)
    for value in FORGED_USERS:
        result = await club.emu.forge_slash(alice, club.channel, command, user=value)
        text = result.message.content if result.message else ""
        assert result.ephemeral, (value, text)
        assert "**user** must be a person" in text and "Nothing was done" in text, (value, text)
        assert "@everyone" not in text and len(text) < 200
    assert dump_database(club.database) == before
    assert not club.emu.take_bot_errors()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    # a person Discord resolved is still answered with their standings
    result = await club.emu.forge_slash(alice, club.channel, command, user=bob)
    assert result.ephemeral and result.message.embeds
    assert "bob" in str(result.message.embeds[0])


def test_only_an_id_with_its_resolved_data_names_a_person():
    def data(value, users=None):
        sub = {"name": "stats", "type": 1, "options": [{"name": "user", "type": 6, "value": value}]}
        return {"name": "cribbage", "options": [sub], "resolved": {"users": users or {}}}

    assert unresolved_person(data("42", {"42": {"id": "42"}})) is None
    assert unresolved_person(data("42")) == ("user", "42")
    assert unresolved_person(data("bob", {"42": {}})) == ("user", "bob")
    assert unresolved_person(data(42, {"42": {}})) == ("user", "42")  # a number, not a string
    assert unresolved_person({"name": "cribbage", "options": []}) is None
    assert unresolved_person(None) is None


async def test_the_desk_refuses_a_bare_id_it_is_handed():
    """Past the tree's check too, a bare id (discord.py's Object) is refused, not shown."""
    said = []

    class Response:
        def is_done(self):
            return False

        async def send_message(self, message, ephemeral=False):
            said.append((message, ephemeral))

    class Interaction:
        response = Response()

    desk = StandingsDesk.__new__(StandingsDesk)
    await desk.stats(Interaction(), discord.Object(id=7))
    await desk.history(Interaction(), discord.Object(id=7))
    assert said == [(said[0][0], True)] * 2 and "**user** must be a person" in said[0][0]
