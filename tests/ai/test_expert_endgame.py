"""The expert near the end of a two-handed game plays for the chance to win."""

import dataclasses
import random
import time

import pytest

from bot.ai.config import EXPERT, Level
from bot.ai.deal_chances import discard_chance
from bot.ai.expert_pegging import expert_play
from bot.ai.players import Player, chance_play, decide, discard_options, in_chances
from bot.ai.position import position_adjusted
from bot.ai.view import SeatKnowledge
from bot.engine import Card, Discard, Game, Phase, Play, Variant, parse_cards
from tests.support.engine_positions import position

# Positions found in self-play (seat 1 to lay; the expert searching for points alone, blind to
# the scores, lays ``points`` and the other seat can then peg out; after ``wins`` it cannot, and
# the expert lays a card that keeps it from pegging out).
HOLD_BACK = [
    dict(  # the dealer needs 5: the 4 leaves 16 and a 15-2/run; the 5 keeps it off
        dealer=0,
        scores=[116, 113],
        kept=["AC AH 2D 3C", "3D 4H 5C 5S"],
        held=["AH 2D", "5S 4H"],
        pile="3D AC 5C 3C",
        crib="6D JH AS 2S",
        starter="QD",
        points="4H",
        wins="5S",
    ),
    dict(  # the pone needs 4
        dealer=1,
        scores=[117, 112],
        kept=["2H 3D 3H 4S", "2C 3C 6C 9C"],
        held=["2H 3H 4S", "6C 2C 3C 9C"],
        pile="3D",
        crib="10H JD 8H QD",
        starter="JC",
        points="3C",
        wins="6C",
    ),
]


def _game(case: dict) -> Game:
    return position(
        Variant(players=2),
        dealer=case["dealer"],
        kept=case["kept"],
        starter=case["starter"],
        crib=case["crib"],
        scores=case["scores"],
        held=case["held"],
        pile=case["pile"],
        turn=1,
    )


def _other_pegs_out(game: Game, seat: int, card: Card) -> bool:
    """After ``seat`` lays ``card``, can the other seat reach the target with its next card?"""
    g = Game.from_dict(game.to_dict())
    g.apply(seat, Play(card))
    other = 1 - seat
    if g.is_over or other not in g.to_act:
        return False
    for action in g.legal_actions(other):
        h = Game.from_dict(g.to_dict())
        h.apply(other, action)
        if h.is_over and h.winner == other:
            return True
    return False


@pytest.mark.parametrize("case", HOLD_BACK)
def test_the_expert_holds_back_a_card_so_the_other_cannot_peg_out(case):
    game = _game(case)
    view = SeatKnowledge.of(game, 1)
    assert in_chances(view)
    points, wins = Card.parse(case["points"]), Card.parse(case["wins"])
    assert _other_pegs_out(game, 1, points) and not _other_pegs_out(game, 1, wins)
    blind = dataclasses.replace(view, scores=(0, 0))
    assert expert_play(blind, random.Random(1)).rank == points.rank  # points alone: loses
    action = decide(view, level="expert", seed=1)
    assert isinstance(action, Play) and not _other_pegs_out(game, 1, action.card)


def test_the_expert_pegs_out_with_a_pair_rather_than_a_run_for_later():
    # The pone needs 2: pairing the 6 wins now; the 7 makes 13 and keeps the run open.
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["6H 8D 9S KC", "5C 6C 7D 7S"],
        starter="2H",
        crib="QD JH 10S 4C",
        scores=[118, 119],
        held=["8D 9S KC", "5C 6C 7D 7S"],
        pile="6H",
        turn=1,
    )
    view = SeatKnowledge.of(game, 1)
    assert in_chances(view)
    action = decide(view, level="expert", seed=2)
    assert action == Play(Card.parse("6C"))


