"""What the other hands may hold with three or four players, as far as one seat can tell.

Worlds: each other seat's unlaid ranks, consistent with the cards laid and the goes said
(:func:`bot.ai.inference.sample_others`) and with what each laid away
(:func:`others_by_discards`: dealt five, it keeps the four ``standard`` keeps, so a card it kept
is evidence too; in partnerships the partner's discard, an expert's, is not read). Each world is
weighted by how well it explains the cards the other seats chose to lay: replayed from the start
of the play, every card a ``standard`` player holding that world's cards would not have laid
costs the world a factor of :data:`bot.ai.inference.PLAY_MISMATCH` (a card kept back or avoided
is evidence, not proof).

Shared with the two-handed :mod:`bot.ai.inference`: the ``standard`` keep (``model_keep``), the
pools of cards unseen and laid, the deal that honours the goes (``sample_others``), the weights of
a mismatch and the test of a forced choice. The play likelihoods stay two: a two-handed world is
the opponent's hand with the two cards it laid away, which leave what it could see, and the
opponent's turns are replayed once a decision; here a world is every seat's hand, each seat's
view and the next seat holding cards change as the cards fall, replayed per world.

Everything here works on ranks; suits do not matter in the play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.pegging import VALUE

from .crib import table_key
from .inference import (
    ACCEPT_INCONSISTENT,
    PLAY_MISMATCH,
    model_keep,
    played_by,
    sample_others,
    unseen_pool,
    without_all,
)
from .pegging import laid_on, next_holder, unseen_by_seat, unshown_rank_counts
from .pegging_model import forced
from .playouts import model_choice
from .view import SeatKnowledge

Hands = tuple[tuple[int, ...], ...]


def weighted_worlds_multi(
    view: SeatKnowledge, rng: random.Random, samples: int
) -> list[tuple[float, Hands, Hands]]:
    """Worlds for the search (:mod:`bot.ai.pegging_search_multi`): (weight, per seat its unlaid
    ranks (the seat's own: its hand), per seat what it cannot see now (as the play-outs of
    :func:`bot.ai.playouts.multi_rollout` count it: every card but the starter, the cards
    laid and its own))."""
    n = view.players
    me = tuple(sorted(c.rank for c in view.hand))
    base = unshown_rank_counts(view)
    out = []
    for world in others_by_discards(view, rng, samples):
        hands = tuple(me if s == view.seat else world[s] for s in range(n))
        out.append((play_likelihood_multi(view, hands), hands, unseen_by_seat(base, hands)))
    return out


def play_likelihood_multi(view: SeatKnowledge, hands: Hands) -> float:
    """:data:`PLAY_MISMATCH` to the power of the other seats' plays that ``standard`` holding
    ``hands`` (plus what each laid since) would not have made, replayed from the start of the
    play (each seat told the cards held by the next seat that still holds any). A partner's
    plays are read too, as ``standard``'s (an expert partner does not lay as ``standard`` would,
    but far from the end reading them or not made no difference to be seen; near the end the
    play-outs do not weigh their worlds: docs/research/measurements.md, "Near the end in
    partnerships")."""
    played = view.played
    n = view.players
    read = [s != view.seat for s in range(n)]
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
            ranks = tuple(hand)
            if forced(ranks, count) is None:
                after = next_holder(left, seat)
                choice = model_choice(ranks, pile, count, unseen[seat], left[after])
                if choice != r:
                    weight *= PLAY_MISMATCH
            if r in hand:
                hand.remove(r)
        for s in range(n):
            if s != seat:
                unseen[s][r] -= 1
        left[seat] -= 1
    return weight


def others_by_discards(
    view: SeatKnowledge, rng: random.Random, samples: int
) -> list[dict[int, tuple[int, ...]]]:
    """Worlds as :func:`bot.ai.inference.sample_others` deals them (each other seat's unlaid
    ranks, go floors honoured), with what each seat laid away as evidence: the seat is dealt its
    laid cards and five less them, and keeps what ``standard`` keeps of the five (the card it
    throws is in the crib, so in no other hand); a world where it would not have kept a card it
    has since laid is kept only at :data:`bot.ai.inference.ACCEPT_INCONSISTENT` (its unlaid
    cards then any of the rest). Dealt this way every world counts alike; read as weights on
    the worlds instead, the uneven weights left few worlds doing the work and lost points
    (docs/research/measurements.md, "Three and four players"). In partnerships the partner's
    discard, an expert's, is not read (it does not lay away as ``standard`` does): its unlaid
    cards are dealt at random."""
    if view.dealer is None or view.variant.dealt != 5:
        return sample_others(view, rng, samples)
    n = view.players
    key = table_key(n, view.variant.partnerships)
    dealer_side = view.side_of(view.dealer)
    pool = unseen_pool(view)
    laid = played_by(view)
    floors = view.go_floors()
    others = [s for s in range(n) if s != view.seat]
    read = {s: view.side_of(s) != view.side or not view.variant.partnerships for s in others}
    worlds: list[dict[int, tuple[int, ...]]] = []
    for _ in range(samples):
        for _attempt in range(50):
            cards = pool[:]
            rng.shuffle(cards)
            world: dict[int, tuple[int, ...]] = {}
            for seat in others:
                held = 4 - len(laid[seat])
                if held <= 0:
                    world[seat] = ()
                    continue
                if read[seat] and len(cards) > held:
                    extra = cards[: held + 1]
                    five = tuple(sorted(laid[seat] + extra))
                    own = view.side_of(seat) == dealer_side
                    rest: Sequence[int] | None = without_all(
                        model_keep(five, key, own), tuple(laid[seat])
                    )
                    if rest is None:
                        if rng.random() >= ACCEPT_INCONSISTENT:
                            break
                        rest = extra[:held]
                    del cards[: held + 1]
                else:
                    rest = cards[:held]
                    del cards[:held]
                floor = floors.get(seat, 1)
                if len(rest) < held or any(VALUE[r] < floor for r in rest):
                    break
                world[seat] = tuple(sorted(rest))
            else:
                worlds.append(world)
                break
        else:
            worlds.extend(sample_others(view, rng, 1))
    return worlds
