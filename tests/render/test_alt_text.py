"""The pictures in words (their attachments' alt text) and the score in words."""

from __future__ import annotations

import pytest

from bot.engine import Card, Game, Shown, Variant, parse_cards, score_show
from bot.render.images import (
    ALT_LIMIT,
    HandPicture,
    board_alt,
    card_words,
    cards_words,
    shows_alt,
)
from bot.render.table_text import score_words
from tests.support.render import NAMES, play_deal


def test_cards_in_words():
    assert card_words(Card.parse("AS")) == "ace of spades"
    assert card_words(Card.parse("10H")) == "10 of hearts"
    assert cards_words(parse_cards("5C QD")) == "5 of clubs, queen of diamonds"
    assert cards_words([]) == "no cards"


def test_the_board_says_each_score_what_was_pegged_and_the_skunk_once_it_matters():
    game = Game.new(Variant(), seed=3, first_dealer=0)
    game.scores = [20, 14]
    early = board_alt(game, NAMES, previous_scores=[12, 14])
    assert early == "Cribbage board, game to 121: Alice 20 (up 8 from 12), Bob 14."
    game.scores = [95, 58]  # Alice is in the last stretch: Bob below the double skunk line
    late = board_alt(game, NAMES)
    assert late.endswith("Alice 95, Bob 58. Bob is below the double skunk line (61).")
    game.scores = [95, 80]
    assert board_alt(game, NAMES).endswith("Bob is below the skunk line (91).")
    game.scores = [95, 92]
    assert "skunk" not in board_alt(game, NAMES)
    short = Game.new(Variant(target=61), seed=3, first_dealer=0)
    short.scores = [40, 20]
    assert board_alt(short, NAMES).endswith("Bob is below the skunk line (31).")


def test_a_partnership_board_names_the_teams():
    game = Game.new(Variant(players=4, partnerships=True), seed=3, first_dealer=0)
    game.scores = [20, 14]
    assert board_alt(game, NAMES) == (
        "Cribbage board, game to 121: Alice & Carol 20, Bob & Dave 14."
    )


def test_a_hand_picture_says_its_cards_the_starter_and_what_is_greyed_out():
    cards = tuple(parse_cards("AS 5H 10D KS"))
    playing = HandPicture(cards, frozenset(cards[2:]), "Your hand")
    assert playing.alt == (
        "Cards: ace of spades, 5 of hearts, 10 of diamonds, king of spades. "
        "Greyed out (past 31): 10 of diamonds, king of spades."
    )
    laid = HandPicture(cards, frozenset(cards), "All your cards are laid")
    assert laid.alt.startswith("Cards: ace of spades") and laid.alt.endswith("all laid.")
    kept = HandPicture(cards, frozenset(), "You kept + the starter", Card.parse("JC"))
    assert kept.alt.endswith("king of spades. Starter: jack of clubs.")
    # the heading is the message's text: the same cards keep one picture and one alt text
    discarding = HandPicture(cards, title="Your hand - lay away 2")
    kept_now = HandPicture(cards, title="You kept")
    assert discarding.alt == kept_now.alt == "Cards: " + kept.alt.split(": ", 1)[1].split(
        " Starter"
    )[0]
    assert discarding.filename == kept_now.filename and discarding() == kept_now()


def test_the_show_says_each_hand_its_cards_and_its_count():
    hand, starter = parse_cards("5H 5S JD QC"), Card.parse("5D")
    shown = Shown(0, tuple(hand), starter, False, score_show(hand, starter))
    assert shows_alt([shown], NAMES) == (
        "The show. Starter: 5 of diamonds. Alice's hand: 5 of hearts, 5 of spades, "
        "jack of diamonds, queen of clubs; 21 points (fifteens 14 · pairs 6 · nobs 1)."
    )
    game = Game.new(Variant(players=4), seed=5, first_dealer=2)
    shows = [e for e in play_deal(game) if isinstance(e, Shown)]
    text = shows_alt(shows, NAMES)
    assert len(text) <= ALT_LIMIT and text.count("'s hand:") == 4 and "'s crib:" in text
    with pytest.raises(ValueError):
        shows_alt([], NAMES)


def test_the_score_in_words():
    assert score_words([84, 62], NAMES[:2], Variant()) == (
        "Score: Alice 84, Bob 62, playing to 121."
    )
    teams = Variant(players=4, partnerships=True)
    assert score_words([30, 41], NAMES, teams) == (
        "Score: Alice & Carol 30, Bob & Dave 41, playing to 121."
    )
