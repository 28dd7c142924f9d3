"""The rank-level rules of the play (bot.engine.pegging) are the engine's: on random deals and
random piles, what may be laid, what each card pegs, the go, the last card and who lays next
are what :class:`Game` says."""

from __future__ import annotations

import random
from itertools import product

import pytest

from bot.engine import (
    FULL_PACK,
    Game,
    Phase,
    Play,
    Played,
    Scored,
    ScoreReason,
    Variant,
    score_pegging,
)
from bot.engine import pegging as ranks

VARIANTS = {
    "2p": Variant(players=2),
    "3p": Variant(players=3),
    "4p": Variant(players=4),
    "partners": Variant(players=4, partnerships=True),
}
PLAY_REASONS = (ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)


def _to_the_play(variant: Variant, rng: random.Random) -> Game:
    """A game in its first play, the discards and the cut at random, from scores far from the
    target (so nobody pegs out in the play)."""
    game = Game.new(variant, seed=rng.randrange(10**9), first_dealer=rng.randrange(variant.players))
    while game.phase is not Phase.PLAY:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_card_of_random_plays_follows_the_rank_rules(name: str) -> None:
    rng = random.Random(f"pegging ranks {name}")
    cards = 0
    for _ in range(150):
        game = _to_the_play(VARIANTS[name], rng)
        while game.phase is Phase.PLAY:
            seat = game.to_act[0]
            hands = [tuple(sorted(c.rank for c in game.hand(s))) for s in range(game.players)]
            pile = tuple(c.rank for c in game.pile)
            legal = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
            assert ranks.playable_ranks(hands[seat], game.count) == tuple(
                sorted({a.card.rank for a in legal})
            )
            assert all(
                ranks.fits(r, game.count) == any(a.card.rank == r for a in legal)
                for r in hands[seat]
            )
            action = rng.choice(legal)
            rank = action.card.rank
            after = list(hands)
            i = after[seat].index(rank)
            after[seat] = after[seat][:i] + after[seat][i + 1 :]
            new_pile, new_count, points, nxt = ranks.after_lay(after, pile, game.count, seat, rank)
            events = game.apply(seat, action)
            played = next(e for e in events if isinstance(e, Played))
            assert ranks.pile_points(pile + (rank,)) == played.breakdown.total
            scored = [e for e in events if isinstance(e, Scored) and e.reason in PLAY_REASONS]
            assert all(e.seat == seat for e in scored)
            assert points == sum(e.points for e in scored)
            go = [e for e in scored if e.reason is not ScoreReason.PLAY]
            assert (points - played.breakdown.total == ranks.GO) == bool(go)
            if game.phase is Phase.PLAY:
                assert (new_pile, new_count, nxt) == (
                    tuple(c.rank for c in game.pile),
                    game.count,
                    game.turn,
                )
            else:  # the last card: the play is over
                assert nxt is None and new_count == 0
            cards += 1
    assert cards > 150 * 7


def test_the_points_of_a_card_are_the_engines_on_random_piles() -> None:
    # Piles up to eight cards (any that fits the count), suits at random: the rank rules see
    # only ranks, and the engine's score of the pile's last card agrees.
    rng = random.Random(31)
    tried = 0
    while tried < 20_000:
        size = rng.randint(1, 8)
        pile = rng.sample(FULL_PACK, size)
        if sum(c.value for c in pile) > ranks.MAX_COUNT:
            continue
        assert ranks.pile_points(tuple(c.rank for c in pile)) == score_pegging(pile).total
        tried += 1


def test_every_run_pair_and_count_of_short_piles() -> None:
    # Every pile of up to three ranks that fits the count, each against the engine.
    by_rank = {c.rank: c for c in FULL_PACK if c.suit.name == "SPADES"}
    other = {c.rank: c for c in FULL_PACK if c.suit.name == "HEARTS"}
    for size in (1, 2, 3):
        for pile in product(range(1, 14), repeat=size):
            if sum(ranks.VALUE[r] for r in pile) > ranks.MAX_COUNT:
                continue
            cards = [(by_rank if i % 2 else other)[r] for i, r in enumerate(pile)]
            if len(set(cards)) < len(cards):
                cards = [FULL_PACK[(r - 1) * 4 + i] for i, r in enumerate(pile)]
            assert ranks.pile_points(pile) == score_pegging(cards).total, pile


def test_nobody_lays_past_31_and_31_is_never_also_a_go() -> None:
    assert ranks.fits(1, 30) and not ranks.fits(2, 30) and not ranks.fits(10, 22)
    assert ranks.playable_ranks((1, 1, 5, 13), 27) == (1,)
    assert ranks.after_lay([(), ()], (10, 10, 10), 30, 0, 1) == ((), 0, 2, None)
    assert ranks.after_lay([(9,), ()], (4, 9), 13, 1, 10) == ((), 0, 1, 0)  # the go for 1
    assert ranks.after_lay([(5,), (1,)], (10, 10), 20, 1, 10) == ((10, 10, 10), 30, 6, 1)
