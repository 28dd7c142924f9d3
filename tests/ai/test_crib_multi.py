"""Crib expectations with 3 and 4 players from what each seat throws."""

import json
import random
from importlib import resources

import pytest

from bot.ai import choose_discard
from bot.ai.crib import OTHER_ROLES, crib_value, load_multi, multi_crib_values
from bot.ai.crib_multi import KEYS, build, deal_values
from bot.ai.discard import multi_options, table_options
from bot.engine import parse_cards


def test_the_throws_ship_as_package_data_in_the_shape_build_makes():
    text = resources.files("bot.ai").joinpath("data", "crib_multi.json").read_text()
    shipped = json.loads(text)
    tiny = build(seed=3, pool=40)
    assert set(tiny) == set(shipped) and shipped["format"] == 1 and shipped["pool"] >= 10_000
    for key in KEYS:
        assert set(shipped["throws"][key]) == set(tiny["throws"][key]) == {"own", "other"}
        for role, freq in shipped["throws"][key].items():
            assert len(freq) == len(tiny["throws"][key][role]) == 13
            assert sum(freq) == pytest.approx(1.0, abs=1e-3)
            assert all(0.0 <= f < 0.3 for f in freq)


def test_each_role_throws_what_it_should():
    for key in KEYS:
        own, other = load_multi()["throws"][key]["own"], load_multi()["throws"][key]["other"]
        # Toward an opponent's crib: kings and queens, hardly ever a five; to our own, more
        # fives than an opponent ever gives.
        assert other[12] == max(other) and other[4] < 0.01 < own[4]
        assert own[12] < other[12]
    assert set(OTHER_ROLES) == set(KEYS)
    assert all(len(OTHER_ROLES[k][own]) == 3 - (k == "3") for k in KEYS for own in (True, False))


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("own", [True, False])
def test_a_five_is_worth_more_than_a_king_and_values_are_consistent(key, own):
    hand = parse_cards("5H KS 2C 9D QC")
    values = multi_crib_values(hand, key=key, own=own)
    assert set(values) == set(hand)
    assert values[hand[0]] > values[hand[1]] + 1.5  # a five is worth far more than a king
    assert values[hand[3]] > values[hand[1]] - 0.05  # a 9 (it makes fifteens) beats a king
    assert all(3.0 < v < 8.0 for v in values.values())
    # Within half a point of the static table, which averages over the cards we keep.
    for card, v in values.items():
        assert v == pytest.approx(crib_value([card], key=key, own=own), abs=0.6)
    # Cards of one rank differ only by suit (nobs, flush): a hair apart.
    twins = multi_crib_values(parse_cards("5H 5C 2C 9D QC"), key=key, own=own)
    assert twins[hand[0]] == pytest.approx(twins[parse_cards("5C")[0]], abs=0.05)


def test_kept_cards_are_cards_the_crib_cannot_get():
    # Throwing a 5 while holding the other three fives is worth less than with none held.
    held = multi_crib_values(parse_cards("5H 5C 5D 5S KC"), key="3", own=True)
    free = multi_crib_values(parse_cards("5H KC QD 9S 2C"), key="3", own=True)
    assert held[parse_cards("5H")[0]] < free[parse_cards("5H")[0]] - 0.3


def test_the_expert_keeps_the_better_card_for_its_side():
    hand = parse_cards("2H 3S 5H JC QH")
    for players, partnerships in ((3, False), (4, True), (4, False)):
        ours = choose_discard(
            hand, dealer=True, players=players, partnerships=partnerships, level="expert"
        )
        theirs = choose_discard(
            hand, dealer=False, players=players, partnerships=partnerships, level="expert"
        )
        assert ours == parse_cards("5H")  # a five for our (team's) crib
        assert theirs == parse_cards("QH")  # never a five to an opponent's


def test_multi_options_rank_like_the_tables_on_clear_hands_and_measure_runs():
    hand = parse_cards("2H 3S 5H JC QH")
    for own in (True, False):
        mine = multi_options(hand, own=own, players=4, partnerships=True)
        table = table_options(hand, own=own, players=4, partnerships=True)
        assert mine[0].discard == table[0].discard
        assert [o.hand for o in sorted(mine, key=lambda o: o.discard)] == pytest.approx(
            [o.hand for o in sorted(table, key=lambda o: o.discard)]
        )
    rows = deal_values("3", random.Random(1))
    assert len(rows) == 3 and sum(own for own, *_ in rows) == 1
