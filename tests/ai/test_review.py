"""The analysis of a finished game (bot.ai.review): every decision of one seat, valued from
what it knew, the discards equal to brute force, nothing read of the other hands."""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations

import pytest

from bot.ai.crib import crib_value, crib_weight, table_key
from bot.ai.review import (
    CHANCE_POINTS,
    COSTLY,
    COSTLY_CHANCE,
    Choice,
    Decision,
    DecisionKind,
    play_values,
    review,
)
from bot.ai.view import SeatKnowledge
from bot.engine import (
    FULL_PACK,
    Discard,
    Phase,
    Played,
    Scored,
    Variant,
    parse_cards,
    score_show,
)
from bot.render.review_text import (
    POINTS_ONLY_NOTE,
    costliest_lines,
    deal_lines,
    decision_sentence,
    review_text,
)
from tests.support.replays import played_replay

SHORT = Variant(target=61)


@pytest.fixture(scope="module")
def easy_game():
    """A 61-point game of two easy players (they give points away: something to find)."""
    return played_replay(11, SHORT, level="easy")


@pytest.fixture(scope="module")
def easy_review(easy_game):
    return review(easy_game, 0)


def brute_discard(hand, discard, *, own: bool, players: int = 2, partnerships: bool = False):
    """Expected hand over every starter not in ``hand`` (the engine's own count, one by one),
    plus the crib weight times the expected crib the tables give for ``discard``."""
    kept = [c for c in hand if c not in discard]
    starters = [c for c in FULL_PACK if c not in hand]
    expected_hand = sum(score_show(kept, s).total for s in starters) / len(starters)
    key = table_key(players, partnerships)
    weight = crib_weight(players, partnerships, own)
    return expected_hand + weight * crib_value(discard, key=key, own=own)


def test_every_discard_and_card_laid_by_the_seat_is_there(easy_game, easy_review):
    played = [
        (deal.number, e.card)
        for deal in easy_game.deals
        for step in deal.steps
        for e in step.events
        if isinstance(e, Played) and e.seat == 0
    ]
    plays = [d for d in easy_review.decisions if d.kind is DecisionKind.PLAY]
    assert [(d.deal, d.chosen.cards[0]) for d in plays] == played
    discards = [d for d in easy_review.decisions if d.kind is DecisionKind.DISCARD]
    assert len(discards) == len(easy_game.deals)
    for d in easy_review.decisions:
        assert d.seat == 0 and d.cost >= 0
        if d.forced:
            assert d.cost == 0 and d.chosen == d.best
    assert all(d.options > 1 for d in discards)  # a discard is never forced
    assert easy_review.points_only is not any(d.chances for d in easy_review.decisions)


def test_the_discard_values_equal_brute_force(easy_review):
    discards = [d for d in easy_review.decisions if d.kind is DecisionKind.DISCARD][:3]
    assert not any(d.chances for d in discards)  # the first deals: points
    for d in discards:
        values = {
            throw: brute_discard(d.hand, throw, own=d.own_crib) for throw in combinations(d.hand, 2)
        }
        assert d.chosen.value == pytest.approx(values[tuple(sorted(d.chosen.cards))])
        assert d.best.value == pytest.approx(max(values.values()))
        assert d.cost == pytest.approx(max(values.values()) - values[tuple(sorted(d.chosen.cards))])


def test_three_handed_discards_equal_brute_force_too():
    game = played_replay(4, Variant(players=3, target=61), level="easy")
    decisions = review(game, 1).decisions  # one seat: 2 x 96 worlds a card laid
    discards = [d for d in decisions if d.kind is DecisionKind.DISCARD]
    assert len(discards) == len(game.deals)
    for d in discards[:3]:
        brute = {(c,): brute_discard(d.hand, (c,), own=d.own_crib, players=3) for c in d.hand}
        assert len(d.hand) == 5 and d.best.value == pytest.approx(max(brute.values()))
        assert d.chosen.value == pytest.approx(brute[d.chosen.cards])


def _hide_the_others(replay, seat):
    """The same game with every card the seat never saw changed: the others' hands as dealt
    and their discards (laid face down)."""
    junk = tuple(parse_cards("AS AH AD AC 2S 2H"))
    deals = []
    for deal in replay.deals:
        hands = tuple(h if s == seat else junk[: len(h)] for s, h in enumerate(deal.hands))
        steps = tuple(
            dataclasses.replace(step, action=Discard(junk[: len(step.action.cards)]))
            if step.seat != seat and isinstance(step.action, Discard)
            else step
            for step in deal.steps
        )
        deals.append(dataclasses.replace(deal, hands=hands, steps=steps))
    return dataclasses.replace(replay, deals=tuple(deals))


def test_a_review_reads_nothing_the_seat_did_not_see(easy_game, easy_review):
    assert review(_hide_the_others(easy_game, 0), 0) == easy_review


def test_totals_and_the_costliest(easy_review):
    def points(decisions):
        return sum(d.cost for d in decisions if not d.chances)

    def chances(decisions):
        return sum(d.cost for d in decisions if d.chances)

    assert easy_review.given_away == pytest.approx(points(easy_review.decisions))
    assert easy_review.chance_given_away == pytest.approx(chances(easy_review.decisions))
    for deal in easy_review.deals:
        assert deal.given_away == pytest.approx(points(deal.decisions))
        assert deal.chance_given_away == pytest.approx(chances(deal.decisions))
    top = easy_review.costliest(3)
    assert 1 <= len(top) <= 3
    assert all(d.costly and d.cost > (COSTLY_CHANCE if d.chances else COSTLY) for d in top)
    ranked = [d.points_cost for d in top]
    assert ranked == sorted(ranked, reverse=True)
    others = [d for d in easy_review.decisions if d not in top]
    assert all(d.points_cost <= top[-1].points_cost or not d.costly for d in others)
    assert len(top) == 3 or all(not d.costly for d in others)


