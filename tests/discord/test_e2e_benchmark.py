"""The end-to-end benchmark runs (a tiny run: the real bot process, every figure printed, exit 0).

It is not timed: the figures are printed, not asserted (see the developers' guide)."""

import pytest

from tests.support.benchmarks import run_benchmark

pytestmark = pytest.mark.slow  # the real bot process, games paced then saturated


def test_a_tiny_end_to_end_run_prints_every_figure():
    figures = run_benchmark("e2e.py", "--games", "1", "--think", "0.02")
    assert figures["bot_in_own_process"] == 1
    for phase in ("paced", "saturated"):
        assert figures[f"{phase}_games"] == 1
        assert figures[f"{phase}_click_p50"] <= figures[f"{phase}_click_p99"]
        assert figures[f"{phase}_bot_cpu_ms_per_click"] > 0
    # a whole game is well over a hundred clicks, each answered
    assert figures["game_alone_clicks"] > 100
    assert 0 < figures["game_alone_waited_seconds"] < figures["game_alone_seconds"]
    assert figures["game_alone_bot_cpu_seconds"] > 0
