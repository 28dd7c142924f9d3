"""Make the crib tables: ``python -m bot.ai.tables [--seed S] [--pool N] [--out PATH]``.

What a discard is worth in the crib depends on what the other players lay away with it, and
that depends on how they value the crib: a fixed point, found by iteration as Craig Hessel did
for the tables published at cribbageforum.com.

Method (deterministic from ``--seed``):

1. Deal a pool of random hands (six cards two-handed, five otherwise).
2. Every pool hand lays away the way ``standard`` does with the current tables: the exact
   expected hand over the unseen starters, plus the table's crib (ours) or minus it (theirs;
   with 3 or 4 players each for themselves, a third or half of it).
3. For every discard (two-handed: 13 pairs and 78 rank pairs, suited or not; otherwise the 13
   ranks), average the exact expected crib over the pool hands of the other seats that do not
   clash with it: our cards + their discards (+ the pack's card when three play), the starter
   drawn from every card not seen in those hands. Our own kept cards are not fixed: they are
   part of the unseen pack, which is what a static table means.
4. Start from a table of zeros (everyone keeps the best hand) and repeat 2-3 until the values
   settle; from the third round on the table moves only halfway to the new figures, which damps
   the oscillation of discards such as 7 and 8 with four players (whether a partner tosses them
   depends on their value, which depends on whether partners toss them).

Two-handed, the frequencies of what each role lays away are stored too (``throws``); the
``expert`` level's card-removal model draws the opponent's discards from them.

How the figures compare with the published ones. Own crib: the dealer's discard table of
CribbagePro (blog.cribbagepro.net, 2012); opponent's crib: Craig Hessel's iterated table as
printed at cribbageforum.com ("Discarding to opponent's crib"), which DeLynn Colvert's matches
to a tenth or two. Ours: seed 20240601, pools of 40,000 hands, 7 rounds.

=========  ==========  ===========  =================  =================
discard    ours: own   ours: other  CribbagePro (own)  Hessel (other)
=========  ==========  ===========  =================  =================
5-5        8.82        9.29         8.5                9.39
2-3        6.90        7.21         6.9                7.34
7-8        6.52        7.67         6.4                7.88
A-A        5.19        6.04         5.2                6.07
10-K       2.80        3.95         2.7                3.99
=========  ==========  ===========  =================  =================

So a pair of fives is worth about 9 in either crib, 10-K under 3 in our own and about 4 in the
opponent's. The same discard is worth more in the opponent's crib than in ours because a dealer
lays away helping cards to his own crib while a pone lays away the least useful ("balking")
cards. (Some quote 5-5 at 6.6-7 for the opponent's crib: that is not what the iterated tables
give, nor what ours give.) With three or four players the single card matters less (a 5: 6.5-6.6
in any crib, a king about 3.9-4.2), since the other three cards come from several hands.
``python -m bot.ai.tables --report`` prints the shipped figures beside the published ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import TypeVar

from bot.engine import FULL_PACK, Card, Suit

from .crib import CribTables, RoleTables, crib_weight, discard_key, rank_pair_key
from .handvalue import hand_total, rank_row, unseen_counts

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "crib.json"
DEFAULT_SEED = 20240601
ITERATIONS = 7

# Published reference figures (own crib, opponent's crib) quoted in the docstring and --report.
PUBLISHED = {
    "5-5": (8.5, 9.39),
    "2-3": (6.9, 7.34),
    "7-8": (6.4, 7.88),
    "A-A": (5.2, 6.07),
    "10-K": (2.7, 3.99),
}

# Who else lays away into the crib, by their role, when we are in role "own" or "other".
MULTI_ROLES: dict[str, dict[str, tuple[str, ...]]] = {
    "3": {"own": ("other", "other"), "other": ("own", "other")},
    "4": {"own": ("other", "other", "other"), "other": ("own", "other", "other")},
    "4p": {"own": ("own", "other", "other"), "other": ("own", "own", "other")},
}
VARIANT_OF = {"3": (3, False), "4": (4, False), "4p": (4, True)}

Hand = tuple[Card, ...]
Log = Callable[[str], object]
TwoCardTask = tuple[list[tuple[str, tuple[Card, Card]]], list[Hand], list[Hand]]
"""Discard classes to value, the pool of hands, what each pool hand throws."""
RolePool = tuple[list[Hand], list[int], list[Card]]
"""A role's pool for one-card discards: the hands, their card masks, the card each throws."""
MultiTask = tuple[str, str, list[tuple[str, Card]], dict[str, RolePool], int, int]
"""The game's key, our role, the discard classes to value, the pools, samples, the seed."""
T = TypeVar("T")
R = TypeVar("R")


# --------------------------------------------------------------------------- classes


def two_card_classes() -> list[tuple[str, tuple[Card, Card]]]:
    """Every two-card discard class with a representative: pairs, suited, offsuit."""
    out: list[tuple[str, tuple[Card, Card]]] = []
    for a in range(1, 14):
        for b in range(a, 14):
            if a == b:
                out.append((rank_pair_key(a, b), (Card(a, Suit.CLUBS), Card(b, Suit.DIAMONDS))))
            else:
                off = (Card(a, Suit.CLUBS), Card(b, Suit.DIAMONDS))
                suited = (Card(a, Suit.CLUBS), Card(b, Suit.CLUBS))
                out.append((discard_key(off), off))
                out.append((discard_key(suited), suited))
    return out


