"""What each seat lays away with 3 and 4 players: ``python -m bot.ai.crib_multi``.

With three or four players every seat lays one card of five into the crib. What that card is
worth depends on the others' cards, and those depend on each seat's role: the dealer lays away
a card that helps its own crib, a non-dealer the card that helps the dealer least, and in
partnerships the dealer's partner helps the team's crib too. The shipped one-card tables
(``crib.json``, made by ``python -m bot.ai.tables``) are the fixed point of that; this module
records, for that fixed point, how often each role lays away each rank: every hand of a seeded
pool of random five-card hands discards the way ``standard`` does (the exact expected hand plus
the table's crib, weighted +1 for our own or our team's crib, -1/(n-1) for an opponent's, -1 in
partnerships), and the thrown ranks are counted (``data/crib_multi.json``, 13 numbers per game
and role).

The ``expert`` draws the other seats' cards from these frequencies, reweighted by the cards it
has seen, to value each of its own five possible discards (``crib.multi_crib_values``).
The counting uses ``standard``'s one-card discard of :mod:`bot.ai.tables` (``decide``), which
makes the tables, and the crib weights of :mod:`bot.ai.crib`: only the counting is its own.

``python -m bot.ai.crib_multi --measure N`` compares, on ``N`` random deals per game, the
``expert``'s discard with ``standard``'s against the other seats' real ``standard`` discards:
exact expected hand and crib over the starters left in the pack (see :func:`measure`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.engine import FULL_PACK, show_points

from .crib import MultiThrows, crib_weight, load_tables
from .discard import removal_options, table_options
from .tables import DEFAULT_SEED, VARIANT_OF, decide

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "crib_multi.json"
KEYS = ("3", "4", "4p")


def build(*, seed: int = DEFAULT_SEED, pool: int = 40_000) -> MultiThrows:
    """Count what each role lays away over a pool of ``pool`` random hands per game."""
    throws: dict[str, dict[str, list[float]]] = {}
    for key in KEYS:
        players, partnerships = VARIANT_OF[key]
        values = load_tables()["crib"][key]
        rng = random.Random(f"{seed}:{key}:throws")
        hands = [tuple(sorted(rng.sample(FULL_PACK, 5))) for _ in range(pool)]
        throws[key] = {}
        for role in ("own", "other"):
            weight = crib_weight(players, partnerships, role == "own")
            counts = [0] * 13
            for hand in hands:
                counts[decide(hand, values[role], weight)[0].rank - 1] += 1
            throws[key][role] = [round(c / pool, 5) for c in counts]
    return {
        "format": 1,
        "method": "standard's one-card discards with the shipped tables; bot/ai/crib_multi.py",
        "seed": seed,
        "pool": pool,
        "throws": throws,
    }


# --------------------------------------------------------------------------- measuring


def deal_values(key: str, rng: random.Random) -> list[tuple[bool, float, float, float, float]]:
    """One random deal: for every seat, (the crib is its side's, expert hand, expert crib,
    standard hand, standard crib), exact over the starters left in the pack, the other seats
    laying away as ``standard`` does. The crib is signed by its weight for that seat."""
    players, partnerships = VARIANT_OF[key]
    cards = rng.sample(FULL_PACK, 5 * players + (1 if players == 3 else 0))
    hands = [tuple(sorted(cards[5 * i : 5 * i + 5])) for i in range(players)]
    pack_card = cards[5 * players :]
    dealer = 0

    def owns(seat: int) -> bool:
        return seat == dealer or (partnerships and seat % 2 == dealer % 2)

    std = [table_options(h, own=owns(s), players=players, partnerships=partnerships)[0]
           for s, h in enumerate(hands)]  # fmt: skip
    seen = set(cards)
    starters = [c for c in FULL_PACK if c not in seen]
    out = []
    for seat, hand in enumerate(hands):
        own = owns(seat)
        w = crib_weight(players, partnerships, own)
        exp = removal_options(hand, own=own, players=players, partnerships=partnerships)[0]
        others = [std[s].discard[0] for s in range(players) if s != seat]
        row = []
        for option in (exp, std[seat]):
            crib = (option.discard[0], *others, *pack_card)
            hand_pts = sum(show_points(option.kept, st) for st in starters) / len(starters)
            crib_pts = sum(show_points(crib, st, crib=True) for st in starters) / len(starters)
            row += [hand_pts, w * crib_pts]
        out.append((own, row[0], row[1], row[2], row[3]))
    return out


def measure(key: str, deals: int, seed: int) -> dict[str, tuple[float, float]]:
    """Expert minus standard per seat and deal (hand, crib, net; ``own_``/``other_`` by whose
    crib): the mean and its 95% half-width. Seats whose discards agree count as 0."""
    rng = random.Random(f"{seed}:{key}:measure")
    diffs: dict[str, list[float]] = {}
    for _ in range(deals):
        for own, eh, ec, sh, sc in deal_values(key, rng):
            for prefix in ("", "own_" if own else "other_"):
                diffs.setdefault(prefix + "hand", []).append(eh - sh)
                diffs.setdefault(prefix + "crib", []).append(ec - sc)
                diffs.setdefault(prefix + "net", []).append(eh + ec - sh - sc)
    out = {}
    for name, values in diffs.items():
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
        out[name] = (mean, 1.96 * (var / n) ** 0.5)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.crib_multi", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--pool", type=int, default=40_000, help="random hands per game")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--measure", type=int, default=0, help="deals per game to compare")
    parser.add_argument("--games", default=",".join(KEYS), help="which games to measure")
    args = parser.parse_args(argv)
    log: Callable[[str], object] = lambda m: print(m, file=sys.stderr)  # noqa: E731
    start = time.perf_counter()
    if args.measure:
        for key in args.games.split(","):
            for name, (mean, half) in measure(key, args.measure, args.seed).items():
                print(f"{key}_expert_minus_standard_{name}: {mean:+.4f} +- {half:.4f} points")
        log(f"{args.measure} deals per game in {time.perf_counter() - start:.1f} s")
        return 0
    data = build(seed=args.seed, pool=args.pool)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for key in KEYS:
        for role, freq in data["throws"][key].items():
            top = sorted(range(13), key=lambda i: -freq[i])[:4]
            log(f"{key} {role}: " + ", ".join(f"{'A23456789TJQK'[i]} {freq[i]:.3f}" for i in top))
    log(f"written {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
