"""Matches for ``benchmarks/ai.py``: any number of players, duplicate style.

:func:`play` plays one whole game of the engine's own :class:`Variant` with the computer
players' real :func:`bot.ai.players.decide`; the deals come from the seed and the starter's cut
depth from the seed and the deal number, so games on the same seed see the same cards, whoever
sits where. :func:`multi_match` rotates the expert over the seats of each seed:

- ``3p``: one expert against two standards (``Variant(players=3)``), each seed played three
  times with the expert in seat 0, 1 and 2 (seat 0 deals first); 1/3 is even.
- ``partners``: an expert team against a standard team (``Variant(players=4,
  partnerships=True)``), each seed played twice: the expert team in seats 0 and 2, then in
  seats 1 and 3; 1/2 is even.

The win rate is the expert side's share of the games, with a Wilson 95% interval (the games of
a seed share their cards, which makes the true interval a little narrower).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.ai.players import decide
from bot.ai.view import SeatKnowledge
from bot.engine import Game, Phase, Play, Variant

EXPERT, STANDARD = "expert", "standard"


@dataclass(frozen=True)
class Kind:
    """A multi-player match: the variant and the seats of the expert's side in each rotation."""

    name: str
    variant: Variant
    rotations: tuple[tuple[int, ...], ...]
    seed_step: int


KINDS = {
    "3p": Kind("3p", Variant(players=3), ((0,), (1,), (2,)), 3_000_017),
    "partners": Kind(
        "partners", Variant(players=4, partnerships=True), ((0, 2), (1, 3)), 4_000_037
    ),
}


def play(
    variant: Variant,
    levels: tuple[str, ...],
    seed: int,
    timings: list | None = None,
    timed: str = EXPERT,
) -> int:
    """Play one whole game (seat 0 deals first) with ``levels[seat]`` in each seat; return the
    winning side (``Game.winner``: the seat, or the team ``seat % 2`` in partnerships).

    ``timings`` collects the seconds of each play (``Play``, not discards) of the ``timed``
    level's seats."""
    game = Game.new(variant, seed=seed, first_dealer=0)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        level = levels[seat]
        if game.phase is Phase.CUT_FOR_STARTER:
            depths = game.legal_actions(seat)
            action = random.Random(f"{seed}:{game.deal_number}").choice(depths)
            game.apply(seat, action)
            continue
        view = SeatKnowledge.of(game, seat)
        start = time.perf_counter()
        action = decide(view, level=level, seed=rng.getrandbits(32))
        if timings is not None and level == timed and isinstance(action, Play):
            timings.append(time.perf_counter() - start)
        game.apply(seat, action)
    assert game.winner is not None
    return game.winner


@dataclass(frozen=True)
class Result:
    """One game of a multi-player match: its seed, the expert side's seats, whether it won."""

    seed: int
    seats: tuple[int, ...]
    won: bool


def _chunk(args) -> tuple[list[Result], list[float]]:
    name, games, level, against, first_seed = args
    kind = KINDS[name]
    results: list[Result] = []
    timings: list[float] = []
    for g in games:
        per_seed = len(kind.rotations)
        seed = kind.seed_step * (first_seed + g // per_seed + 1)
        seats = kind.rotations[g % per_seed]
        levels = tuple(level if s in seats else against for s in range(kind.variant.players))
        winner = play(kind.variant, levels, seed, timings, timed=level)
        won = kind.variant.side_of(seats[0]) == winner
        results.append(Result(seed, seats, won))
    return results, timings


def schedule(name: str, games: int, parts: int) -> list[list[int]]:
    """The game numbers of the ``name`` match in ``parts`` chunks (fewer if there are fewer
    seeds): ``games`` rounded up to whole rotations, each seed's rotations in one chunk. Game
    ``g`` is seed number ``g // rotations`` with the expert's side in rotation ``g % rotations``.
    """
    per_seed = len(KINDS[name].rotations)
    seeds = max(1, math.ceil(games / per_seed))
    return [
        [s * per_seed + r for s in range(i, seeds, parts) for r in range(per_seed)]
        for i in range(min(parts, seeds))
    ]


def multi_match(
    name: str,
    games: int,
    workers: int,
    level: str = EXPERT,
    against: str = STANDARD,
    first_seed: int = 0,
) -> tuple[list[Result], list[float]]:
    """``games`` games of the ``name`` match (``3p`` or ``partners``): ``level`` against
    ``against``, rounded up to whole rotations (every seed with ``level`` in each seat), on the
    seeds from number ``first_seed`` on; the results and the seconds of ``level``'s plays."""
    parts = schedule(name, games, max(1, workers * 4))
    chunks = [(name, c, level, against, first_seed) for c in parts]
    results: list[Result] = []
    timings: list[float] = []
    for r, t in map_tasks(workers, _chunk, chunks):
        results += r
        timings += t
    return results, timings


def match_lines(name: str, games: int, workers: int, first_seed: int = 0) -> list[str]:
    """The figures of one match, each ``name: value unit``: ``expert_vs_standard_<name>`` (the
    expert side's win rate), its ``_ci95_low`` / ``_ci95_high``, ``_games``, ``_seconds``, and
    ``play_ms_expert_<name>`` (median), ``play_p99_ms_`` and ``play_max_ms_`` of its plays."""
    start = time.perf_counter()
    results, timings = multi_match(name, games, workers, first_seed=first_seed)
    wins, n = sum(r.won for r in results), len(results)
    low, high = wilson(wins, n)
    figure = f"expert_vs_standard_{name}"
    lines = [
        f"{figure}: {100 * wins / n:.1f} %",
        f"{figure}_ci95_low: {100 * low:.1f} %",
        f"{figure}_ci95_high: {100 * high:.1f} %",
        f"{figure}_games: {n} games",
        f"{figure}_seconds: {time.perf_counter() - start:.1f} s",
    ]
    if timings:
        timings.sort()
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
        lines.append(f"play_ms_expert_{name}: {statistics.median(timings) * 1000:.2f} ms")
        lines.append(f"play_p99_ms_expert_{name}: {p99 * 1000:.1f} ms")
        lines.append(f"play_max_ms_expert_{name}: {timings[-1] * 1000:.1f} ms")
    return lines


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def map_tasks(workers: int, fn, tasks):
    """``fn`` over ``tasks``, in this process or a pool of ``workers``."""
    if workers <= 1:
        return [fn(t) for t in tasks]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, tasks))
