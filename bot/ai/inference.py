"""What the other hands may hold, as far as one seat can tell.

Deals of the unseen cards to the other seats ("worlds") consistent with what the seat knows:
the cards each player has laid, the goes they said (a seat that said go at count c holds
nothing worth 31 - c or less), and, two-handed, that the four cards the opponent kept are what
a sound player keeps from six: a sampled six-card hand whose ``standard`` discard would not have
kept the cards the opponent has since laid is (mostly) rejected.

Everything here works on ranks; suits do not matter in the play.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from .crib import load_tables, rank_pair_key
from .handvalue import rank_row
from .memo import memo
from .view import SeatView

ACCEPT_INCONSISTENT = 0.1
"""Chance of keeping a world the discard model disagrees with (players are not all models)."""


@lru_cache(maxsize=4)
def _pair_values(own: bool) -> dict[tuple[int, int], float]:
    table = load_tables()["crib"]["2"]["own" if own else "other"]
    return {(a, b): table[rank_pair_key(a, b)] for a in range(1, 14) for b in range(a, 14)}


@memo(1 << 17)
def model_keep(ranks: tuple[int, ...], own: bool) -> tuple[int, ...]:
    """The four ranks a ``standard`` player keeps from six (suits ignored); ``own``: its crib."""
    avail = [4] * 14
    for r in ranks:
        avail[r] -= 1
    values = _pair_values(own)
    sign = 1.0 if own else -1.0
    best: tuple[int, ...] = ()
    best_net = -1e9
    n = len(ranks)
    for i in range(n):
        for j in range(i + 1, n):
            kept = ranks[:i] + ranks[i + 1 : j] + ranks[j + 1 :]
            row = rank_row(kept)
            total = 0
            for r in range(1, 14):
                total += avail[r] * row[r]
            net = total / 46.0 + sign * values[(ranks[i], ranks[j])]
            if net > best_net:
                best, best_net = kept, net
    return best


def unseen_pool(view: SeatView) -> list[int]:
    """The ranks of every card this seat has not seen (one entry per card)."""
    return sorted(c.rank for c in view.unseen_cards())


def played_by(view: SeatView) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {s: [] for s in range(view.players)}
    for seat, card in view.played:
        out[seat].append(card.rank)
    return out


def _fits(hand: tuple[int, ...], floor: int) -> bool:
    return all(min(r, 10) >= floor for r in hand)


def sample_opponent_two_handed(
    view: SeatView, rng: random.Random, samples: int, *, infer: bool = True
) -> list[tuple[int, ...]]:
    """Sorted rank tuples for the opponent's unlaid cards, one per sampled world."""
    opp = 1 - view.seat
    pool = unseen_pool(view)
    laid = sorted(played_by(view)[opp])
    held = 4 - len(laid)
    if held <= 0:
        return [()] * samples
    floor = view.go_floors().get(opp, 1)
    eligible = [r for r in pool if min(r, 10) >= floor]
    if len(eligible) < held:
        eligible = pool
    own = view.dealer == opp  # the opponent's discard went to its own crib
    worlds: list[tuple[int, ...]] = []
    attempts = 0
    can_infer = infer and len(pool) >= held + 2
    while can_infer and len(worlds) < samples and attempts < samples * 8:
        attempts += 1
        extra = rng.sample(pool, held + 2)
        six = tuple(sorted(laid + extra))
        kept = Counter(model_keep(six, own))
        consistent = not (Counter(laid) - kept)
        if consistent:
            rest = tuple(sorted((kept - Counter(laid)).elements()))
        elif rng.random() < ACCEPT_INCONSISTENT:
            rest = tuple(sorted(rng.sample(extra, held)))
        else:
            continue
        if _fits(rest, floor):
            worlds.append(rest)
    while len(worlds) < samples:
        worlds.append(tuple(sorted(rng.sample(eligible, held))))
    return worlds


def sample_others(
    view: SeatView, rng: random.Random, samples: int
) -> list[dict[int, tuple[int, ...]]]:
    """Worlds for any number of players: each other seat's unlaid ranks (go floors honoured)."""
    pool = unseen_pool(view)
    laid = played_by(view)
    floors = view.go_floors()
    others = [s for s in range(view.players) if s != view.seat]
    held = {s: 4 - len(laid[s]) for s in others}
    # Deal the most constrained seats first.
    order = sorted(others, key=lambda s: -floors.get(s, 1))
    worlds: list[dict[int, tuple[int, ...]]] = []
    for _ in range(samples):
        for _attempt in range(20):
            cards = pool[:]
            rng.shuffle(cards)
            world: dict[int, tuple[int, ...]] = {}
            ok = True
            for seat in order:
                floor = floors.get(seat, 1)
                take = [r for r in cards if min(r, 10) >= floor][: held[seat]]
                if len(take) < held[seat]:
                    ok = False
                    break
                for r in take:
                    cards.remove(r)
                world[seat] = tuple(sorted(take))
            if ok:
                break
        else:
            world = {s: tuple(sorted(rng.sample(pool, held[s]))) for s in others}
        worlds.append(world)
    return worlds
