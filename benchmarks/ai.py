"""Computer players' benchmark: discard latency, expected points per deal, matches.

Run from the repository root: .venv/bin/python benchmarks/ai.py [--deals N] [--games N]
[--games-3p N] [--games-partners N] [--matches NAMES]

Figures, one per line as ``name: value unit``:

- ``discard_ms_<level>``: median (and p95, max) time to choose a two-handed discard.
- ``play_ms_expert``: median and max time of the expert's pegging decisions in its two-player
  matches.
- ``dealer_points_<level>`` / ``pone_points_<level>``: on random deals (``--deals`` as dealer
  and as many as pone) against a ``standard`` opponent's discard, the exact expected points over
  the 40 starters not among the twelve cards dealt: the dealer's hand + crib, the pone's hand -
  crib; ``..._interval_<level>``: the half-width of the mean's 95% interval (the deals differ
  a lot, so 10,000 of them pin the mean down to about +-0.07). ``..._<level>_minus_standard``:
  the difference from ``standard`` on the same deals, with its own (much narrower) interval.
- ``pegging_trade_*``: the expert also weighs the pegging prospects of the cards it keeps,
  which costs hand + crib (its ``minus_standard`` figures above). On the deals where that
  changes its discard (``pegging_changes_discard_expert``, over ``--trade-deals`` deals in each
  role), the hand + crib it gives up (exact, against the actual opponent's discard) and the
  pegging it gains (both kept hands pegged out by ``standard`` players over 8 starters), each
  per changed deal with its 95% interval, and the net.
- ``<a>_vs_<b>``: the win rate of ``a`` over two-player games with seats swapped each game
  (pairs of games on the same deals, duplicate style), with its 95% interval (``_ci95_low``,
  ``_ci95_high``: Wilson; the pairing makes the true interval a little narrower). The matches
  against ``random`` and ``easy``, whose outcome is not in question, play ``--games-weak``
  games (default ``--games`` / 4); the others ``--games``.
- ``expert_vs_standard_3p``: with three players (``Variant(players=3)``, to 121), the expert's
  win rate against two ``standard`` players; 33.3% is even. Each seed is played three times,
  the expert in seat 0, 1 and 2 (seat 0 deals first) on the same deals and cuts (duplicate
  style), ``--games-3p`` games (default ``--games`` / 8) rounded up to whole rotations.
  ``expert_vs_standard_partners``: in partnerships (``Variant(players=4,
  partnerships=True)``), an expert team against a standard team, each seed played with the
  expert team in seats 0 and 2, then in 1 and 3; 50% is even; ``--games-partners`` games
  (default ``--games`` / 10), rounded up to pairs. Each with ``_ci95_low`` / ``_ci95_high``
  (Wilson 95%), ``_games`` and ``_seconds``, and ``play_ms_expert_3p`` / ``_partners`` (with
  ``play_p99_ms_`` and ``play_max_ms_``): the expert's plays in those games
  (``benchmarks/matches_multi.py``). ``--matches`` selects them by these names too.
- ``<level>_vs_yardstick_dealer`` / ``_pone`` (with ``_ci95``), for ``expert`` and (a
  reference) ``standard``: pegging alone against the Monte Carlo yardstick
  (``benchmarks/yardstick.py``, ``--playouts`` per card) over ``--yardstick-deals`` paired
  deals: both seats discard as the expert does, each deal is pegged twice with the seats
  swapped, and the figure is the level's pegging points minus the yardstick's on the same
  dealer's (or pone's) cards; ``_both`` is their sum (the whole margin over the pair). Off by
  default (about 0.7 s a paired deal and level on one core). For ``expert`` only,
  ``_dealer_margin`` / ``_pone_margin``: its margin in that seat (its pegging points minus the
  other seat's) minus the yardstick's margin in the same seat, both against the yardstick
  across the table (each deal pegged a third time with the yardstick in both seats, about
  1 s a deal in all; the reference level does not repeat that pegging of the same deals).
- ``play_ms_expert`` / ``play_p99_ms_expert`` / ``play_max_ms_expert``: the expert's play
  decisions in its two-player matches (wall clock).
- ``total_seconds``: the whole run, most of it the expert's games. One core's seconds a game
  (measured on a shared machine): about 0.4 for a two-player game with the expert, 0.01
  without it; 0.65-0.85 for three players, 1.0-1.35 for a partnership game; the rest of the
  run (discards, expected points, the pegging trade) about 100.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.matches_multi import KINDS, map_tasks, match_lines, play, wilson  # noqa: E402
from benchmarks.yardstick import PLAYOUTS, duel_lines  # noqa: E402
from bot.ai import choose_discard  # noqa: E402
from bot.ai.discard import removal_options  # noqa: E402
from bot.ai.players import decide  # noqa: E402
from bot.ai.view import SeatKnowledge  # noqa: E402
from bot.engine import (  # noqa: E402
    FULL_PACK,
    Phase,
    Scored,
    ScoreReason,
    Variant,
    show_points,
)
from tests.support.engine_positions import position  # noqa: E402

LEVELS = ("easy", "standard", "expert")
MATCHES = (
    ("easy", "random"),
    ("standard", "random"),
    ("expert", "random"),
    ("standard", "easy"),
    ("expert", "easy"),
    ("expert", "standard"),
)


# --------------------------------------------------------------------------- discards


def discard_latency(level: str, hands: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    times = []
    for i in range(hands):
        hand = rng.sample(FULL_PACK, 6)
        start = time.perf_counter()
        choose_discard(hand, dealer=bool(i % 2), level=level, seed=i)
        times.append(time.perf_counter() - start)
    times.sort()
    return (
        statistics.median(times) * 1000,
        times[int(len(times) * 0.95)] * 1000,
        times[-1] * 1000,
    )


def _deal_points(args) -> dict[int, float]:
    """Each seed's exact expected points for the level (dealer on even seeds, pone on odd)."""
    level, seeds, reference = args
    out = {}
    for seed in seeds:
        rng = random.Random(seed)
        cards = rng.sample(FULL_PACK, 12)
        dealer_hand, pone_hand = cards[:6], cards[6:]
        # The level deals on even seeds and is the pone on odd ones; the reference the other.
        dealer_level, pone_level = (level, reference) if seed % 2 == 0 else (reference, level)
        d_throw = choose_discard(dealer_hand, dealer=True, level=dealer_level, seed=seed)
        p_throw = choose_discard(pone_hand, dealer=False, level=pone_level, seed=seed + 1)
        d_kept = [c for c in dealer_hand if c not in d_throw]
        p_kept = [c for c in pone_hand if c not in p_throw]
        crib = [*d_throw, *p_throw]
        starters = [c for c in FULL_PACK if c not in cards]
        if seed % 2 == 0:
            out[seed] = show_margin(d_kept, crib, starters, we_deal=True)
        else:
            out[seed] = show_margin(p_kept, crib, starters, we_deal=False)
    return out


