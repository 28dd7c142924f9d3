"""The chance to win a two-sided game, made: ``python -m bot.ai.winchance [--kind K] [--deals N]``.

Writes the tables :mod:`bot.ai.chance_tables` reads (:func:`~bot.ai.chance_tables.chance`:
P(win | my score, their score, whether I deal) at the start of a deal, for games to 121 and to
61): ``data/winchance.json`` for two players, ``data/winchance_partners.json`` for four in
partnerships (``--kind partners``: two sides too, and the deal passes from one side to the other
every deal, so the same programme serves; the side that deals is the "dealer" and the other the
"pone" side). Making them self-plays the computer players, so this module sits above them and
the reading, which they consult, below.

How the table is made (deterministic from ``--seed``):

1. **Deals by self-play.** ``standard`` computers play ``--deals`` deals (the scores are set
   back to 0 before each, so no deal is played near an end). Each deal is kept as the points in
   the order they were scored, by side: his heels, then every peg of the play as it came (pone's
   and dealer's interleaved), then the hands in counting order (in partnerships the two sides'
   hands alternate, the pone side's first), the crib.
2. **A dynamic programme over the points each side still needs.** With the dealer needing ``x``
   and the pone ``y``, a deal is won at once by the side that first reaches its need in the
   deal's order (nothing after that is scored: docs/players/rules.md, "Winning"); otherwise the
   deal moves the game to (``y - pone's points``, ``x - dealer's points``) with the deal passing
   to the pone. Every deal scores at least 1 (the last card), so the needs fall and the table is
   filled by their sum.
   ``W(x, y)``, the dealer's chance, depends on the needs only: the 61 game reads the same table.

The per-deal points do not depend on the score (a simplification: near the end real players
peg and discard for the win). The table is stored as 16-bit fractions (zlib, base64) with the
measured distributions of each stage (pegging, hands, crib) that value a decision near the end
(:mod:`bot.ai.deal_chances`: the expert's and the review's chances to win).
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import zlib
from array import array
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.engine import Game, Phase, Scored, ScoreReason, Variant

from .chance_tables import DATA_FILES, MAX_NEED, SCALE, dealer_chance, forget
from .players import choose_action

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_SEED = 20261124
DEFAULT_DEALS = 40_000

Deal = tuple[tuple[int, int], ...]
"""One deal's points in the order scored: (role: 0 pone, 1 dealer; points)."""


# --------------------------------------------------------------------------- self-play


def _variant(kind: str) -> Variant:
    return Variant(players=4, partnerships=True) if kind == "partners" else Variant()


def _play_deals(
    task: tuple[int, int, str],
) -> list[tuple[Deal, tuple[int, int, int, int, int], Deal]]:
    """``count`` deals of ``standard`` players (seeded): each deal's points in order,
    (pone's pegging, dealer's pegging with his heels, pone's hand, dealer's hand, crib), each
    side's together, and (side, points) for each hand that scored."""
    seed, count, kind = task
    variant = _variant(kind)
    game = Game.new(variant, seed=seed, first_dealer=0)
    out: list[tuple[Deal, tuple[int, int, int, int, int], Deal]] = []
    points: list[tuple[int, int]] = []
    hands: list[tuple[int, int]] = []
    stages = [0, 0, 0, 0, 0]
    n = 0
    while True:
        if game.phase is Phase.DISCARD and not game.discarded:  # a deal starts: keep the last
            if points:
                kept = (stages[0], stages[1], stages[2], stages[3], stages[4])
                out.append((tuple(points), kept, tuple(hands)))
            if len(out) == count:
                break
            game.scores = [0] * variant.sides
            points, hands, stages = [], [], [0, 0, 0, 0, 0]
        dealer = game.dealer
        seat = game.to_act[0]
        events = game.apply(seat, choose_action(game, seat, level="standard", seed=seed + n))
        n += 1
        for e in events:
            if isinstance(e, Scored) and e.points:
                dealt = dealer is not None and variant.side_of(dealer) == variant.side_of(e.seat)
                role = 1 if dealt else 0
                points.append((role, e.points))
                stage = {ScoreReason.CRIB: 4, ScoreReason.HAND: 2 + role}.get(e.reason, role)
                stages[stage] += e.points
                if e.reason is ScoreReason.HAND:
                    hands.append((role, e.points))
    return out


