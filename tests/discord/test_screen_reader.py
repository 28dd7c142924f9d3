"""A game a screen-reader user can follow: every picture has alt text (and a public one names
no hidden card), the scores and whose turn are in the messages' words, and every seated
person's hand says when the game is over, with the result."""

import re

import pytest

from bot.engine import Phase
from tests.support.discord_players import Driver, Seat


def hands_of(club: Driver, user) -> list:
    """The user's hand messages here (not deleted), oldest first."""
    return [
        m
        for m in club.emu.ephemerals_for(user, club.channel)
        if any(
            b.custom_id and b.custom_id.startswith("crib:") for v in m.versions for b in v.buttons
        )
    ]


def live_view(club: Driver):
    return club.bot.manager.live.in_channel(club.channel.id)


@pytest.mark.slow  # a whole game, click by click
async def test_every_picture_has_alt_text_and_every_hand_ends_with_the_result(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], target=61)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    await club.play_out(seats)

    attachments = [
        (m, a) for m in club.emu.messages.values() for v in m.versions for a in v.attachments
    ]
    names = {a.filename.split("-")[0] for _, a in attachments}
    assert {"board.png", "show.png", "hand"} <= names  # every kind of picture was sent
    bare = [(a.filename, m.public) for m, a in attachments if not (a.description or "").strip()]
    assert not bare, f"pictures without alt text: {bare}"
    assert all(len(a.description) <= 1024 for _, a in attachments)
    # a board says each side's score; a show says each hand and what it counted
    board = next(a.description for m, a in attachments if a.filename == "board.png")
    assert re.search(r"alice \d+", board) and re.search(r"bob \d+", board)
    show = next(a.description for m, a in attachments if a.filename == "show.png")
    assert "Starter:" in show and "alice's hand:" in show and "crib:" in show
    assert " of " in show  # the cards, in words
    # hand pictures (which name the cards in their alt text) are sent to their owner only
    assert all(not m.public for m, a in attachments if a.filename.startswith("hand-"))
    # the privacy watch read the public alt texts for hidden cards after every click
    assert club.privacy.checked_descriptions > 10

    # the last hand of each person says the game is over, with the result (not a hand from
    # the middle of the play)
    result = club.emu.last_public(club.channel).text
    winner = "alice" if "**alice** wins" in result else "bob"
    for user in (alice, bob):
        last = hands_of(club, user)[-1]
        assert "The game is over: the result is in this channel." in last.content, last.content
        loser = "bob" if winner == "alice" else "alice"  # the winner's score first, as the result
        said = rf"\*\*{winner}\*\* won with \d+, {loser} \d+\.$"
        assert re.search(said, last.content), last.content
        assert not last.buttons and not last.attachments


async def test_the_table_and_a_hand_say_the_score_the_turn_and_the_count(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], target=61)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    await club.play_until(
        seats, lambda: live_view(club).phase is Phase.PLAY and live_view(club).count
    )
    view = live_view(club)
    a, b = view.scores
    table = club.table_message()
    (embed,) = table.embeds
    # the scores in words; the board picture is the deal's start, which a note says once
    # points were pegged since
    score, *note = embed["description"].split("\n")
    assert score == f"Score: alice {a}, bob {b}, playing to 61."
    pegged = (a, b) != tuple(board_scores(table))
    assert note == (["-# The board shows the scores as this deal began."] if pegged else [])
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert f"Count {view.count}" in fields  # the count, with the cards laid since its reset
    (mover,) = view.to_act
    name = ("alice", "bob")[mover]
    assert fields["Now"] == f"{name} to play"
    assert all(then <= now for then, now in zip(board_scores(table), (a, b), strict=True))

    hand = hands_of(club, (alice, bob)[mover])[-1]  # redrawn when the turn came
    assert f"**Your turn:** the count is {view.count} (" in hand.content
    assert f"Score: alice {a}, bob {b}, playing to 61." in hand.content
    (picture,) = hand.attachments
    assert picture.description.startswith("Cards: ")  # its cards, in words (the text heads them)


def board_scores(message) -> list[int]:
    """alice's and bob's scores as the board picture's alt text says them."""
    alt = board_alt_of(message)
    assert alt.startswith("Cribbage board, game to 61: alice "), alt
    return [int(re.search(rf"{name} (\d+)", alt).group(1)) for name in ("alice", "bob")]


def board_alt_of(message) -> str:
    """The alt text of the board picture the message shows."""
    (board,) = [a for a in message.attachments if a.filename == "board.png"]
    return board.description
