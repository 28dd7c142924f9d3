"""Review benchmark: the analysis of a whole 121-point game (<= 5 s on 2 cores).

    .venv/bin/python benchmarks/review.py [--games 5] [--seed 1]

``--games`` seeded two-handed games to 121, played by ``standard`` computers through the engine
and rebuilt from their logs (not timed), each reviewed for seat 0 (:func:`bot.ai.review.review`:
every discard and every card laid, the expert's search on each). Figures, one per line as
``name: value unit``:

* ``review_seconds_p50`` / ``review_seconds_max``: one review, in this process, one after the
  other (the first with cold tables and memos: it is usually the max);
* ``review_seconds_worker``: the first review in a fresh worker process, as the manager runs it
  (the process's start included: the wait of the first **Review my game** after a restart);
* ``review_seconds_4p``: one four-handed game to 121 (each for themselves: the slowest search);
* ``decisions_per_game``: the seat's decisions per game, on average (forced ones included);
* ``chance_decisions_per_game``: of those, the ones valued in chances to win (near the end:
  :func:`bot.ai.deal_chances.discard_chance` and :func:`bot.ai.deal_chances.play_chances`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.review import ReplayLike, review  # noqa: E402
from bot.engine import Variant  # noqa: E402
from tests.support.replays import played_replay  # noqa: E402


def timed_review(replay: ReplayLike, seat: int) -> float:
    start = time.perf_counter()
    review(replay, seat)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    replays = [played_replay(args.seed + i, Variant()) for i in range(args.games)]

    context = multiprocessing.get_context("forkserver")
    start = time.perf_counter()
    with ProcessPoolExecutor(1, mp_context=context) as worker:
        worker.submit(review, replays[0], 0).result()
    cold_worker = time.perf_counter() - start

    seconds = []
    decisions = chances = 0
    for replay in replays:
        start = time.perf_counter()
        done = review(replay, 0).decisions
        seconds.append(time.perf_counter() - start)
        decisions += len(done)
        chances += sum(d.chances for d in done)
    four = played_replay(args.seed, Variant(players=4))
    print(f"games: {args.games} games")
    print(f"review_seconds_p50: {statistics.median(seconds):.2f} s")
    print(f"review_seconds_max: {max(seconds):.2f} s")
    print(f"review_seconds_worker: {cold_worker:.2f} s")
    print(f"review_seconds_4p: {timed_review(four, 0):.2f} s")
    print(f"decisions_per_game: {decisions / len(replays):.1f} decisions")
    print(f"chance_decisions_per_game: {chances / len(replays):.1f} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
