"""A match flows like its first game: the hands of its next games, and of a rematch, come by
themselves below each new table, with no "Your hand" click and no "your move" ping for a person
the bot can still reach (an interaction of theirs in the game's place in the last 14 minutes).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.discord_players import Driver, Seat, follow_the_emulated_clock, open_club

YOUR_MOVE = "your move in the cribbage game"


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False, threads=True) as driver:
        yield driver


class Tally:
    """Per game and person: the "Your hand" clicks; per person: the "your move" pings."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.opens: Counter[tuple[int, int]] = Counter()  # (game, user) -> "Your hand" clicks
        self.games: list[int] = []
        clicked = driver._clicked

        async def counting(result, user, kind: str):
            if kind == "open":
                self.opens[(self.games[-1], user.id)] += 1
            return await clicked(result, user, kind)

        driver._clicked = counting

    def game(self) -> int | None:
        view = self.driver.bot.manager.live.in_channel(self.driver.channel.id)
        if view is None or view.status.value != "active":
            return None
        if not self.games or self.games[-1] != view.game_id:
            self.games.append(view.game_id)
        return view.game_id

    def pings(self, user) -> int:
        return sum(YOUR_MOVE in p.message.content for p in self.driver.emu.pings_for(user))

    def opens_after_first(self, user) -> int:
        first = self.games[0]
        return sum(n for (game, u), n in self.opens.items() if u == user.id and game != first)


async def play_match(club: Driver, tally: Tally, seats: dict[int, Seat]) -> int:
    """Every game of the match in the thread, until none is left; how many games were played."""
    played = len(tally.games)
    for _ in range(5000):
        if tally.game() is None:
            return len(tally.games) - played
        await club.round(seats)
    raise AssertionError("the match did not end")


@pytest.mark.slow  # two best-of-3 matches, click by click
async def test_a_match_and_its_rematch_send_each_hand_without_a_click_or_a_ping(club):
    alice, bob = club.users
    seats = {u.id: Seat(u) for u in (alice, bob)}
    tally = Tally(club)
    await club.start_game(alice, [bob], target=61, match=3)
    assert club.channel.id != club.home.id  # the match plays in its thread
    assert await play_match(club, tally, seats) >= 1
    first_match = len(tally.games)
    result = club.emu.last_public(club.channel)
    asked = await club.click(alice, result, "Rematch")
    await club.click(bob, asked.message, "Accept")
    assert await play_match(club, tally, seats) >= 1
    first, rematch = tally.games[:first_match], tally.games[first_match:]
    for user in (alice, bob):  # (the figures: -s shows them)
        games = [[tally.opens[(g, user.id)] for g in gs] for gs in (first, rematch)]
        print(user.name, "pings", tally.pings(user), "Your hand clicks per game", games)
    for user in (alice, bob):
        # the first game's hand needs the table (the lobby was clicked in the parent channel)
        assert tally.pings(user) <= 1
        assert tally.opens_after_first(user) == 0
    assert len(tally.games) > first_match
    assert club.emu.ghost_pings == []


async def test_a_rematch_sends_each_hand_through_the_rematch_clicks(club):
    """Long after the last game (every token run out), the Rematch and Accept clicks are what
    reach the players: the rematch's first hands come below its table, nobody is told to
    click "Your hand"."""
    alice, bob = club.users
    await club.start_game(alice, [bob], target=61)
    await club.slash(bob, "cribbage forfeit")
    follow_the_emulated_clock(club)
    club.emu.advance_clock(16 * 60)  # the game's interactions are too old to send anything
    tally = Tally(club)
    before = {user.id: tally.pings(user) for user in (alice, bob)}
    asked = await club.click(alice, club.emu.last_public(club.channel), "Rematch")
    await club.click(bob, asked.message, "Accept")
    game = tally.game()
    assert game is not None and club.table_message() is not None
    for user in (alice, bob):
        hand = club.hand_of(Seat(user))  # a hand of the rematch, in its thread
        assert hand is not None and club._live(hand)
        assert tally.pings(user) == before[user.id]  # no "your move" ping: the hand is there
    assert tally.opens == Counter()
