"""Pings only when the game waits for you, counted by the emulator under
Discord's allowed-mentions rules (``emu.pings``, ``emu.ghost_pings``).

A real ping is a message of its own, never deleted; it goes only to a person whose move it is,
whose hand the bot cannot reach (no interaction of theirs in the last 14 minutes), whose
``notify`` setting is on, and at most once a deal. The table's "Your move: @alice" names
people without notifying them.
"""

from __future__ import annotations

import time

import pytest

from bot.engine import Phase
from tests.support.discord_players import Seat, follow_the_emulated_clock, open_club

AGE = 16 * 60  # seconds: past a token's 15 minutes


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as driver:
        yield driver


def live_game(club):
    return club.bot.manager.live[club.game_id()].game


def time_passes(club, seconds: float) -> None:
    """``seconds`` go by for Discord (tokens age; new ids carry the new time) and the bot."""
    follow_the_emulated_clock(club)
    club.emu.advance_clock(seconds)


async def play_until(club, seats, done, *, limit: int = 300) -> None:
    for _ in range(limit):
        if done():
            return
        for user_id in club.whose_move():
            await club.move(seats[user_id])
    raise AssertionError("never got there")


def pinged(club, user) -> int:
    return len(club.emu.pings_for(user))


async def test_a_game_with_hands_open_pings_nobody_and_leaves_no_ghost(club):
    """Two people play a whole game to 61 keeping their hands open: the table names them at
    every move, and nobody is notified once (the old table pinged both at every deal)."""
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], target=61)
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    await club.play_out(seats)
    assert club.bot.manager.live.in_channel(club.channel.id) is None
    assert any(
        f"<@{alice.id}>" in v.content
        for m in club.emu.public_messages(club.channel)
        for v in m.versions
    )  # named...
    assert club.emu.pings == []  # ...never notified
    assert club.emu.ghost_pings == []


async def test_a_person_whose_token_ran_out_is_pinged_once_a_deal(club, monkeypatch):
    alice, bob, carol = club.users
    await club.start_game(alice, [bob, carol], players=3, target=61)
    seats = {u.id: Seat(u) for u in club.users}
    await play_until(club, seats, lambda: live_game(club).phase is Phase.DISCARD)
    assert club.emu.pings == []

    time_passes(club, AGE)  # everyone stepped away for a quarter of an hour
    for seat in seats.values():
        seat.hand = None
    await club.click(bob, club.table_message(), "Your hand")  # bob is back (no move yet)
    await club.move(seats[alice.id])  # alice discards: the game waits for bob and carol
    assert [p.user for p in club.emu.pings] == [carol]  # carol cannot be reached: pinged
    ping = club.emu.pings[0].message
    assert f"<@{carol.id}>" in ping.content and "Your hand" in ping.content
    await club.move(seats[bob.id])  # bob discards: still waiting for carol, no second ping
    assert pinged(club, carol) == 1 and pinged(club, bob) == 0 and pinged(club, alice) == 0

    await club.move(seats[carol.id])  # carol opens her hand and discards: reachable again
    deal = live_game(club).deal_number
    await play_until(club, seats, lambda: live_game(club).deal_number > deal)
    assert pinged(club, carol) == 1  # a new deal, but her hand came to her: no ping

    time_passes(club, AGE)  # away again, in the next deal
    for seat in seats.values():
        seat.hand = None
    await club.click(alice, club.table_message(), "Your hand")
    await club.click(bob, club.table_message(), "Your hand")
    await club.move(seats[alice.id])
    await club.move(seats[bob.id])
    assert pinged(club, carol) == 2  # once in this deal too
    assert pinged(club, alice) == pinged(club, bob) == 0
    assert club.emu.ghost_pings == []  # and no ping was ever deleted


async def test_a_person_who_turned_pings_off_is_only_named(club, monkeypatch):
    alice, bob, carol = club.users
    await club.bot.manager.settings.update_player(carol.id, notify=False)
    await club.start_game(alice, [bob, carol], players=3, target=61)
    seats = {u.id: Seat(u) for u in club.users}
    await play_until(club, seats, lambda: live_game(club).phase is Phase.DISCARD)
    time_passes(club, AGE)
    for seat in seats.values():
        seat.hand = None
    await club.click(bob, club.table_message(), "Your hand")
    await club.move(seats[alice.id])
    assert club.emu.pings == []
    assert f"<@{carol.id}>" in club.table_message().content  # still named on the table


async def test_the_idle_warning_pings_once(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], target=61)
    manager, cog = club.bot.manager, club.bot.get_cog("Cribbage")
    later = manager.tables.now() + manager.idle.warn_after + 10
    manager.set_clock(lambda: later)
    await cog.sweep()
    await cog.sweep()  # the next sweep, still idle: no second warning
    warnings = [m for m in club.emu.public_messages(club.channel) if "idle" in m.content]
    assert len(warnings) == 1
    assert pinged(club, alice) == pinged(club, bob) == 1
    assert club.emu.ghost_pings == []


class FakeClock:
    """The manager's clock, moved by the test."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def test_a_turn_reminder_is_a_note_on_a_reachable_hand_else_one_lasting_ping(
    club, monkeypatch
):
    alice, bob = club.users[:2]
    manager, cog = club.bot.manager, club.bot.get_cog("Cribbage")
    clock = FakeClock()
    manager.set_clock(clock)
    await club.start_game(alice, [bob], target=61)
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    await play_until(club, seats, lambda: live_game(club).phase is Phase.DISCARD)
    time_passes(club, AGE)  # both away: neither can be reached...
    hand = (await club.click(alice, club.table_message(), "Your hand")).message  # ...but alice

    clock.offset = 150  # half of the 5-minute turn
    report = await cog.turns.tick()
    assert sorted(r.user_id for r in report.reminders) == sorted([alice.id, bob.id])
    assert "time runs out" in club.emu.message(hand.id).content  # a note on alice's hand
    assert pinged(club, alice) == 0
    assert pinged(club, bob) == 1  # bob has no hand to note it on: one ping
    reminder = club.emu.pings_for(bob)[0].message

    seats[bob.id].hand = None
    await club.move(seats[bob.id])  # bob's turn is over
    await cog.turns.tick()
    assert not club.emu.message(reminder.id).deleted  # it pinged: it stays
    assert club.emu.ghost_pings == []


async def test_a_rematch_asks_by_a_ping_unless_pings_are_off(club):
    alice, bob, carol = club.users
    await club.bot.manager.settings.update_player(carol.id, notify=False)
    await club.start_game(alice, [bob, carol], players=3, target=61)
    await club.slash(alice, "cribbage forfeit")
    result = club.emu.last_public(club.channel)
    await club.click(alice, result, "Rematch")
    asking = club.emu.last_public(club.channel)
    assert f"<@{bob.id}>" in asking.content and f"<@{carol.id}>" in asking.content
    assert [p.user for p in club.emu.pings] == [bob]  # carol turned pings off: only named
