"""No forced clicks on the hand: the discard is one interaction (a menu
of the hand's cards, exactly the number to lay away), the cut is one honest Cut button, a
double click's redrawn hand says its buttons are fresh, and every new hand id is one the
stale-click listener redraws; ``/cribbage notify`` and ``/cribbage autoplay`` (item 2) are each
person's own, answered privately."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.engine import Phase
from bot.sessions import ShowHand
from cogs.cribbage.buttons import HAND_CLICK
from tests.support.discord_players import Driver, Seat, open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob", "carol")) as driver:
        yield driver


async def two_people(driver: Driver) -> dict[int, Seat]:
    alice, bob = driver.users[:2]
    await driver.start_game(alice, [bob], target=61)
    return {u.id: Seat(u) for u in (alice, bob)}


def game(driver: Driver):
    return driver.bot.manager.live[driver.game_id()].game


def step(driver: Driver) -> int:
    return driver.bot.manager.live.view(driver.game_id()).step


async def open_hand(driver: Driver, user):
    """The user's hand as they see it: the newest one, else opened from the table."""
    hand = driver.hand_of(Seat(user))
    if hand is None or not driver._live(hand):
        hand = (await driver.click(user, driver.table_message(), "Your hand")).message
    return hand


async def test_the_discard_is_one_interaction(club):
    seats = await two_people(club)
    alice = club.users[0]
    await club.play_until(seats, lambda: game(club).phase is Phase.DISCARD)
    hand = await open_hand(club, alice)
    [menu] = [m for m in hand.selects if m.custom_id.startswith("crib:a:")]
    assert menu.min_values == menu.max_values == 2 and len(menu.options) == 6
    assert len(hand.components) <= 5  # Discord's limit: the menu fills a row of its own
    picks = [b for b in hand.buttons if b.custom_id.startswith("crib:s:")]
    assert [b.label for b in picks] == menu.labels  # the pick buttons stay, same cards
    before = step(club)
    # forged: one card, a card not held, the same card twice: refused, nothing laid
    held = menu.values
    stranger = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S") if c not in held)
    for values in ([held[0]], [held[0], stranger], [held[0], held[0]]):
        result = await club.emu.forge_select(
            alice, club.channel, menu.custom_id, values, message=hand
        )
        assert result.ephemeral and "Pick 2 cards" in result.message.text
        assert step(club) == before
    result = await club.select(alice, hand, held[:2], custom_id=menu.custom_id, kind="discard")
    assert result.response_type == 7 and result.message is hand  # the hand, redrawn
    assert step(club) == before + 1 and club.clicks_by_kind["discard"] == 1
    private = club.bot.manager.hands.private_view(ShowHand(club.game_id(), alice.id))
    assert not private.must_act and len(private.kept) == 4
    assert sorted(c.code for c in private.kept) == sorted(held[2:])
    assert not hand.selects  # laid away: the menu is gone


async def test_the_cut_is_one_button(club):
    seats = await two_people(club)
    await club.play_until(seats, lambda: game(club).phase is Phase.CUT_FOR_STARTER)
    [cutter] = club.bot.manager.live.view(club.game_id()).to_act_users
    user = next(u for u in club.users if u.id == cutter)
    hand = await open_hand(club, user)
    [cut] = [b for b in hand.buttons if b.custom_id.startswith("crib:c:")]
    assert cut.label == "Cut" and len(hand.buttons) == 1
    assert cut.custom_id == f"crib:c:{club.game_id()}:{step(club)}"
    result = await club.click(user, hand, "Cut", kind="cut")
    assert result.response_type == 7
    assert game(club).phase is not Phase.CUT_FOR_STARTER and game(club).starter is not None


async def test_an_old_three_way_cut_button_still_cuts(club):
    """Messages drawn before the update carry "top / middle / bottom" ids: they still cut."""
    seats = await two_people(club)
    await club.play_until(seats, lambda: game(club).phase is Phase.CUT_FOR_STARTER)
    [cutter] = club.bot.manager.live.view(club.game_id()).to_act_users
    user = next(u for u in club.users if u.id == cutter)
    hand = await open_hand(club, user)
    old_id = f"crib:c:{club.game_id()}:{step(club)}:m"
    old = discord.ui.View(timeout=None)  # the hand as the old version drew it
    old.add_item(discord.ui.Button(label="Cut in the middle", custom_id=old_id))
    old.stop()
    await club.bot.get_cog("Cribbage").table.hands.get(club.game_id(), user.id).edit(view=old)
    await club.click(user, hand, "Cut in the middle", kind="cut")
    assert game(club).starter is not None


