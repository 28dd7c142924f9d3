"""The review in a player's words: what each costly moment was (the count, the card laid, the
better card), kept cards written one way (as the hand shows them), and the note on points near
the end only where the review could have valued chances to win (two players)."""

from __future__ import annotations

import dataclasses
import re

from bot.ai.review import Choice, DealReview, Decision, DecisionKind, Review
from bot.engine import Variant, parse_cards
from bot.render.review_text import (
    MORE_PLAYERS_NOTE,
    POINTS_ONLY_NOTE,
    costliest_line,
    review_text,
)
from bot.render.summary import review_embed

HAND = parse_cards("5H 5C JD 2S 3D QS")


def play(deal: int, step: int, cost: float, *, near_end: bool = False) -> Decision:
    """Laid the 2 at 10 (after a J) where the 5 was better by ``cost``."""
    chosen, best = Choice((HAND[3],), (), 0.0), Choice((HAND[0],), (), cost)
    pile = (HAND[2],)
    return Decision(
        deal, step, DecisionKind.PLAY, 0, HAND, True, 10, pile, chosen, best, 3, near_end
    )


def discard(deal: int, step: int, cost: float) -> Decision:
    chosen = Choice(tuple(HAND[4:]), tuple(HAND[:4]), 10.0)
    best = Choice(tuple(HAND[3:5]), tuple(HAND[:3] + HAND[5:]), 10.0 + cost)
    return Decision(deal, step, DecisionKind.DISCARD, 0, HAND, True, 0, (), chosen, best, 15, False)


def test_a_card_laid_says_the_count_what_was_laid_and_what_was_better():
    assert costliest_line(play(4, 9, 1.25)) == (
        "Deal 4, the count at 10 (after J): you laid the 2; the 5 would have averaged 1.2 "
        "points more."
    )
    lead = dataclasses.replace(play(2, 5, 0.5), count=0, pile=())
    assert costliest_line(lead).startswith("Deal 2, leading: you led the 2; the 5 would have")


def test_kept_cards_are_written_one_way_with_their_suits():
    line = costliest_line(discard(3, 2, 1.4))
    assert line.startswith("Deal 3, your discard to your crib: you kept 2♠ 5♣ 5♥ J♦; keeping ")
    assert "5♣ 5♥ J♦ Q♠" in line and "throwing 2♠ 3♦" in line
    assert not re.search(r"\b[0-9AJQK]+-[0-9AJQK]+", line)  # no "2-5-5-J" beside the suits


def test_the_points_note_near_the_end_only_where_chances_could_have_been():
    near = play(9, 30, 2.0, near_end=True)
    assert "(near the end: valued in points, not chances to win)" in costliest_line(near, 2)
    for players in (3, 4):
        assert "near the end" not in costliest_line(near, players)
    deals = (DealReview(9, 1, (near, discard(9, 28, 0.5))),)
    three = Review(5, Variant(players=3), 0, deals)
    text = review_text(three, ["alice", "bob", "carol"])
    assert "(near the end" not in text and text.endswith(MORE_PLAYERS_NOTE)
    embed = review_embed(three, ["alice", "bob", "carol"])
    assert embed.footer == MORE_PLAYERS_NOTE and "two-player" not in MORE_PLAYERS_NOTE
    two = Review(5, Variant(), 0, deals)
    assert review_embed(two, ["alice", "bob"]).footer == POINTS_ONLY_NOTE
    assert "(near the end: valued in points" in (
        review_embed(two, ["alice", "bob"]).description or ""
    )
