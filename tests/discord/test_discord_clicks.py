"""Clicks that must be refused, a restart mid-pegging, idle lobbies and forfeits."""

import asyncio

import pytest

from bot.engine import Phase
from cogs.utils import replies
from tests.support.discord_players import Driver, Seat, make_bot, open_club


@pytest.fixture
async def club(tmp_path):
    # no privacy watch here: these tests click stale buttons and restart the bot on purpose
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as driver:
        yield driver


def snapshot(driver: Driver):
    session = driver.bot.manager.live[driver.game_id()]
    return session.step, session.game.to_dict()


async def play_until(driver: Driver, seats: dict, done) -> None:
    for _ in range(500):
        if done():
            return
        for user_id in driver.whose_move():
            await driver.move(seats[user_id])
    raise AssertionError("never reached the position")


async def two_player_game(driver: Driver) -> dict:
    alice, bob = driver.users[:2]
    await driver.start_game(alice, [bob])
    return {alice.id: Seat(alice), bob.id: Seat(bob)}


def game(driver: Driver):
    return driver.bot.manager.live[driver.game_id()].game


async def test_people_not_seated_are_refused_privately(club):
    await two_player_game(club)
    carol = club.users[2]
    before = snapshot(club)
    result = await club.click(carol, club.table_message(), "Your hand")
    assert result.ephemeral and "not playing" in result.message.content
    result = await club.slash(carol, "cribbage hand")
    assert result.ephemeral and "no cribbage game" in result.message.content
    result = await club.slash(carol, "cribbage forfeit")
    assert result.ephemeral
    assert snapshot(club) == before


async def test_out_of_turn_cards_are_disabled_and_stale_clicks_change_nothing(club):
    seats = await two_player_game(club)
    await play_until(club, seats, lambda: game(club).phase is Phase.PLAY and game(club).played)
    to_move = club.whose_move()[0]
    waiting = next(s for uid, s in seats.items() if uid != to_move)
    # the waiting player's hand shows its cards, all disabled: no out-of-turn click is possible
    result = await club.click(waiting.user, club.table_message(), "Your hand")
    cards = [
        b for row in result.message.components for b in row if b.custom_id.startswith("crib:p:")
    ]
    assert cards and all(b.disabled for b in cards)
    assert "Waiting for" in result.message.content
    # the mover plays one card; a client still showing the old hand clicks another card
    mover = seats[to_move]
    result = await club.click(mover.user, club.table_message(), "Your hand")
    hand = result.message
    enabled = [
        b
        for row in hand.components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    ]
    await club.click(mover.user, hand, custom_id=enabled[0].custom_id)
    before = snapshot(club)
    others = [b for b in enabled[1:]]
    # one card is down, so the mover holds four, each playable (the count is ten at most)
    assert others, "the mover could lay only one card"
    result = await club.click(mover.user, hand, custom_id=others[0].custom_id, allow_stale=True)
    assert "out of date" in result.message.content
    assert result.ephemeral and snapshot(club) == before


async def test_a_double_click_plays_once(club):
    seats = await two_player_game(club)
    await play_until(club, seats, lambda: game(club).phase is Phase.PLAY)
    mover = seats[club.whose_move()[0]]
    result = await club.click(mover.user, club.table_message(), "Your hand")
    hand = result.message
    card = next(
        b
        for row in hand.components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    )
    step, _ = snapshot(club)
    versions = len(hand.versions)
    await asyncio.gather(
        club.click(mover.user, hand, custom_id=card.custom_id, allow_stale=True),
        club.click(mover.user, hand, custom_id=card.custom_id, allow_stale=True),
    )
    assert snapshot(club)[0] == step + 1  # applied exactly once
    answers = [v.text for v in hand.versions[versions:]]
    assert len(answers) == 2  # both clicks were answered
    assert sum("⚠️" in text for text in answers) == 1  # one of them refused


@pytest.mark.slow
async def test_a_restart_mid_pegging_continues_exactly(club):
    seats = await two_player_game(club)
    await play_until(
        club, seats, lambda: game(club).phase is Phase.PLAY and len(game(club).played) >= 2
    )
    mover = seats[club.whose_move()[0]]
    result = await club.click(mover.user, club.table_message(), "Your hand")
    old_hand = result.message
    before = snapshot(club)
    emu, channel = club.emu, club.channel
    await club.bot.close()  # the first bot stops (its emulator session ends with it)
    # (running() exits at teardown; a new bot process takes over the same database)
    bot2 = make_bot(club.database)
    async with emu.running(bot2):
        club.bot = bot2
        assert snapshot(club) == before  # resumed exactly from the last acknowledged action
        card = next(
            b
            for row in old_hand.components
            for b in row
            if b.custom_id.startswith("crib:p:") and not b.disabled
        )
        await club.click(mover.user, old_hand, custom_id=card.custom_id)
        after = snapshot(club)
        assert after[0] == before[0] + 1
        assert len(after[1]["played"]) == len(before[1]["played"]) + 1
        for seat in seats.values():
            seat.hand = None
        await club.play_out(seats)
        assert "wins" in emu.last_public(channel).text
    del channel


async def test_a_lobby_nobody_starts_is_closed(club):
    alice, bob = club.users[:2]
    lobby = await club.open_lobby(alice, players=3)
    await club.click(bob, lobby, "Join")
    result = await club.click(bob, lobby, "Start")
    assert result.ephemeral and "host" in result.message.content.lower()
    result = await club.click(alice, lobby, "Start")
    assert result.ephemeral and "Waiting for 1 more player" in result.message.content
    manager = club.bot.manager
    later = manager.tables.now() + manager.idle.abandon_after + 10
    cog = club.bot.get_cog("Cribbage")
    manager.set_clock(lambda: later)
    await cog.sweep()  # warns
    manager.set_clock(lambda: later + manager.idle.abandon_after)
    await cog.sweep()  # closes
    assert manager.live.in_channel(club.channel.id) is None
    assert "Nobody started" in club.emu.message(lobby.id).text
    # a new table can open in the channel
    await club.open_lobby(alice)
    assert manager.live.in_channel(club.channel.id) is not None


