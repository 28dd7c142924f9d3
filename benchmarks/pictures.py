"""Pictures benchmark: the CPU a painter process spends on each kind of picture a game draws.

Three kinds, drawn as a painter draws them (its caches warm from earlier pictures, each picture
new): a deal's show (``render_shows``: two hands and a crib of 4 cards each, and the starter),
a board (``render_board``, 2 players, scores walking through games) and a hand (``render_hand``,
4 cards). Each figure is CPU time (``time.process_time``) per picture, averaged over many
different pictures, and the mean size of their PNGs.

Run from the repository root::

    .venv/bin/python benchmarks/pictures.py [--count N] [--rounds R]
    .venv/bin/python benchmarks/pictures.py --against HEAD~3 [--write /tmp/pictures]

With ``--against REV`` the same is measured for the code of git revision ``REV`` (checked out
with ``git worktree add --detach /tmp/pictures-old REV`` and imported in its own process), the
two measured in turns (``--rounds``), and each figure's ratio new / old printed. ``--write DIR``
saves one picture of each kind from each checkout (``new_shows.png``, ``old_board.png``...) to
look at side by side.

Prints one ``name: value unit`` line per figure (the median over the rounds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OLD_TREE = Path("/tmp/pictures-old")
KINDS = ("shows", "board", "hand")


# --------------------------------------------------------------------------- the worker


def _inputs(count: int, seed: int) -> dict[str, list[tuple[Any, ...]]]:
    """``count`` different pictures of each kind, as games would ask for them."""
    from bot.engine import Card, score_show
    from bot.render.text import breakdown_summary

    rng = random.Random(seed)
    pack = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]
    shows, hands = [], []
    for _ in range(count):
        dealt = rng.sample(pack, 13)
        starter = dealt[12]
        rows = []
        for k, title in enumerate(("Alice's hand", "Bob's hand", "Bob's crib")):
            cards = sorted(dealt[4 * k : 4 * k + 4])
            counted = score_show(cards, starter, crib=k == 2)
            rows.append((title, tuple(cards), counted.total, breakdown_summary(counted)))
        shows.append((tuple(rows), starter))
        hands.append(
            (tuple(dealt[:4]), frozenset(dealt[3:4]) if rng.random() < 0.3 else frozenset())
        )
    boards = []
    scores, before = [0, 0], [0, 0]
    for _ in range(count):
        side = rng.randrange(2)
        if max(scores) >= 121:
            scores, before = [0, 0], [0, 0]
        before[side] = scores[side]
        scores[side] = min(121, scores[side] + rng.choice((1, 2, 2, 3, 4, 6, 8, 12)))
        sides = (("Alice", 0, scores[0], before[0]), ("Bob", 1, scores[1], before[1]))
        boards.append((sides, 121))
    return {"shows": shows, "board": boards, "hand": hands}


def work(count: int, write: str | None, prefix: str) -> dict[str, float]:
    """Measure the checkout first on ``sys.path`` (run in a process of its own)."""
    from bot.render import images

    renderers = {
        "shows": images.render_shows.__wrapped__,
        "board": images.render_board.__wrapped__,
        "hand": images.render_hand.__wrapped__,
    }
    images.warm_up()  # what a painter does before its first picture
    earlier, inputs = _inputs(count, 1), _inputs(count, 2)
    figures: dict[str, float] = {}
    for kind in KINDS:
        draw = renderers[kind]
        for args in earlier[kind]:  # a painter that has drawn a while (other games' pictures)
            draw(*args)
        start = time.process_time()
        sizes = [len(draw(*args)) for args in inputs[kind]]
        figures[f"{kind}_ms"] = (time.process_time() - start) * 1000 / count
        figures[f"{kind}_bytes"] = statistics.mean(sizes)
        if write:
            Path(write, f"{prefix}_{kind}.png").write_bytes(draw(*inputs[kind][count // 2]))
    return figures


# --------------------------------------------------------------------------- the runner


def _run(root: Path, count: int, write: str | None, prefix: str) -> dict[str, float]:
    command = [sys.executable, __file__, "--worker", str(root), "--count", str(count)]
    command += ["--prefix", prefix] + (["--write", write] if write else [])
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=root)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def _checkout(rev: str) -> Path:
    """``rev`` checked out (detached) at ``OLD_TREE``, replacing an older checkout there."""
    if OLD_TREE.exists():
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(OLD_TREE)], cwd=ROOT, check=True
        )
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(OLD_TREE), rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return OLD_TREE


def _median(runs: list[dict[str, float]], name: str) -> float:
    return statistics.median(run[name] for run in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="pictures of each kind a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--write", metavar="DIR", help="save a picture of each kind there")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="new", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(work(args.count, args.write, args.prefix)))
        return 0
    if args.write:
        Path(args.write).mkdir(parents=True, exist_ok=True)
    old_root = _checkout(args.against) if args.against else None
    new_runs, old_runs = [], []
    for _ in range(args.rounds):  # in turns, so that a busy moment weighs on both alike
        new_runs.append(_run(ROOT, args.count, args.write, "new"))
        if old_root is not None:
            old_runs.append(_run(old_root, args.count, args.write, "old"))
    for kind in KINDS:
        print(f"{kind}_ms: {_median(new_runs, f'{kind}_ms'):.3f} ms")
        print(f"{kind}_bytes: {_median(new_runs, f'{kind}_bytes'):.0f} bytes")
    if old_runs:
        for kind in KINDS:
            print(f"old_{kind}_ms: {_median(old_runs, f'{kind}_ms'):.3f} ms")
            print(f"old_{kind}_bytes: {_median(old_runs, f'{kind}_bytes'):.0f} bytes")
        for kind in KINDS:
            for unit, name in (("ms", "ms"), ("bytes", "bytes")):
                ratio = _median(new_runs, f"{kind}_{name}") / _median(old_runs, f"{kind}_{name}")
                print(f"{kind}_{unit}_ratio: {ratio:.2f} x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
