"""Rematches and matches through the real discord.py client and the Discord emulator."""

from __future__ import annotations

import pytest

from tests.support.discord_players import Driver, Seat


async def play_through(driver: Driver, seats: dict[int, Seat], max_moves: int = 3000) -> list:
    """Everyone moves when the table says so until no game is left in the channel (a match
    goes on game after game); returns the ids of the games played."""
    played: list[int] = []
    for _ in range(max_moves):
        view = driver.bot.manager.live.in_channel(driver.channel.id)
        if view is None:
            return played
        if not played or played[-1] != view.game_id:
            played.append(view.game_id)
            for seat in seats.values():
                seat.hand = None  # the old hand's buttons belong to the game that ended
        for user_id in driver.whose_move():
            if await driver.move(seats[user_id]) == "wait":
                await driver.move(seats[user_id])
    raise AssertionError("the games did not end")


def results(driver: Driver) -> list:
    return [m for m in driver.emu.public_messages(driver.channel) if "Rematch" in m.text]


async def losing_seat(driver: Driver, game_id: int) -> int:
    rows = await driver.bot.store.games.results(game_id)
    return next(r.seat for r in rows if not r.won)


async def test_rematch_after_a_game_with_a_computer_starts_with_the_loser_dealing(club):
    alice = club.users[0]
    await club.open_lobby(alice, computer="easy", target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    (game_id,) = await play_through(club, {alice.id: Seat(alice)})
    result = club.emu.last_public(club.channel)
    assert "wins" in result.text and result.find_button("Rematch")
    loser = await losing_seat(club, game_id)
    answer = await club.click(alice, result, "Rematch")
    assert not answer.ephemeral and "rematch is on" in answer.message.text
    view = club.bot.manager.live.in_channel(club.channel.id)
    assert view.game_id != game_id and view.dealer == loser and view.deal_number == 1
    assert [(s.user_id, s.level) for s in view.seats] == [(alice.id, None), (None, "easy")]
    table = club.table_message()
    assert "Computer (easy)" in table.text and "deal 1" in table.text
    # a click on the old result's button now: the channel has a game
    again = await club.click(alice, result, "Rematch")
    assert again.ephemeral and "already a cribbage game" in again.message.content


async def test_every_player_accepts_and_only_players_may_click(club):
    alice, bob, carol = club.users[:3]
    await club.start_game(alice, [bob], target=61)
    first = club.game_id()
    await club.slash(bob, "cribbage forfeit")
    result = club.emu.last_public(club.channel)
    refused = await club.click(carol, result, "Rematch")
    assert refused.ephemeral and "Only the players" in refused.message.content
    asked = await club.click(alice, result, "Rematch")
    rematch = asked.message
    assert not asked.ephemeral and f"<@{bob.id}>" in rematch.content
    assert "accepted" in rematch.text and "to accept" in rematch.text
    assert "bob** deals first" in rematch.text  # bob forfeited: he lost, he deals
    for user, words in ((carol, "for the players"), (alice, "waiting for the others")):
        answer = await club.click(user, rematch, "Accept")
        assert answer.ephemeral and words in answer.message.content
    assert club.bot.manager.live.in_channel(club.channel.id).status.value == "lobby"
    started = await club.click(bob, rematch, "Accept")
    assert "rematch is on" in started.message.text and not rematch.buttons
    view = club.bot.manager.live.in_channel(club.channel.id)
    assert view.game_id != first and view.status.value == "active" and view.dealer == 1
    assert club.table_message().text.count("Your hand") >= 1


async def test_a_declined_rematch_is_called_off(club):
    alice, bob, _ = club.users[:3]
    await club.start_game(alice, [bob], target=61)
    await club.slash(alice, "cribbage forfeit")
    asked = await club.click(bob, club.emu.last_public(club.channel), "Rematch")
    declined = await club.click(alice, asked.message, "Decline")
    assert "declined" in declined.message.text and not asked.message.buttons
    assert club.bot.manager.live.in_channel(club.channel.id) is None


@pytest.mark.slow  # whole games, click by click
async def test_a_best_of_3_match_with_a_computer_is_played_to_its_end(club):
    alice, _, carol = club.users[:3]
    await club.open_lobby(alice, computer="easy", target=61, match=3)
    lobby = club.emu.last_public(club.channel)
    assert "Best of 3" in lobby.text
    await club.click(alice, lobby, "Start")
    assert "Best of 3 · game 1" in club.table_message().text
    watch = await club.slash(carol, "cribbage watch")
    games = await play_through(club, {alice.id: Seat(alice)})
    assert 1 <= len(games) <= 3  # one game when it was a skunk (two games' worth)
    ends = [m for m in club.emu.public_messages(club.channel) if m.embeds and "🏆" in m.text]
    ends = [m for m in ends if "Match" in m.text and m.id != watch.message.id]
    assert len(ends) == len(games)
    *between, last = ends
    for message in between:  # a game that does not decide the match: no Rematch, next game
        assert "the next game starts now" in message.text and not message.buttons
    assert "wins the match" in last.text and last.find_button("Rematch")
    # each next game was dealt by the loser of the one before, and the table showed the score
    for before, after in zip(games, games[1:], strict=False):
        record = await club.bot.store.games.load_game(after)
        assert record.first_dealer == await losing_seat(club, before)
    # the spectators' view followed the match to its last game
    final_watch = club.emu.message(watch.message.id)
    assert f"game {len(games)}" in final_watch.text and "over" in final_watch.text


async def test_a_slow_start_is_deferred_within_discords_three_seconds(club, monkeypatch):
    """Starting a rematch may wait on a computer's first move: the click is deferred in time
    and the rematch message still lands (replacing the "thinking" message)."""
    import sys
    import time

    from bot.sessions import simple_strategy

    alice = club.users[0]
    await club.open_lobby(alice, computer="easy", target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    await club.slash(alice, "cribbage forfeit")

    def slow(game, seat, level):
        time.sleep(0.05)
        return simple_strategy(game, seat, level)

    monkeypatch.setattr(club.bot.manager.play, "_strategy", slow)
    monkeypatch.setattr(sys.modules["cogs.utils.replies"], "ANSWER_WITHIN", 0.0)
    answer = await club.click(alice, club.emu.last_public(club.channel), "Rematch")
    assert answer.response_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
    assert "rematch is on" in club.emu.message(answer.message.id).text  # no more "thinking"
    assert club.table_message().find_button("Your hand")
    assert club.bot.manager.live.in_channel(club.channel.id).status.value == "active"