async def test_a_player_can_forfeit(club):
    await two_player_game(club)
    alice = club.users[0]
    result = await club.slash(alice, "cribbage forfeit")
    assert result.ephemeral and "forfeited" in result.message.content
    last = club.emu.last_public(club.channel)
    assert "forfeited" in last.text
    assert club.bot.manager.live.in_channel(club.channel.id) is None


async def test_a_slow_move_is_deferred_within_three_seconds_then_answered(club, monkeypatch):
    """A move slower than ``ANSWER_WITHIN`` (e.g. an expert computer thinking through a long
    turn) is deferred by then, inside Discord's 3 seconds, and answered when it is made. Time
    runs fast here: the rule's 2 s become 0.05 s and the move takes 0.15 s, not 2.3 s."""
    assert club.emu.response_deadline > replies.ANSWER_WITHIN  # the rule defers in time
    seats = await two_player_game(club)
    await play_until(club, seats, lambda: game(club).phase is Phase.PLAY)
    mover = seats[club.whose_move()[0]]
    hand = (await club.click(mover.user, club.table_message(), "Your hand")).message
    card = next(
        b
        for row in hand.components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    )
    manager = club.bot.manager
    real_act = manager.play.act

    async def slow_act(*args, **kwargs):
        await asyncio.sleep(0.15)  # longer than ANSWER_WITHIN below
        return await real_act(*args, **kwargs)

    monkeypatch.setattr(manager.play, "act", slow_act)
    monkeypatch.setattr(replies, "ANSWER_WITHIN", 0.05)
    step = snapshot(club)[0]
    result = await club.click(mover.user, hand, custom_id=card.custom_id)
    assert result.response_name.startswith("DEFERRED")  # before the move was made
    assert result.latency < club.emu.response_deadline  # within the 3 seconds
    assert snapshot(club)[0] > step  # and the move was made
    assert card.label not in " ".join(b.label for b in hand.buttons if not b.disabled)


async def test_a_forged_button_id_is_answered_as_out_of_date(club):
    """A click carrying a custom id the bot never drew (here with a superscript digit, which
    ``str.isdigit`` accepts and ``int`` refuses) is answered like any stale click, no error."""
    await two_player_game(club)
    alice = club.users[0]
    table = club.table_message()
    forged = "crib:p:²:1:5H"
    data = {"custom_id": forged, "component_type": 2}
    fields = {**data, "message_id": str(table.id)}
    # the emulator's own click refuses an id the message does not show: send it as a client would
    result = await club.emu._interact(
        "component", 3, alice, table.channel, data, forged, fields, table, True
    )
    assert result.ephemeral and "out of date" in result.message.content
    assert not club.emu.take_bot_errors()


def test_button_templates_take_ascii_digits_only():
    """``\\d`` would also match other scripts' digits ("٣"): every template spells [0-9]."""
    from cogs.cribbage.cog import ITEMS
    from cogs.cribbage.hand_clicks import PlayButton

    for item in ITEMS:
        assert r"\d" not in item.__discord_ui_compiled_template__.pattern, item.__name__
    assert PlayButton.__discord_ui_compiled_template__.fullmatch("crib:p:12:3:5H")
    assert not PlayButton.__discord_ui_compiled_template__.fullmatch("crib:p:١٢:3:5H")


async def test_a_failing_click_or_command_is_logged_and_the_user_told(club, monkeypatch, caplog):
    """One guard for every button (and menu), one handler for every slash command: the error
    is logged with what was clicked or typed, and the user gets a private word."""
    await two_player_game(club)
    alice = club.users[0]
    cog = club.bot.get_cog("Cribbage")

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(cog.hands, "open_hand", broken)
    result = await club.click(alice, club.table_message(), "Your hand")
    assert result.ephemeral and "went wrong" in result.message.content
    failed = [r for r in caplog.records if r.levelname == "ERROR" and r.exc_info]
    assert [r.getMessage() for r in failed] == [f"Click on crib:h:{club.game_id()} failed"]
    assert str(failed[0].exc_info[1]) == "boom"

    caplog.clear()
    monkeypatch.setattr(cog.watcher, "open", broken)
    result = await club.slash(alice, "cribbage watch")
    assert result.ephemeral and "went wrong" in result.message.content
    failed = [r for r in caplog.records if r.levelname == "ERROR" and r.exc_info]
    assert [r.getMessage() for r in failed] == ["Command cribbage watch failed"]
    assert str(failed[0].exc_info[1]) == "boom"


async def test_a_failed_click_is_logged_without_the_card_in_its_id():
    """A play button's custom id ends in a card still in the clicker's hand: the log line of a
    failed click names the button's kind and game only."""
    from bot.engine.cards import card_from_code
    from cogs.cribbage.hand import play_button
    from cogs.cribbage.hand_clicks import PlayButton
    from cogs.utils.items import logged_id

    drawn = play_button(12, 3, card_from_code("5H"))
    match = PlayButton.__discord_ui_compiled_template__.fullmatch(drawn.custom_id)
    button = await PlayButton.from_custom_id(None, drawn, match)  # as discord.py rebuilds it
    assert button.custom_id == "crib:p:12:3:5H"
    assert logged_id(button) == "crib:p:12"
