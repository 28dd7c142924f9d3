"""Open hands are kept only while of use: the table remembers each player's
open hand (its ``discord.Interaction``) to redraw it when the game moves on; an entry goes when
its game ends (won, forfeited, abandoned) and when its token runs out (15 minutes), so a
process that plays a million games does not hold a million interactions."""

from __future__ import annotations

import datetime as dt

import pytest

from cogs.cribbage.open_hands import HAND_TOKEN_LIFE, TOKEN_LIFE
from tests.support.discord_players import Driver, Seat, open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as driver:
        yield driver


def table_of(driver: Driver):
    return driver.bot.get_cog("Cribbage").table


async def open_both_hands(driver: Driver, seats: dict[int, Seat]) -> None:
    for seat in seats.values():
        seat.hand = (await driver.click(seat.user, driver.table_message(), "Your hand")).message


async def until_cards_dealt(driver: Driver, seats: dict[int, Seat]) -> None:
    while "Cutting for the deal" in driver.table_message().text:
        for user_id in driver.whose_move():
            await driver.move(seats[user_id])


async def new_game(driver: Driver, **options) -> dict[int, Seat]:
    alice, bob = driver.users[:2]
    await driver.start_game(alice, [bob], **options)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(i)
    return seats


@pytest.mark.slow  # whole games, click by click
async def test_games_played_to_the_end_leave_no_open_hand_behind(club):
    """Two games to 61, every hand open to the last move: nothing of them stays in the table
    (the final mover's hand stayed before, one entry per game: about 6 KB each)."""
    table = table_of(club)
    for _ in range(2):
        seats = await new_game(club, target=61)
        await until_cards_dealt(club, seats)
        await open_both_hands(club, seats)
        assert len(table.hands) == 2
        await club.play_out(seats)
        assert club.bot.manager.live.in_channel(club.channel.id) is None
        assert len(table.hands) == 0, sorted(table.hands)
        assert not table.games  # nor the story of the game


async def test_a_forfeit_drops_every_open_hand_of_the_game(club):
    table = table_of(club)
    seats = await new_game(club)
    await until_cards_dealt(club, seats)
    await open_both_hands(club, seats)
    game_id = club.game_id()
    assert {key[0] for key in table.hands} == {game_id}
    alice = club.users[0]
    # alice's hand is the forfeiting actor's: the table skips redrawing it, and kept it
    await club.slash(alice, "cribbage forfeit")
    assert club.bot.manager.live.in_channel(club.channel.id) is None
    assert len(table.hands) == 0, sorted(table.hands)


async def test_an_abandoned_game_drops_its_open_hands(club):
    table = table_of(club)
    seats = await new_game(club)
    await until_cards_dealt(club, seats)
    await open_both_hands(club, seats)
    manager, cog = club.bot.manager, club.bot.get_cog("Cribbage")
    later = manager.tables.now() + manager.idle.abandon_after + 10
    manager.set_clock(lambda: later)
    await cog.sweep()  # warns
    manager.set_clock(lambda: later + manager.idle.abandon_after)
    await cog.sweep()  # abandons
    assert manager.live.in_channel(club.channel.id) is None
    assert len(table.hands) == 0


async def test_an_open_hand_goes_when_its_token_runs_out(club):
    """15 minutes after the interaction that opened it (Discord's token life), a hand can no
    longer be edited: the entry goes (the cog's sweep drops it if no click did before)."""
    table, cog = table_of(club), club.bot.get_cog("Cribbage")
    seats = await new_game(club)
    await until_cards_dealt(club, seats)
    await open_both_hands(club, seats)
    game_id = club.game_id()
    created = [table.hands.get(game_id, u).interaction.created_at for u in seats]

    table.hands.clock = lambda: max(created) + dt.timedelta(seconds=HAND_TOKEN_LIFE - 60)
    await cog.sweep()
    assert len(table.hands) == 2  # still editable: kept
    assert all(table.hands.fresh(game_id, u) for u in seats)

    table.hands.clock = lambda: min(created) + dt.timedelta(seconds=TOKEN_LIFE)
    await cog.sweep()
    assert len(table.hands) == 0
    assert club.bot.manager.live.in_channel(club.channel.id) is not None  # the game goes on
