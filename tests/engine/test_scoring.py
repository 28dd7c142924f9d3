"""Every scoring rule of the rules (docs/players/rules.md), for the show and for pegging."""

import random
from itertools import combinations

import pytest

from bot.engine import FULL_PACK, Card, ScoreKind, parse_cards, score_pegging, score_show
from bot.engine.scoring import show_points


def show(hand: str, starter: str, crib: bool = False):
    return score_show(parse_cards(hand), Card.parse(starter), crib=crib)


def kinds(breakdown):
    return [(item.kind, item.points) for item in breakdown.items]


# ------------------------------------------------------------------------- the show


def test_the_29_hand():
    b = show("5H 5C 5S JD", "5D")
    assert b.total == 29
    assert sum(1 for i in b.items if i.kind is ScoreKind.FIFTEEN) == 8
    assert (ScoreKind.DOUBLE_PAIR_ROYAL, 12) in kinds(b)
    assert (ScoreKind.NOBS, 1) in kinds(b)
    assert b.announce().endswith("and his nobs is twenty-nine")


def test_28_without_nobs():
    assert show("5H 5C 5S JD", "5C" if False else "5D").total == 29
    assert show("5H 5C 5D 5S", "JD").total == 28


def test_double_run_of_three_with_its_pair_scores_8():
    b = show("3C 4D 4H 5S", "KC")
    assert b.total == 8 + 2  # the double run with its pair, and fifteen (5+K)
    runs = [i for i in b.items if i.kind is ScoreKind.RUN]
    assert len(runs) == 2 and all(len(r.cards) == 3 for r in runs)


def test_double_run_without_fifteens():
    b = show("3C 4D 4H 5S", "AC")
    assert b.total == 8
    assert (
        b.announce() == "a pair is two, a run of three is five, and another run of three is eight"
    )


def test_double_double_run_scores_16_plus_fifteens():
    b = show("3C 3D 4H 4S", "5D")
    runs_and_pairs = sum(i.points for i in b.items if i.kind is not ScoreKind.FIFTEEN)
    assert runs_and_pairs == 16
    assert b.total == 20  # 3+3+4+5 twice


def test_triple_run():
    b = show("6C 6D 6H 7S", "8D")
    assert sum(1 for i in b.items if i.kind is ScoreKind.RUN) == 3
    assert (ScoreKind.PAIR_ROYAL, 6) in kinds(b)
    assert b.total == 6 + 9 + 2  # pair royal, three runs, and fifteen (7+8)


def test_run_of_five_counts_once():
    b = show("AC 2D 3H 4S", "5D")
    assert [(i.kind, len(i.cards)) for i in b.items if i.kind is ScoreKind.RUN] == [
        (ScoreKind.RUN, 5)
    ]
    assert b.total == 7  # run of five + fifteen (1+2+3+4+5)


def test_no_wrap_around_q_k_a():
    assert not [i for i in show("QC KD AH 7S", "9D").items if i.kind is ScoreKind.RUN]


def test_fifteens_every_distinct_combination():
    b = show("5H 10C JD QS", "KH")
    assert [i.points for i in b.items if i.kind is ScoreKind.FIFTEEN] == [2, 2, 2, 2]
    assert b.total == 8 + 4  # four fifteens (5 with each ten-card) and the run 10-J-Q-K


def test_hand_flush_of_four_and_five():
    assert (ScoreKind.FLUSH, 4) in kinds(show("2H 4H 6H 8H", "KS"))
    assert (ScoreKind.FLUSH, 5) in kinds(show("2H 4H 6H 8H", "KH"))
    # starter matching three of the hand's cards is no flush
    assert ScoreKind.FLUSH not in [k for k, _ in kinds(show("2H 4H 6H 8S", "KH"))]


def test_crib_flush_only_with_all_five():
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True).total == 5


def test_nobs_only_in_hand_and_of_starters_suit():
    assert (ScoreKind.NOBS, 1) in kinds(show("JH 2C 4D 6S", "9H"))
    assert ScoreKind.NOBS not in [k for k, _ in kinds(show("JH 2C 4D 6S", "9C"))]
    # a jack turned as the starter is his heels (pegged at the cut), never nobs
    assert ScoreKind.NOBS not in [k for k, _ in kinds(show("2C 4D 6S 9H", "JH"))]
    assert (ScoreKind.NOBS, 1) in kinds(show("JH 2C 4D 6S", "9H", crib=True))


def test_nineteen_hand_announces_nothing():
    b = show("2C 4D 6S 8H", "KC")
    assert b.total == 0 and b.announce().startswith("nineteen")


