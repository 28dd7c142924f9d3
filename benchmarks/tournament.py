"""Tournament benchmark: pairing a big Swiss round, and the standings of a finished event.

Run from the repository root: .venv/bin/python benchmarks/tournament.py [--players N] [--repeat R]

Prints ``name: value unit`` lines: pairing, the fastest and slowest of R random events;
standings, the best of R runs. Goals: a round of a 256-player Swiss
after 5 rounds of random results paired within 1 s; the standings of a finished 256-player,
8-round Swiss within 100 ms.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.tournament import (  # noqa: E402
    Format,
    Result,
    Round,
    Scoring,
    Tournament,
    next_round,
    standings,
)


def _play(rnd: Round, rng: random.Random) -> list[Result]:
    results = list(rnd.settled)
    for p in rnd.pairings:
        loser = rng.randint(60, 120)
        score = (121, loser) if rng.random() < 0.5 else (loser, 121)
        results.append(Result.played(rnd.number, p.first, p.second, score))
    return results


def _event(players: int, rounds: int, played: int, seed: int) -> tuple[Tournament, list[Result]]:
    field = tuple(f"player{i:03}" for i in range(players))
    t = Tournament(Format.SWISS, field, rounds=rounds, seed=seed, scoring=Scoring(spread_cap=40))
    rng = random.Random(seed)
    results: list[Result] = []
    for _ in range(played):
        results += _play(next_round(t, results), rng)
    return t, results


def pairing_ms(players: int, played: int, repeat: int) -> tuple[float, float]:
    """The fastest and slowest pairing of the next round over ``repeat`` random events."""
    times = []
    for seed in range(repeat):
        t, results = _event(players, rounds=8, played=played, seed=seed)
        start = time.perf_counter()
        next_round(t, results)
        times.append(time.perf_counter() - start)
    return min(times) * 1000, max(times) * 1000


def standings_ms(players: int, repeat: int) -> float:
    t, results = _event(players, rounds=8, played=8, seed=99)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        standings(t, results)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n = args.players
    for played in (5, 7):
        best, worst = pairing_ms(n, played, args.repeat)
        print(f"swiss_round_{n}_after_{played}_best: {best:.1f} ms")
        print(f"swiss_round_{n}_after_{played}_worst: {worst:.1f} ms")
    print(f"standings_{n}_after_8: {standings_ms(n, args.repeat):.2f} ms")


if __name__ == "__main__":
    main()
