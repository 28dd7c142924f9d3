"""The hand at the bottom, every deal: a new deal sends each person's
new hand as a fresh ephemeral follow-up of their newest interaction — below the new table, with
nothing public under it — and deletes their old hand; a person silent for 15 minutes (their
tokens dead) is not reachable and gets nothing; between deals the hand shows its own count and
the crib's (Next deal is on the table only: its click's token posts and edits the next
table), and the Next deal that starts the deal brings the clicker's new hand below the new table
without any confirmation message."""

from __future__ import annotations

import pytest

from bot.engine import Phase
from tests.support.discord_players import Driver, Seat, follow_the_emulated_clock, open_club

SILENCE = 16 * 60  # longer than an interaction token lives (15 minutes)


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob")) as driver:
        follow_the_emulated_clock(driver)
        yield driver


async def two_people(driver: Driver) -> dict[int, Seat]:
    alice, bob = driver.users
    await driver.start_game(alice, [bob], target=61)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(i)
    return seats


def view(driver: Driver):
    return driver.bot.manager.live.in_channel(driver.channel.id)


def at(driver: Driver, deal: int, phase: Phase):
    """A test of the position: deal ``deal`` in ``phase``."""
    return lambda: view(driver).deal_number == deal and view(driver).phase is phase


def post_of(driver: Driver):
    return driver.bot.get_cog("Cribbage").table.hands


def assert_at_the_bottom(driver: Driver, hand, table) -> None:
    """The hand was sent after the table and nothing public is below it."""
    assert hand is not None and hand.ephemeral and not hand.deleted
    assert hand.id > table.id, "the hand is above the table"
    assert driver.emu.messages_below(hand) == [], [
        m.text[:60] for m in driver.emu.messages_below(hand)
    ]


async def test_every_deal_sends_each_hand_below_the_new_table_and_deletes_the_old(club):
    seats = await two_people(club)
    await club.play_until(seats, at(club, 1, Phase.DISCARD))
    hands = {}
    for user_id, seat in seats.items():  # deal 1: each cut for the deal, so each is reachable
        hands[user_id] = club.hand_of(seat)
        assert_at_the_bottom(club, hands[user_id], club.table_message())
        assert any(m.custom_id.startswith("crib:a:") for m in hands[user_id].selects)
    pings = len(club.emu.pings)
    await club.play_until(seats, at(club, 2, Phase.DISCARD))
    table = club.table_message()
    for user_id, seat in seats.items():
        new = club.hand_of(seat)
        assert new is not hands[user_id] and hands[user_id].deleted  # one hand: the new one
        assert_at_the_bottom(club, new, table)
        assert "Lay away" in new.text
    assert len(club.emu.pings) == pings  # both hands reached their people: nobody pinged
    assert not club.emu.ghost_pings


async def test_a_person_silent_for_15_minutes_is_not_reachable(club):
    seats = await two_people(club)
    club.next_deal = "wait"  # nobody clicks Next deal: the pause runs out
    await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
    alice, bob = club.users
    game, post = club.game_id(), post_of(club)
    assert post.reachable(game, alice.id) and post.reachable(game, bob.id)
    old = {user_id: club.hand_of(seat) for user_id, seat in seats.items()}
    club.emu.advance_clock(SILENCE)  # a quarter of an hour and more: every token is dead
    assert not post.reachable(game, alice.id) and not post.reachable(game, bob.id)
    # alice comes back: Next deal on the table (the click is a new interaction: a token)
    clicked = await club.click(alice, club.table_message(), "Next deal", kind="next deal")
    assert clicked.response_name.startswith("DEFERRED_UPDATE") and not clicked.followups
    assert post.reachable(game, alice.id) and not post.reachable(game, bob.id)
    bob_before = list(club.emu.ephemerals_for(bob, club.channel))
    await club.due_deals()  # the pause runs out: the deal starts (the emulator would have
    assert view(club).deal_number == 2  # flagged any use of bob's dead tokens as a violation)
    table = club.table_message()
    assert_at_the_bottom(club, club.hand_of(seats[alice.id]), table)
    assert table in clicked.followups  # the new table: her click's follow-up (cogs/courier)
    assert club.emu.ephemerals_for(bob, club.channel) == bob_before  # nothing sent to bob
    # the old hands' tokens are dead: they stay, without buttons, each for its person's eyes
    assert not old[alice.id].deleted and not old[bob.id].deleted
    assert not post.reachable(game, bob.id)


