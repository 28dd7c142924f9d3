"""The Monte Carlo yardstick: the simple pegging method the expert must beat.

For each legal card (one per rank: suits never matter in the play) the yardstick deals the
cards its seat has not seen to the opponent many times over ("play-outs"), lays the card, plays
the rest of the deal's pegging out with both seats laying as the ``standard`` level would (the
rank-level model of :func:`bot.ai.playouts.model_choice`, each seat from what it can see)
and lays the card with the best average: its pegging points minus the opponent's.

What its seat knows and the deals respect: its own cards and discards, the starter, every card
laid so far, how many cards the opponent still holds and, when the opponent said go, that none
of them fits the count it could not lay on. The unseen cards are otherwise dealt uniformly
(no inference from the opponent's discard or plays: that is the expert's business). The
opponent's two discards are dealt too, so that its play-out policy sees what it would see.
Every card is tried on the same deals (common random numbers), so the comparison between cards
is sharper than the averages themselves.

Three and four players too (each other seat is dealt its cards, and the play-outs are
:func:`bot.ai.playouts.multi_rollout`); the duels are two-handed. Play-outs run on plain
int ranks with memoized scoring: see ``--speed``.

    .venv/bin/python benchmarks/yardstick.py --speed
    .venv/bin/python benchmarks/yardstick.py --levels expert --deals 1200 --first-seed 80000

``--against standard`` pegs the same duels against the ``standard`` level instead: a proxy about
ten times quicker, for trying a change before the long run against the yardstick (its figures
are named ``<level>_vs_standard_*``).

The dealer and pone edges each count one seat's own points: the expert's dealer edge is its
dealer's points against the yardstick's pone minus the yardstick dealer's points against the
expert's pone, so a pone that gives little away raises its side's *dealer* edge. ``--fixed``
pegs each deal a third time with the yardstick in both seats and adds ``_dealer_margin`` and
``_pone_margin``: the level's margin in that seat (its pegging points minus the other's) minus
the yardstick's margin in the same seat, both against the yardstick across the table, the way
a player is measured in a seat with everything else held fixed (half as long again).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import choose_discard  # noqa: E402
from bot.ai.pegging import (  # noqa: E402
    VALUE,
    distinct_by_rank,
    legal_cards,
    unshown_rank_counts,
)
from bot.ai.players import decide  # noqa: E402
from bot.ai.playouts import first_then_rollout, multi_rollout  # noqa: E402
from bot.ai.view import SeatKnowledge  # noqa: E402
from bot.engine import (  # noqa: E402
    Action,
    Card,
    Discard,
    Game,
    Phase,
    Play,
    Scored,
    ScoreReason,
    Variant,
)

PLAYOUTS = 1000
"""Play-outs per legal card by default (the issue asks for at least 1,000)."""


def yardstick_values(
    view: SeatKnowledge, rng: random.Random, playouts: int = PLAYOUTS
) -> dict[int, float]:
    """Per legal rank, the average over ``playouts`` deals of the unseen cards of laying it and
    playing on as ``standard`` would: the seat's pegging points minus the opponent's."""
    if view.starter is None:
        raise ValueError("The play starts after the starter is cut")
    if view.players != 2:
        return _multi_values(view, rng, playouts)
    legal = distinct_by_rank(legal_cards(view))
    opp = 1 - view.seat
    me = tuple(sorted(c.rank for c in view.hand))
    pile = tuple(c.rank for c in view.pile)
    count = view.count
    # What the seat has not seen, as ranks; and what is gone for everybody (starter, laid).
    pool = [c.rank for c in view.unseen_cards()]
    unseen_me = [0] * 14
    for r in pool:
        unseen_me[r] += 1
    base = unshown_rank_counts(view)
    held = view.held_counts()[opp]
    floor = view.go_floors().get(opp, 1)
    eligible = [i for i, r in enumerate(pool) if VALUE[r] >= floor]
    if len(eligible) < held:  # cannot happen in a real game; play safe
        eligible = list(range(len(pool)))
    # The opponent's discards: known to it, unseen by us (none if it has not discarded).
    opp_discards = 2 if len(pool) >= held + 2 else 0
    ranks = [c.rank for c in legal]
    totals = dict.fromkeys(ranks, 0.0)
    sample = rng.sample
    for _ in range(playouts):
        picks = sample(eligible, held)
        world = sorted(pool[i] for i in picks)
        seen_by_opp = list(base)
        for r in world:
            seen_by_opp[r] -= 1
        if opp_discards:
            taken = set(picks)
            rest = [pool[i] for i in range(len(pool)) if i not in taken]
            for r in sample(rest, opp_discards):
                seen_by_opp[r] -= 1
        b = tuple(world)
        for r in ranks:
            unseen_b = list(seen_by_opp)
            unseen_b[r] -= 1  # the opponent sees the card we lay
            totals[r] += first_then_rollout(me, b, pile, count, r, unseen_me, unseen_b)
    return {r: v / max(playouts, 1) for r, v in totals.items()}


def _multi_values(view: SeatKnowledge, rng: random.Random, playouts: int) -> dict[int, float]:
    """Three or four players: the same, with :func:`multi_rollout` (every seat as ``standard``)
    scoring the seat's side plus, minus the other sides' points shared out. The seats that said
    go are dealt first, from the cards that fit their floor (highest floor first: uniform for one
    such seat, nearly so for two); each other seat's discard is dealt too."""
    n = view.players
    sides = view.variant.sides
    weights = tuple(1.0 if view.side_of(s) == view.side else -1.0 / (sides - 1) for s in range(n))
    me = tuple(sorted(c.rank for c in view.hand))
    pile = tuple(c.rank for c in view.pile)
    pool = [c.rank for c in view.unseen_cards()]
    unseen_me = [0] * 14
    for r in pool:
        unseen_me[r] += 1
    base = unshown_rank_counts(view)
    held = view.held_counts()
    floors = view.go_floors()
    others = sorted((s for s in range(n) if s != view.seat), key=lambda s: -floors.get(s, 1))
    ranks = [c.rank for c in distinct_by_rank(legal_cards(view))]
    totals = dict.fromkeys(ranks, 0.0)
    for _ in range(playouts):
        rest = list(pool)
        hands: list[tuple[int, ...]] = [()] * n
        hands[view.seat] = me
        unseen = [list(base) for _ in range(n)]
        unseen[view.seat] = list(unseen_me)
        for s in others:
            floor = floors.get(s, 1)
            fits = [i for i, r in enumerate(rest) if VALUE[r] >= floor]
            if len(fits) < held[s]:
                fits = list(range(len(rest)))
            picks = set(rng.sample(fits, held[s]))
            hands[s] = tuple(sorted(rest[i] for i in picks))
            rest = [r for i, r in enumerate(rest) if i not in picks]
            for r in hands[s]:
                unseen[s][r] -= 1
        for s in others:  # each other seat's own discard (it knows it; we do not)
            if rest:
                unseen[s][rest.pop(rng.randrange(len(rest)))] -= 1
        for r in ranks:
            totals[r] += multi_rollout(hands, pile, view.count, view.seat, r, unseen, weights)
    return {r: v / max(playouts, 1) for r, v in totals.items()}


