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
from functools import lru_cache
from itertools import combinations
from operator import mul

from bot.engine import rank_name
from bot.engine.pegging import VALUE

from .crib import crib_weight, load_tables, rank_pair_key
from .handvalue import rank_row
from .memo import memo
from .pegging import laid_on, unshown_rank_counts
from .pegging_model import RankScores, answer, forced
from .view import SeatKnowledge

ACCEPT_INCONSISTENT = 0.1
"""Chance of keeping a world the discard model disagrees with (players are not all models)."""


@lru_cache(maxsize=8)
def _throw_values(key: str, own: bool) -> dict[tuple[int, ...], float]:
    """What each throw (its ranks, sorted) is worth to the player laying it away with the crib
    tables ``key``: the table's crib, signed and shared as :func:`bot.ai.crib.crib_weight`
    says. Two players throw two cards; three or four players one."""
    table = load_tables()["crib"][key]["own" if own else "other"]
    sign = crib_weight(int(key[0]), key.endswith("p"), own)
    if key == "2":
        return {
            (a, b): sign * table[rank_pair_key(a, b)] for a in range(1, 14) for b in range(a, 14)
        }
    return {(r,): sign * table[rank_name(r)] for r in range(1, 14)}


@memo(1 << 17)
def model_keep(ranks: tuple[int, ...], key: str, own: bool) -> tuple[int, ...]:
    """The four ranks a ``standard`` player keeps (suits ignored) from ``ranks`` (sorted: six
    two-handed, five with 3 or 4 players) with the crib tables ``key``; ``own``: the crib counts
    for its side. Each keep is valued over every starter it has not seen, by rank, plus its
    throw's crib; on a tie the first throw in ``combinations`` order."""
    avail = [4] * 14
    avail[0] = 0
    for r in ranks:
        avail[r] -= 1
    values = _throw_values(key, own)
    unseen = 52.0 - len(ranks)
    best: tuple[int, ...] = ranks[len(ranks) - 4 :]
    best_net = -1e9
    # In lexicographic order the keeps run backwards against the throws they leave.
    keeps = list(combinations(ranks, 4))
    keeps.reverse()
    for thrown, kept in zip(combinations(ranks, len(ranks) - 4), keeps, strict=True):
        net = sum(map(mul, avail, rank_row(kept))) / unseen + values[thrown]
        if net > best_net:
            best, best_net = kept, net
    return best


def unseen_pool(view: SeatKnowledge) -> list[int]:
    """The ranks of every card this seat has not seen (one entry per card)."""
    return sorted(c.rank for c in view.unseen_cards())


def played_by(view: SeatKnowledge) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {s: [] for s in range(view.players)}
    for seat, card in view.played:
        out[seat].append(card.rank)
    return out


def _fits(hand: tuple[int, ...], floor: int) -> bool:
    return all(VALUE[r] >= floor for r in hand)


def sample_opponent_two_handed(
    view: SeatKnowledge, rng: random.Random, samples: int, *, infer: bool = True
) -> list[tuple[int, ...]]:
    """Sorted rank tuples for the opponent's unlaid cards, one per sampled world."""
    return [rest for rest, _ in _opponent_sixes(view, rng, samples, infer=infer)]


