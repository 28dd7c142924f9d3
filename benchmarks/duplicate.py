"""Duplicate deals: one level's side against another's on the same cards, every part of a deal.

A win rate over whole games moves by chance far more than by play: 2,000 games pin it to
about ±2 points of percentage. A deal played twice on the same cards (and cut), once with each
side in each seat, cancels most of that chance, and what is left is what the two levels did
differently with the same cards: what they laid away, how they pegged. This benchmark plays the
first deal of a game (seat 0 deals, scores 0-0, so nothing is played for the end of a game)
on each seed in every arrangement of the sides and prints, per part of the deal, the ``level``
side's points minus the others' (with three players, minus their average), averaged over the
arrangements of a seed, with its 95% interval over the seeds:

- ``dup_<kind>_pegging``: the play (fifteens, pairs, runs, thirty-ones, goes, the last card)
  and his heels;
- ``dup_<kind>_hand``, ``dup_<kind>_crib``: the show;
- ``dup_<kind>_total``: all of it (what decides games, but for the end of a game).

Kinds: ``2p`` (each seed as dealer and as pone), ``3p`` (the level in seat 0, 1 and 2 against
two of ``--against``), ``partners`` (the level's team in seats 0 and 2, then in 1 and 3).

    .venv/bin/python benchmarks/duplicate.py --kind partners --deals 1000
    .venv/bin/python benchmarks/duplicate.py --kind 2p --deals 4000 --first-seed 30000
    .venv/bin/python benchmarks/duplicate.py --kind 2p --set dealer_against=0.9 --base base.json

``--set NAME=value`` (a JSON literal) measures the expert with another tuning: a field of
:class:`bot.ai.config.ExpertConfig`, set on a copy of :data:`bot.ai.config.EXPERT` for the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.matches_multi import map_tasks  # noqa: E402
from benchmarks.yardstick import mean_ci95  # noqa: E402
from bot.ai.config import EXPERT, ExpertConfig  # noqa: E402
from bot.ai.players import Player  # noqa: E402
from bot.engine import Game, Phase, Scored, ScoreReason, Variant  # noqa: E402

KINDS: dict[str, tuple[Variant, tuple[tuple[int, ...], ...]]] = {
    "2p": (Variant(players=2), ((0,), (1,))),
    "3p": (Variant(players=3), ((0,), (1,), (2,))),
    "partners": (Variant(players=4, partnerships=True), ((0, 2), (1, 3))),
}
"""Per kind: the variant, and the seats of the level's side in each arrangement of a seed."""

PARTS = {
    ScoreReason.PLAY: "pegging",
    ScoreReason.GO: "pegging",
    ScoreReason.LAST_CARD: "pegging",
    ScoreReason.HEELS: "pegging",
    ScoreReason.HAND: "hand",
    ScoreReason.CRIB: "crib",
}
PART_NAMES = ("pegging", "hand", "crib", "total")


def play_deal(
    variant: Variant,
    levels: tuple[str, ...],
    seed: int,
    scores: list[int] | None = None,
    config: ExpertConfig = EXPERT,
) -> tuple[list[dict[str, int]], int | None]:
    """Deal ``seed`` (seat 0 deals) with ``levels[seat]`` in each seat (an expert tuned by
    ``config``): per side, its points in each part of the deal, played to the end of its show;
    with ``scores`` (per side, at the start) the game is played on from them to its end, and the
    winning side is returned too."""
    players = [Player(level, config) for level in levels]
    game = Game.new(variant, seed=seed, first_dealer=0)
    if scores is not None:
        game.scores = list(scores)
    rng = random.Random(f"{seed}:{levels}")
    points = [dict.fromkeys(PART_NAMES, 0) for _ in range(variant.sides)]
    first = game.deal_number
    while not game.is_over and (
        scores is not None or (game.deal_number == first and game.phase is not Phase.NEXT_DEAL)
    ):
        seat = game.to_act[0]
        if game.phase is Phase.CUT_FOR_STARTER:
            cut = random.Random(f"{seed}:{game.deal_number}" if game.deal_number > first else seed)
            action = cut.choice(game.legal_actions(seat))
        else:
            action = players[seat].choose_action(game, seat, seed=rng.getrandbits(32))
        this_deal = game.deal_number == first  # (the last card's apply deals the next)
        for event in game.apply(seat, action):
            if isinstance(event, Scored) and event.points and this_deal:
                side = points[variant.side_of(event.seat)]
                side[PARTS[event.reason]] += event.points
                side["total"] += event.points
    return points, game.winner


def start_scores(variant: Variant, seed: int, ends: tuple[int, int]) -> list[int]:
    """Each side's score at the start, drawn from ``ends`` (low, high) by the seed."""
    rng = random.Random(f"scores:{seed}")
    return [rng.randint(*ends) for _ in range(variant.sides)]


def seed_margins(
    kind: str,
    seed: int,
    level: str,
    against: str,
    ends: tuple[int, int] | None = None,
    config: ExpertConfig = EXPERT,
) -> dict[str, float]:
    """Per part, ``level``'s side minus the others (their average) over the arrangements; with
    ``ends``, games from scores drawn there (:func:`start_scores`, the same for a seat whoever
    sits in it): ``wins``, the share of the arrangements the ``level`` side won."""
    variant, arrangements = KINDS[kind]
    sums = dict.fromkeys(PART_NAMES, 0.0)
    wins = 0
    scores = start_scores(variant, seed, ends) if ends else None
    for seats in arrangements:
        levels = tuple(level if s in seats else against for s in range(variant.players))
        points, winner = play_deal(variant, levels, seed, scores, config)
        mine = variant.side_of(seats[0])
        wins += winner == mine
        others = [p for side, p in enumerate(points) if side != mine]
        for part in PART_NAMES:
            sums[part] += points[mine][part] - sum(p[part] for p in others) / len(others)
    if ends:
        return {"wins": wins / len(arrangements)}
    return {part: value / len(arrangements) for part, value in sums.items()}


