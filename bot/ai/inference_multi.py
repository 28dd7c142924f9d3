"""What the other hands may hold with three or four players, as far as one seat can tell.

The worlds of :func:`bot.ai.inference.sample_others` (each other seat's unlaid ranks, consistent
with the cards laid and the goes said), each weighted by how well it explains the cards the other
seats chose to lay: replayed from the start of the play, every card a ``standard`` player holding
that world's cards would not have laid costs the world a factor of
:data:`bot.ai.inference.PLAY_MISMATCH` (a card kept back or avoided is evidence, not proof).

Everything here works on ranks; suits do not matter in the play.
"""

from __future__ import annotations

import random

from .inference import PLAY_MISMATCH, sample_others
from .pegging import VALUE, laid_on, unshown_rank_counts
from .playouts import model_choice
from .view import MAX_COUNT, SeatView

Hands = tuple[tuple[int, ...], ...]

READ_PARTNER_PLAYS = True
"""In partnerships, the partner's plays weigh the worlds too (read as ``standard``'s, as the
opponents' are); off: only the opponents' plays do (a switch for measuring: an expert partner
does not lay as ``standard`` would). Far from the end it makes no difference to be seen: off,
an expert team against a standard team pegged +0.017 ± 0.057 a deal more (2,000 duplicate
deals from seed 540000); near it, the partnership search on worlds weighted by the opponents'
plays alone won 0.60 ± 1.11 points of percentage less than the play-outs (1,000 seeds from
95-115, seed 320000), where reading the partner too lost 1.75 ± 1.21."""


def weighted_worlds_multi(
    view: SeatView, rng: random.Random, samples: int
) -> list[tuple[float, Hands, Hands]]:
    """Worlds for the search (:mod:`bot.ai.pegging_search_multi`): (weight, per seat its unlaid
    ranks (the seat's own: its hand), per seat what it cannot see now (as the play-outs of
    :func:`bot.ai.playouts.multi_rollout` count it: every card but the starter, the cards
    laid and its own))."""
    n = view.players
    me = tuple(sorted(c.rank for c in view.hand))
    base = unshown_rank_counts(view)
    out = []
    for world in sample_others(view, rng, samples):
        hands = tuple(me if s == view.seat else world[s] for s in range(n))
        unseen = []
        for hand in hands:
            u = list(base)
            for r in hand:
                u[r] -= 1
            unseen.append(tuple(u))
        out.append((play_likelihood_multi(view, hands), hands, tuple(unseen)))
    return out


def play_likelihood_multi(view: SeatView, hands: Hands) -> float:
    """:data:`PLAY_MISMATCH` to the power of the other seats' plays that ``standard`` holding
    ``hands`` (plus what each laid since) would not have made, replayed from the start of the
    play (each seat told the cards held by the next seat that still holds any)."""
    played = view.played
    n = view.players
    # Each for themselves a seat's side is the seat itself, so only partnerships differ.
    read = [
        s != view.seat if READ_PARTNER_PLAYS else view.side_of(s) != view.side for s in range(n)
    ]
    if not any(read[s] for s, _ in played):
        return 1.0
    held = [sorted(hands[s]) for s in range(n)]
    for s, card in played:
        held[s].append(card.rank)
    for hand in held:
        hand.sort()
    unseen: list[list[int]] = []
    for s in range(n):
        u = [4] * 14
        u[0] = 0
        if view.starter is not None:
            u[view.starter.rank] -= 1
        for r in held[s]:
            u[r] -= 1
        unseen.append(u)
    left = [4] * n  # how many cards each seat holds (public)
    weight = 1.0
    for (seat, card), (pile, count) in zip(played, laid_on(view), strict=True):
        r = card.rank
        if read[seat]:
            hand = held[seat]
            fits = [q for q in hand if VALUE[q] <= MAX_COUNT - count]
            if fits and fits[0] != fits[-1]:
                after = (seat + 1) % n
                while not left[after] and after != seat:
                    after = (after + 1) % n
                choice = model_choice(tuple(hand), pile, count, unseen[seat], left[after])
                if choice != r:
                    weight *= PLAY_MISMATCH
            if r in hand:
                hand.remove(r)
        for s in range(n):
            if s != seat:
                unseen[s][r] -= 1
        left[seat] -= 1
    return weight