def show_margin(kept: list, crib: list, starters: list, *, we_deal: bool) -> float:
    """The exact average over ``starters`` of our hand plus the crib (ours) or minus it."""
    total = 0
    for starter in starters:
        crib_points = show_points(crib, starter, crib=True)
        total += show_points(kept, starter) + (crib_points if we_deal else -crib_points)
    return total / len(starters)


def expected_points(
    level: str, deals: int, workers: int, reference: str = "standard"
) -> tuple[list[float], list[float]]:
    """Per deal, ``deals`` deals as dealer and as many as pone, against ``reference``'s
    discard (the same deals for every level, so levels compare pair by pair)."""
    seeds = list(range(2 * deals))
    chunks = [(level, seeds[i::workers], reference) for i in range(workers)]
    values: dict[int, float] = {}
    for part in map_tasks(workers, _deal_points, chunks):
        values.update(part)
    return [values[s] for s in seeds[0::2]], [values[s] for s in seeds[1::2]]


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


# --------------------------------------------------------------------------- the pegging trade


PEGGING = {ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD}


def pegging_margin(kept: list, other_kept: list, starter, we_deal: bool) -> int:
    """Our pegging minus theirs when these kept hands are pegged out by ``standard`` players
    (the engine plays the deal from the position right after the starter)."""
    dealer_kept, pone_kept = (kept, other_kept) if we_deal else (other_kept, kept)
    hands = [" ".join(c.code for c in h) for h in (dealer_kept, pone_kept)]
    game = position(Variant(players=2), dealer=0, kept=hands, starter=starter.code)
    points = [0, 0]
    while game.phase is Phase.PLAY:
        seat = game.to_act[0]
        action = decide(SeatKnowledge.of(game, seat), level="standard", seed=0)
        for event in game.apply(seat, action):
            if isinstance(event, Scored) and event.reason in PEGGING:
                points[event.seat] += event.points
    ours = 0 if we_deal else 1
    return points[ours] - points[1 - ours]


