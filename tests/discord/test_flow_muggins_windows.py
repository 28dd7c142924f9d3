"""A whole muggins game through discord.py and the emulator: windows open only when points can
be missed, and the crib's claim is never held behind the hand's window.

Two people play a game to 61. In every show the pone over-claims (the table then shows the true
count at once and no **Muggins!**: nothing is left uncounted), the dealer claims his hand one
short when it is worth anything, then claims his crib at once, while the window on his hand is
still open, and the pone calls **Muggins!** after the crib's claim, taking the hand's miss. A
test-only peek at the engine counts the windows each deal opens: two (the dealer's hand and the
crib), never one on the over-claim.
"""

from __future__ import annotations

import time

import pytest

from bot.engine import Phase
from bot.engine.muggins import breakdown_of, position_of
from cogs.cribbage.muggins import owing
from tests.discord.test_flow_muggins_show import claim, open_hand, story, view_of
from tests.support.discord_players import Driver, Seat


def buttons(club: Driver) -> set[str]:
    return {b.label for b in club.table_message().buttons}


def ended(club: Driver) -> bool:
    """The game is over (its table no longer live, or won)."""
    view = view_of(club)
    return view is None or view.winner is not None


def in_show(club: Driver) -> bool:
    return not ended(club) and view_of(club).phase is Phase.SHOW


async def to_show(club: Driver, seats: dict[int, Seat]) -> None:
    """Play (discards, cut, cards) until the show or the end of the game, starting the next
    deal when it is held."""
    for _ in range(300):
        if ended(club) or view_of(club).phase is Phase.SHOW:
            return
        view = view_of(club)
        if view.phase is Phase.NEXT_DEAL:  # the pause between deals: end it now
            cog = club.bot.get_cog("Cribbage")
            for outcome in await club.bot.manager.deals.start_due(time.time() + 3600):
                await cog.table.publish(outcome)
            continue
        user_id = view.to_act_users[0]
        if await club.move(seats[user_id]) == "wait":
            seats[user_id].hand = None
            await club.move(seats[user_id])
    raise AssertionError("no show")


def game_of(club: Driver):
    return club.bot.manager.live[view_of(club).game_id].game


async def one_show(club: Driver, users: dict, opened: set) -> None:
    """The show of one deal, as the module docstring tells it; ``opened`` gathers the windows
    seen open (deal, place in counting order)."""
    view = view_of(club)
    game = game_of(club)
    pone, dealer = users[view.seat_user(view.pone)], users[view.seat_user(view.dealer)]

    def look() -> None:
        if ended(club):
            return
        game = game_of(club)
        for w in game.muggins_windows:
            opened.add((game.deal_number, position_of(game, w.seat, w.crib)))

    mine = breakdown_of(game, view.pone, False).total
    before = view_of(club).scores
    *_, true = await claim(club, pone, over=1 if mine < 29 else 0)
    look()
    if not in_show(club):
        return  # the claim won the game
    if mine < 29:  # over by one: corrected at once, in public; nothing to muggins
        assert "Muggins!" not in buttons(club)
        assert f"it was worth {true} — over by 1" in story(club)
        assert view_of(club).scores[view.pone] == before[view.pone] + max(0, true - 1)
        assert view_of(club).scores[view.dealer] == before[view.dealer]  # nobody takes it
    # the dealer's hand, one short when there is a point to miss
    hand = breakdown_of(game_of(club), view.dealer, False).total
    await claim(club, dealer, over=-1 if hand else 0)
    look()
    if not in_show(club):
        return
    assert "Muggins!" in buttons(club)  # the window on the dealer's hand
    assert owing(view_of(club)) == (dealer.id,)  # the crib is his to claim now, not later
    text = (await open_hand(club, dealer)).content
    assert "Count your crib" in text
    await claim(club, dealer)  # while the hand's window is open
    look()
    if not in_show(club):
        return
    windows = game_of(club).muggins_windows
    assert [w.crib for w in windows if w.seat == view.dealer] == [False, True]
    assert owing(view_of(club)) == ()  # no answer owed: nobody is named
    scores = view_of(club).scores
    called = await club.click(pone, club.table_message(), "Muggins!")
    assert called.response_type == 6  # a deferred update: the table shows it
    if hand and not ended(club):
        assert view_of(club).scores[view.pone] == scores[view.pone] + 1
    cog = club.bot.get_cog("Cribbage")
    while in_show(club):  # the pone's own window, if any, stands by itself
        assert await cog.muggins.tick(time.time() + 3600) == 1


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_whole_muggins_game_opens_windows_only_where_points_can_be_missed(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], muggins=True, target=61)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    users = {alice.id: alice, bob.id: bob}
    opened: set[tuple[int, int]] = set()
    shows = 0
    for _deal in range(20):
        if ended(club):
            break
        await to_show(club, seats)
        if not in_show(club):
            break
        shows += 1
        await one_show(club, users, opened)
        for seat in seats.values():
            seat.hand = None  # the next deal's hand is a new message
    assert ended(club)
    assert shows >= 3
    per_deal: dict[int, set[int]] = {}
    for deal, place in opened:
        per_deal.setdefault(deal, set()).add(place)
    assert all(0 not in places for places in per_deal.values())  # never on the over-claim
    full = [places for places in per_deal.values() if places == {1, 2}]
    assert len(full) >= shows - 1  # the last show may end the game before the crib
    assert not club.emu.take_bot_errors()
