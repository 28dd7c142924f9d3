"""The pegging prospects table: complete, made by the project's own code, and what it teaches."""

from __future__ import annotations

import pytest

from bot.ai.config import EXPERT
from bot.ai.discard import removal_options
from bot.ai.pegging_prospects import (
    build,
    kept_hands,
    key_of,
    load_multi_prospects,
    load_prospects,
    multi_prospect,
    pegging_prospect,
    prospect,
    prospect_multi,
)
from bot.ai.players import decide, discard_options
from bot.ai.view import SeatKnowledge
from bot.engine import Card, Discard, Game, Variant


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_every_kept_hand_in_both_roles_is_in_the_shipped_table() -> None:
    table = load_prospects()
    keys = {key_of(h) for h in kept_hands()}
    assert len(keys) == 1820
    assert set(table["dealer"]) == keys
    assert set(table["pone"]) == keys
    assert table["samples"] >= 4000


@pytest.mark.parametrize("hand", [(5, 5, 10, 13), (1, 2, 3, 4), (3, 6, 7, 7)])
def test_the_shipped_entries_are_what_the_projects_code_makes(hand: tuple[int, ...]) -> None:
    table = load_prospects()
    for role, dealer in (("dealer", True), ("pone", False)):
        made = prospect(hand, dealer, table["samples"], table["seed"])
        assert round(made, 3) == table[role][key_of(hand)]


def test_the_table_is_the_same_whatever_the_number_of_workers() -> None:
    hands = [(1, 1, 5, 13), (2, 3, 4, 4), (9, 10, 11, 12)]
    one = build(samples=60, seed=7, workers=1, hands=hands)
    two = build(samples=60, seed=7, workers=2, hands=hands, log=lambda _: None)
    assert one["dealer"] == two["dealer"] and one["pone"] == two["pone"]
    assert set(one["dealer"]) == {"115d", "2344", "9abc"}


def test_the_order_and_suits_of_the_kept_cards_do_not_matter() -> None:
    a = pegging_prospect(cards("KS 5H AC 5D"), dealer=False)
    b = pegging_prospect(cards("5C 5S KH AD"), dealer=False)
    assert a == b == load_prospects()["pone"]["155d"]


def test_the_dealer_pegs_better_than_the_pone_on_average() -> None:
    table = load_prospects()
    dealer = sum(table["dealer"].values()) / 1820
    pone = sum(table["pone"].values()) / 1820
    assert dealer > 0.5 and pone < -0.5


def test_a_pone_who_keeps_only_fives_must_lead_one_and_pays_for_it() -> None:
    # Leading a 5 hands the dealer fifteen-two on any ten-card; low cards are safe leads.
    assert pegging_prospect(cards("5C 5D 5H 5S"), dealer=False) < -3
    assert pegging_prospect(cards("AC 2D 3H 4S"), dealer=False) > pegging_prospect(
        cards("5C 5D 10H KS"), dealer=False
    )
    assert pegging_prospect(cards("5C 5D 5H 5S"), dealer=True) > pegging_prospect(
        cards("5C 5D 5H 5S"), dealer=False
    )


def test_the_expert_discard_weighs_the_table_the_standard_one_does_not() -> None:
    # Same hand and crib figures; the expert adds the table's prospects of what it keeps.
    hand = cards("3C 4D 5H 6S 10C KD")
    plain = removal_options(hand, own=False, pegging=False)
    expert = removal_options(hand, own=False, pegging=True)
    by_discard = {o.discard: o for o in plain}
    for option in expert:
        base = by_discard[option.discard]
        assert option.extra == pegging_prospect(option.kept, dealer=False)
        assert option.net == pytest.approx(base.net + option.extra)


# --------------------------------------------------------------------------- three and four


@pytest.mark.parametrize("key, seats", [("3", 3), ("4", 4), ("4p", 4)])
def test_every_seat_of_every_multi_player_variant_has_every_kept_hand(key: str, seats: int) -> None:
    table = load_multi_prospects()[key]
    keys = {key_of(h) for h in kept_hands()}
    assert len(table["seats"]) == seats
    assert all(set(seat) == keys for seat in table["seats"])


@pytest.mark.parametrize("key, offset, hand", [("3", 1, (5, 5, 10, 13)), ("4p", 2, (1, 2, 3, 4))])
def test_the_shipped_multi_entries_are_what_the_projects_code_makes(
    key: str, offset: int, hand: tuple[int, ...]
) -> None:
    table = load_multi_prospects()[key]
    made = prospect_multi(hand, key, offset, table["samples"], table["seed"])
    assert round(made, 3) == table["seats"][offset][key_of(hand)]


def test_with_three_players_the_leader_pays_for_holding_only_fives() -> None:
    seats = load_multi_prospects()["3"]["seats"]
    fives = key_of((5, 5, 5, 5))
    assert seats[1][fives] < seats[0][fives] - 1  # the leader must open with a 5


@pytest.mark.parametrize("players, partnerships, key", [(3, False, "3"), (4, True, "4p")])
def test_the_expert_weighs_the_prospects_of_its_own_seat(
    players: int, partnerships: bool, key: str
) -> None:
    # In partnerships a point of prospects counts for less than a point of show.
    worth = EXPERT.pegging_weight_partners if partnerships else 1.0
    assert worth == (0.5 if partnerships else 1.0)
    game = Game.new(Variant(players=players, partnerships=partnerships), seed=5, first_dealer=0)
    for seat in range(players):
        view = SeatKnowledge.of(game, seat)
        offset = (seat - game.dealer) % players
        options = discard_options(
            view.hand,
            dealer=view.crib_is_ours,
            players=players,
            partnerships=partnerships,
            offset=offset,
        )
        for option in options:
            assert option.extra == worth * multi_prospect(option.kept, key, offset)
        best = max(options, key=lambda o: o.net).discard
        assert decide(view, level="expert", seed=1) == Discard(best)