def one_card_classes() -> list[tuple[str, Card]]:
    return [(discard_key([Card(r, Suit.CLUBS)]), Card(r, Suit.CLUBS)) for r in range(1, 14)]


# --------------------------------------------------------------------------- decisions


def decide(hand: Hand, values: dict[str, float], weight: float) -> Hand:
    """The ``standard`` discard of ``hand`` with crib values ``values`` (weight +1 ours)."""
    by_rank, by_suit, n = unseen_counts(hand)
    k = 2 if len(hand) == 6 else 1
    best: Hand = ()
    best_net = -1e9
    for discard in combinations(hand, k):
        kept = tuple(c for c in hand if c not in discard)
        net = hand_total(kept, by_rank, by_suit, n) / n + weight * values.get(
            discard_key(discard), 0.0
        )
        if net > best_net:
            best, best_net = discard, net
    return best


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def crib_total(crib: Hand, seen_mask: int) -> tuple[int, int]:
    """Sum of the crib's show over every starter not in ``seen_mask``, and how many."""
    by_rank = [4] * 14
    by_suit = [13] * 4
    n = 52
    m = seen_mask
    while m:
        low = m & -m
        index = low.bit_length() - 1
        by_rank[index // 4 + 1] -= 1
        by_suit[index % 4] -= 1
        n -= 1
        m ^= low
    row = rank_row(tuple(sorted(c.rank for c in crib)))
    total = 0
    for r in range(1, 14):
        total += by_rank[r] * row[r]
    suit = crib[0].suit
    if all(c.suit == suit for c in crib):
        total += 5 * by_suit[suit]
    for c in crib:
        if c.rank == 11:
            total += by_suit[c.suit]
    return total, n


# --------------------------------------------------------------------------- two-handed


def _two_handed_chunk(args: TwoCardTask) -> dict[str, float]:
    classes, pool, throws = args
    masks = [_mask(h) for h in pool]
    out: dict[str, float] = {}
    for key, rep in classes:
        rep_mask = _mask(rep)
        total = 0.0
        count = 0
        for hand_mask, throw in zip(masks, throws, strict=True):
            if hand_mask & rep_mask:
                continue
            points, n = crib_total(rep + throw, hand_mask | rep_mask)
            total += points / n
            count += 1
        out[key] = total / count
    return out


def two_handed(
    seed: int, pool_size: int, iterations: int, workers: int, log: Log
) -> tuple[RoleTables, RoleTables, list[float]]:
    rng = random.Random(seed)
    pool: list[Hand] = [tuple(sorted(rng.sample(FULL_PACK, 6))) for _ in range(pool_size)]
    classes = two_card_classes()
    table: RoleTables = {"own": {}, "other": {}}
    history: list[float] = []
    dealer_throws: list[Hand] = []
    pone_throws: list[Hand] = []
    for round_ in range(iterations):
        start = time.perf_counter()
        dealer_throws = [decide(h, table["own"], 1.0) for h in pool]
        pone_throws = [decide(h, table["other"], -1.0) for h in pool]
        chunks = [classes[i::workers] for i in range(workers)]
        new: RoleTables = {}
        for role, throws in (("own", pone_throws), ("other", dealer_throws)):
            tasks: list[TwoCardTask] = [(chunk, pool, throws) for chunk in chunks]
            merged: dict[str, float] = {}
            for part in _map(workers, _two_handed_chunk, tasks):
                merged.update(part)
            new[role] = {k: merged[k] for k, _ in classes}
        change = _max_change(table, new)
        history.append(round(change, 4))
        table = _damped(table, new, round_)
        log(f"two-handed round {round_ + 1}: max change {change:.3f} ({_elapsed(start)})")
    thrown = {
        "dealer": _frequencies(dealer_throws),
        "pone": _frequencies(pone_throws),
    }
    return table, thrown, history


def _frequencies(throws: Sequence[Hand]) -> dict[str, float]:
    counts = Counter(rank_pair_key(a.rank, b.rank) for a, b in throws)
    total = sum(counts.values())
    return {k: round(v / total, 6) for k, v in sorted(counts.items())}


# --------------------------------------------------------------------------- 3 and 4 players


def _multi_chunk(args: MultiTask) -> dict[str, float]:
    key, role, classes, pools, samples, seed = args
    others = MULTI_ROLES[key][role]
    three = key == "3"
    out: dict[str, float] = {}
    for index, (name, card) in enumerate(classes):
        rng = random.Random(f"{seed}:{key}:{role}:{index}")
        mine = 1 << card.index
        total = 0.0
        done = 0
        while done < samples:
            used = mine
            crib = [card]
            ok = True
            for other_role in others:
                hands, masks, throws = pools[other_role]
                i = rng.randrange(len(hands))
                if masks[i] & used:
                    ok = False
                    break
                used |= masks[i]
                crib.append(throws[i])
            if not ok:
                continue
            if three:
                while True:
                    extra = FULL_PACK[rng.randrange(52)]
                    if not (used >> extra.index) & 1:
                        break
                used |= 1 << extra.index
                crib.append(extra)
            points, n = crib_total(tuple(crib), used)
            total += points / n
            done += 1
        out[name] = total / samples
    return out


def multi_handed(
    key: str, seed: int, pool_size: int, samples: int, iterations: int, workers: int, log: Log
) -> tuple[RoleTables, list[float]]:
    players, partnerships = VARIANT_OF[key]
    rng = random.Random(f"{seed}:{key}")
    pool: list[Hand] = [tuple(sorted(rng.sample(FULL_PACK, 5))) for _ in range(pool_size)]
    masks = [_mask(h) for h in pool]
    classes = one_card_classes()
    table: RoleTables = {"own": {}, "other": {}}
    history: list[float] = []
    for round_ in range(iterations):
        start = time.perf_counter()
        pools: dict[str, RolePool] = {}
        for role in ("own", "other"):
            weight = crib_weight(players, partnerships, role == "own")
            throws = [decide(h, table[role], weight)[0] for h in pool]
            pools[role] = (pool, masks, throws)
        tasks: list[MultiTask] = [
            (key, role, classes[i::workers], pools, samples, seed)
            for role in ("own", "other")
            for i in range(workers)
        ]
        results = list(_map(workers, _multi_chunk, tasks))
        new: RoleTables = {"own": {}, "other": {}}
        for (_, role, *_rest), part in zip(tasks, results, strict=True):
            new[role].update(part)
        new = {role: {k: new[role][k] for k, _ in classes} for role in new}
        change = _max_change(table, new)
        history.append(round(change, 4))
        table = _damped(table, new, round_)
        log(f"{key}-handed round {round_ + 1}: max change {change:.3f} ({_elapsed(start)})")
    return table, history


# --------------------------------------------------------------------------- helpers


def _map(workers: int, fn: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
    if workers <= 1:
        return [fn(t) for t in tasks]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, tasks))


