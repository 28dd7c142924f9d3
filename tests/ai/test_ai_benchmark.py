"""The AI benchmark script runs (a tiny run: every figure printed, exit 0)."""

import importlib.util
import re
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "ai.py"


@pytest.mark.slow
def test_a_tiny_benchmark_run(capsys):
    spec = importlib.util.spec_from_file_location("ai_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--deals", "3", "--games", "2", "--hands", "3", "--workers", "1", "--trade-deals", "40"]
    assert module.main([*argv, "--matches", "expert_vs_standard,easy_vs_random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = {line.split(":")[0] for line in lines}
    for name in (
        "discard_ms_expert",
        "dealer_points_expert",
        "pone_points_standard",
        "expert_vs_standard",
        "expert_vs_standard_ci95_low",
        "expert_vs_standard_ci95_high",
        "easy_vs_random",
        "play_ms_expert",
        "play_p99_ms_expert",
        "pegging_changes_discard_expert",
        "pegging_trade_net_per_changed_deal",
        "total_seconds",
    ):
        assert name in names
    assert all(re.fullmatch(r"[a-z0-9_]+: [-+0-9.]+ \S+( \S+)*", line) for line in lines), lines
    assert module.wilson(50, 100)[0] < 0.5 < module.wilson(50, 100)[1]


def test_the_pegging_margin_is_the_same_deal_from_either_side():
    spec = importlib.util.spec_from_file_location("ai_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from bot.engine import parse_cards

    dealer, pone = parse_cards("5H 5C 10D KS"), parse_cards("4D 6C 7S JH")
    starter = parse_cards("2S")[0]
    margin = module.pegging_margin(dealer, pone, starter, True)
    assert margin == -module.pegging_margin(pone, dealer, starter, False)
    assert margin != 0  # fives and tens against a run: somebody pegs more


def test_the_benchmark_prints_the_pegging_duel_against_the_yardstick(capsys):
    spec = importlib.util.spec_from_file_location("ai_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--deals", "0", "--hands", "1", "--workers", "1", "--trade-deals", "0"]
    argv += ["--matches", "none", "--yardstick-deals", "1", "--playouts", "10"]
    assert module.main(argv) == 0
    names = {line.split(": ")[0] for line in capsys.readouterr().out.splitlines()}
    for level in ("expert", "standard"):
        for role in ("dealer", "pone"):
            assert f"{level}_vs_yardstick_{role}" in names
            assert f"{level}_vs_yardstick_{role}_ci95" in names
