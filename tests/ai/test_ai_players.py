"""Computer players: the public contract, every variant and level, determinism, privacy."""

import dataclasses
import random

import pytest

from bot.ai import LEVELS, SeatKnowledge, choose_action, choose_discard
from bot.ai.players import decide
from bot.engine import (
    FULL_PACK,
    Card,
    Cut,
    Discard,
    Game,
    NextDeal,
    Phase,
    Play,
    Variant,
    parse_cards,
)
from tests.support.engine_positions import play, position

VARIANTS = [
    Variant(players=2),
    Variant(players=3),
    Variant(players=4),
    Variant(players=4, partnerships=True),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_choose_discard_lays_away_the_right_number_of_cards(level, players):
    rng = random.Random(players)
    for i in range(10):
        hand = rng.sample(FULL_PACK, 6 if players == 2 else 5)
        throw = choose_discard(hand, dealer=bool(i % 2), players=players, level=level, seed=i)
        assert len(throw) == (2 if players == 2 else 1)
        assert len(set(throw)) == len(throw) and set(throw) <= set(hand)
        assert all(isinstance(c, Card) for c in throw)


def test_choose_discard_refuses_wrong_hands_and_levels():
    with pytest.raises(ValueError):
        choose_discard(parse_cards("5H 5C JD QS 2C"), dealer=True)  # 5 cards, 2 players
    with pytest.raises(ValueError):
        choose_discard(parse_cards("5H 5C JD QS 2C 3D"), dealer=True, level="grandmaster")
    with pytest.raises(ValueError):
        choose_discard(parse_cards("5H 5H JD QS 2C 3D"), dealer=True)


def test_partnership_discards_value_the_partners_crib_as_ours():
    hand = parse_cards("2H 3S 5H JC QH")
    ours = choose_discard(hand, dealer=True, players=4, partnerships=True, level="standard")
    theirs = choose_discard(hand, dealer=False, players=4, partnerships=True, level="standard")
    assert ours == parse_cards("5H")  # the five helps our side's crib
    assert theirs == parse_cards("QH")  # never a five to the other side


def test_the_classic_discards():
    # Dealer keeps the double fifteen and gives himself 2-3 (a run and fifteen draw).
    assert sorted(choose_discard(parse_cards("5H 5C JD QS 2C 3D"), dealer=True)) == parse_cards(
        "2C 3D"
    )
    # Pone: never hand the dealer a pair of fives.
    throw = choose_discard(parse_cards("5H 5C 10D KS 7C 9D"), dealer=False)
    assert 5 not in {c.rank for c in throw}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name.split(",")[0])
@pytest.mark.parametrize(
    "level",
    # the expert thinks for seconds a game: the quick loop keeps the other levels
    [pytest.param(v, marks=pytest.mark.slow) if v == "expert" else v for v in (*LEVELS, "random")],
)
def test_every_action_is_legal_in_full_games(variant, level):
    variant = dataclasses.replace(variant, target=61)
    game = Game.new(variant, seed=hash((variant.players, variant.partnerships, level)) % 10**6)
    steps = 0
    while not game.is_over:
        for seat in list(game.to_act):
            if game.is_over or seat not in game.to_act:
                continue
            action = choose_action(game, seat, level=level, seed=steps)
            assert action in game.legal_actions(seat), (game.phase, action)
            game.apply(seat, action)
            steps += 1
    assert game.winner is not None


def test_the_cut_is_a_legal_depth_at_random():
    depths = set()
    for seed in range(20):
        game = Game.new(Variant(players=2), seed=seed)
        action = choose_action(game, game.to_act[0], seed=seed)
        assert isinstance(action, Cut) and action in game.legal_actions(game.to_act[0])
        depths.add(action.depth)
    assert len(depths) > 5


def test_decisions_are_deterministic_with_a_seed():
    for level in LEVELS:
        for seed in range(3):
            game = Game.new(Variant(players=2), seed=100 + seed, first_dealer=0)
            actions = []
            for _ in range(2):
                copy = game.copy()
                trail = []
                while copy.deal_number == 1 and not copy.is_over:
                    seat = copy.to_act[0]
                    action = choose_action(copy, seat, level=level, seed=seed)
                    trail.append(action)
                    copy.apply(seat, action)
                actions.append(trail)
            assert actions[0] == actions[1]