def simulate(
    deals: int, seed: int, workers: int = 2, kind: str = "2p"
) -> list[tuple[Deal, tuple[int, ...], Deal]]:
    chunk = 2_000
    tasks = [
        (seed * 1_000 + i, min(chunk, deals - i * chunk), kind) for i in range(-(-deals // chunk))
    ]
    if workers <= 1 or len(tasks) == 1:
        results = [_play_deals(t) for t in tasks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_play_deals, tasks))
    return [d for r in results for d in r]


# --------------------------------------------------------------------------- the programme


def solve(deals: Sequence[Deal], size: int = MAX_NEED) -> list[list[float]]:
    """``W[x][y]``: the dealer's chance to win needing ``x`` against a pone needing ``y``
    (1..size; row and column 0 unused), over the empirical distribution of ``deals``."""
    n = len(deals)
    first_d = [[0] * (size + 2) for _ in range(size + 1)]  # [x][pone's points when dealer hits x]
    first_p = [[0] * (size + 2) for _ in range(size + 1)]
    joint: Counter[tuple[int, int]] = Counter()
    for deal in deals:
        got = [0, 0]
        for role, pts in deal:
            before = got[role]
            got[role] += pts
            other = min(got[1 - role], size + 1)
            table = first_d if role == 1 else first_p
            for need in range(before + 1, min(got[role], size) + 1):
                table[need][other] += 1
        joint[(got[1], got[0])] += 1
    for table in (first_d, first_p):  # cumulative: hits of x with the other below k
        for row in table:
            for k in range(1, size + 2):
                row[k] += row[k - 1]
    by_pone: dict[int, list[tuple[int, float]]] = {}
    for (d, p), c in sorted(joint.items()):
        by_pone.setdefault(p, []).append((d, c / n))
    w = [[0.0] * (size + 1) for _ in range(size + 1)]
    for total in range(2, 2 * size + 1):
        for x in range(max(1, total - size), min(size, total - 1) + 1):
            y = total - x
            win = first_d[x][y - 1] / n  # the dealer reaches x while the pone is below y
            for p, cells in by_pone.items():
                if p >= y:
                    continue
                for d, prob in cells:
                    if d >= x:
                        break
                    win += prob * (1.0 - w[y - p][x - d])
            w[x][y] = win
    return w


# --------------------------------------------------------------------------- shipping


def _pack(w: list[list[float]]) -> str:
    cells = range(1, MAX_NEED + 1)
    values = array("H", (round(w[x][y] * SCALE) for x in cells for y in cells))
    return base64.b64encode(zlib.compress(values.tobytes(), 9)).decode("ascii")


def _hist(values: Sequence[int]) -> list[float]:
    top = max(values)
    counts = Counter(values)
    return [round(counts[v] / len(values), 6) for v in range(top + 1)]


def build(deals: int, seed: int, workers: int = 2, kind: str = "2p") -> dict[str, object]:
    played = simulate(deals, seed, workers, kind)
    w = solve([d for d, _, _ in played])
    stages = list(zip(*(s for _, s, _ in played), strict=True))
    pegging = Counter((s[0], s[1]) for _, s, _ in played)
    each = _variant(kind).players // 2  # the hands each side shows
    one_hand = {}
    for role, name in ((0, "pone_side_hand"), (1, "dealer_side_hand")):
        scored = [p for _, _, hands in played for r, p in hands if r == role]
        one_hand[name] = _hist(scored + [0] * (each * len(played) - len(scored)))
    return {
        "format": 1,
        "method": f"self-play of standard players ({kind}), then a programme over the needs "
        "(bot/ai/winchance.py)",
        "seed": seed,
        "deals": len(played),
        "scale": SCALE,
        "dealer_wins": _pack(w),
        "pegging": [[p, d, round(c / len(played), 6)] for (p, d), c in sorted(pegging.items())],
        "pone_hand": _hist(stages[2]),
        "dealer_hand": _hist(stages[3]),
        "crib": _hist(stages[4]),
        **(one_hand if each > 1 else {}),
    }


# --------------------------------------------------------------------------- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=sorted(DATA_FILES), default="2p")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="default: the shipped table of the kind")
    args = parser.parse_args(argv)
    shipped = DATA_DIR / DATA_FILES[args.kind]
    out: Path = args.out or shipped
    start = time.perf_counter()
    data = build(args.deals, args.seed, args.workers, args.kind)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    forget()
    took = time.perf_counter() - start
    print(f"{data['deals']} deals in {took:.0f} s -> {out} ({out.stat().st_size} B)")
    if out == shipped:
        first = [dealer_chance(n, n, args.kind) for n in (121, 61)]
        print(f"first dealer, 121: {first[0]:.3f}; 61: {first[1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
