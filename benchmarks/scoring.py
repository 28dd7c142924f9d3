"""Scoring benchmark: all 12,994,800 hand + starter combinations, and random full games.

Run from the repository root: .venv/bin/python benchmarks/scoring.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Card, Game, Variant, score_show  # noqa: E402
from bot.engine.enumeration import COMBINATIONS, score_distribution  # noqa: E402


def random_games(n: int) -> float:
    rng = random.Random(0)
    start = time.perf_counter()
    for seed in range(n):
        game = Game.new(Variant(players=2), seed=seed)
        while not game.is_over:
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return n / (time.perf_counter() - start)


def itemized_rate(n: int = 50_000) -> float:
    rng = random.Random(1)
    pack = [Card(r, s) for r in range(1, 14) for s in range(4)]
    hands = [rng.sample(pack, 5) for _ in range(n)]
    start = time.perf_counter()
    for cards in hands:
        score_show(cards[:4], cards[4])
    return n / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    start = time.perf_counter()
    hand, crib = score_distribution(workers=args.workers)
    elapsed = time.perf_counter() - start
    assert sum(hand.values()) == sum(crib.values()) == COMBINATIONS
    print(f"enumeration_seconds: {elapsed:.2f} s")
    print(f"enumeration_rate: {2 * COMBINATIONS / elapsed / 1e6:.2f} M scores/s")
    print(f"itemized_show_rate: {itemized_rate():.0f} hands/s")
    print(f"random_games_per_second: {random_games(args.games):.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
