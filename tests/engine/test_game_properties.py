"""Thousands of random games of every variant keep the engine's invariants."""

import json
import random

import pytest

from bot.engine import FULL_PACK, Game, GameOver, Phase, Scored, Variant

VARIANTS = [
    Variant(2),
    Variant(3),
    Variant(4),
    Variant(4, partnerships=True),
    Variant(2, target=61),
    Variant(3, target=61),
]
PACK = frozenset(FULL_PACK)


def accounted(game: Game) -> list:
    """Every card of the deal, wherever it is now."""
    cards = list(game.pack) + game.crib + [c for _, c in game.played]
    cards += [c for s in range(game.players) for c in game.hand(s)]
    if game.starter:
        cards.append(game.starter)
    return cards


def check_invariants(game: Game, before_scores: list[int], events: list) -> None:
    if game.phase is Phase.CUT_FOR_DEAL:
        assert len(game.cut_pack) + len(game.cut_cards) == 52
    elif not game.is_over:
        cards = accounted(game)
        assert len(cards) == 52 and set(cards) == PACK
        # kept cards are the hand plus what was laid from it
        for seat in range(game.players):
            if seat in game.discarded:
                laid = [c for s, c in game.played if s == seat]
                assert sorted(game.hand(seat) + laid) == game.kept(seat)
    assert all(b <= a for b, a in zip(before_scores, game.scores, strict=True))
    assert sum(e.points for e in events if isinstance(e, Scored)) >= (
        sum(game.scores) - sum(before_scores)
    )
    if game.phase is Phase.PLAY:
        assert 0 <= game.count <= 31 and sum(c.value for c in game.pile) == game.count
        (turn,) = game.to_act
        assert game.legal_actions(turn), "the seat whose turn it is can always lay a card"
    over = [e for e in events if isinstance(e, GameOver)]
    if game.is_over:
        assert game.scores.count(game.variant.target) == 1
        assert game.scores[game.winner] == game.variant.target
        assert all(s < game.variant.target for i, s in enumerate(game.scores) if i != game.winner)
    assert len(over) <= 1 and (not over or events[-1] is over[0])


def random_game(variant: Variant, seed: int, roundtrip_every: int = 0) -> Game:
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed)
    steps = 0
    while not game.is_over:
        seat = rng.choice(game.to_act)
        actions = game.legal_actions(seat)
        assert actions
        for other in range(game.players):
            if other not in game.to_act:
                assert game.legal_actions(other) == []
        action = rng.choice(actions)
        before = list(game.scores)
        if roundtrip_every and steps % roundtrip_every == 0:
            data = game.to_dict()
            twin = Game.from_dict(json.loads(json.dumps(data)))
            assert twin == game
            events = game.apply(seat, action)
            assert twin.apply(seat, action) == events and twin == game
        else:
            events = game.apply(seat, action)
        check_invariants(game, before, events)
        steps += 1
    return game


@pytest.mark.parametrize(
    "variant",
    # games to 121 take seconds each variant: the quick loop keeps the 2-player games to 61
    [
        pytest.param(v, marks=pytest.mark.slow) if v.target == 121 or v.players > 2 else v
        for v in VARIANTS
    ],
    ids=lambda v: v.name,
)
def test_random_games_keep_the_invariants(variant):
    winners = set()
    for seed in range(350):
        game = random_game(variant, seed, roundtrip_every=7 if seed % 5 == 0 else 0)
        winners.add(game.winner)
        assert game.skunks[game.winner] == 0
    assert winners == set(range(variant.sides)), "every side wins some games"


def test_snapshot_round_trip_at_every_step_plays_on_identically():
    for variant in VARIANTS[:4]:
        random_game(variant, seed=1234, roundtrip_every=1)


@pytest.mark.parametrize("muggins", [False, True], ids=["plain", "muggins"])
def test_a_copy_at_every_step_equals_the_game_plays_on_identically_and_is_independent(muggins):
    """``Game.copy`` (the sessions' private copy of a game for each move) is what a snapshot
    round trip gives, and a move made on the copy leaves the game as it was."""
    for variant in (Variant(2, muggins=muggins), Variant(4, partnerships=True, muggins=muggins)):
        rng = random.Random(99)
        game = Game.new(variant, seed=99, hold_between_deals=True)
        while not game.is_over:
            seat = rng.choice(game.to_act)
            action = rng.choice(game.legal_actions(seat))
            copy, before = game.copy(), game.to_dict()
            assert copy == game and copy == Game.from_dict(before)
            assert vars(copy).keys() == vars(game).keys()
            events = copy.apply(seat, action)
            assert game.to_dict() == before, "a move on the copy changed the game"
            assert game.apply(seat, action) == events and game == copy