def test_announce_running_totals_in_table_talk():
    b = show("5H 5C JD QS", "2D")
    assert b.announce() == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, "
        "and his nobs is eleven"
    )
    assert show("5H 5C JS QS", "2D").announce() == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten"
    )


@pytest.mark.parametrize("bad", [("5H 5C 5S", "5D"), ("5H 5C 5S 5D", "5D"), ("5H 5H 5S JD", "2C")])
def test_show_refuses_malformed_hands(bad):
    with pytest.raises(ValueError):
        show(*bad)


@pytest.mark.parametrize("impossible", [19, 25, 26, 27])
def test_impossible_totals_never_occur_on_a_sample(impossible):
    rng = random.Random(impossible)
    for _ in range(3000):
        cards = rng.sample(FULL_PACK, 5)
        assert score_show(cards[:4], cards[4]).total != impossible


def test_fast_scorer_agrees_with_the_itemized_one():
    rng = random.Random(1)
    for _ in range(20000):
        cards = rng.sample(FULL_PACK, 5)
        crib = rng.random() < 0.5
        assert (
            show_points(cards[:4], cards[4], crib=crib)
            == score_show(cards[:4], cards[4], crib=crib).total
        )


def test_fast_scorer_agrees_on_every_rank_pattern():
    # every multiset of hand ranks with every starter rank, suits spread (no flushes)
    for hand_ranks in combinations(range(1, 14), 4):
        for starter_rank in range(1, 14):
            hand = [Card(r, i % 4) for i, r in enumerate(hand_ranks)]
            suit = 0 if starter_rank not in hand_ranks else 1
            starter = Card(starter_rank, suit if Card(starter_rank, suit) not in hand else 3)
            if starter in hand:
                continue
            assert show_points(hand, starter) == score_show(hand, starter).total


# ------------------------------------------------------------------------- pegging


def peg(cards: str):
    return score_pegging(parse_cards(cards))


@pytest.mark.parametrize(
    ("cards", "points", "talk"),
    [
        ("7H 8C", 2, "fifteen for two"),
        ("10H 5C", 2, "fifteen for two"),
        ("KH KS", 2, "a pair for two"),
        ("KH KS KD", 6, "a pair royal for six"),
        ("3H 3S 3D 3C", 12, "a double pair royal for twelve"),
        ("5H 5C 5D", 8, "fifteen and a pair royal for eight"),
        ("4H 6C 5D", 5, "fifteen and a run of three for five"),
        ("4S 6C 5D 3H", 4, "a run of four for four"),
        ("6S 4H 5D 6C", 3, "a run of three for three"),  # RULES: 6-4-5-6 scores 3
        ("4H 5C 5D 6S", 0, ""),  # RULES: 4-5-5-6 scores nothing
        ("KH QS 5D 6S", 2, "thirty-one for two"),
        ("10H 10C JD", 0, ""),  # pair broken: J is not a pair with 10
        ("QH KD AS", 0, ""),  # no wrap-around
        ("AH 2S 3D", 3, "a run of three for three"),
        ("9H 6S 7D 8C", 4, "a run of four for four"),  # count 30
        ("2H 3S 4D 6C 5H", 5, "a run of five for five"),
        ("AH 2S 3D 4C 5H", 7, "fifteen and a run of five for seven"),
    ],
)
def test_pegging_points(cards, points, talk):
    b = peg(cards)
    assert b.total == points
    assert b.announce() == talk


def test_run_across_fifteen_scores_both():
    # 7-9-8: count 24, run of three; 4-5-6 making 15 scores fifteen and run
    assert peg("7H 9S 8D").total == 3
    b = peg("4H 6S 5D")
    assert sorted(i.kind.value for i in b.items) == ["fifteen", "run"]


def test_only_the_last_card_scores():
    # the pair 5-5 was scored when laid; a following 3 scores nothing
    assert peg("5H 5C 3D").total == 0


def test_pairs_must_be_consecutive():
    assert peg("9H 2C 9D").total == 0


def test_thirty_one_with_a_pair():
    b = peg("10H 10C 3D 4S 4D")
    assert sum(c.value for c in parse_cards("10H 10C 3D 4S 4D")) == 31
    assert sorted(i.kind.value for i in b.items) == ["pair", "thirty-one"]
    assert b.total == 4


def test_pegging_refuses_bad_piles():
    with pytest.raises(ValueError):
        peg("KH QS JD 5C")  # 35
    with pytest.raises(ValueError):
        score_pegging([])
    with pytest.raises(ValueError):
        peg("5H 5H")