async def test_between_deals_the_hand_shows_the_counts_and_next_deal(club):
    seats = await two_people(club)
    await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
    alice, bob = club.users
    current = view(club)
    dealer = current.dealer
    for user_id, seat in seats.items():
        hand = club.hand_of(seat)
        text = hand.text
        assert "Deal 1 is shown" in text and "Your hand:" in text and "worth **" in text
        whose = "Your crib" if current.seat_of(user_id) == dealer else "'s crib"
        assert whose in text and text.count("worth **") == 2
        assert hand.buttons == [] and "Next deal** on the table above" in text
        assert club.emu.messages_below(hand) == []
    # alice is ready (Next deal on the table): her hand is redrawn, no message answers it
    first, record = club.hand_of(seats[alice.id]), club.table_message()
    ephemerals = len(club.emu.ephemerals_for(alice, club.channel))
    result = await club.click(alice, record, "Next deal", kind="next deal")
    assert result.response_name.startswith("DEFERRED_UPDATE") and not result.followups
    assert "You're ready" in first.text and not first.buttons
    assert len(club.emu.ephemerals_for(alice, club.channel)) == ephemerals
    assert view(club).phase is Phase.NEXT_DEAL
    # bob's click starts the deal: no answer of its own; the new table is his click's
    # follow-up (its token edits it: cogs/cribbage/courier.py), then his new hand below it
    second = club.hand_of(seats[bob.id])
    result = await club.click(bob, record, "Next deal", kind="next deal")
    assert result.response_name.startswith("DEFERRED_UPDATE")
    table = club.table_message()
    assert result.followups == [table, club.hand_of(seats[bob.id])]
    assert view(club).deal_number == 2 and second.deleted and first.deleted
    for seat in seats.values():
        assert_at_the_bottom(club, club.hand_of(seat), table)


async def test_next_deal_on_the_table_is_answered_silently(club):
    seats = await two_people(club)
    await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
    alice, bob = club.users
    record = club.table_message()
    result = await club.click(alice, record, "Next deal", kind="next deal")
    assert result.response_name.startswith("DEFERRED_UPDATE") and not result.followups
    assert "You're ready" in club.hand_of(seats[alice.id]).text  # her open hand follows
    again = await club.click(alice, record, "Next deal", kind="next deal")
    assert again.ephemeral and "already ready" in again.message.text  # a refusal: privately
    await club.click(bob, record, "Next deal", kind="next deal")
    assert view(club).deal_number == 2
    table = club.table_message()
    for seat in seats.values():
        assert_at_the_bottom(club, club.hand_of(seat), table)


async def test_the_last_card_is_laid_for_you(club):
    """The hand shows what the manager laid: no click for a person's last card (two people
    hold four cards each: at most three plays a deal each)."""
    seats = await two_people(club)
    await club.play_until(seats, at(club, 1, Phase.PLAY))
    plays = club.clicks_by_kind["play"]
    await club.play_until(seats, at(club, 1, Phase.NEXT_DEAL))
    assert club.clicks_by_kind["play"] - plays <= 6
    for seat in seats.values():
        assert "Deal 1 is shown" in club.hand_of(seat).text  # the hands followed the play


async def test_a_note_on_the_hand_reaches_who_can_be_reached(club):
    """``hands.tell`` (the turn timer's reminder): a note on the open hand, redrawn in place;
    if the hand can no longer be edited but the person clicked lately, a new hand below; after
    15 silent minutes, nothing (the table pings instead)."""
    seats = await two_people(club)
    await club.play_until(seats, at(club, 1, Phase.DISCARD))
    alice, bob = club.users
    game, post = club.game_id(), post_of(club)
    hand = club.hand_of(seats[alice.id])
    assert await post.tell(game, alice.id, "⏰ Your move: time runs out soon")
    assert hand.text.startswith("⏰ Your move") and club.hand_of(seats[alice.id]) is hand
    post.drop(game, alice.id)  # as if the hand could not be edited: a new one comes below
    assert await post.tell(game, alice.id, "⏰ Still your move")
    new = club.hand_of(seats[alice.id])
    assert new is not hand and new.text.startswith("⏰ Still your move")
    assert club.emu.messages_below(new) == []
    club.emu.advance_clock(SILENCE)
    assert not await post.tell(game, bob.id, "⏰ Your move")