def _damped(old: RoleTables, new: RoleTables, round_: int) -> RoleTables:
    """Move halfway to the new values after the first two rounds (damps oscillations)."""
    if round_ < 2:
        return new
    return {
        role: {k: (old[role][k] + v) / 2 for k, v in values.items()} for role, values in new.items()
    }


def _max_change(old: RoleTables, new: RoleTables) -> float:
    change = 0.0
    for role, values in new.items():
        for k, v in values.items():
            change = max(change, abs(v - old[role].get(k, 0.0)))
    return change


def _elapsed(start: float) -> str:
    return f"{time.perf_counter() - start:.1f} s"


def build(
    *,
    seed: int = DEFAULT_SEED,
    pool: int = 40_000,
    samples: int = 40_000,
    iterations: int = ITERATIONS,
    workers: int = 2,
    log: Log = print,
) -> CribTables:
    """Compute every table (see the module docstring)."""
    crib_two, throws, history_two = two_handed(seed, pool, iterations, workers, log)
    data: CribTables = {
        "format": 1,
        "method": "iterated fixed point over a random pool; see bot/ai/tables.py",
        "seed": seed,
        "pool": pool,
        "samples": samples,
        "iterations": iterations,
        "last_change": {"2": history_two[-1]},
        "crib": {"2": _rounded(crib_two)},
        "throws": {"2": throws},
    }
    for key in ("3", "4", "4p"):
        table, history = multi_handed(key, seed, pool, samples, iterations, workers, log)
        data["crib"][key] = _rounded(table)
        data["last_change"][key] = history[-1]
    return data


def _rounded(table: RoleTables) -> RoleTables:
    return {role: {k: round(v, 3) for k, v in values.items()} for role, values in table.items()}


def report(data: CribTables) -> str:
    """Our figures beside the published ones."""
    lines = ["discard   ours: own  other   published: own  other"]
    two = data["crib"]["2"]
    for key, (own, other) in PUBLISHED.items():
        lines.append(
            f"{key:<8} {two['own'][key]:>9.2f} {two['other'][key]:>6.2f} {own:>15.2f} {other:>6.2f}"
        )
    for key in ("3", "4", "4p"):
        t = data["crib"][key]
        lines.append(
            f"{key}-handed  5: own {t['own']['5']:.2f}, other {t['other']['5']:.2f};"
            f"  K: own {t['own']['K']:.2f}, other {t['other']['K']:.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.tables", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--pool", type=int, default=40_000, help="random hands per pool")
    parser.add_argument("--samples", type=int, default=40_000, help="deals per 1-card discard")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--report", action="store_true", help="compare the shipped tables")
    args = parser.parse_args(argv)
    if args.report:
        print(report(json.loads(args.out.read_text())))
        return 0
    start = time.perf_counter()
    data = build(
        seed=args.seed,
        pool=args.pool,
        samples=args.samples,
        iterations=args.iterations,
        workers=args.workers,
        log=lambda m: print(m, file=sys.stderr),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(report(data))
    print(f"written {args.out} in {_elapsed(start)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
