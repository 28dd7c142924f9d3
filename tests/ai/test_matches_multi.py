"""Matches with 3 players and partnerships (benchmarks/matches_multi.py, printed by ai.py)."""

import pytest

from benchmarks.matches_multi import KINDS, multi_match, play, schedule
from tests.support.benchmarks import run_benchmark


@pytest.mark.parametrize(("name", "rotations"), [("3p", 3), ("partners", 2)])
def test_every_seed_is_played_with_the_side_in_each_seat(name, rotations):
    chunks = schedule(name, 7, parts=2)
    games = sorted(g for chunk in chunks for g in chunk)
    seeds = -(-7 // rotations)  # rounded up to whole rotations
    assert games == list(range(seeds * rotations))
    for chunk in chunks:  # a seed's rotations stay together, in order
        for i in range(0, len(chunk), rotations):
            assert chunk[i : i + rotations] == list(range(chunk[i], chunk[i] + rotations))
            assert chunk[i] % rotations == 0


@pytest.mark.parametrize(
    ("name", "seats"), [("3p", {(0,), (1,), (2,)}), ("partners", {(0, 2), (1, 3)})]
)
def test_the_same_deals_in_every_rotation(name, seats):
    """Standard against standard plays the same game in every rotation (the same cards, cuts
    and decisions), so exactly one rotation of each seed is the winner's side."""
    results, timings = multi_match(name, 3 * len(seats), workers=1, level="standard")
    by_seed: dict[int, list] = {}
    for r in results:
        by_seed.setdefault(r.seed, []).append(r)
    assert len(by_seed) == 3
    for games in by_seed.values():
        assert {r.seats for r in games} == seats
        assert sum(r.won for r in games) == 1
    assert timings and all(t > 0 for t in timings)
    variant = KINDS[name].variant  # the winner's side is the one counted as a win
    first = results[0].seed
    winner = play(variant, ("standard",) * variant.players, first)
    for r in by_seed[first]:
        assert r.won == (variant.side_of(r.seats[0]) == winner)
    assert variant.players == len(next(iter(seats))) * len(seats)
    assert variant.partnerships == (name == "partners")


@pytest.mark.slow
def test_the_benchmark_prints_the_multi_player_matches():
    figures = run_benchmark(
        "ai.py",
        *("--deals", "0", "--trade-deals", "0", "--hands", "1", "--workers", "1"),
        *("--games", "12", "--matches", "expert_vs_standard_3p,expert_vs_standard_partners"),
        timeout=120,
    )
    assert "expert_vs_standard" not in figures  # only the matches asked for
    for name, games in (("3p", 3), ("partners", 2)):  # the defaults from --games 12
        rate = figures[f"expert_vs_standard_{name}"]
        assert 0 <= figures[f"expert_vs_standard_{name}_ci95_low"] <= rate
        assert rate <= figures[f"expert_vs_standard_{name}_ci95_high"] <= 100
        assert figures[f"expert_vs_standard_{name}_games"] == games
        median = figures[f"play_ms_expert_{name}"]
        assert 0 < median <= figures[f"play_p99_ms_expert_{name}"]
        assert figures[f"play_p99_ms_expert_{name}"] <= figures[f"play_max_ms_expert_{name}"]
    assert figures["total_seconds"] >= 0
