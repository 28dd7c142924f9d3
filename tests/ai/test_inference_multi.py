"""What the other hands may hold with three or four players (bot.ai.inference_multi)."""

import random
from collections import Counter

import pytest

from bot.ai.inference import PLAY_MISMATCH, model_keep, sample_others
from bot.ai.inference_multi import (
    others_by_discards,
    play_likelihood_multi,
    weighted_worlds_multi,
)
from bot.ai.players import choose_discard
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Variant
from tests.support.engine_positions import position


def test_a_world_that_explains_the_cards_laid_weighs_more():
    # Three players, seat 1 led a five (the model leads a five only when it holds nothing else).
    game = position(
        Variant(players=3),
        dealer=0,
        kept=["KH QH JH 10H", "5S 5D 5C 5H", "AD 2D 3D 4D"],
        starter="7C",
        held=["KH QH JH 10H", "5D 5C 5H", "AD 2D 3D 4D"],
        pile="5S",
        turn=2,
    )
    view = SeatKnowledge.of(game, 0)
    fives = ((10, 11, 12, 13), (5, 5, 5), (1, 2, 3, 4))
    kings = ((10, 11, 12, 13), (9, 13, 13), (1, 2, 3, 4))
    assert play_likelihood_multi(view, fives) == 1.0
    assert play_likelihood_multi(view, kings) == pytest.approx(PLAY_MISMATCH)


def test_the_worlds_honour_the_goes_and_the_cards_held():
    # Four players at 26: seat 0 said go (it holds nothing worth 5 or less), seat 1 laid on.
    game = position(
        Variant(players=4),
        dealer=3,
        kept=["KH QH JH 10H", "AS 2S 3S 4S", "9D 8D 7D 6D", "5C 5D 5S 5H"],
        starter="KC",
        held=["KH JH 10H", "AS 2S 3S", "9D 8D 6D", "5C 5D 5S"],
        pile="QH 4S 7D 5H",
        turn=1,
    )
    view = SeatKnowledge.of(game, 1)
    assert view.go_floors()[0] == 6
    worlds = weighted_worlds_multi(view, random.Random(3), 40)
    assert len(worlds) == 40
    for weight, hands, unseen in worlds:
        assert 0 < weight <= 1
        assert hands[1] == (1, 2, 3)
        assert [len(h) for h in hands] == [3, 3, 3, 3]
        assert min(min(r, 10) for r in hands[0]) >= 6
        for s in (0, 2, 3):
            for r in range(1, 14):
                # What seat s cannot see: every card but the starter, the cards laid, its own.
                laid = sum(c.rank == r for _, c in view.played) + (r == 13)
                assert unseen[s][r] == 4 - laid - hands[s].count(r)


@pytest.mark.parametrize(
    ("partnerships", "leader"),
    [(True, 2), (True, 1), (False, 2)],
    ids=["partner led", "opponent led", "four for themselves"],
)
def test_every_other_seats_plays_weigh_the_worlds_a_partners_too(partnerships, leader):
    # Seat ``leader`` led a five from its four fives (the model leads a five only when it holds
    # nothing else), the next seat a nine from its four (its only choice); seat 0 weighs a world
    # where the leader kept K K 9 instead. In partnerships seat 2 is seat 0's partner, an expert
    # like it: its plays are read as ``standard``'s too.
    follower = (leader + 1) % 4
    others = iter(["KH QH JH 10H", "AD 2D 3D 4D"])
    kept = [
        "5S 5D 5C 5H" if s == leader else "9S 9D 9C 9H" if s == follower else next(others)
        for s in range(4)
    ]
    held = list(kept)
    held[leader] = "5D 5C 5H"
    held[follower] = "9D 9C 9H"
    game = position(
        Variant(players=4, partnerships=partnerships),
        dealer=(leader - 1) % 4,
        kept=kept,
        starter="7S",
        held=held,
        pile="5S 9S",
        turn=(follower + 1) % 4,
    )
    view = SeatKnowledge.of(game, 0)
    fives = tuple(tuple(sorted(c.rank for c in game.hand(s))) for s in range(4))
    kings = tuple((9, 13, 13) if s == leader else fives[s] for s in range(4))
    assert fives[leader] == (5, 5, 5)
    assert play_likelihood_multi(view, fives) == 1.0
    assert play_likelihood_multi(view, kings) == pytest.approx(PLAY_MISMATCH)


