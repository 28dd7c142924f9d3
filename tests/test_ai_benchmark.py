"""The AI benchmark script runs (a tiny run: every figure printed, exit 0)."""

import importlib.util
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "ai.py"


def test_a_tiny_benchmark_run(capsys):
    spec = importlib.util.spec_from_file_location("ai_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--deals", "3", "--games", "2", "--hands", "3", "--workers", "1"]
    assert module.main([*argv, "--matches", "expert_vs_standard,easy_vs_random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = {line.split(":")[0] for line in lines}
    for name in (
        "discard_ms_expert",
        "dealer_points_expert",
        "pone_points_standard",
        "expert_vs_standard",
        "easy_vs_random",
        "play_ms_expert",
        "total_seconds",
    ):
        assert name in names
    assert all(": " in line for line in lines)
    assert module.wilson(50, 100)[0] < 0.5 < module.wilson(50, 100)[1]
