"""Partnerships and discards told right: the team named beside its score,
and one line for all the discards of a deal, in every variant, though each person's discard
comes in a click (an outcome) of its own."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Discarded,
    Game,
    Phase,
    Scored,
    ScoreReason,
    Shown,
    Variant,
    parse_cards,
    score_show,
)
from bot.render.story import story_lines, tell
from tests.support.render import names_for

PAIRS = Variant(players=4, partnerships=True)
NAMES = ["Alice", "Bob", "Carol", "Dave"]
VARIANTS = [Variant(), Variant(players=3), Variant(players=4), PAIRS]


def test_a_partners_score_names_the_team_in_seat_order_as_the_board_does():
    hand, starter = parse_cards("2C 3D 4H 10S"), parse_cards("5C")[0]
    worth = score_show(hand, starter)
    events = [
        Shown(2, tuple(hand), starter, False, worth),
        Scored(2, 0, worth.total, ScoreReason.HAND, 8),
    ]
    (line,) = story_lines(events, NAMES, PAIRS)
    assert line.endswith(f"— **{worth.total}** (Alice & Carol now 8)")
    (go,) = story_lines([Scored(1, 1, 1, ScoreReason.GO, 9)], NAMES, PAIRS)
    assert go == "Bob pegs 1 for the go (Bob & Dave now 9)"
    # without partners a score is the player's own
    (line,) = story_lines(
        events[:1] + [Scored(2, 2, worth.total, ScoreReason.HAND, 8)], NAMES, Variant(players=4)
    )
    assert line.endswith(f"— **{worth.total}** (now 8)")


def test_a_partners_deal_tells_every_score_with_its_team():
    game = Game.new(PAIRS, seed=5, first_dealer=2)
    story: list[str] = []
    tell(story, game.last_events, NAMES, PAIRS)
    while game.deal_number == 1:
        seat = game.to_act[0]
        actions = game.legal_actions(seat)
        action = min(actions, key=lambda a: a.card) if game.phase is Phase.PLAY else actions[0]
        tell(story, game.apply(seat, action), NAMES, PAIRS)
    nows = [line for line in story if " now " in line]
    assert nows and all("(Alice & Carol now" in line or "(Bob & Dave now" in line for line in nows)
    assert not any("(Carol & Alice now" in line or "(Dave & Bob now" in line for line in nows)
    assert not any("(now " in line for line in story)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_one_line_for_all_the_discards_of_a_deal(variant):
    names = names_for(variant)
    rng = random.Random(variant.players)
    for seed in range(3):
        game = Game.new(variant, seed=seed, first_dealer=0)
        story: list[str] = []
        tell(story, game.last_events, names, variant)
        while game.deal_number < 3 and not game.is_over:  # two whole deals
            seat = rng.choice(game.to_act)  # the discards come one click at a time, any order
            before = len(story)
            tell(story, game.apply(seat, rng.choice(game.legal_actions(seat))), names, variant)
            assert len(story) >= before and all(line.strip() for line in story)
        away = [line for line in story if "away to the crib" in line]
        assert len(away) == 2, away  # one a deal
        for line in away:
            assert line.endswith("lay their cards away to the crib")
            assert all(name in line for name in names)


def test_a_discard_after_another_line_starts_its_own():
    story = ["Bob cuts the J♥ as the starter"]
    tell(story, [Discarded(0, 2)], ["Alice", "Bob"], Variant())
    assert story == ["Bob cuts the J♥ as the starter", "Alice lays 2 cards away to the crib"]
    tell(story, [Discarded(1, 2)], ["Alice", "Bob"], Variant())
    assert story[-1] == "Alice and Bob lay their cards away to the crib" and len(story) == 2