def _pegging_trade(args) -> list[tuple[float, float]]:
    """Per deal where the expert's discard differs from its discard without the pegging
    prospects: (hand + crib gained, pegging gained), the pegging over ``starters`` starters."""
    seeds, starters = args
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        cards = rng.sample(FULL_PACK, 12)
        we_deal = seed % 2 == 0
        ours, theirs = (cards[:6], cards[6:]) if we_deal else (cards[6:], cards[:6])
        with_pegging = removal_options(ours, own=we_deal, pegging=True)[0]
        without = removal_options(ours, own=we_deal, pegging=False)[0]
        if with_pegging.discard == without.discard:
            continue
        their_throw = choose_discard(theirs, dealer=not we_deal, level="standard", seed=seed)
        their_kept = [c for c in theirs if c not in their_throw]
        unseen = [c for c in FULL_PACK if c not in cards]
        sample = random.Random(seed).sample(unseen, starters)
        gains = []
        for option in (with_pegging, without):
            kept = list(option.kept)
            crib = [*option.discard, *their_throw]
            show = show_margin(kept, crib, unseen, we_deal=we_deal)
            peg = sum(pegging_margin(kept, their_kept, s, we_deal) for s in sample)
            gains.append((show, peg / len(sample)))
        out.append((gains[0][0] - gains[1][0], gains[0][1] - gains[1][1]))
    return out


def pegging_trade(deals: int, workers: int, starters: int = 8) -> tuple[int, list, list]:
    """How often the pegging prospects change the expert's discard, and per deal the hand +
    crib it gives up and the pegging it gains (over ``deals`` deals in each role)."""
    seeds = list(range(2 * deals))
    chunks = [(seeds[i :: workers * 4], starters) for i in range(workers * 4)]
    rows = [row for part in map_tasks(workers, _pegging_trade, chunks) for row in part]
    return len(rows), [r[0] for r in rows], [r[1] for r in rows]


# --------------------------------------------------------------------------- matches


def play_game(levels: tuple[str, str], seed: int, timings: list | None = None) -> int:
    """Play one two-player game (seat 0 deals first); return the winning seat.

    The deals come from ``seed`` and the starter's cut depth from the seed and the deal, so the
    two games of a pair (same seed, seats swapped) see the same cards: duplicate cribbage,
    which takes most of the luck out of the comparison.
    """
    return play(Variant(players=2), levels, seed, timings)


