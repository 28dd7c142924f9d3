"""The Monte Carlo yardstick pegger and its duel (benchmarks/yardstick.py): quick checks."""

import importlib.util
import json
import random
from pathlib import Path

import pytest

from bot.ai.view import SeatKnowledge
from bot.engine import Card, Variant
from tests.support.engine_positions import position

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _view() -> SeatKnowledge:
    # The pone led 3C, the dealer laid KH, the pone 8D: 21, the dealer to lay.
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KH 10S 4C 7D", "3C 8D 9H 2D"],
        starter="AS",
        held=["10S 4C 7D", "9H 2D"],
        pile="3C KH 8D",
        turn=0,
    )
    return SeatKnowledge.of(game, 0)


def test_the_yardstick_takes_thirty_one_and_values_every_legal_rank():
    yardstick = _load("yardstick")
    view = _view()
    values = yardstick.yardstick_values(view, random.Random(1), 60)
    assert set(values) == {10, 4, 7}
    assert yardstick.yardstick_play(view, random.Random(1), 60) == Card.parse("10S")
    assert values[10] >= 2 > values[7]  # 31 for two; at 28 the pone may take the 31 or the go
    assert values == yardstick.yardstick_values(view, random.Random(1), 60)  # seeded


def test_a_duel_pegs_the_same_cards_from_both_seats_and_prints_every_figure():
    yardstick = _load("yardstick")
    same = yardstick.peg_deal(5, ("standard", "standard"), 10)
    assert same == yardstick.peg_deal(5, ("standard", "standard"), 10)
    level_deals = yardstick.peg_deal(5, ("standard", "yardstick"), 20)
    yard_deals = yardstick.peg_deal(5, ("yardstick", "standard"), 20)
    dealer, pone = yardstick.duel_deal("standard", 5, 20)
    assert dealer + pone == (level_deals[0] - level_deals[1]) - (yard_deals[0] - yard_deals[1])
    lines = yardstick.duel_lines("expert", 2, 10, 1)
    names = {line.split(": ")[0] for line in lines}
    for role in ("dealer", "pone", "both"):
        assert f"expert_vs_yardstick_{role}" in names
        assert f"expert_vs_yardstick_{role}_ci95" in names
    assert all(": " in line for line in lines)


@pytest.mark.parametrize("variant", [Variant(players=3), Variant(players=4, partnerships=True)])
def test_with_three_and_four_players_it_takes_thirty_one_too(variant):
    yardstick = _load("yardstick")
    kept = ["KH 10S 4C 7D", "3C 9H 2D 6H", "8D QC 5S AH", "JD JS 2C 3D"][: variant.players]
    held = ["10S 4C 7D", "9H 2D 6H", "QC 5S AH", "JD JS 2C 3D"][: variant.players]
    game = position(variant, dealer=0, kept=kept, starter="AS", held=held, pile="3C 8D KH", turn=0)
    view = SeatKnowledge.of(game, 0)
    values = yardstick.yardstick_values(view, random.Random(2), 40)
    assert set(values) == {10, 4, 7}
    assert yardstick.yardstick_play(view, random.Random(2), 40) == Card.parse("10S")


def test_the_duel_runs_against_a_level_as_a_quick_proxy():
    yardstick = _load("yardstick")
    dealer, pone = yardstick.duel_deal("expert", 7, 0, against="standard")
    mine = yardstick.peg_deal(7, ("expert", "standard"), 0)
    theirs = yardstick.peg_deal(7, ("standard", "expert"), 0)
    assert (dealer, pone) == (mine[0] - theirs[0], theirs[1] - mine[1])
    lines = yardstick.duel_lines("expert", 2, 0, 1, against="standard")
    names = {line.split(": ")[0] for line in lines}
    assert {"expert_vs_standard_dealer", "expert_vs_standard_pone"} <= names
    assert not any(name.endswith("_yardstick_ms") for name in names)  # no yardstick played


def test_with_the_opponent_fixed_each_seat_is_measured_by_its_margin_against_the_same_one():
    # The two edges count one seat's points each; the margins hold the seat across the table.
    yardstick = _load("yardstick")
    row = yardstick.duel_deal("expert", 11, 0, against="standard", fixed=True)
    mine = yardstick.peg_deal(11, ("expert", "standard"), 0)
    theirs = yardstick.peg_deal(11, ("standard", "expert"), 0)
    same = yardstick.peg_deal(11, ("standard", "standard"), 0)
    assert row[:2] == yardstick.duel_deal("expert", 11, 0, against="standard")
    assert row[2] == (mine[0] - mine[1]) - (same[0] - same[1])  # the expert deals
    assert row[3] == (same[0] - same[1]) - (theirs[0] - theirs[1])  # the expert is pone
    # Standard against itself: every margin is nothing, on every deal.
    assert yardstick.duel_deal("standard", 11, 0, against="standard", fixed=True) == (0, 0, 0, 0)
    lines = yardstick.duel_lines("expert", 2, 0, 1, against="standard", fixed=True)
    names = {line.split(": ")[0] for line in lines}
    for role in ("dealer_margin", "pone_margin"):
        assert {f"expert_vs_standard_{role}", f"expert_vs_standard_{role}_ci95"} <= names
    plain = yardstick.duel_lines("expert", 2, 0, 1, against="standard")
    assert not any("margin" in line for line in plain)


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
def test_on_two_workers_each_deal_s_edges_stay_with_its_seed(tmp_path):
    # The workers take every other seed; the rows (and a --dump) come back in seed order.
    from benchmarks import yardstick  # by its package name, which the workers can import

    rows, _ = yardstick.duel("expert", 4, 0, 2, first_seed=80_010, against="standard")
    expected = [
        yardstick.duel_deal("expert", s, 0, against="standard") for s in range(80_010, 80_014)
    ]
    assert rows == expected
    dump = tmp_path / "duel.jsonl"
    yardstick.duel_lines("expert", 4, 0, 2, 80_010, str(dump), against="standard")
    dumped = [json.loads(line) for line in dump.read_text().splitlines()]
    assert [(d[2], tuple(d[3:])) for d in dumped] == list(
        zip(range(80_010, 80_014), map(tuple, expected), strict=True)
    )
