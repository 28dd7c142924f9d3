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


PLAY_MISMATCH = 0.3
"""The weight a world keeps for each card the opponent laid that a ``standard`` player holding
that world's cards would not have laid (a card kept back or avoided is evidence, not proof)."""


def weighted_worlds(
    view: SeatView, rng: random.Random, samples: int
) -> list[tuple[float, tuple[int, ...], tuple[int, ...]]]:
    """Two-handed worlds for the search (:mod:`bot.ai.pegging_search`): (weight, the opponent's
    unlaid ranks, per rank what the opponent cannot see now). Sampled as
    :func:`sample_opponent_two_handed` does, with the opponent's discard dealt too, then weighted
    by how well each world explains the cards the opponent chose to lay (:data:`PLAY_MISMATCH`)."""
    opp = 1 - view.seat
    base = [4] * 14
    base[0] = 0
    if view.starter is not None:
        base[view.starter.rank] -= 1
    for _, card in view.played:
        base[card.rank] -= 1
    out = []
    for rest, discards in _worlds_with_discards(view, rng, samples):
        unseen = list(base)
        for r in rest:
            unseen[r] -= 1
        for r in discards:
            unseen[r] -= 1
        weight = _play_likelihood(view, opp, rest, discards)
        out.append((weight, rest, tuple(unseen)))
    return out


def _worlds_with_discards(
    view: SeatView, rng: random.Random, samples: int
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(the opponent's unlaid ranks, its two discards) per sampled world."""
    opp = 1 - view.seat
    pool = unseen_pool(view)
    laid = sorted(played_by(view)[opp])
    held = 4 - len(laid)
    floor = view.go_floors().get(opp, 1)
    own = view.dealer == opp
    worlds: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    attempts = 0
    can_infer = len(pool) >= held + 2
    while can_infer and len(worlds) < samples and attempts < samples * 8:
        attempts += 1
        extra = rng.sample(pool, held + 2)
        six = tuple(sorted(laid + extra))
        kept = Counter(model_keep(six, own))
        if not (Counter(laid) - kept):
            rest = tuple(sorted((kept - Counter(laid)).elements()))
        elif rng.random() < ACCEPT_INCONSISTENT:
            rest = tuple(sorted(rng.sample(extra, held)))
        else:
            continue
        if _fits(rest, floor):
            worlds.append((rest, tuple(sorted((Counter(extra) - Counter(rest)).elements()))))
    eligible = [r for r in pool if min(r, 10) >= floor]
    if len(eligible) < held:
        eligible = pool
    while len(worlds) < samples:
        rest = tuple(sorted(rng.sample(eligible, held)))
        left = list((Counter(pool) - Counter(rest)).elements())
        discards = tuple(sorted(rng.sample(left, 2))) if len(left) >= 2 else ()
        worlds.append((rest, discards))
    return worlds


def _play_likelihood(
    view: SeatView, opp: int, rest: tuple[int, ...], discards: tuple[int, ...]
) -> float:
    """:data:`PLAY_MISMATCH` to the power of the opponent's plays that ``standard`` holding
    ``rest`` (plus what it laid since) would not have made, replayed from the start of the play."""
    from .expert_pegging import model_choice  # the model sits above the worlds it is fed

    played = view.played
    if not any(s == opp for s, _ in played):
        return 1.0
    hand = sorted(list(rest) + [c.rank for s, c in played if s == opp])
    unseen = [4] * 14
    unseen[0] = 0
    if view.starter is not None:
        unseen[view.starter.rank] -= 1
    for r in hand:
        unseen[r] -= 1
    for r in discards:
        unseen[r] -= 1
    weight = 1.0
    pile: list[int] = []
    count = 0
    mine_held = 4
    for seat, card in played:
        r = card.rank
        value = min(r, 10)
        if count == 31 or count + value > 31:
            pile, count = [], 0
        if seat == opp:
            fits = [q for q in hand if min(q, 10) <= 31 - count]
            if fits and fits[0] != fits[-1]:
                choice = model_choice(tuple(hand), tuple(pile), count, unseen, mine_held)
                if choice != r:
                    weight *= PLAY_MISMATCH
            hand.remove(r)
        else:
            unseen[r] -= 1
            mine_held -= 1
        pile.append(r)
        count += value
    return weight