async def test_a_double_click_gets_fresh_buttons_and_is_told_so(club):
    seats = await two_people(club)
    await club.play_until(
        seats, lambda: game(club).phase is Phase.PLAY and len(game(club).hand(game(club).turn)) > 2
    )
    mover = next(u for u in club.users if u.id in club.whose_move())
    hand = await open_hand(club, mover)
    card = next(b for b in hand.buttons if b.custom_id.startswith("crib:p:") and not b.disabled)
    before, versions = step(club), len(hand.versions)
    await asyncio.gather(
        club.click(mover, hand, custom_id=card.custom_id, allow_stale=True),
        club.click(mover, hand, custom_id=card.custom_id, allow_stale=True),
    )
    assert step(club) >= before + 1
    answers = [v.text for v in hand.versions[versions:]]
    refused = [text for text in answers if "⚠️" in text]
    assert len(refused) == 1, answers
    assert "out of date" in refused[0] and "fresh" in refused[0]
    assert "Open your hand again" not in refused[0]  # the buttons below ARE fresh


def test_every_hand_item_is_one_the_stale_click_listener_redraws():
    game_id, step_ = 12, 34
    ids = [
        f"crib:p:{game_id}:{step_}:10H",
        f"crib:s:{game_id}:{step_}:3:1",
        f"crib:d:{game_id}:{step_}:3",
        f"crib:a:{game_id}:{step_}",  # the discard menu
        f"crib:c:{game_id}:{step_}",  # the one Cut
        f"crib:c:{game_id}:{step_}:m",  # an old three-way cut
        f"crib:i:{game_id}:{step_}",
        f"crib:n:{game_id}:{step_}:l",
        f"crib:x:{game_id}",  # Next deal
    ]
    for custom_id in ids:
        found = HAND_CLICK.match(custom_id)
        assert found and int(found["game"]) == game_id, custom_id
    for other in (f"crib:h:{game_id}", f"crib:l:{game_id}:join", f"crib:r:{game_id}"):
        assert not HAND_CLICK.match(other)
    assert not HAND_CLICK.match(f"crib:x:{game_id}9x")


async def test_a_stale_select_on_the_hand_is_redrawn_fresh(club):
    """The discard menu of a hand redrawn since (another's discard moved the game on) is
    answered with the hand as it is now, its note saying the buttons are fresh."""
    seats = await two_people(club)
    alice, bob = club.users[:2]
    await club.play_until(seats, lambda: game(club).phase is Phase.DISCARD)
    hand = await open_hand(club, alice)
    [menu] = [m for m in hand.selects if m.custom_id.startswith("crib:a:")]
    other = await open_hand(club, bob)
    [theirs] = [m for m in other.selects if m.custom_id.startswith("crib:a:")]
    await club.select(bob, other, theirs.values[:2], custom_id=theirs.custom_id)
    assert menu.custom_id not in [m.custom_id for m in hand.selects]  # alice's was redrawn
    before = step(club)
    result = await club.emu.forge_select(
        alice, club.channel, menu.custom_id, menu.values[:2], message=hand
    )
    assert result.response_type == 7 and "fresh" in result.message.text
    assert step(club) == before  # nothing laid with the stale menu
    assert any(m.custom_id.startswith("crib:a:") for m in hand.selects)  # a fresh one


async def test_notify_and_autoplay_are_each_persons_own(club):
    alice, bob = club.users[:2]
    manager = club.bot.manager
    shown = await club.slash(alice, "cribbage notify")
    assert shown.ephemeral and "Pings are **on**" in shown.message.text
    result = await club.slash(alice, "cribbage notify", pings="off")
    assert result.ephemeral and "Saved" in result.message.text and "**off**" in result.message.text
    assert not (await manager.settings.player(alice.id)).notify
    assert (await manager.settings.player(bob.id)).notify  # bob's are his own
    result = await club.slash(alice, "cribbage autoplay", cards="off")
    assert result.ephemeral and "Autoplay is **off**" in result.message.text
    settings = await manager.settings.player(alice.id)
    assert not settings.autoplay and not settings.notify
    await club.slash(alice, "cribbage notify", pings="on")
    assert (await manager.settings.player(alice.id)).notify
    assert not club.emu.public_messages(club.channel)  # all of it privately
    # a value the command does not offer (a forged or out-of-date client): refused, unchanged
    forged = await club.emu.forge_slash(alice, club.channel, "cribbage autoplay", cards="maybe")
    assert forged.ephemeral and "Nothing was done" in forged.message.text
    assert not (await manager.settings.player(alice.id)).autoplay
