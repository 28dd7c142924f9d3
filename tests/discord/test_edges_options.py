"""Options checked before anything is created.

Discord's client offers only an option's choices and range; a client with an older command list,
or a modified one, sends anything. discord.py checks none of it, so ``computer:"godlike"``
opened a lobby and then failed to draw it (an orphan holding the channel for 24 hours), and
values out of their choices raised ``KeyError``. Now every command checks every option first
and answers privately, naming the option; nothing is stored.
"""

from __future__ import annotations

import pytest

from tests.support.discord_players import open_club
from tests.support.sessions import dump_database

MANAGE_GUILD = 1 << 5


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False) as driver:
        managers = driver.emu.add_role(driver.guild, "managers", permissions=MANAGE_GUILD)
        driver.olga = driver.emu.add_user("olga", guilds=[driver.guild], roles=[managers])
        yield driver


BAD_OPTIONS = [
    ("cribbage start", {"computer": "godlike"}, "computer"),
    ("cribbage start", {"players": 7}, "players"),
    ("cribbage start", {"players": 1, "computer": "easy"}, "players"),
    ("cribbage start", {"players": 10**30}, "players"),
    ("cribbage start", {"target": 100}, "target"),
    ("cribbage start", {"match": 2}, "match"),
    ("cribbage start", {"match": 4, "computer": "expert"}, "match"),
    ("cribbage start", {"partnerships": "yes"}, "partnerships"),
    ("cribbage start", {"players": 3.5}, "players"),
    ("cribbage settings", {"target": 99}, "target"),
    ("cribbage settings", {"images": "yes"}, "images"),
    ("cribbage settings", {"turn_time": 5}, "turn_time"),
    ("cribbage leaderboard", {"scope": "moon"}, "scope"),
    ("cribbage leaderboard", {"sort": "age"}, "sort"),
    ("cribbage leaderboard", {"against": "aliens"}, "against"),
    ("cribbage stats", {"scope": "here"}, "scope"),
    ("cribbage history", {"scope": "everywhere"}, "scope"),
]


async def test_every_option_out_of_its_choices_or_range_is_refused_before_anything(club):
    alice, olga = club.users[0], club.olga
    before = dump_database(club.database)
    for command, options, name in BAD_OPTIONS:
        user = olga if command.endswith("settings") else alice  # past the permission check
        result = await club.emu.forge_slash(user, club.channel, command, **options)
        text = result.message.content if result.message else ""
        assert result.ephemeral, (command, options)
        assert f"**{name}**" in text and "Nothing was done" in text, (command, options, text)
        assert club.bot.manager.live.in_channel(club.channel.id) is None, (command, options)
    assert dump_database(club.database) == before
    assert not club.emu.take_bot_errors()
    # the right values still work
    await club.emu.slash(alice, club.channel, "cribbage start", computer="expert", match=3)
    lobby = club.bot.manager.live.in_channel(club.channel.id)
    assert lobby is not None and lobby.seats[1].level == "expert"


async def test_the_text_quoted_back_is_short_and_harmless(club):
    alice = club.users[0]
    sent = "@everyone `" + "x" * 500
    result = await club.emu.forge_slash(alice, club.channel, "cribbage leaderboard", sort=sent)
    text = result.message.content
    assert result.ephemeral and "**sort** must be one of `rating`" in text
    assert "@everyone" not in text and "x" * 41 not in text and len(text) < 300


async def test_rules_of_a_variant_and_of_a_server_are_explained_the_same_way(club):
    """Values within their choices that break a rule (partners need four players; a turn time
    that is not a number of minutes): the same private answer, nothing stored."""
    alice, olga = club.users[0], club.olga
    before = dump_database(club.database)
    result = await club.emu.slash(alice, club.channel, "cribbage start", partnerships=True)
    assert result.ephemeral and "Nothing was created" in result.message.content
    result = await club.emu.slash(olga, club.channel, "cribbage settings", turn_time="forever")
    assert result.ephemeral and "Nothing changed" in result.message.content
    assert dump_database(club.database) == before


async def test_an_unknown_subcommand_is_answered_without_a_traceback(club, caplog):
    alice = club.users[0]
    result = await club.emu.forge_slash(alice, club.channel, "cribbage dance")
    assert result.ephemeral and "out-of-date version of that command" in result.message.content
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