def test_choose_action_refuses_a_seat_with_nothing_to_do():
    game = Game.new(Variant(players=2), seed=1, first_dealer=0)
    game.apply(1, choose_action(game, 1))
    with pytest.raises(ValueError):
        choose_action(game, 1)


# --------------------------------------------------------------------------- privacy


def test_the_view_holds_no_game_and_no_hidden_cards():
    game = Game.new(Variant(players=2), seed=4, first_dealer=0)
    view = SeatKnowledge.of(game, 1)
    values = [getattr(view, f.name) for f in dataclasses.fields(view)]
    assert not any(isinstance(v, Game) for v in values)
    hidden = set(game.hand(0)) | set(game.pack)
    shown = set(view.hand) | set(view.kept) | {c for _, c in view.played} | set(view.pile)
    assert not (hidden & shown)
    assert not hasattr(view, "crib") and not hasattr(view, "pack")


def _swap_hidden(game: Game, seat: int, seed: int) -> Game:
    """The same game as ``seat`` sees it, with every card it cannot see dealt differently."""
    view = SeatKnowledge.of(game, seat)
    known = view.known_cards()
    state = game.to_dict()
    hidden = [c for c in FULL_PACK if c not in known]
    random.Random(seed).shuffle(hidden)
    it = iter(hidden)

    def redeal(codes):
        return [next(it).code if Card.parse(c) not in known else c for c in codes]

    for other in range(game.players):
        if other != seat:
            state["hands"][other] = redeal(state["hands"][other])
    state["crib"] = redeal(state["crib"])
    state["pack"] = redeal(state["pack"])
    # The other seats' kept cards are only the ones they still hold plus those they laid.
    for other in range(game.players):
        if other != seat and state["kept"][other]:
            laid = [c.code for s, c in game.played if s == other]
            state["kept"][other] = sorted(laid + state["hands"][other])
    return Game.from_dict(state)


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_a_decision(level):
    game = position(
        Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "10H 5C 9S AH"], starter="4S"
    )
    play(game, "10H", "KD")
    other = _swap_hidden(game, 1, seed=9)
    assert other.hand(0) != game.hand(0)
    assert SeatKnowledge.of(other, 1) == SeatKnowledge.of(game, 1)
    assert choose_action(other, 1, level=level, seed=3) == choose_action(
        game, 1, level=level, seed=3
    )


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_a_discard(level):
    for seed in range(3):
        game = Game.new(Variant(players=3), seed=seed, first_dealer=0)
        other = _swap_hidden(game, 2, seed=seed)
        assert other.hand(0) != game.hand(0)
        assert SeatKnowledge.of(other, 2) == SeatKnowledge.of(game, 2)
        assert choose_action(other, 2, level=level, seed=1) == choose_action(
            game, 2, level=level, seed=1
        )


def test_decide_uses_the_view_alone():
    game = position(
        Variant(players=4, partnerships=True),
        dealer=3,
        kept=["KD QD 9D 8D", "10H 5C 9S AH", "2C 3C 4C 6C", "7S 7D JH QH"],
        starter="4S",
    )
    view = SeatKnowledge.of(game, 0)
    action = decide(view, level="expert", seed=2)
    assert isinstance(action, Play) and action.card in view.hand
    assert view.phase is Phase.PLAY


def test_discard_action_matches_choose_discard():
    game = Game.new(Variant(players=2), seed=8, first_dealer=1)
    action = choose_action(game, 1, level="standard")
    assert isinstance(action, Discard)
    assert list(action.cards) == sorted(choose_discard(game.hand(1), dealer=True, level="standard"))


@pytest.mark.parametrize("level", LEVELS)
def test_a_computer_is_ready_for_the_next_deal_at_once(level):
    game = Game.new(Variant(players=3), seed=4, first_dealer=0, hold_between_deals=True)
    rng = random.Random(2)
    while game.phase is not Phase.NEXT_DEAL:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    for seat in (2, 0):
        assert choose_action(game, seat, level=level, seed=1) == NextDeal()
        game.apply(seat, NextDeal())
    assert choose_action(game, 1, level=level, seed=1) == NextDeal()
