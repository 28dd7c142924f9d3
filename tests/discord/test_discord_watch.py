"""``/cribbage watch``: the spectators' view, through discord.py and the Discord emulator."""

from __future__ import annotations

import types

import pytest

from tests.support.discord_players import Driver, PrivacyWatch, Seat, hidden_cards, make_bot


class Spectator:
    """Checks every version of the spectators' message against the cards hidden at the time,
    as strictly as the live table: no card in any hand, the crib or the pack may show (cards
    shown in this deal, e.g. a tied cut for the deal put back in the pack, excepted)."""

    def __init__(self, driver: Driver, message) -> None:
        self.driver, self.message, self.checked = driver, message, 0
        self.game_id = driver.game_id()

    def check(self) -> None:
        message = self.driver.emu.message(self.message.id)
        hidden = hidden_cards(self.driver.bot, self.game_id) - self.driver.privacy.seen_this_deal
        for version in message.versions[self.checked :]:
            leaked = [str(c) for c in hidden if str(c) in version.text]
            assert not leaked, f"the spectators' view shows hidden cards {leaked}:\n{version.text}"
        self.checked = len(message.versions)


async def watch_until_over(driver: Driver, spectator: Spectator, seats: dict) -> int:
    moves = 0
    while driver.bot.manager.live.in_channel(driver.channel.id) is not None:
        for user_id in driver.whose_move():
            if await driver.move(seats[user_id]) == "wait":
                await driver.move(seats[user_id])
            moves += 1
            spectator.check()
    return moves


async def test_nothing_to_watch_is_said_privately(club):
    alice, _, carol = club.users[:3]
    result = await club.slash(carol, "cribbage watch")
    assert result.ephemeral and "no cribbage game" in result.message.content
    await club.open_lobby(alice)
    result = await club.slash(carol, "cribbage watch")
    assert result.ephemeral and "no cribbage game being played" in result.message.content


@pytest.mark.slow  # a whole game, click by click
async def test_a_spectator_follows_a_whole_game_without_seeing_a_hand(club):
    alice, _, carol = club.users[:3]
    await club.open_lobby(alice, computer="easy", target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    result = await club.slash(carol, "cribbage watch")
    watch = result.message
    assert not result.ephemeral and not watch.buttons  # public, and nothing to click
    assert "alice" in watch.text and "Computer (easy)" in watch.text
    assert "Spectators' view" in watch.text
    spectator = Spectator(club, watch)
    spectator.check()
    moves = await watch_until_over(club, spectator, {alice.id: Seat(alice)})
    final = club.emu.message(watch.id)
    assert len(final.versions) > moves // 2  # kept current as the game went
    assert "Game over" in final.text and "/61" in final.text and "the game is over" in final.text
    assert "plays" in "\n".join(v.text for v in final.versions)  # the story of the deal


async def test_watching_again_moves_the_view_down(club):
    alice, bob, carol = club.users[:3]
    await club.start_game(alice, [bob], target=61)
    first = (await club.slash(carol, "cribbage watch")).message
    second = (await club.slash(bob, "cribbage watch")).message
    assert "moved" in club.emu.message(first.id).text
    before = len(club.emu.message(first.id).versions)
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    for user_id in club.whose_move():
        await club.move(seats[user_id])
    assert len(club.emu.message(first.id).versions) == before  # the old one stays still
    assert len(club.emu.message(second.id).versions) > 1
    await club.slash(alice, "cribbage forfeit")
    assert "forfeited" in club.emu.message(second.id).text


async def test_the_spectator_check_catches_a_leaked_card(club, monkeypatch):
    """The check above can fail: a spectators' view showing one hidden card is caught."""
    from cogs.cribbage.watch import Watch

    real = Watch.payload

    async def leaky(self, view, watched, names):
        payload = await real(self, view, watched, names)
        hidden = sorted(hidden_cards(club.bot, view.game_id))
        if hidden:
            payload["embed"].description += f"\n(psst: {hidden[0]})"
        return payload

    monkeypatch.setattr(Watch, "payload", leaky)
    alice, _, carol = club.users[:3]
    await club.open_lobby(alice, computer="easy", target=61)
    await club.click(alice, club.emu.last_public(club.channel), "Start")
    spectator = Spectator(club, (await club.slash(carol, "cribbage watch")).message)
    with pytest.raises(AssertionError, match="hidden cards"):
        spectator.check()
        await watch_until_over(club, spectator, {alice.id: Seat(alice)})


async def test_after_a_restart_the_view_and_a_waiting_rematch_carry_on(club, tmp_path):
    alice, bob, carol = club.users[:3]
    emu = club.emu
    await club.start_game(alice, [bob], target=61)
    watch = (await club.slash(carol, "cribbage watch")).message

    async def restart():
        await club.bot.close()
        club.bot = make_bot(tmp_path / "cribbage.db")
        return emu.running(club.bot)

    def watch_privacy_again():  # the privacy kit follows one bot: hand it the new one
        club.click = types.MethodType(Driver.click, club)
        club.privacy = PrivacyWatch(club)

    async with await restart():
        watch_privacy_again()
        seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
        before = len(emu.message(watch.id).versions)
        for user_id in club.whose_move():
            await club.move(seats[user_id])
        assert len(emu.message(watch.id).versions) > before  # still kept current
        await club.slash(bob, "cribbage forfeit")
        asked = await club.click(alice, emu.last_public(club.channel), "Rematch")
    async with await restart():
        watch_privacy_again()
        started = await club.click(bob, emu.message(asked.message.id), "Accept")
        assert "rematch is on" in started.message.text
        view = club.bot.manager.live.in_channel(club.channel.id)
        assert view.status.value == "active" and view.dealer == 1  # bob forfeited: he deals
