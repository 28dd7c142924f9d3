"""Where a click or a command comes from.

* ``/cribbage`` is offered in servers only (the group's contexts: a subcommand's own
  ``guild_only`` is ignored by Discord), and a command that still arrives from a DM is refused
  privately, with nothing stored;
* a click on a game from another channel or server (a forged custom id) is refused privately
  ("That button belongs to a game in another channel."), and nothing changes;
* ids no game can have (beyond SQLite's integers, thousands of digits, other scripts' digits)
  are answered like any out-of-date button, without an error;
* a forged hand button "clicked" on the public table never draws a hand there.
"""

from __future__ import annotations

import contextlib

import pytest

from bot.sessions import MAX_GAME_ID, ShowHand
from discord_emulator import DiscordEmulator, EmulatorError
from tests.support.discord_players import Driver, Seat, make_bot
from tests.support.sessions import dump_database

ELSEWHERE = "belongs to a game in another channel"
STALE = "out of date"


@contextlib.asynccontextmanager
async def two_servers(tmp_path):
    """The club (#cribbage with alice and bob's game, #side) and another server (#other);
    alice, bob and carol are in both, eve only in the other."""
    # scripted people click at machine speed: Discord's limits counted, not enforced
    async with DiscordEmulator(rate_limits=False) as emu:
        club, elsewhere = emu.add_guild("Cribbage Club"), emu.add_guild("Elsewhere")
        home, side = emu.add_text_channel(club, "cribbage"), emu.add_text_channel(club, "side")
        other = emu.add_text_channel(elsewhere, "other")
        alice, bob, carol = (emu.add_user(name) for name in ("alice", "bob", "carol"))
        eve = emu.add_user("eve", guilds=[elsewhere])
        database = tmp_path / "cribbage.db"
        async with emu.running(make_bot(database)) as bot:
            await bot.manager.settings.update_server(
                club.id, threads=False
            )  # games stay in #cribbage
            driver = Driver(emu, home, bot)
            driver.users, driver.database = [alice, bob, carol, eve], database
            driver.places = {"home": home, "side": side, "other": other}
            yield driver


@pytest.fixture
async def world(tmp_path):
    async with two_servers(tmp_path) as driver:
        yield driver


def state(driver: Driver) -> tuple[list[str], list]:
    """Every stored row, and every public message as it stands (text and buttons)."""
    messages = [
        (m.id, len(m.versions))
        for channel in driver.places.values()
        for m in driver.emu.public_messages(channel)
    ]
    return dump_database(driver.database), messages


async def dealt_game(driver: Driver) -> dict[int, Seat]:
    alice, bob = driver.users[:2]
    await driver.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    while "Cutting for the deal" in driver.table_message().text:
        for user_id in driver.whose_move():
            await driver.move(seats[user_id])
    return seats


# ---------------------------------------------------------------------------------- DMs (5)


async def test_the_cribbage_commands_are_offered_in_servers_only(world):
    (command,) = [c for c in world.emu.registered_commands() if c["name"] == "cribbage"]
    assert command["contexts"] == [0]  # GUILD only: no BOT_DM (1), no PRIVATE_CHANNEL (2)
    alice = world.users[0]
    with pytest.raises(EmulatorError, match="cannot be used in DMs"):
        await world.emu.slash(alice, world.emu.dm_channel(alice), "cribbage start")


async def test_a_command_from_a_direct_message_is_refused_and_stores_nothing(world):
    """A client with an old command list (or a modified one) still sends it from a DM."""
    alice = world.users[0]
    before = dump_database(world.database)
    for command, options in (
        ("cribbage start", {}),
        ("cribbage start", {"computer": "easy", "players": 2}),
        ("cribbage settings", {"target": 61}),
        ("cribbage leaderboard", {}),
        ("cribbage help", {}),
    ):
        dm = world.emu.dm_channel(alice)
        result = await world.emu.forge_slash(alice, dm, command, **options)
        assert result.ephemeral and "played in a server channel" in result.message.content
    assert dump_database(world.database) == before
    assert world.bot.manager.live.games() == []


# --------------------------------------------------------------------- another channel (9)


async def test_clicks_on_a_game_from_another_channel_or_server_change_nothing(world):
    await dealt_game(world)
    alice, bob, _, eve = world.users
    home, side, other = world.places["home"], world.places["side"], world.places["other"]
    table = world.table_message()
    game_id = world.game_id()
    hand = (await world.click(bob, table, "Your hand")).message
    pick = next(b for b in hand.buttons if b.custom_id.startswith("crib:s:"))
    before = state(world)
    forged = [
        (bob, side, f"crib:h:{game_id}", table),  # the same server, another channel
        (bob, other, f"crib:h:{game_id}", table),  # another server
        (eve, other, f"crib:h:{game_id}", table),  # someone of the other server only
        (bob, other, pick.custom_id, hand),  # a hand's own button, sent from elsewhere
    ]
    for user, channel, custom_id, message in forged:
        result = await world.emu.forge_click(user, channel, custom_id, message=message)
        assert result.ephemeral, custom_id
        assert ELSEWHERE in (result.message or hand).text, (custom_id, channel.name)
    assert state(world)[0] == before[0]  # nothing stored
    assert world.table_message().id == table.id and len(table.versions) == before[1][-1][1]
    # at home, the same buttons work
    result = await world.emu.click(bob, table, "Your hand")
    assert result.ephemeral and "Your hand" in result.message.text
    assert home.id == world.channel.id


