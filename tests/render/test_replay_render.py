"""A replay's pages in words (``bot.render.replay``), the summary's field and the review's
embed (``bot.render.summary``): each page tells its deal exactly as the engine's events have it,
within Discord's limits.

The games are played here by random legal moves on the engine and rebuilt from their action log
as the manager rebuilds them (``rebuild`` + ``build_replay``): a few milliseconds each.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.ai.review import Choice, DealReview, Decision, DecisionKind, Review
from bot.engine import (
    Card,
    Claimed,
    CountSettled,
    Discard,
    Game,
    Played,
    ScoreReason,
    Shown,
    StarterCut,
    Variant,
    parse_cards,
)
from bot.render.embeds import DESCRIPTION_LIMIT, FIELD_VALUE_LIMIT, TOTAL_LIMIT
from bot.render.replay import deal_lines, replay_embed, replay_text
from bot.render.summary import review_embed, summary_text
from bot.render.words import hand_line
from bot.sessions.history import Replay, build_replay, rebuild
from bot.sessions.summary import skunk_lines, summarize
from bot.sessions.views import SeatView
from db import ActionRecord

VARIANTS = {
    "two": Variant(target=61),
    "three": Variant(players=3),
    "four": Variant(players=4, partnerships=True, muggins=True),
}
LONG = ["A" * 32, "B" * 32, "C" * 32, "D" * 32]  # Discord's longest display names
# a card laid: "**Alice** plays 7♦ — count 7" (two players), "**Alice** 7♦ (7)" (more)
PLAYED = re.compile(r"(?:plays |\*\* )(\S+) (?:— count |\()([0-9]+)")


def played_game(variant: Variant, seed: int) -> Replay:
    """A game to its end by random legal moves, then rebuilt from its log."""
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed, first_dealer=None, hold_between_deals=True)
    log = []
    while not game.is_over:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, action.to_dict(), 0.0))
    rebuilt = rebuild(variant, seed, None, log, hold=True)
    seats = tuple(
        SeatView(seat, 100 + seat, None, variant.side_of(seat)) for seat in range(variant.players)
    )
    return build_replay(7, seats, rebuilt)


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def replay(request) -> Replay:
    return played_game(VARIANTS[request.param], seed=17)


def names_for(replay: Replay) -> list[str]:
    return LONG[: replay.variant.players]


def test_every_page_tells_its_deal_as_the_events_have_it(replay):
    names = names_for(replay)
    for deal in replay.deals:
        embed = replay_embed(replay, deal.number, names)
        assert embed.title == f"🔁 Replay of game #7 · Deal {deal.number} of {len(replay.deals)}"
        description = embed.description or ""
        assert len(description) <= DESCRIPTION_LIMIT and len(embed) <= TOTAL_LIMIT
        assert all(len(f.value or "") <= FIELD_VALUE_LIMIT for f in embed.fields)
        assert "…" not in description  # nothing was cut: a long show moved to fields
        text = "\n".join([description, *(f.value or "" for f in embed.fields)])
        for seat, hand in enumerate(deal.hands):
            assert f"**{names[seat]}**: {hand_line(hand)}" in text
        for step in deal.steps:
            if isinstance(step.action, Discard):
                assert f"lays away {hand_line(step.action.cards)}" in text
        events = [e for s in deal.steps for e in s.events]
        plays = [(str(e.card), str(e.count)) for e in events if isinstance(e, Played)]
        assert PLAYED.findall(text) == plays
        for e in events:
            if isinstance(e, StarterCut):
                assert f"the {e.card} as the starter" in text
            if isinstance(e, Shown):  # the cards and the total of each hand and crib
                assert f"{hand_line(e.cards)} + {e.starter}" in text
                if not replay.variant.muggins:  # (with muggins: the claim, then the count)
                    assert f"**{e.breakdown.total}**" in text
            if isinstance(e, Claimed):
                assert f"claims **{e.points}**" in text
            if isinstance(e, CountSettled):
                assert f"was worth {e.breakdown.total}" in text
        after = " · ".join(
            f"{' & '.join(names[s] for s in replay.variant.seats_of(side))} {score}"
            for side, score in enumerate(deal.scores_after)
        )
        assert f"After deal {deal.number}: {after}" in description
    first = replay_embed(replay, 1, names).description or ""
    assert first.startswith("Cutting for the deal")


def test_the_show_without_its_breakdowns_keeps_the_totals(replay):
    names = names_for(replay)
    for deal in replay.deals:
        short = "\n".join(deal_lines(replay, deal.number, names, breakdowns=False))
        shows = [e for s in deal.steps for e in s.events if isinstance(e, Shown)]
        if shows and not replay.variant.muggins:
            assert "fifteen two" not in short
            for e in shows:
                assert f"**{e.breakdown.total}**" in short


def test_the_terminal_text_is_plain_and_has_every_deal(replay):
    text = replay_text(replay, ["Alice", "Bob", "Carol", "Dave"][: replay.variant.players])
    assert "**" not in text and "__" not in text
    assert text.count("=== Deal ") == len(replay.deals)
    one = replay_text(replay, ["Alice", "Bob", "Carol", "Dave"][: replay.variant.players], deal=1)
    assert one.count("=== Deal ") == 1 and "=== Deal 1 of" in one


def test_the_summary_fits_a_field_and_names_every_side(replay):
    summary = summarize(replay)
    names = names_for(replay)
    text = summary_text(summary, names)
    assert len(text) <= FIELD_VALUE_LIMIT
    for side in summary.sides:
        assert f"· pegging {side.pegging} · hands {side.hand} · crib {side.crib}" in text


def test_skunk_lines_are_told_only_when_they_matter():
    replay = played_game(Variant(target=61), seed=17)
    summary = summarize(replay)
    loser = next(s for s in summary.sides if not s.won)
    text = summary_text(summary, ["Alice", "Bob"])
    if summary.skunk_lines:
        assert "skunk line (31)" in text
    else:
        assert "skunk line" not in text and loser.score >= 41


def _decision(deal: int, step: int, cost: float, kind=DecisionKind.PLAY) -> Decision:
    hand = parse_cards("5H 5C JD 2S 3D QS")
    if kind is DecisionKind.DISCARD:
        chosen = Choice(tuple(hand[4:]), tuple(hand[:4]), 10.0)
        best = Choice(tuple(hand[3:5]), tuple(hand[:3] + hand[5:]), 10.0 + cost)
    else:
        chosen = Choice((hand[3],), (), 0.0)
        best = Choice((hand[0],), (), cost)
    return Decision(deal, step, kind, 0, tuple(hand), True, 11, (hand[2],), chosen, best, 3, False)


def test_a_review_tells_the_costliest_three_and_every_deal_within_limits():
    deals = tuple(
        DealReview(
            n,
            n % 2,
            (_decision(n, 3 * n, 1.0, DecisionKind.DISCARD), _decision(n, 3 * n + 1, 0.5 * n)),
        )
        for n in range(1, 31)
    )
    review = Review(9, Variant(), 0, deals)
    embed = review_embed(review, LONG[:2])
    assert embed.title == "🔍 Your game #9, decision by decision"
    assert len(embed) <= TOTAL_LIMIT
    text = embed.description or ""
    assert "__The three costliest__" in text and text.count("would have averaged") == 3
    assert "15.0 points more" in text  # the costliest: deal 30's card
    shown = "\n".join(f.value or "" for f in embed.fields)
    assert shown.count("given away") == 30 and all(len(f.value or "") <= 1024 for f in embed.fields)
    assert "chances to win" in (embed.footer or "")


def test_a_review_with_nothing_given_away_says_so():
    review = Review(9, Variant(), 0, (DealReview(1, 0, (_decision(1, 3, 0.0),)),))
    assert "Nothing cost anything" in (review_embed(review, ["Alice", "Bob"]).description or "")


def test_the_biggest_peg_and_best_hand_are_told():
    replay = played_game(Variant(), seed=3)
    summary = summarize(replay)
    text = summary_text(summary, ["Alice", "Bob"])
    for side in summary.sides:
        if side.best_hand is not None:
            best = side.best_hand
            assert f"{hand_line(best.cards)} + {best.starter} for {best.points}" in text
        peg = side.biggest_peg
        if peg is not None and peg.reason is ScoreReason.PLAY:
            assert f"biggest peg {peg.points} with {peg.card}" in text
    assert all(isinstance(c, Card) for c in replay.deals[0].hands[0])


def test_the_skunk_words_name_the_lowest_line_crossed_and_the_next_one_near():
    replay = played_game(Variant(), seed=3)
    summary = summarize(replay)
    loser = next(s for s in summary.sides if not s.won)
    cases = {
        95: ["finished 4 points above the skunk line (91)"],
        65: ["⚠️ ", "finished below the skunk line (91), 4 points above the double skunk line (61)"],
        50: ["⚠️ ", "finished below the double skunk line (61)"],
        110: [],
    }
    for score, words in cases.items():
        side = dataclasses.replace(loser, score=score)
        sides = tuple(side if s is loser else s for s in summary.sides)
        scores = tuple(s.score for s in sides)
        changed = dataclasses.replace(
            summary, sides=sides, skunk_lines=skunk_lines(Variant(), scores, summary.winner)
        )
        text = summary_text(changed, ["Alice", "Bob"])
        if words:
            assert all(w in text for w in words), (score, text)
        else:
            assert "skunk" not in text, (score, text)


def test_a_review_near_the_end_tells_the_chance_to_win_given_away():
    hand = parse_cards("5H 5C JD 2S 3D QS")
    near = Decision(
        7, 40, DecisionKind.PLAY, 0, tuple(hand), True, 11, (hand[2],),
        Choice((hand[3],), (), 0.41), Choice((hand[0],), (), 0.55), 3, True, chances=True,
    )
    review = Review(9, Variant(), 0, (DealReview(7, 0, (_decision(7, 39, 1.0), near)),))
    text = review_embed(review, ["Alice", "Bob"]).description or ""
    assert "Over 1 deal you gave away **1.0** points against the expert, and **14.0** " in text
    assert "from 41% to 55%" in text  # the costliest, told as a chance
