"""benchmarks/capacity.py runs (a tiny run: the real bot process, one table a phase, every
figure printed as ``name: value unit``, exit 0).

It is not timed: the figures are printed, not asserted, except what holds whatever the
machine: no 429 at human pace, and the projection follows from the measured figures."""

import math

import pytest

from tests.support.benchmarks import run_benchmark

pytestmark = pytest.mark.slow  # the real bot process, a paced and a saturated game


def test_a_tiny_capacity_run_prints_every_figure() -> None:
    figures = run_benchmark(
        "capacity.py", "--paced-games", "1", "--saturated-games", "1", "--time-factor", "0.005"
    )
    for name in (
        "clicks_per_s_per_process",
        "cpu_ms_per_click",
        "paced_cpu_ms_per_click",
        "bot_token_requests_per_click",
        "interaction_requests_per_click",
        "human_clicks_per_table_per_s",
        "tables_per_process",
        "tables_per_bot_token",
    ):
        assert figures[name] > 0, name
    assert figures["http_429"] == 0
    assert figures["bot_in_own_process"] == 1
    # the cards are the bot's own shuffle, so a game's length varies (96 clicks seen, about a
    # hundred usual); what holds on any cards: no deal reaches 121, and the first alone is two
    # discards and eight cards laid, so a game is more than ten clicks
    assert figures["paced_clicks_per_game"] > 10
    assert 0.1 < figures["human_clicks_per_table_per_s"] < 1
    # the projection: ceil(N / tables per process), from the rounded figure printed
    processes = figures["processes_for_10000_tables"]
    tables = figures["tables_per_process"]  # printed to 0.1: the count follows within that
    assert math.ceil(10_000 / (tables + 0.05)) <= processes <= math.ceil(10_000 / (tables - 0.05))
    assert figures["processes_for_100000_tables"] >= processes