def test_the_review_in_words(easy_review):
    lines = costliest_lines(easy_review)
    assert len(lines) == len(easy_review.costliest(3))
    said = ("would have averaged", "would have raised your chance to win from")
    assert all(any(s in line for s in said) and line.startswith("Deal ") for line in lines)
    assert len(deal_lines(easy_review)) == len(easy_review.deals)
    text = review_text(easy_review, ["Alice", "Bob"])
    assert text.startswith("Review of game 1 for Alice") and POINTS_ONLY_NOTE in text


def test_a_play_sentence():
    hand = tuple(parse_cards("5H KS"))
    d = Decision(
        2, 30, DecisionKind.PLAY, 0, hand, False, 10, tuple(parse_cards("10D")),
        Choice((hand[1],), (), -0.4), Choice((hand[0],), (), 1.4), 2, False,
    )  # fmt: skip
    assert decision_sentence(d) == "laying the 5 instead of the K would have averaged 1.8 more"
    assert decision_sentence(dataclasses.replace(d, best=d.chosen)) == "the expert's choice too"


def test_thirty_one_for_two_is_the_best_card():
    view = SeatKnowledge(
        seat=0,
        variant=Variant(),
        phase=Phase.PLAY,
        dealer=0,
        scores=(0, 0),
        hand=tuple(parse_cards("7S 2C 3D")),
        kept=tuple(parse_cards("9H 7S 2C 3D")),
        discards=tuple(parse_cards("QC QD")),
        starter=parse_cards("8S")[0],
        played=tuple((s, c) for s, c in zip((1, 0, 1), parse_cards("KC 9H 5D"), strict=True)),
        pile=tuple(parse_cards("KC 9H 5D")),
        count=24,
        to_act=(0,),
    )
    values = play_values(view, list(view.hand), random.Random(1))
    assert set(values) == {2, 3, 7}
    assert values[7] == max(values.values()) and values[7] > values[2] + 1


def test_near_the_end_two_handed_decisions_are_valued_in_chances(easy_game):
    decisions = review(easy_game, 1).decisions
    near = [d for d in decisions if d.near_end]
    assert near  # a 61-point game is near its end from 30 points on
    assert all(abs(d.best.value) < 50 for d in near)  # never the solver's win (1000)
    chances = [d for d in decisions if d.chances]
    assert chances and all(d.near_end for d in chances)
    assert all(0.0 <= d.chosen.value <= d.best.value <= 1.0 for d in chances)
    assert not any(d.chances for d in decisions if not d.near_end)


def test_a_discard_valued_in_chances_takes_the_best_chance(easy_game, easy_review):
    from bot.ai.deal_chances import discard_chance

    d = next(d for d in easy_review.decisions if d.chances and d.kind is DecisionKind.DISCARD)
    scores = [0, 0]
    for deal in easy_game.deals:
        if deal.number == d.deal:
            break
        for e in (e for step in deal.steps for e in step.events if isinstance(e, Scored)):
            scores[e.side] = e.score
    view = SeatKnowledge(
        seat=0, variant=SHORT, phase=Phase.DISCARD, dealer=deal.dealer, scores=tuple(scores),
        hand=d.hand, kept=(), discards=None, starter=None, played=(), pile=(), count=0,
        to_act=(0,),
    )  # fmt: skip
    values = {
        t: discard_chance(view, t, [c for c in d.hand if c not in t])
        for t in combinations(d.hand, 2)
    }
    assert d.best.value == pytest.approx(max(values.values()))
    assert d.chosen.value == pytest.approx(values[tuple(sorted(d.chosen.cards))])


def test_a_chance_sentence():
    hand = tuple(parse_cards("5H KS"))
    d = Decision(
        9, 80, DecisionKind.PLAY, 0, hand, False, 10, tuple(parse_cards("10D")),
        Choice((hand[1],), (), 0.412), Choice((hand[0],), (), 0.414), 2, True, True,
    )  # fmt: skip
    sentence = decision_sentence(d)
    assert sentence.endswith("raised your chance to win from 41.2% to 41.4%")
    assert d.cost == pytest.approx(0.002) and not d.costly  # under a percentage point
    wide = dataclasses.replace(d, best=Choice((hand[0],), (), 0.55))
    assert decision_sentence(wide) == (
        "laying the 5 instead of the K would have raised your chance to win from 41% to 55%"
    )
    assert wide.costly and wide.points_cost == pytest.approx(0.138 * CHANCE_POINTS)


def test_an_unknown_seat_is_refused(easy_game):
    with pytest.raises(ValueError):
        review(easy_game, 2)


def test_a_play_decision_knows_the_count(easy_review):
    plays = [d for d in easy_review.decisions if d.kind is DecisionKind.PLAY]
    for d in plays:
        assert d.count == sum(c.value for c in d.pile)
        assert d.count + d.chosen.cards[0].value <= 31
        assert d.chosen.cards[0] in d.hand


def test_partners_share_the_crib():
    game = played_replay(6, Variant(players=4, partnerships=True, target=61))
    decisions = review(game, 2).decisions
    dealers = {deal.number: deal.dealer for deal in game.deals}
    assert {d.own_crib == (dealers[d.deal] % 2 == 0) for d in decisions} == {True}
    laid = [
        e.card for step in game.steps for e in step.events if isinstance(e, Played) and e.seat == 2
    ]
    assert [d.chosen.cards[0] for d in decisions if d.kind is DecisionKind.PLAY] == laid
