"""The computer players' choices on seeded deals, to show a change to their code keeps them.

Plays ``--deals`` seeded deals of each kind (two-handed, three players, partnerships), half of
them from 0-0 and half from scores drawn near the end of the game (where the expert plays for
the chance to win), with the ``expert`` in some seats and ``standard`` in the others, and
records every action each seat chose (discards, cards laid, cuts). Run it on two versions of
the code on the same seeds and compare: the same fingerprint means the same choices.

    .venv/bin/python benchmarks/same_choices.py --dump /tmp/choices.json
    .venv/bin/python benchmarks/same_choices.py --base /tmp/choices.json

Prints ``choices_<kind>: <actions> actions, fingerprint <hex>`` per kind and, with ``--base``,
``choices_differ: N deals`` (0: every choice the same) with the first deal that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.players import choose_action  # noqa: E402
from bot.engine import Game, Phase, Variant  # noqa: E402

KINDS = {
    "2p": (Variant(players=2), ("expert", "standard")),
    "3p": (Variant(players=3), ("standard", "expert", "expert")),
    "partners": (
        Variant(players=4, partnerships=True),
        ("expert", "standard", "expert", "standard"),
    ),
}


def deal_actions(kind: str, seed: int, near_end: bool) -> list[str]:
    """Every action of deal ``seed`` of ``kind`` (seat 0 deals), as text, played to the end of
    the deal (or of the game, when a side reaches the target during it)."""
    variant, levels = KINDS[kind]
    game = Game.new(variant, seed=seed, first_dealer=0)
    if near_end:
        draw = random.Random(f"ends:{seed}")
        game.scores = [draw.randint(90, variant.target - 3) for _ in range(variant.sides)]
    rng = random.Random(f"{kind}:{seed}")
    first = game.deal_number
    out: list[str] = []
    while not game.is_over and game.deal_number == first and game.phase is not Phase.NEXT_DEAL:
        seat = game.to_act[0]
        action = choose_action(game, seat, level=levels[seat], seed=rng.getrandbits(32))
        out.append(f"{seat}:{action!r}")
        game.apply(seat, action)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=40, help="seeds per kind")
    parser.add_argument("--first-seed", type=int, default=500)
    parser.add_argument("--kinds", default="2p,3p,partners")
    parser.add_argument("--dump", help="write every deal's actions to this JSON file")
    parser.add_argument("--base", help="a --dump of another version: compare with it")
    args = parser.parse_args(argv)
    found: dict[str, list[str]] = {}
    for kind in args.kinds.split(","):
        digest = hashlib.sha256()
        actions = 0
        for i in range(args.deals):
            seed = args.first_seed + i
            near_end = i % 2 == 1
            key = f"{kind}:{seed}:{'end' if near_end else 'start'}"
            found[key] = deal_actions(kind, seed, near_end)
            actions += len(found[key])
            digest.update(json.dumps(found[key]).encode())
        print(
            f"choices_{kind}: {actions} actions, fingerprint {digest.hexdigest()[:16]}", flush=True
        )
    if args.dump:
        Path(args.dump).write_text(json.dumps(found, indent=0))
    if args.base:
        before = json.loads(Path(args.base).read_text())
        differ = [key for key in found if key in before and before[key] != found[key]]
        print(f"choices_compared: {sum(key in before for key in found)} deals")
        print(f"choices_differ: {len(differ)} deals")
        if differ:
            key = differ[0]
            pairs = zip(before[key], found[key], strict=False)  # the shorter log's length
            at = next(
                (i for i, (a, b) in enumerate(pairs) if a != b),
                min(len(before[key]), len(found[key])),
            )
            print(
                f"first difference: {key} action {at}: {before[key][at : at + 1]} -> "
                f"{found[key][at : at + 1]}"
            )
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