def configured(settings: list[str], base: ExpertConfig = EXPERT) -> ExpertConfig:
    """``base`` with ``NAME=value`` each (a JSON literal; a list for a tuple) set: a field of
    :class:`~bot.ai.config.ExpertConfig` (e.g. ``search_worlds=200``)."""
    fields = {f.name for f in dataclasses.fields(ExpertConfig)}
    changes: dict[str, object] = {}
    for setting in settings:
        name, _, literal = setting.partition("=")
        if name not in fields:
            raise SystemExit(f"The expert has no setting {name!r}: {', '.join(sorted(fields))}")
        value = json.loads(literal)
        changes[name] = tuple(value) if isinstance(value, list) else value
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


Chunk = tuple[str, list[int], str, str, ExpertConfig, tuple[int, int] | None]


def _chunk(args: Chunk) -> list[dict[str, float]]:
    kind, seeds, level, against, config, ends = args
    return [seed_margins(kind, s, level, against, ends, config) for s in seeds]


@dataclass(frozen=True)
class Run:
    """What a run plays: ``deals`` seeds of ``kind`` from ``first_seed``, ``level`` against
    ``against``, the expert tuned by ``config`` and, with ``ends``, from scores near the end
    (:func:`start_scores`); on ``workers`` processes."""

    kind: str
    deals: int
    workers: int = 2
    first_seed: int = 70_000
    level: str = "expert"
    against: str = "standard"
    config: ExpertConfig = EXPERT
    ends: tuple[int, int] | None = None


def duplicate_rows(run: Run) -> dict[int, dict[str, float]]:
    """Per seed, :func:`seed_margins`."""
    seeds = [run.first_seed + i for i in range(run.deals)]
    parts = max(1, run.workers * 4)
    chunks: list[Chunk] = [
        (run.kind, seeds[i::parts], run.level, run.against, run.config, run.ends)
        for i in range(parts)
        if seeds[i::parts]
    ]
    margins = [row for chunk in map_tasks(run.workers, _chunk, chunks) for row in chunk]
    order = [s for i in range(parts) for s in seeds[i::parts]]
    return dict(zip(order, margins, strict=True))


def duplicate_lines(run: Run, dump: str | None = None, base: str | None = None) -> list[str]:
    """The ``name: value unit`` lines (see the module docstring). ``dump``: write each seed's
    margins to this file (JSON); ``base``: such a file of an earlier run on the same seeds,
    to print the paired difference from it too (``..._change``: seeds where nothing was done
    differently count zero, which makes it far sharper than comparing two means)."""
    start = time.perf_counter()
    by_seed = duplicate_rows(run)
    rows = list(by_seed.values())
    names = list(rows[0]) if rows else []
    if dump:
        Path(dump).write_text(json.dumps({str(s): m for s, m in by_seed.items()}))
    name = f"dup_{run.kind}"
    if (run.level, run.against) != ("expert", "standard"):
        name += f"_{run.level}_vs_{run.against}"
    lines = [f"{name}_deals: {len(rows)} deals"]
    for part in names:
        mean, half = mean_ci95([row[part] for row in rows])
        lines += _figure(f"{name}_{part}", part, mean, half)
    if base:
        before = json.loads(Path(base).read_text())
        common = [s for s in by_seed if str(s) in before]
        lines.append(f"{name}_change_deals: {len(common)} deals")
        for part in names:
            diffs = [by_seed[s][part] - before[str(s)][part] for s in common]
            mean, half = mean_ci95(diffs)
            lines += _figure(f"{name}_{part}_change", part, mean, half)
    lines.append(f"{name}_seconds: {time.perf_counter() - start:.1f} s")
    return lines


def _figure(name: str, part: str, mean: float, half: float) -> list[str]:
    """A mean and its 95% half-width: points, or (``wins``) points of percentage."""
    if part == "wins":
        return [f"{name}: {100 * mean:.2f} %", f"{name}_ci95: {100 * half:.2f} %"]
    return [f"{name}: {mean:+.3f} points", f"{name}_ci95: {half:.3f} points"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", choices=sorted(KINDS), default="2p")
    parser.add_argument("--deals", type=int, default=1000, help="seeds (each in every arrangement)")
    parser.add_argument("--first-seed", type=int, default=70_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--against", default="standard")
    parser.add_argument(
        "--set", action="append", default=[], help="NAME=literal: an expert setting, for this run"
    )
    parser.add_argument("--dump", help="write each seed's margins to this JSON file")
    parser.add_argument("--base", help="a --dump of another run: print the paired change")
    parser.add_argument(
        "--ends",
        help="LOW:HIGH: games from scores drawn there, played to their end (the win rate)",
    )
    args = parser.parse_args(argv)
    ends = None
    if args.ends:
        low, _, high = args.ends.partition(":")
        ends = (int(low), int(high))
    run = Run(
        args.kind,
        args.deals,
        args.workers,
        args.first_seed,
        args.level,
        args.against,
        configured(args.set),
        ends,
    )
    for line in duplicate_lines(run, args.dump, args.base):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
