"""The chance to win a two-handed game (read by bot.ai.chance_tables, made by bot.ai.winchance):
the shipped table's properties, the programme on deals made by hand, and the chances a decision
near the end is valued by (bot.ai.deal_chances)."""

from __future__ import annotations

import random

import pytest

from bot.ai import chance_tables as ct
from bot.ai import deal_chances as dc
from bot.ai import winchance as wc
from bot.ai.chance_tables import chance, dealer_chance
from bot.ai.view import SeatKnowledge
from bot.engine import Phase, Variant, parse_cards


def test_the_first_dealer_has_the_published_advantage():
    assert 0.53 <= dealer_chance(121, 121) <= 0.59  # about 56% (published)
    assert 0.5 < dealer_chance(61, 61) < dealer_chance(121, 121)  # less to play for
    assert chance(0, 0, True) == pytest.approx(dealer_chance(121, 121))
    assert chance(0, 0, True, target=61) == pytest.approx(dealer_chance(61, 61))


@pytest.mark.parametrize("kind", ["2p", "partners"])
def test_more_points_never_lower_the_chance(kind):
    for deal in (True, False):
        grid = [[chance(me, them, deal, kind=kind) for them in range(122)] for me in range(122)]
        for me in range(121):
            for them in range(121):
                assert grid[me + 1][them] >= grid[me][them]
                assert grid[me][them + 1] <= grid[me][them]


@pytest.mark.parametrize("kind", ["2p", "partners"])
def test_the_two_seats_chances_add_to_one(kind):
    for me, them in ((0, 0), (90, 110), (118, 60), (120, 120), (30, 55)):
        total = chance(me, them, True, kind=kind) + chance(them, me, False, kind=kind)
        assert total == pytest.approx(1.0, abs=1e-4)
    assert chance(121, 80, False) == 1.0 and chance(80, 121, True) == 0.0


def test_the_end_of_the_game():
    assert chance(120, 0, False) > 0.99  # the pone needs 1: the last card or the hand
    assert chance(115, 115, False) > 0.7  # each needs 6: the pone counts first
    assert chance(100, 100, True) > 0.7  # each needs 21: the dealer has the crib too
    assert chance(60, 60, True) > 0.5  # dealing is worth something
    assert chance(60.5, 60, True) == pytest.approx(
        (chance(60, 60, True) + chance(61, 60, True)) / 2
    )


def test_partnership_deals_are_kept_by_side_in_counting_order():
    # Four hands and a crib, the pone side's hand first and the sides alternating after it.
    (deal, stages, hands), *_ = wc.simulate(1, seed=5, workers=1, kind="partners")
    total = [sum(p for side, p in deal if side == s) for s in (0, 1)]
    assert total == [stages[0] + stages[2], stages[1] + stages[3] + stages[4]]
    assert sum(stages) == sum(p for _, p in deal)
    assert len(hands) <= 4 and sum(p for side, p in hands if side == 0) == stages[2]
    assert sum(p for side, p in hands if side == 1) == stages[3]


def test_the_programme_respects_the_order_of_the_points():
    # the dealer pegs 2, then the pone 1: whoever reaches the need first wins at once
    deals = [((1, 2), (0, 1))]
    w = wc.solve(deals, size=6)
    assert w[2][1] == 1.0 and w[1][5] == 1.0  # the dealer is out first
    assert w[3][1] == 0.0  # the dealer is short: the pone's 1 wins
    assert w[3][3] == pytest.approx(1.0 - w[2][1])  # 3-3 -> the pone deals needing 2 (wins)
    assert wc.solve([((0, 1),)], size=5)[5][5] == 0.0  # a dealer who never scores never wins


def test_a_few_deals_of_self_play():
    deals = wc._play_deals((3, 4, "2p"))
    assert len(deals) == 4
    for points, stages, hands in deals:
        assert sum(p for _, p in points) == sum(stages) >= 1
        assert all(role in (0, 1) and p > 0 for role, p in points)
        assert sum(p for _, p in hands) == stages[2] + stages[3]  # one hand a seat


def _view(hand, scores, dealer, *, count=0, pile="", played=(), discards="KC QD", starter="9S"):
    hand = tuple(parse_cards(hand))
    return SeatKnowledge(
        seat=0,
        variant=Variant(),
        phase=Phase.PLAY if starter else Phase.DISCARD,
        dealer=dealer,
        scores=scores,
        hand=hand,
        kept=hand if starter else (),
        discards=tuple(parse_cards(discards)) if starter else None,
        starter=parse_cards(starter)[0] if starter else None,
        played=played,
        pile=tuple(parse_cards(pile)),
        count=count,
        to_act=(0,),
    )


def test_a_discard_near_the_end_keeps_what_counts_out():
    view = _view("5H 5C 5D JS 2C 9D", (113, 100), dealer=1, starter="")
    keep = dc.discard_chance(view, tuple(parse_cards("2C 9D")), tuple(parse_cards("5H 5C 5D JS")))
    junk = dc.discard_chance(view, tuple(parse_cards("5H 5C")), tuple(parse_cards("5D JS 2C 9D")))
    assert keep > 0.98 and keep > junk  # 14 or more for sure: out before the dealer counts
    assert 0.0 <= junk <= 1.0
    near = _view("5H 5C 5D JS 2C 9D", (113, 116), dealer=1, starter="")
    assert dc.discard_chance(near, *_split("2C 9D", "5H 5C 5D JS")) < keep  # may peg out first


def _split(thrown, kept):
    return tuple(parse_cards(thrown)), tuple(parse_cards(kept))


def test_a_card_that_pegs_out_wins():
    played = ((1, parse_cards("10D")[0]),)
    view = _view("5H KS 2C 3D", (119, 118), dealer=0, count=10, pile="10D", played=played)
    legal = [c for c in view.hand if c.value + view.count <= 31]
    values = dc.play_chances(view, legal, random.Random(1), 1)
    assert values[5] == pytest.approx(1.0)  # fifteen for two: the game
    assert all(values[5] >= v for v in values.values())
    assert all(0.0 <= v <= 1.0 for v in values.values())


@pytest.mark.parametrize("i_deal", [True, False])
def test_better_pegging_prospects_raise_the_chance_of_a_deal(i_deal: bool) -> None:
    hand = ct.measured("pone_hand" if not i_deal else "dealer_hand")
    crib = ct.measured("crib")
    scores = (105, 108)
    chances = [
        dc.deal_chance(scores, i_deal, hand, crib, 121, peg_shift=shift)
        for shift in (-3.0, -1.5, -0.4, 0.0, 0.7, 2.0, 3.3)
    ]
    assert chances == sorted(chances)
    assert chances[0] < chances[3] - 0.02 and chances[-1] > chances[3] + 0.02
    assert chances[3] == dc.deal_chance(scores, i_deal, hand, crib, 121)
    assert 0.0 < chances[0] < chances[-1] < 1.0
