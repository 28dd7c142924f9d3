"""The Hint button in the play: the expert's card, why, and by how much, changing nothing."""

import pytest

from bot.engine import Phase
from tests.discord.test_discord_clicks import game, play_until, snapshot, two_player_game
from tests.support.discord_players import open_club


@pytest.fixture
async def club(tmp_path):
    async with open_club(tmp_path, names=("alice", "bob")) as driver:
        yield driver


def choice_to_make(driver) -> bool:
    g = game(driver)
    if g.phase is not Phase.PLAY:
        return False
    hand = g.hand(g.to_act[0])
    return len({c.rank for c in hand if g.count + c.value <= 31}) >= 2


async def click_hint(club, scores=None) -> tuple[str, str, set[str]]:
    """Play a two-player game to a choice (then set ``scores``), open the mover's hand and click
    Hint: its note, the card it names, and the cards that fit. A hint changes nothing."""
    seats = await two_player_game(club)
    await play_until(club, seats, lambda: choice_to_make(club))
    if scores is not None:
        # the one change made to a live game here: its scores (the table's own record, since
        # manager.live hands out copies)
        club.bot.manager.tables.sessions[club.game_id()].game.scores = scores
    mover = seats[club.whose_move()[0]]
    opened = await club.click(mover.user, club.table_message(), "Your hand")
    before = snapshot(club)
    result = await club.click(mover.user, opened.message, "Hint")
    assert snapshot(club) == before  # a hint changes nothing
    note = result.message.content
    assert "💡 Lay the " in note, note
    assert ": " in note.split("💡 Lay the ", 1)[1]  # the reason follows the card
    g = game(club)
    legal = {str(c) for c in g.hand(g.to_act[0]) if g.count + c.value <= 31}
    named = note.split("💡 Lay the ", 1)[1].split(":", 1)[0]
    assert named in legal
    return note, named, legal


async def test_hint_in_the_play_names_the_card_and_its_margin(club):
    note, named, legal = await click_hint(club)
    if "points better than the " in note:  # a close choice is not compared (search noise)
        other = note.split("points better than the ", 1)[1].split(" over the play", 1)[0]
        assert other in legal and other != named
    assert " on a A" not in note and " on a 8" not in note  # "an A", "an 8"


async def test_hint_near_the_end_speaks_in_chances_to_win(club):
    note, named, legal = await click_hint(club, [112, 110])  # the expert plays for the win
    assert "points better" not in note, note  # the search's values are wins there, not points
    if "% more chance to win than the " in note:
        other = note.split("% more chance to win than the ", 1)[1].split(".", 1)[0]
        assert other in legal and other != named
