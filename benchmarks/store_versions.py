"""The session benchmark's store figures for two versions of the code, in one run.

    .venv/bin/python benchmarks/store_versions.py OLD_ROOT NEW_ROOT [--database URL]
        [--games 200] [--seconds 6] [--resume 1000] [--rounds 2]

``OLD_ROOT`` and ``NEW_ROOT`` are checkouts (``git worktree add /tmp/old <commit>``); each
round runs the old, then the new, in a process of its own that imports that checkout's
``benchmarks/sessions.py``: the clicking figures (``act_p50``, ``act_p99``,
``actions_per_second``: :func:`benchmarks.sessions.clicking`) and the time to resume
``--resume`` active games (best of three). On SQLite (a temporary file) by default, on
PostgreSQL with ``--database`` (a new ``?schema=`` for each figure; left in place). Each
figure printed as ``<version>_<name>: value unit``, and the ratio of the medians as
``ratio_<name>``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import textwrap

RUN = textwrap.dedent(
    """
    import asyncio, logging, random, sys, tempfile, uuid
    from pathlib import Path
    root, target, games, seconds, resume = sys.argv[1:6]
    sys.path.insert(0, root)
    import benchmarks.sessions as bs
    from bot.sessions import GameSessionManager
    from db import Store

    class Args:
        pass

    args = Args()
    args.games, args.seconds, args.think_ms = int(games), float(seconds), 1000.0

    def place(tmp, name):
        if target == "sqlite":
            return Path(tmp) / f"{name}.db"
        sep = "&" if "?" in target else "?"
        return f"{target}{sep}schema=v{uuid.uuid4().hex[:10]}"

    async def main():
        logging.basicConfig(level=logging.WARNING)
        with tempfile.TemporaryDirectory() as tmp:
            await bs.clicking(args, place(tmp, "click"), "FULL")
            where = place(tmp, "resume")
            store = await Store.open(where)
            manager = GameSessionManager(store)
            await manager.resume()
            await bs.fill(manager, int(resume), random.Random(3))
            await store.close()
            del manager
            best = min([(await bs.resume_time(where))[0] for _ in range(3)])
            print(f"resume_games: {best * 1000:.0f} ms")

    asyncio.run(main())
    """
)
FIGURES = ("act_p50", "act_p99", "actions_per_second", "resume_games")


def run(root: str, args: argparse.Namespace) -> dict[str, float]:
    target = args.database or "sqlite"
    argv = [root, target, str(args.games), str(args.seconds), str(args.resume)]
    out = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for name in FIGURES:
        match = re.search(rf"^{name}: ([0-9.]+)", out, re.M)
        if match:
            found[name] = float(match[1])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--database", help="a PostgreSQL URL (default: an SQLite file)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--resume", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    seen: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for version, root in (("old", args.old), ("new", args.new)):
            for name, value in run(root, args).items():
                seen[version].setdefault(name, []).append(value)
    units = {"actions_per_second": "actions/s"}
    for version in ("old", "new"):
        for name, values in seen[version].items():
            shown = ", ".join(f"{v:g}" for v in values)
            unit = units.get(name, "ms")
            print(f"{version}_{name}: {statistics.median(values):g} {unit}")
            print(f"{version}_{name}_runs: {shown} {unit}")
    for name in FIGURES:
        old, new = seen["old"].get(name), seen["new"].get(name)
        if old and new:
            print(f"ratio_{name}: {statistics.median(new) / statistics.median(old):.2f} new/old")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
