"""benchmarks/duplicate.py: the same cards played by each side in every seat."""

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "duplicate.py"


@pytest.fixture(scope="module")
def duplicate():
    spec = importlib.util.spec_from_file_location("duplicate_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules["duplicate_benchmark"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", ["2p", "3p", "partners"])
def test_a_level_against_itself_is_level_on_every_part(duplicate, kind):
    # The same player in every seat plays the same deal the same way in every arrangement: what
    # one arrangement gives a side, another gives its opponents.
    margins = duplicate.seed_margins(kind, 11, "standard", "standard")
    assert set(margins) == {"pegging", "hand", "crib", "total"}
    assert all(v == pytest.approx(0.0) for v in margins.values()), margins


def test_a_deal_is_scored_by_part_and_stops_at_its_show(duplicate):
    variant = duplicate.KINDS["2p"][0]
    points, winner = duplicate.play_deal(variant, ("expert", "standard"), 5)
    assert winner is None  # one deal from 0-0 ends no game
    for side in points:
        assert side["total"] == side["pegging"] + side["hand"] + side["crib"]
    assert sum(side["pegging"] for side in points) >= 1  # somebody takes the last card
    assert sum(side["crib"] for side in points) == points[0]["crib"]  # seat 0 dealt
    assert all(side["hand"] for side in points)  # the show was counted (it ends the deal)


def test_from_scores_near_the_end_the_game_is_played_out(duplicate):
    margins = duplicate.seed_margins("2p", 3, "standard", "standard", (110, 120))
    assert margins == {"wins": 0.5}  # the same game twice: the seat that wins, wins both
    expert = duplicate.seed_margins("partners", 3, "expert", "standard", (110, 120))
    assert expert["wins"] in (0.0, 0.5, 1.0)


def test_the_run_prints_its_figures_and_the_change_from_a_base(duplicate, tmp_path, capsys):
    dump = tmp_path / "base.json"
    argv = ["--kind", "2p", "--deals", "3", "--workers", "1", "--dump", str(dump)]
    assert duplicate.main(argv) == 0
    assert set(json.loads(dump.read_text())) == {"70000", "70001", "70002"}
    assert duplicate.main([*argv[:-2], "--base", str(dump)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(re.fullmatch(r"[a-z0-9_]+: [-+0-9.]+ \S+", line) for line in lines), lines
    figures = dict(line.split(": ") for line in lines)
    assert figures["dup_2p_total_change"] == "+0.000 points"  # the same seeds, the same play
    assert "dup_2p_pegging_ci95" in figures


def test_a_setting_configures_the_expert_for_the_run_and_changes_no_module(duplicate):
    from bot.ai import expert_pegging
    from bot.ai.config import EXPERT

    config = duplicate.configured(["search_worlds=17", "search_stages=[5, 10]"])
    assert config.search_worlds == 17 and config.search_stages == (5, 10)
    assert config.dealer_against == EXPERT.dealer_against  # the rest as the expert plays
    assert EXPERT.search_worlds == 400 and not hasattr(expert_pegging, "SEARCH_WORLDS")
    with pytest.raises(SystemExit, match="no setting"):
        duplicate.configured(["no_such_setting=1"])


def test_a_configured_expert_plays_the_run(duplicate, monkeypatch):
    # The configuration reaches the expert's search (in this process: one worker).
    from bot.ai import pegging_search

    sizes: list[int] = []
    real = pegging_search.search_values

    def counting(me, pile, count, worlds, *rest):
        sizes.append(len(worlds))
        return real(me, pile, count, worlds, *rest)

    monkeypatch.setattr(pegging_search, "search_values", counting)
    config = duplicate.configured(["search_worlds=20", "search_stages=[20]"])
    duplicate.seed_margins("2p", 70_001, "expert", "standard", config=config)
    assert sizes and max(sizes) <= 20
