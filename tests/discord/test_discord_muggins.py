"""Muggins games (docs/players/muggins.md) through discord.py and the Discord emulator, every
click scripted.

Players count their own cards from their hand message and pick a claim; an opponent takes a
miss with the table's **Muggins!** button. The public messages are checked for hidden cards
after every click and every pick.
"""

import re
import time

import pytest

from tests.support.discord_players import Driver, Seat, exact_claim


def story(driver: Driver) -> str:
    return "\n".join(driver.emu.all_public_text())


@pytest.mark.slow  # a whole game, click by click
async def test_a_whole_muggins_game_against_a_computer(club):
    alice = club.users[0]
    await club.open_lobby(alice, computer="standard", muggins=True, target=61)
    lobby = club.emu.last_public(club.channel)
    await club.click(alice, lobby, "Start")
    claims: list[tuple[int, bool]] = []

    def counting(cards, starter, crib):
        points = exact_claim(cards, starter, crib)
        claims.append((points, crib))
        return points

    await club.play_out({alice.id: Seat(alice, claim=counting)})
    last = club.emu.last_public(club.channel)
    assert "61" in last.text and "wins" in last.text
    assert claims and any(crib for _, crib in claims)  # hands and cribs were counted
    text = story(club)
    assert "claims **" in text and "counted right" in text
    assert " missed" not in text.replace("counted right", "")  # an exact counter misses nothing
    # the privacy watch read every deal: at least its table, the discards, the cut, a card laid
    # and its record, whatever the length of the game (its deals are the manager's random ones)
    records = [
        m
        for m in club.emu.public_messages(club.channel)
        if m.embeds and re.match(r"Deal [0-9]+ — ", m.embeds[0].get("title", ""))
    ]
    assert len(records) >= 2 and club.privacy.checked_versions >= 4 * len(records)
    assert not club.emu.take_bot_errors()


async def _to_first_claim(driver: Driver, seats: dict[int, Seat], claimed: list) -> None:
    """Play until a claim has been made (and its window is open on the table)."""
    for _ in range(400):
        if claimed:
            return
        for user_id in driver.whose_move():
            if await driver.move(seats[user_id]) == "wait":
                seats[user_id].hand = None
                await driver.move(seats[user_id])
            if claimed:
                return
    raise AssertionError("nobody claimed")


async def test_an_under_claim_is_taken_with_muggins(club):
    alice, bob, carol = club.users[:3]
    await club.start_game(alice, [bob], muggins=True, target=61)
    claimed: list[tuple[int, int, int]] = []  # (user, claim, true count)

    def under(user_id):
        def claim(cards, starter, crib):
            true = exact_claim(cards, starter, crib)
            points = max(0, true - 2)  # a careless count: two short (or nothing)
            claimed.append((user_id, points, true))
            return points

        return claim

    seats = {u.id: Seat(u, claim=under(u.id)) for u in (alice, bob)}
    for _ in range(12):  # until someone's careless count leaves points to take
        claimed.clear()
        await _to_first_claim(club, seats, claimed)
        if claimed[0][2] >= 2:
            break
        table = club.table_message()
        opponent = alice if claimed[0][0] == bob.id else bob
        if any(b.label == "Let it go" for b in table.buttons):
            await club.click(opponent, table, "Let it go")
    claimer_id, points, true = claimed[0]
    assert true >= 2, "no hand worth two points in twelve counts"
    claimer = alice if claimer_id == alice.id else bob
    opponent = bob if claimer is alice else alice
    table = club.table_message()
    assert {"Muggins!", "Let it go"} <= {b.label for b in table.buttons}
    assert "Muggins?" in table.text and "The show, counted by the players" in table.text

    # (c) the claimer may not call muggins on their own claim; nor may someone not playing
    own = await club.click(claimer, table, "Muggins!")
    assert own.ephemeral and "Only an opponent" in own.message.text
    stranger = await club.click(carol, table, "Muggins!")
    assert stranger.ephemeral and "not playing" in stranger.message.text

    before = club.bot.manager.live.in_channel(club.channel.id).scores
    side = club.bot.manager.live.in_channel(club.channel.id).seat_of(opponent.id)
    called = await club.click(opponent, club.table_message(), "Muggins!")
    assert called.response_type == 6 and not called.messages  # silent: the table tells it
    view = club.bot.manager.live.in_channel(club.channel.id)
    assert view is None or view.scores[side] == before[side] + 2
    text = story(club)
    assert f"**{opponent.name}** calls **Muggins!**" in text
    assert f"was worth {true}" in text and "— 2 missed" in text
    assert f"{opponent.name} takes 2 points (now " in text
    assert not club.emu.take_bot_errors()


async def test_an_unanswered_claim_stands_after_the_window(club):
    alice = club.users[0]
    await club.open_lobby(alice, computer="standard", muggins=True, target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    seat = Seat(alice)
    for _ in range(200):  # play until a claim waits on alice's answer
        if any(b.label == "Muggins!" for b in club.table_message().buttons):
            break
        if await club.move(seat) == "wait":
            seat.hand = None
            await club.move(seat)
    else:
        raise AssertionError("no claim opened a window")
    open_ids = {
        b.custom_id for b in club.table_message().buttons if b.custom_id.startswith("crib:m:")
    }
    settled = story(club).count("was worth")  # a true count is public once its window closes
    cog = club.bot.get_cog("Cribbage")
    assert await cog.muggins.tick(time.time()) == 0  # not yet
    assert await cog.muggins.tick(time.time() + 31) == 1
    # that window is closed (the computer's crib claim may open the next one)
    assert not open_ids & {b.custom_id for b in club.table_message().buttons}
    assert story(club).count("was worth") > settled
    assert not club.emu.take_bot_errors()


def test_the_claim_picker_offers_every_claim_within_discords_limits():
    from cogs.cribbage.muggins import claim_pickers

    pickers = claim_pickers(7, 42, crib=True)
    values = [int(o.value) for p in pickers for o in p.item.options]
    assert values == list(range(30))  # 19, 25, 26 and 27 too: no claim gives the count away
    assert all(len(p.item.options) <= 25 for p in pickers)
    assert [p.item.custom_id for p in pickers] == ["crib:n:7:42:l", "crib:n:7:42:h"]
    assert all(len(p.item.custom_id) <= 100 and "crib" in p.item.placeholder for p in pickers)