def test_the_expert_keeps_the_hand_that_stops_the_dealer_pegging_out():
    # The dealer needs 4, the pone 6 (and counts first). For points (and the board bonus)
    # 2-4-6-9 is best (6.2 in the hand on average); but as pone those cards give the dealer
    # about 1.5 points more in the play than A-2-4-9 (the pegging prospects: -1.98 against
    # -0.43), and the dealer needs only 4: A-2-4-9 wins about 10 points of percentage more.
    view = _discard_view(scores=(117, 115), dealer=0, hand="10D 4S 6C AH 2S 9D")
    assert in_chances(view)
    options = position_adjusted(discard_options(view.hand, dealer=False), view)
    points = options[0]
    assert set(points.discard) == set(parse_cards("AH 10D"))
    action = decide(view, level="expert", seed=1)
    assert set(action.cards) == set(parse_cards("6C 10D"))


def test_the_chance_of_a_discard_counts_what_its_cards_peg():
    # The pone needs 10 and counts first (the dealer needs 14). Counting the show alone,
    # 5-7-8-9 (a run and a 15 now; a 6 or a 9 makes 11 or more) has the best chance to reach 10;
    # but as pone it pegs 1.2 points a deal worse than 4-4-7-8 (the 5 and the run give the
    # dealer fifteens and runs), and counting that the expert keeps 4-4-7-8.
    view = _discard_view(scores=(111, 107), dealer=1, hand="9S 4S 7C 4C 8D 5H")
    assert in_chances(view)
    options = position_adjusted(discard_options(view.hand, dealer=False), view)
    by_kept = {frozenset(o.kept): o for o in options}
    fours = by_kept[frozenset(parse_cards("4S 4C 7C 8D"))]
    run = by_kept[frozenset(parse_cards("5H 7C 8D 9S"))]
    assert run.extra < fours.extra - 1
    assert discard_chance(view, run.discard, run.kept) > discard_chance(
        view, fours.discard, fours.kept
    )
    assert decide(view, level="expert", seed=1) == Discard(parse_cards("5H 9S"))
    # By the show alone (no pegging shift) the best chance of the expert's candidates lays the
    # fours away: the pegging is what moves it.
    candidates = options[: EXPERT.chance_options]
    by_show = max(
        enumerate(candidates),
        key=lambda io: (round(discard_chance(view, io[1].discard, io[1].kept), 9), -io[0]),
    )[1]
    assert set(by_show.discard) == set(parse_cards("4C 4S"))


def _discard_view(scores, dealer, hand):
    game = Game.new(Variant(players=2), seed=5, first_dealer=dealer)
    view = SeatKnowledge.of(game, 1 - dealer)
    return dataclasses.replace(
        view, scores=scores, hand=tuple(sorted(parse_cards(hand))), phase=Phase.DISCARD
    )


def test_far_from_the_end_or_decided_the_expert_plays_for_points():
    assert not in_chances(SeatKnowledge.of(_game(dict(HOLD_BACK[0], scores=[40, 45])), 1))
    assert not in_chances(SeatKnowledge.of(_game(dict(HOLD_BACK[0], scores=[60, 120])), 1))


def test_the_configuration_says_when_the_game_is_near_the_end_and_still_open():
    view = SeatKnowledge.of(_game(HOLD_BACK[0]), 1)
    assert in_chances(view, EXPERT)
    assert not in_chances(view, dataclasses.replace(EXPERT, chance_span=(0.0, 0.0)))
    assert not in_chances(view, dataclasses.replace(EXPERT, endgame_reach=0))
    # An expert so configured plays for points: its play is the points search's.
    points = Player(Level.EXPERT, dataclasses.replace(EXPERT, chance_span=(0.0, 0.0)))
    assert points.decide(view, seed=4) == Play(expert_play(view, random.Random(4)))


def test_chance_play_is_quick():
    view = SeatKnowledge.of(_game(HOLD_BACK[1]), 1)
    start = time.perf_counter()
    chance_play(view, random.Random(3))
    assert time.perf_counter() - start < 1.0