async def test_a_lobby_in_another_channel_cannot_be_joined_started_or_cancelled(world):
    alice, bob, carol, _ = world.users
    lobby = await world.open_lobby(alice)
    game_id = world.game_id()
    side = world.places["side"]
    before = state(world)
    for user, verb in ((bob, "join"), (carol, "join"), (alice, "start"), (alice, "cancel")):
        result = await world.emu.forge_click(user, side, f"crib:l:{game_id}:{verb}", message=lobby)
        assert result.ephemeral and ELSEWHERE in result.message.content, verb
    assert state(world) == before
    await world.click(bob, lobby, "Join")  # from its own channel, it works
    assert world.bot.manager.live.view(game_id).seat_of(bob.id) is not None


async def test_a_rematch_is_asked_where_the_game_was_played(world):
    await dealt_game(world)
    alice = world.users[0]
    game_id = world.game_id()
    await world.slash(alice, "cribbage forfeit")
    result_message = world.emu.last_public(world.channel)
    assert any(b.label == "Rematch" for b in result_message.buttons)
    before = state(world)
    result = await world.emu.forge_click(
        alice, world.places["side"], f"crib:r:{game_id}", message=result_message
    )
    assert result.ephemeral and ELSEWHERE in result.message.content
    assert state(world)[0] == before[0]
    assert world.bot.manager.live.games() == []


# ------------------------------------------------------------------------------- ids (8)


IMPOSSIBLE_IDS = (
    str(MAX_GAME_ID + 1),  # 19 digits, one more than SQLite stores
    str(2**64),  # 20 digits
    "9" * 4500,  # more digits than int() takes from a string
    "0",
    "١٢",  # Arabic-Indic digits: str.isdigit says yes, the templates say no
)


async def test_ids_no_game_can_have_are_answered_as_out_of_date(world):
    await dealt_game(world)
    alice = world.users[0]
    table = world.table_message()
    hand = (await world.click(alice, table, "Your hand")).message
    before = state(world)
    for game in IMPOSSIBLE_IDS:
        for custom_id, message in (
            (f"crib:h:{game}", table),
            (f"crib:l:{game}:join", table),
            (f"crib:r:{game}", table),
            (f"crib:m:{game}:1:call", table),
            (f"crib:rm:{game}:yes", table),
            (f"crib:p:{game}:1:5H", hand),
            (f"crib:s:{game}:1:0:1", hand),
            (f"crib:i:{game}:{game}", hand),
        ):
            result = await world.emu.forge_click(alice, world.channel, custom_id, message=message)
            text = (result.message or message).text
            assert STALE in text or "can't find that game" in text, (custom_id[:40], text)
    assert state(world)[0] == before[0]
    assert not world.emu.take_bot_errors()


async def test_a_forged_hand_button_on_the_public_table_draws_no_hand_there(world):
    """The stale-click listener redraws the hand a hand's button was clicked on: for a click
    "on" the public table it must not, or the channel would see the clicker's cards."""
    await dealt_game(world)
    alice = world.users[0]
    table = world.table_message()
    step = world.bot.manager.hands.private_view(ShowHand(world.game_id(), alice.id)).step
    versions = len(table.versions)
    for prefix in ("p", "s", "d", "c", "i", "n"):
        custom_id = {
            "p": f"crib:p:{world.game_id()}:{step}:5H",
            "s": f"crib:s:{world.game_id()}:{step}:0:1",
            "d": f"crib:d:{world.game_id()}:{step}:3",
            "c": f"crib:c:{world.game_id()}:{step}:m",
            "i": f"crib:i:{world.game_id()}:{step}",
            "n": f"crib:n:{world.game_id()}:{step}:l",
        }[prefix]
        result = await world.emu.forge_click(alice, world.channel, custom_id, message=table)
        assert result.ephemeral and STALE in result.message.content, custom_id
    assert len(table.versions) == versions  # the table was not edited
    assert any(b.label == "Your hand" for b in table.buttons)


async def test_an_account_id_beyond_sqlite_is_refused_not_a_traceback(world):
    """No Discord account has an id of 2**63 or more yet; a forged one is refused privately
    (it raised OverflowError from SQLite, "Something went wrong")."""
    alice = world.users[0]
    lobby = await world.open_lobby(alice)
    huge = world.emu.stranger("huge", user_id=2**64 - 1)
    before = state(world)
    joined = await world.emu.forge_click(
        huge, world.channel, f"crib:l:{world.game_id()}:join", message=lobby
    )
    assert joined.ephemeral and "can't take a seat" in joined.message.content
    for command, options, user in (
        ("cribbage start", {}, huge),
        ("cribbage stats", {}, huge),
        ("cribbage stats", {"user": huge}, alice),
        ("cribbage history", {"user": huge}, alice),
    ):
        result = await world.emu.forge_slash(user, world.channel, command, **options)
        text = result.message.content
        assert result.ephemeral and "Nothing was done" in text and "account" in text, text
    assert state(world) == before
    assert not world.emu.take_bot_errors()


def test_every_template_bounds_the_length_of_its_numbers():
    """Each number of a custom id is ASCII digits of a bounded length: a game id has at most 19
    (SQLite's integers; the door refuses those above 2**63 - 1), a step at most 9."""
    from cogs.cribbage.buttons import HandButton
    from cogs.cribbage.cog import ITEMS
    from cogs.cribbage.hand_clicks import PlayButton

    for item in ITEMS:
        pattern = item.__discord_ui_compiled_template__.pattern
        assert "+" not in pattern and "*" not in pattern and r"\d" not in pattern, pattern
    hand = HandButton.__discord_ui_compiled_template__
    assert hand.fullmatch(f"crib:h:{MAX_GAME_ID}") and hand.fullmatch(f"crib:h:{MAX_GAME_ID + 1}")
    assert not hand.fullmatch(f"crib:h:{10**19}")  # 20 digits
    play = PlayButton.__discord_ui_compiled_template__
    assert play.fullmatch("crib:p:12:123456789:5H") and not play.fullmatch(
        "crib:p:12:1234567890:5H"
    )