def _match_chunk(args) -> tuple[int, int, list[float]]:
    a, b, games, first_pair = args
    wins = 0
    timings: list[float] = []
    for g in games:
        levels = (a, b) if g % 2 == 0 else (b, a)
        seed = 1_000_003 * (first_pair + g // 2 + 1)
        winner = play_game(levels, seed=seed, timings=timings)
        if levels[winner] == a:
            wins += 1
    return wins, len(games), timings


def match(
    a: str, b: str, games: int, workers: int, first_pair: int = 0
) -> tuple[int, int, list[float]]:
    """``games`` games in pairs: the same deals twice, ``a`` in one seat then the other; the
    deals of pairs ``first_pair`` onwards (another run's pairs give an independent sample)."""
    pairs = list(range(0, games - games % 2, 2))
    parts = workers * 4
    chunks = [
        (a, b, [g + k for g in pairs[i::parts] for k in (0, 1)], first_pair) for i in range(parts)
    ]
    if games % 2:
        chunks.append((a, b, [games - 1], first_pair))
    chunks = [c for c in chunks if c[2]]
    wins = total = 0
    timings: list[float] = []
    for w, n, t in map_tasks(workers, _match_chunk, chunks):
        wins += w
        total += n
        timings += t
    return wins, total, timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000, help="deals for expected points")
    parser.add_argument("--games", type=int, default=2_000, help="games per match")
    parser.add_argument("--hands", type=int, default=500, help="hands for discard latency")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--trade-deals", type=int, default=10_000, help="deals for the pegging trade-off"
    )
    parser.add_argument(
        "--games-weak",
        type=int,
        help="games of the matches against random and easy (default --games / 4, even)",
    )
    parser.add_argument(
        "--games-3p", type=int, help="3-player games (default --games / 8; whole rotations of 3)"
    )
    parser.add_argument(
        "--games-partners", type=int, help="partnership games (default --games / 10; pairs)"
    )
    parser.add_argument(
        "--matches",
        default="all",
        help="comma-separated a_vs_b names (expert_vs_standard_3p and _partners too), "
        "or 'all' or 'none'",
    )
    parser.add_argument(
        "--yardstick-deals", type=int, default=0, help="paired deals against the yardstick"
    )
    parser.add_argument("--playouts", type=int, default=PLAYOUTS, help="yardstick play-outs")
    parser.add_argument(
        "--first-pair",
        type=int,
        default=0,
        help="start the matches at this pair of deals (0: the usual ones; e.g. 1000 after a run "
        "of 2,000 games for an independent sample); the 3-player and partnership matches at "
        "this seed number",
    )
    args = parser.parse_args(argv)
    wanted = {f"{a}_vs_{b}" for a, b in MATCHES} | {f"expert_vs_standard_{k}" for k in KINDS}
    if args.matches == "none":
        wanted = set()
    elif args.matches != "all":
        if set(args.matches.split(",")) - wanted:
            parser.error(f"unknown matches: {sorted(set(args.matches.split(',')) - wanted)}")
        wanted = set(args.matches.split(","))
    started = time.perf_counter()

    for level in LEVELS:
        median, p95, worst = discard_latency(level, args.hands, seed=7)
        print(f"discard_ms_{level}: {median:.2f} ms")
        print(f"discard_p95_ms_{level}: {p95:.2f} ms")
        print(f"discard_max_ms_{level}: {worst:.2f} ms")

    if args.deals:
        by_level = {}
        for level in LEVELS:
            start = time.perf_counter()
            by_level[level] = expected_points(level, args.deals, args.workers)
            for role, values in zip(("dealer", "pone"), by_level[level], strict=True):
                mean, half = mean_interval(values)
                print(f"{role}_points_{level}: {mean:.3f} points")
                print(f"{role}_points_interval_{level}: {half:.3f} points")
            print(f"expected_points_seconds_{level}: {time.perf_counter() - start:.1f} s")
        for level in LEVELS:  # the same deals: the difference is much more precise than each
            if level == "standard":
                continue
            for i, role in enumerate(("dealer", "pone")):
                pairs = zip(by_level[level][i], by_level["standard"][i], strict=True)
                diff = [a - b for a, b in pairs]
                mean, half = mean_interval(diff)
                print(f"{role}_points_{level}_minus_standard: {mean:+.3f} points")
                print(f"{role}_points_{level}_minus_standard_interval: {half:.3f} points")

    if args.trade_deals:
        start = time.perf_counter()
        changed, show, peg = pegging_trade(args.trade_deals, args.workers)
        total = 2 * args.trade_deals
        print(f"pegging_changes_discard_expert: {100 * changed / total:.1f} % of deals")
        if changed > 1:
            for name, values in (("hand_crib", show), ("pegging", peg)):
                mean, half = mean_interval(values)
                print(f"pegging_trade_{name}_per_changed_deal: {mean:+.3f} points")
                print(f"pegging_trade_{name}_interval: {half:.3f} points")
            net, half = mean_interval([a + b for a, b in zip(show, peg, strict=True)])
            print(f"pegging_trade_net_per_changed_deal: {net:+.3f} points")
            print(f"pegging_trade_net_interval: {half:.3f} points")
        print(f"pegging_trade_seconds: {time.perf_counter() - start:.1f} s")

    play_times: list[float] = []
    weak = args.games_weak if args.games_weak is not None else 2 * max(1, args.games // 8)
    for a, b in MATCHES:
        games = weak if b in ("random", "easy") else args.games
        if f"{a}_vs_{b}" not in wanted or not games:
            continue
        start = time.perf_counter()
        wins, n, timings = match(a, b, games, args.workers, args.first_pair)
        play_times += timings
        low, high = wilson(wins, n)
        print(f"{a}_vs_{b}: {100 * wins / n:.1f} %")
        print(f"{a}_vs_{b}_ci95_low: {100 * low:.1f} %")
        print(f"{a}_vs_{b}_ci95_high: {100 * high:.1f} %")
        print(f"{a}_vs_{b}_games: {n} games")
        print(f"{a}_vs_{b}_seconds: {time.perf_counter() - start:.1f} s")
    multi = {"3p": args.games_3p, "partners": args.games_partners}
    defaults = {"3p": args.games // 8, "partners": args.games // 10}
    for kind in KINDS:
        games = defaults[kind] if multi[kind] is None else multi[kind]
        if f"expert_vs_standard_{kind}" in wanted and games > 0:
            for line in match_lines(kind, games, args.workers, args.first_pair):
                print(line)
    if args.yardstick_deals:
        for level in ("expert", "standard"):
            fixed = level == "expert"  # the yardstick against itself: once, not per level
            for line in duel_lines(
                level, args.yardstick_deals, args.playouts, args.workers, fixed=fixed
            ):
                print(line)
    if play_times:
        play_times.sort()
        p99 = play_times[min(len(play_times) - 1, int(0.99 * len(play_times)))]
        print(f"play_ms_expert: {statistics.median(play_times) * 1000:.2f} ms")
        print(f"play_p99_ms_expert: {p99 * 1000:.1f} ms")
        print(f"play_max_ms_expert: {play_times[-1] * 1000:.1f} ms")
    print(f"total_seconds: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