@pytest.mark.parametrize("key", ["2", "3", "4", "4p"])
def test_the_model_keep_is_standards_discard_told_by_ranks(key):
    # The worlds read a seat's hand from what ``standard`` keeps of six (two-handed) or five;
    # by ranks alone (no flush, no nobs) it keeps what ``standard`` keeps on 93-96% of these
    # hands, with every table.
    rng = random.Random(11)
    players, partnerships = int(key[0]), key.endswith("p")
    dealt = 6 if players == 2 else 5
    agree = 0
    for _ in range(300):
        hand = rng.sample(FULL_PACK, dealt)
        own = rng.random() < 0.5
        thrown = choose_discard(
            hand, dealer=own, players=players, partnerships=partnerships, level="standard"
        )
        ranks = tuple(sorted(c.rank for c in hand))
        kept = model_keep(ranks, key, own)
        assert not Counter(kept) - Counter(ranks) and len(kept) == 4  # four of the hand
        agree += kept == tuple(sorted(c.rank for c in hand if c not in thrown))
    assert agree >= 0.9 * 300


def partnership_deal(card: str, *, led: bool = False):
    """Partnerships, seat 0 deals; seat 1 holds ``card`` 2S 3S 4S and, if ``led``, has led it."""
    hands = ["KH QH 9C 8S", f"{card} 2S 3S 4S", "9D 8D 7D 6D", "JC QC KC 10S"]
    if not led:
        return position(Variant(players=4, partnerships=True), dealer=0, kept=hands, starter="2C")
    held = [h.replace(f"{card} ", "") for h in hands]
    return position(
        Variant(players=4, partnerships=True),
        dealer=0,
        kept=hands,
        starter="2C",
        held=held,
        pile=card,
        turn=2,
    )


def test_the_opponents_hands_are_read_from_what_they_laid_away():
    # Partnerships, seat 0 deals: no one lays a five into the other side's crib, so the
    # opponents (seats 1 and 3) hold fives more often than a random deal gives them; the
    # partner's discard (an expert's, not read) leaves its hand as random as it was.
    view = SeatKnowledge.of(partnership_deal("AS"), 0)

    def fives(read: bool) -> list[float]:
        deal = others_by_discards if read else sample_others  # a random deal of the unseen cards
        worlds = deal(view, random.Random(1), 4000)
        assert all(len(w[s]) == 4 for w in worlds for s in (1, 2, 3))
        return [sum(w[s].count(5) for w in worlds) / len(worlds) for s in (1, 2, 3)]

    read, random_deal = fives(True), fives(False)
    assert read[0] > random_deal[0] + 0.05 and read[2] > random_deal[2] + 0.05
    assert abs(read[1] - random_deal[1]) < 0.04


def test_a_card_laid_is_read_as_a_card_kept():
    # Seat 1 (an opponent of the dealer) led a king: the worlds give it, with the king, four
    # cards ``standard`` keeps from some five far more often than a random deal does (a world
    # it would not have kept the king in is kept only now and then: players are not all models).
    view = SeatKnowledge.of(partnership_deal("KS", led=True), 0)
    pool = sorted({c.rank for c in view.unseen_cards()})

    def kept_by_the_model(read: bool) -> float:
        deal = others_by_discards if read else sample_others
        worlds = deal(view, random.Random(2), 600)
        assert [len(worlds[0][s]) for s in (1, 2, 3)] == [3, 4, 4]
        kept = [tuple(sorted(w[1] + (13,))) for w in worlds]
        return sum(
            any(model_keep(tuple(sorted(k + (x,))), "4p", False) == k for x in pool) for k in kept
        ) / len(kept)

    read, random_deal = kept_by_the_model(True), kept_by_the_model(False)
    assert read > 0.85 and read > random_deal + 0.1
