"""Pegging prospects of a kept hand: what four kept ranks are worth in the play, per seat.

Make the tables: ``python -m bot.ai.pegging_prospects [--samples N] [--seed S] [--workers W]``
(two-handed, ``data/pegging.json``, 4,000 deals an entry: 10 minutes on 2 cores), and with
``--multi 3``, ``4p`` or ``4`` the three- and four-handed ones (``data/pegging_multi.json``,
500 deals an entry, 300 for ``4``: 12, 20 and 11 minutes on shared cores).

Two-handed, for every multiset of four ranks (1,820 of them) and each role (dealer, pone): the
expected pegging points of its holder minus the opponent's, over ``samples`` deals: the rest of
the pack shuffled, two of it our other discards, six the opponent's (who keeps what ``standard``
keeps from them, :func:`bot.ai.inference.model_keep`), one the starter; then the play from the
pone's lead with both seats laying as ``standard`` does (:func:`bot.ai.playouts.rollout`).
With 3 or 4 players the same for every seat after the dealer, the others dealt five and keeping
as ``standard`` does in their roles, the points weighed as the expert weighs them in the play
(its side's minus the others', an opponent's shared out when each plays for himself). Each entry
is seeded by the seed, the variant, the seat and the ranks: any worker count gives the same.

A table of every set of ranks, not a fitted formula: a linear fit of the same play-outs erred by far
more than an entry's sampling error, and chose worse discards (docs/research/measurements.md, "The
discards").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement
from pathlib import Path
from typing import TypedDict, TypeVar

from bot.engine import Card, Suit

from .crib import crib_value, crib_weight
from .handvalue import hand_total, unseen_counts
from .inference import model_keep
from .playouts import model_choice, multi_rollout, rollout

DATA_FILE = "pegging.json"
DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_SEED = 2026
DEFAULT_SAMPLES = 4000
MULTI_DATA_FILE = "pegging_multi.json"
DEFAULT_SAMPLES_MULTI = 500

Ranks = tuple[int, ...]


class ProspectTable(TypedDict):
    format: int
    method: str
    seed: int
    samples: int
    dealer: dict[str, float]
    pone: dict[str, float]


class MultiTable(TypedDict):
    seed: int
    samples: int
    seats: list[dict[str, float]]
    """Per seat after the dealer (0: the dealer, 1: who leads), per kept hand."""


def key_of(ranks: Sequence[int]) -> str:
    """The table key of four ranks: their hex digits lowest first (``'155d'`` is A 5 5 K)."""
    return "".join(f"{r:x}" for r in sorted(ranks))


@cache
def load_prospects() -> ProspectTable:
    """The shipped table (read once)."""
    text = resources.files("bot.ai").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    table: ProspectTable = json.loads(text)
    return table


def pegging_prospect(kept: Sequence[Card], dealer: bool) -> float:
    """Expected pegging points (ours minus the opponent's) with these four cards, two-handed."""
    table = load_prospects()
    return table["dealer" if dealer else "pone"][key_of([c.rank for c in kept])]


@cache
def load_multi_prospects() -> dict[str, MultiTable]:
    """The shipped three- and four-handed tables, by variant key (read once)."""
    path = resources.files("bot.ai").joinpath("data", MULTI_DATA_FILE)
    tables: dict[str, MultiTable] = json.loads(path.read_text(encoding="utf-8"))
    return tables


def multi_prospect(kept: Sequence[Card], key: str, offset: int) -> float:
    """Expected pegging points of the seat ``offset`` after the dealer holding ``kept``, with 3
    or 4 players (``key`` as the crib tables'): its side's points minus the others' (each
    opponent's shared out by the number of opponents when each plays for himself)."""
    return load_multi_prospects()[key]["seats"][offset][key_of([c.rank for c in kept])]


# --------------------------------------------------------------------------- making the table


def kept_hands() -> list[Ranks]:
    """Every multiset of four ranks (no rank more than four times: all of them)."""
    return list(combinations_with_replacement(range(1, 14), 4))


def play_out(kept: Ranks, dealer: bool, rng: random.Random) -> float:
    """One deal with ``kept`` in our hand: our pegging points minus the opponent's."""
    pack = [r for r in range(1, 14) for _ in range(4)]
    for r in kept:
        pack.remove(r)
    rng.shuffle(pack)
    ours_thrown, theirs, starter = pack[:2], tuple(sorted(pack[2:8])), pack[8]
    opponent = model_keep(theirs, "2", not dealer)
    unseen_ours = [0] + [4] * 13
    for r in (*kept, *ours_thrown, starter):
        unseen_ours[r] -= 1
    unseen_theirs = [0] + [4] * 13
    for r in (*theirs, starter):
        unseen_theirs[r] -= 1
    return rollout(kept, opponent, (), 0, 1 if dealer else 0, unseen_ours, unseen_theirs)


def prospect(kept: Ranks, dealer: bool, samples: int, seed: int) -> float:
    """The average of :func:`play_out` over ``samples`` deals (seeded by ``kept`` and the role)."""
    rng = random.Random(f"{seed}:{int(dealer)}:{key_of(kept)}")
    return sum(play_out(kept, dealer, rng) for _ in range(samples)) / samples


Task = tuple[bool, list[Ranks], int, int]


def _chunk(task: Task) -> dict[str, float]:
    dealer, hands, samples, seed = task
    return {key_of(h): round(prospect(h, dealer, samples, seed), 3) for h in hands}


def build(
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_SAMPLES,
    workers: int = 2,
    hands: list[Ranks] | None = None,
    log: Callable[[str], None] = print,
) -> ProspectTable:
    """The table for ``hands`` (every kept hand by default), both roles."""
    hands = kept_hands() if hands is None else hands
    chunks = _chunked(hands)
    tasks: list[Task] = [(dealer, c, samples, seed) for dealer in (True, False) for c in chunks]
    results = _run(_chunk, tasks, workers, log)
    half = len(chunks)
    return {
        "format": 1,
        "method": "standard against standard play-outs; see bot/ai/pegging_prospects.py",
        "seed": seed,
        "samples": samples,
        "dealer": {k: v for part in results[:half] for k, v in part.items()},
        "pone": {k: v for part in results[half:] for k, v in part.items()},
    }


T = TypeVar("T")


def _chunked(hands: list[Ranks], size: int = 65) -> list[list[Ranks]]:
    """The work in pieces for the workers (28 of the 1,820 hands)."""
    return [hands[i : i + size] for i in range(0, len(hands), size)]


def _run(
    fn: Callable[[T], dict[str, float]], tasks: list[T], workers: int, log: Callable[[str], None]
) -> list[dict[str, float]]:
    if workers <= 1:
        return [fn(t) for t in tasks]
    start = time.perf_counter()
    results: list[dict[str, float]] = []
    with ProcessPoolExecutor(workers) as pool:
        for i, part in enumerate(pool.map(fn, tasks)):
            results.append(part)
            log(f"{i + 1}/{len(tasks)} chunks ({time.perf_counter() - start:.0f} s)")
    return results


# --------------------------------------------------------------------------- three and four

MULTI_KEYS = {"3": (3, False), "4": (4, False), "4p": (4, True)}
"""The multi-player tables: (players, partnerships) per key (the crib tables' keys)."""


@cache
def _keep_multi(ranks: Ranks, key: str, own: bool) -> Ranks:
    """The four ranks ``standard`` keeps of five in that role: the exact hand over the unseen
    starters (suits apart, so no flush) plus or minus the one-card crib table."""
    players, partnerships = MULTI_KEYS[key]
    hand = [Card(r, Suit(i % 4)) for i, r in enumerate(ranks)]
    by_rank, by_suit, n = unseen_counts(hand)
    weight = crib_weight(players, partnerships, own)
    best: Ranks = ()
    best_net = -1e9
    for i, card in enumerate(hand):
        kept = hand[:i] + hand[i + 1 :]
        net = hand_total(kept, by_rank, by_suit, n) / n
        net += weight * crib_value((card,), key=key, own=own)
        if net > best_net:
            best, best_net = tuple(sorted(c.rank for c in kept)), net
    return best


def play_out_multi(kept: Ranks, key: str, offset: int, rng: random.Random) -> float:
    """One deal of ``key`` with ``kept`` in the hand of the seat ``offset`` after the dealer:
    its side's pegging points minus the others' (shared out, as the expert weighs them)."""
    n, partnerships = MULTI_KEYS[key]
    pack = [r for r in range(1, 14) for _ in range(4)]
    for r in kept:
        pack.remove(r)
    rng.shuffle(pack)
    dealt: list[Ranks] = []
    hands: list[Ranks] = []
    at = 1
    for seat in range(n):
        if seat == offset:
            dealt.append((*kept, pack[0]))
            hands.append(kept)
            continue
        five = tuple(sorted(pack[at : at + 5]))
        at += 5
        own = seat == 0 or (partnerships and seat == 2)
        dealt.append(five)
        hands.append(_keep_multi(five, key, own))
    starter = pack[at + 1]  # three-handed the pack's card for the crib is pack[at]
    unseen: list[list[int]] = []
    for seat in range(n):
        u = [0] + [4] * 13
        for r in (*dealt[seat], starter):
            u[r] -= 1
        unseen.append(u)
    side = offset % 2 if partnerships else offset
    weights = tuple(
        1.0 if (s % 2 if partnerships else s) == side else (-1.0 if partnerships else -1 / (n - 1))
        for s in range(n)
    )
    first = model_choice(hands[1], (), 0, unseen[1], len(hands[2 % n]))
    return multi_rollout(hands, (), 0, 1, first, unseen, weights)


def prospect_multi(kept: Ranks, key: str, offset: int, samples: int, seed: int) -> float:
    rng = random.Random(f"{seed}:{key}:{offset}:{key_of(kept)}")
    return sum(play_out_multi(kept, key, offset, rng) for _ in range(samples)) / samples


MultiTask = tuple[str, int, list[Ranks], int, int]


def _multi_chunk(task: MultiTask) -> dict[str, float]:
    key, offset, hands, samples, seed = task
    return {key_of(h): round(prospect_multi(h, key, offset, samples, seed), 3) for h in hands}


def build_multi(
    key: str,
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_SAMPLES_MULTI,
    workers: int = 2,
    hands: list[Ranks] | None = None,
    log: Callable[[str], None] = print,
) -> MultiTable:
    """The table of ``key`` (``'3'``, ``'4'``, ``'4p'``) for every seat after the dealer."""
    hands = kept_hands() if hands is None else hands
    n = MULTI_KEYS[key][0]
    chunks = _chunked(hands)
    tasks: list[MultiTask] = [(key, o, c, samples, seed) for o in range(n) for c in chunks]
    results = _run(_multi_chunk, tasks, workers, log)
    table: MultiTable = {"seed": seed, "samples": samples, "seats": [{} for _ in range(n)]}
    for (_, offset, *_rest), part in zip(tasks, results, strict=True):
        table["seats"][offset].update(part)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.pegging_prospects", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--samples", type=int, help="deals per entry (4,000; 500 with --multi)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--multi", choices=sorted(MULTI_KEYS), help="make that variant's table instead of 2's"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    data = DATA_DIR
    data.mkdir(parents=True, exist_ok=True)
    if args.multi is None:
        samples = args.samples or DEFAULT_SAMPLES
        table = build(seed=args.seed, samples=samples, workers=args.workers, log=log)
        out = data / DATA_FILE
        out.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n")
    else:
        samples = args.samples or DEFAULT_SAMPLES_MULTI
        out = data / MULTI_DATA_FILE
        tables = json.loads(out.read_text()) if out.exists() else {}
        tables[args.multi] = build_multi(
            args.multi, seed=args.seed, samples=samples, workers=args.workers, log=log
        )
        out.write_text(json.dumps(tables, indent=0, sort_keys=True) + "\n")
    print(f"written {out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