def yardstick_play(view: SeatKnowledge, rng: random.Random, playouts: int = PLAYOUTS) -> Card:
    """The card with the best average (ties: the higher card, as ``standard`` holds low ones)."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    values = yardstick_values(view, rng, playouts)
    return max(legal, key=lambda c: (values[c.rank], 0.01 * c.value))


# --------------------------------------------------------------------------- duels

YARDSTICK = "yardstick"
PEGGING = {ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD}


def peg_deal(
    seed: int, policies: tuple[str, str], playouts: int, timings: list[float] | None = None
) -> tuple[int, int]:
    """Play deal ``seed`` (seat 0 deals) to the end of the pegging: both seats discard as the
    expert does (the same cards whoever pegs), the starter is cut from the seed, then each seat
    lays as its policy says (a level's name, or ``yardstick``). Each seat's pegging points."""
    game = Game.new(Variant(players=2), seed=seed, first_dealer=0)
    for seat in (0, 1):
        throw = choose_discard(game.hand(seat), dealer=seat == 0, level="expert", seed=seed)
        game.apply(seat, Discard(tuple(throw)))
    cutter = game.to_act[0]
    game.apply(cutter, random.Random(seed).choice(game.legal_actions(cutter)))
    rng = random.Random(f"{seed}:{policies}")
    points = [0, 0]
    while game.phase is Phase.PLAY:
        seat = game.to_act[0]
        view = SeatKnowledge.of(game, seat)
        if policies[seat] == YARDSTICK:
            start = time.perf_counter()
            action: Action = Play(yardstick_play(view, rng, playouts))
            if timings is not None:
                timings.append(time.perf_counter() - start)
        else:
            action = decide(view, level=policies[seat], seed=rng.getrandbits(32))
        for event in game.apply(seat, action):
            if isinstance(event, Scored) and event.reason in PEGGING:
                points[event.seat] += event.points
    return points[0], points[1]


def duel_deal(
    level: str,
    seed: int,
    playouts: int,
    timings: list[float] | None = None,
    against: str = YARDSTICK,
    fixed: bool = False,
) -> tuple[int, ...]:
    """The same deal twice, ``level`` dealing against ``against`` (the yardstick, or a level: a
    quicker proxy) then the other way round. (``level``'s pegging as dealer minus the other's on
    the same dealer's cards, the same as pone): their sum is ``level``'s whole margin over the
    pair of deals.

    Each of those two edges counts one seat's own points, so it mixes that seat's scoring with
    the defence of the seat across the table (a pone that gives little away raises the dealer
    edge of its side). With ``fixed`` the deal is pegged a third time, ``against`` in both
    seats, and two edges with the opponent held fixed follow: ``level``'s margin (its pegging
    points minus the opponent's) as dealer minus ``against``'s as dealer, both against
    ``against`` as pone; the same as pone."""
    level_deals = peg_deal(seed, (level, against), playouts, timings)
    yard_deals = peg_deal(seed, (against, level), playouts, timings)
    edges = (level_deals[0] - yard_deals[0], yard_deals[1] - level_deals[1])
    if not fixed:
        return edges
    same = peg_deal(seed, (against, against), playouts, timings)
    return (
        *edges,
        _margin(level_deals) - _margin(same),
        _margin(same) - _margin(yard_deals),
    )


def _margin(points: tuple[int, int]) -> int:
    """The dealer's pegging points minus the pone's."""
    return points[0] - points[1]


def _duel_chunk(
    args: tuple[str, list[int], int, str, bool],
) -> tuple[list[tuple[int, ...]], list[float]]:
    level, seeds, playouts, against, fixed = args
    timings: list[float] = []
    return [duel_deal(level, s, playouts, timings, against, fixed) for s in seeds], timings


def duel(
    level: str,
    deals: int,
    playouts: int,
    workers: int,
    first_seed: int = 16_000,
    against: str = YARDSTICK,
    fixed: bool = False,
):
    """``deals`` paired deals of ``level`` against ``against``: the edges of each deal
    (:func:`duel_deal`), in the order of the seeds, and the yardstick's decision times."""
    seeds = [first_seed + i for i in range(deals)]
    chunks = [(level, seeds[i::workers], playouts, against, fixed) for i in range(workers)]
    chunks = [c for c in chunks if c[1]]
    if workers <= 1:
        parts = [_duel_chunk(c) for c in chunks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_duel_chunk, chunks))
    # The chunks hold every workers-th seed: put the rows back in the order of the seeds.
    dealt = [s for c in chunks for s in c[1]]
    by_seed = dict(zip(dealt, (row for part in parts for row in part[0]), strict=True))
    timings = [t for part in parts for t in part[1]]
    return [by_seed[s] for s in seeds], timings


def mean_ci95(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    if len(values) < 2:
        return (values[0] if values else 0.0), float("inf")
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def duel_lines(
    level: str,
    deals: int,
    playouts: int,
    workers: int,
    first_seed: int = 16_000,
    dump: str | None = None,
    against: str = YARDSTICK,
    fixed: bool = False,
) -> list[str]:
    """The ``name: value unit`` lines of :func:`duel` (see the module docstring); with ``dump``
    each deal's (seed, dealer edge, pone edge[, the two with the opponent fixed]) is appended
    to that file as a JSON line."""
    start = time.perf_counter()
    rows, timings = duel(level, deals, playouts, workers, first_seed, against, fixed)
    if dump:
        with open(dump, "a") as out:
            for i, row in enumerate(rows):
                out.write(json.dumps([level, playouts, first_seed + i, *row]) + "\n")
    name = f"{level}_vs_{against}"
    lines = [f"{name}_deals: {len(rows)} paired deals"]
    figures = [
        ("dealer", [float(r[0]) for r in rows]),
        ("pone", [float(r[1]) for r in rows]),
        ("both", [float(r[0] + r[1]) for r in rows]),
    ]
    if fixed:
        figures.append(("dealer_margin", [float(r[2]) for r in rows]))
        figures.append(("pone_margin", [float(r[3]) for r in rows]))
    for role, values in figures:
        mean, half = mean_ci95(values)
        lines.append(f"{name}_{role}: {mean:+.3f} points")
        lines.append(f"{name}_{role}_ci95: {half:.3f} points")
    if timings:
        timings.sort()
        lines.append(f"{name}_yardstick_ms: {statistics.median(timings) * 1000:.0f} ms")
        lines.append(f"{name}_yardstick_max_ms: {timings[-1] * 1000:.0f} ms")
    lines.append(f"{name}_seconds: {time.perf_counter() - start:.1f} s")
    return lines


# --------------------------------------------------------------------------- speed


def speed(decisions: int, playouts: int, seed: int) -> tuple[float, float, float]:
    """(play-outs per second, median ms, max ms) over ``decisions`` first-lay decisions of
    random deals (the pone's first card: the most play-outs per decision)."""
    rng = random.Random(seed)
    times = []
    runs = 0
    for i in range(decisions):
        game = Game.new(Variant(players=2), seed=seed + i, first_dealer=0)
        for seat in (0, 1):
            throw = choose_discard(game.hand(seat), dealer=seat == 0, level="standard")
            game.apply(seat, Discard(tuple(throw)))
        game.apply(1, game.legal_actions(1)[0])
        assert game.phase is Phase.PLAY
        view = SeatKnowledge.of(game, game.to_act[0])
        start = time.perf_counter()
        values = yardstick_values(view, rng, playouts)
        times.append(time.perf_counter() - start)
        runs += playouts * len(values)
    times.sort()
    return runs / sum(times), times[len(times) // 2] * 1000, times[-1] * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", action="store_true", help="only the play-outs per second")
    parser.add_argument("--deals", type=int, default=100, help="paired deals per level")
    parser.add_argument("--levels", default="expert,standard")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=16_000)
    parser.add_argument("--dump", help="append each deal's edges to this file (JSON lines)")
    parser.add_argument(
        "--fixed",
        action="store_true",
        help="peg each deal a third time with the opponent in both seats: the level's margin "
        "as dealer and as pone against the same opponent (_dealer_margin, _pone_margin)",
    )
    parser.add_argument(
        "--against",
        default=YARDSTICK,
        help="the opponent: the yardstick, or a level (standard: a quick proxy, about 10x faster)",
    )
    args = parser.parse_args(argv)
    if args.speed:
        rate, median, worst = speed(args.decisions, args.playouts, args.seed)
        print(f"yardstick_playouts_per_second: {rate:.0f} play-outs/s")
        print(f"yardstick_decision_ms: {median:.0f} ms")
        print(f"yardstick_decision_max_ms: {worst:.0f} ms")
        return 0
    for level in args.levels.split(","):
        for line in duel_lines(
            level,
            args.deals,
            args.playouts,
            args.workers,
            args.first_seed,
            args.dump,
            args.against,
            args.fixed,
        ):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
