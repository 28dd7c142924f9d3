"""Whole games through the real discord.py client and the Discord emulator, every click scripted.

The players act only on what they see; after every click the public messages are checked for
hidden cards against the engine's state.
"""

import asyncio
import re

import pytest

from tests.support.discord_players import Driver, Seat


def final_result(driver: Driver) -> str:
    last = driver.emu.last_public(driver.channel)
    assert last.embeds, "the game ends with a result message"
    assert any(b.label == "Rematch" for b in last.buttons)
    return last.text


async def play_game(driver: Driver, humans: int, **options) -> str:
    users = driver.users[:humans]
    await driver.start_game(users[0], users[1:], **options)
    seats = {u.id: Seat(u) for u in users}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(i)
    await driver.play_out(seats)
    assert driver.bot.manager.live.in_channel(driver.channel.id) is None
    return final_result(driver)


@pytest.mark.slow  # a whole game, click by click
async def test_two_players_play_a_whole_game_to_121(club):
    text = await play_game(club, 2)
    assert "121" in text and "wins" in text
    assert club.privacy.checked_versions > 50
    story = "\n".join(club.emu.all_public_text())
    for talk in ("plays", "count", "starter", "hand", "crib", "Deal 1"):
        assert talk in story
    # a stable number of public messages: one per deal record, pings, the result
    assert len(club.emu.public_messages(club.channel)) < 60


@pytest.mark.slow  # a whole game, click by click
async def test_a_whole_game_leaves_nothing_behind_in_discord_py(club):
    """Buttons are dynamic items: discord.py keeps no view per message sent or edited, and no
    timeout task per ephemeral hand (a busy bot piled up thousands, and long GC pauses)."""
    await play_game(club, 2)
    store = club.bot._connection._view_store
    assert not store._synced_message_views and not any(store._views.values())
    timeouts = [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
    assert not timeouts, f"{len(timeouts)} views still waiting for their timeout"
    # and the buttons still work: a new game is played through them the same way
    text = await play_game(club, 2)
    assert "wins" in text


@pytest.mark.slow  # a whole game, click by click
async def test_three_players_to_61(club):
    text = await play_game(club, 3, players=3, target=61)
    assert "61" in text


@pytest.mark.slow  # a whole game, click by click
async def test_four_players_each_for_themselves_to_61(club):
    text = await play_game(club, 4, players=4, target=61)
    assert "61" in text


@pytest.mark.slow  # a whole game, click by click
async def test_four_players_in_partnerships_to_61(club):
    text = await play_game(club, 4, players=4, partnerships=True, target=61)
    assert " & " in text  # a team is named for both partners


@pytest.mark.slow  # a whole game, click by click
async def test_a_game_against_a_computer(club):
    alice = club.users[0]
    await club.open_lobby(alice, computer="expert")
    lobby = club.emu.last_public(club.channel)
    assert "Computer (expert)" in lobby.text
    await club.click(alice, lobby, "Start")
    await club.play_out({alice.id: Seat(alice)})
    assert "wins" in final_result(club)


async def test_the_privacy_check_catches_a_leaked_card(club, monkeypatch):
    """The check above can fail: a table that shows one hidden card is caught."""
    from cogs.cribbage.table import Table
    from tests.support.discord_players import hidden_cards

    real = Table.table_payload

    async def leaky(self, view, **kwargs):
        payload = await real(self, view, **kwargs)
        hidden = sorted(hidden_cards(club.bot, view.game_id))
        if hidden:
            embed = payload["embed"]
            embed.description = f"{embed.description or ''}\n(psst: {hidden[0]})"
        return payload

    monkeypatch.setattr(Table, "table_payload", leaky)
    with pytest.raises(AssertionError, match="hidden cards"):
        await play_game(club, 2)


async def test_a_hand_picture_is_uploaded_again_only_when_it_changes(club):
    """Through the play a hand's picture is the kept hand and the starter: a card laid, or the
    turn coming, redraws the hand's text and buttons but uploads no new picture."""
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    while "Cutting for the deal" in club.table_message().text or not any(
        b.custom_id.startswith("crib:p:") for s in seats.values() if s.hand for b in s.hand.buttons
    ):
        for user_id in club.whose_move():
            await club.move(seats[user_id])
    for seat in seats.values():  # both hands open
        if seat.hand is None:
            seat.hand = (await club.click(seat.user, club.table_message(), "Your hand")).message
    first = seats[club.whose_move()[0]]
    other = next(s for s in seats.values() if s is not first)
    before_first = first.hand.attachments[0]
    before_other = other.hand.attachments[0]
    assert "starter" in before_first.description.lower()  # the kept hand and the starter
    def held(seat: Seat) -> int:  # the card buttons on the seat's hand
        return len([b for b in seat.hand.buttons if b.custom_id.startswith("crib:p:")])

    buttons, edits = held(first), len(other.hand.versions)
    assert await club.move(first) == "play"  # count at most 10: every card still playable
    assert len(other.hand.versions) > edits  # the other hand was redrawn: its turn now
    assert "Your turn" in other.hand.text
    assert other.hand.attachments[0].id == before_other.id  # same picture, not uploaded again
    assert held(first) == buttons - 1
    assert first.hand.attachments[0].id == before_first.id  # a card fewer held: same picture
    assert first.hand.attachments[0].description == before_first.description


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_cards_and_board_come_as_pictures_unless_images_are_off(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    while "Cutting for the deal" in club.table_message().text:  # nobody holds cards yet
        for user_id in club.whose_move():
            await club.move(seats[user_id])
    table = club.table_message()
    assert [a.filename for a in table.attachments] == ["board.png"]
    hand = (await club.click(alice, table, "Your hand")).message
    assert hand.ephemeral and len(hand.attachments) == 1
    assert re.fullmatch(r"hand-[0-9a-f]{12}\.png", hand.attachments[0].filename)
    assert hand.attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"

    await club.bot.manager.settings.update_server(
        club.guild.id, images=False
    )  # as /cribbage settings
    for seat in seats.values():
        seat.hand = None
    await club.play_out(seats)
    assert "wins" in final_result(club)
    after_off = [m for m in club.emu.public_messages(club.channel) if m.id > table.id]
    assert after_off and all(not m.attachments for m in after_off)
    assert all(not m.attachments for m in club.emu.ephemerals_for(bob))
    assert "/121" in club.emu.last_public(club.channel).text or "121" in final_result(club)