def _opponent_sixes(
    view: SeatKnowledge, rng: random.Random, samples: int, *, infer: bool = True
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per sampled world, the opponent's unlaid ranks and (when the discard model dealt them)
    the two it laid away."""
    opp = 1 - view.seat
    pool = unseen_pool(view)
    laid = sorted(played_by(view)[opp])
    held = 4 - len(laid)
    if held <= 0:
        return [((), ())] * samples
    floor = view.go_floors().get(opp, 1)
    eligible = [r for r in pool if VALUE[r] >= floor]
    if len(eligible) < held:
        eligible = pool
    own = view.dealer == opp  # the opponent's discard went to its own crib
    worlds: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    attempts = 0
    can_infer = infer and len(pool) >= held + 2
    laid_ranks = tuple(laid)
    while can_infer and len(worlds) < samples and attempts < samples * 8:
        attempts += 1
        extra = rng.sample(pool, held + 2)
        six = tuple(sorted(laid + extra))
        rest_kept = without_all(model_keep(six, "2", own), laid_ranks)
        if rest_kept is not None:
            rest = rest_kept
        elif rng.random() < ACCEPT_INCONSISTENT:
            rest = tuple(sorted(rng.sample(extra, held)))
        else:
            continue
        if _fits(rest, floor):
            worlds.append((rest, without_all(tuple(sorted(extra)), rest) or ()))
    while len(worlds) < samples:
        worlds.append((tuple(sorted(rng.sample(eligible, held))), ()))
    return worlds


@memo(1 << 16)
def without_all(kept: tuple[int, ...], laid: tuple[int, ...]) -> tuple[int, ...] | None:
    """``kept`` (sorted) without the cards of ``laid``, or None if it does not hold them all."""
    rest = list(kept)
    for r in laid:
        if r not in rest:
            return None
        rest.remove(r)
    return tuple(rest)


def sample_others(
    view: SeatKnowledge, rng: random.Random, samples: int
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
                need = held[seat]
                if floor <= 1:  # any card will do: the next ones off the shuffled pool
                    take = cards[:need]
                    del cards[:need]
                else:
                    take = [r for r in cards if VALUE[r] >= floor][:need]
                    for r in take:
                        cards.remove(r)
                if len(take) < need:
                    ok = False
                    break
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

LEAD_MISMATCH = PLAY_MISMATCH
"""The same for the opponent's opening lead (the first card of the play, the pone's), where players
differ most. Weaker evidence there only moved points between the roles against the yardstick and
lost against ``standard``, so it stays with the other cards (docs/research/measurements.md, "The
opponent model")."""


def weighted_worlds(
    view: SeatKnowledge, rng: random.Random, samples: int
) -> tuple[list[tuple[float, tuple[int, ...]]], tuple[int, ...]]:
    """Two-handed worlds for the search (:mod:`bot.ai.pegging_search`): (weight, the opponent's
    unlaid ranks) each, and per rank the cards neither the starter nor the play has shown.
    Sampled as :func:`sample_opponent_two_handed` does (its discard consistent with the cards
    it kept), then weighted by how well each world explains the cards the opponent chose to lay:
    :func:`play_likelihood`."""
    base = unshown_rank_counts(view)
    moments = _opponent_turns(view, base)
    likelihood: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
    out = []
    for rest, discards in _opponent_sixes(view, rng, samples):
        weight = likelihood.get((rest, discards))
        if weight is None:
            weight = likelihood[rest, discards] = _play_likelihood(rest, discards, moments)
        out.append((weight, rest))
    return out, tuple(base)


Moment = tuple[int, tuple[int, ...], int, tuple[int, ...], int, int]
"""One card the opponent chose to lay: the pile and count it laid on, what nobody but the
opponent had seen before it (the starter and the cards laid out), how many cards the other seat
held, and the rank laid (with the index of that card among the opponent's)."""


def play_likelihood(
    view: SeatKnowledge, rest: tuple[int, ...], discards: tuple[int, ...] = ()
) -> float:
    """How well the opponent holding ``rest`` (its unlaid ranks, lowest first; ``discards``:
    the two it laid away, when known) explains the cards it chose to lay: :data:`LEAD_MISMATCH`
    if a ``standard`` player holding those cards would not have opened the play as it did, and
    :data:`PLAY_MISMATCH` for each other card it would not have laid, from what it could see."""
    return _play_likelihood(rest, discards, _opponent_turns(view, unshown_rank_counts(view)))


def _opponent_turns(view: SeatKnowledge, shown_after: list[int]) -> list[Moment]:
    """The opponent's choices so far, replayed from the start of the play (``shown_after``:
    per rank, the cards neither the starter nor the play has shown)."""
    opp = 1 - view.seat
    unseen = list(shown_after)
    for _, card in view.played:
        unseen[card.rank] += 1
    moments: list[Moment] = []
    mine_held = 4
    k = 0
    for (seat, card), (pile, count) in zip(view.played, laid_on(view), strict=True):
        r = card.rank
        if seat == opp:
            moments.append((count, pile, k, tuple(unseen), mine_held, r))
            k += 1
        else:
            unseen[r] -= 1
            mine_held -= 1
    return moments


def _play_likelihood(
    rest: tuple[int, ...], discards: tuple[int, ...], moments: list[Moment]
) -> float:
    """:func:`play_likelihood` over the opponent's ``moments``."""
    if not moments:
        return 1.0
    laid = [m[5] for m in moments]
    weight = 1.0
    for count, pile, k, unseen, mine_held, r in moments:
        hand = tuple(sorted(rest + tuple(laid[k:])))
        if forced(hand, count) is not None:
            continue
        seen = list(unseen)
        for q in hand + discards:
            seen[q] -= 1
        scores = RankScores(pile, count, tuple(seen), mine_held)
        if answer(hand, count, scores) != r:
            opening = count == 0 and k == 0 and mine_held == 4
            weight *= LEAD_MISMATCH if opening else PLAY_MISMATCH
    return weight
