"""Muggins in the engine (docs/players/muggins.md): claimed counts, missed points, the window,
instant wins."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Claim,
    Claimed,
    CountSettled,
    Game,
    GameOver,
    IllegalAction,
    LetGo,
    Muggins,
    MugginsCalled,
    Phase,
    Scored,
    ScoreReason,
    Shown,
    Variant,
    action_from_dict,
)
from bot.engine.muggins import breakdown_of, counter, pegged_for, window_waiting


def to_show(variant: Variant, seed: int, *, min_points: int = 0) -> Game:
    """A game at the first claim of its first show; the pone's hand worth at least min_points."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        game = Game.new(variant, seed=s, first_dealer=0)
        while game.phase is not Phase.SHOW and not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.phase is Phase.SHOW and breakdown_of(game, game.pone, False).total >= min_points:
            return game
    raise AssertionError("no such game")


def test_variant_flag_round_trips_and_old_data_reads_off():
    v = Variant(players=3, muggins=True)
    assert v.name == "3 players, to 121, muggins"
    assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_dict({"players": 2, "partnerships": False, "target": 61}).muggins is False
    assert "muggins" not in Variant().to_dict()
    game = Game.new(Variant(), seed=1, first_dealer=0)
    assert "show_step" not in game.to_dict() and "muggins_window" not in game.to_dict()


def test_actions_round_trip():
    for action in (Claim(12), Muggins(), LetGo()):
        assert action_from_dict(action.to_dict()) == action


def test_show_waits_for_the_pone_to_claim():
    game = to_show(Variant(muggins=True), 1)
    assert game.to_act == [game.pone]
    assert game.legal_actions(game.pone) == [Claim(p) for p in range(30)]
    assert game.legal_actions(game.dealer) == []
    with pytest.raises(IllegalAction):
        game.apply(game.dealer, Claim(3))
    with pytest.raises(IllegalAction):
        game.apply(game.pone, Claim(30))
    with pytest.raises(IllegalAction):
        game.apply(game.dealer, Muggins())


def test_exact_claim_pegs_the_count_and_the_next_claim_settles_it():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    before = game.scores[pone]
    events = game.apply(pone, Claim(true))
    assert isinstance(events[0], Shown) and events[1] == Claimed(pone, true, False)
    assert events[2] == Scored(pone, pone, true, ScoreReason.HAND, before + true)
    assert not any(isinstance(e, CountSettled) for e in events)  # the count is not public yet
    assert game.to_act == [dealer] and window_waiting(game) == [dealer]
    assert Muggins() in game.legal_actions(dealer) and Claim(0) in game.legal_actions(dealer)
    events = game.apply(dealer, Claim(0))
    settled = events[0]
    assert isinstance(settled, CountSettled) and settled.seat == pone and settled.missed == 0
    assert settled.breakdown.total == true


def test_under_claim_is_taken_by_the_opponent():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    game.apply(pone, Claim(true - 2))
    before = game.scores[dealer]
    events = game.apply(dealer, Muggins())
    assert events[0] == MugginsCalled(dealer, 2)
    assert isinstance(events[1], CountSettled) and events[1].missed == 2
    assert events[2] == Scored(dealer, dealer, 2, ScoreReason.MUGGINS, before + 2)
    assert game.muggins_window is None and game.to_act == [dealer]
    assert Muggins() not in game.legal_actions(dealer)


def test_a_wrong_muggins_call_takes_nothing():
    game = to_show(Variant(muggins=True), 1)
    true = breakdown_of(game, game.pone, False).total
    game.apply(game.pone, Claim(true))
    scores = list(game.scores)
    events = game.apply(game.dealer, Muggins())
    assert events[0] == MugginsCalled(game.dealer, 0)
    assert game.scores == scores


def test_over_claim_is_corrected_and_the_loss_is_missed():
    assert [pegged_for(c, 8) for c in (0, 7, 8, 9, 12, 16, 29)] == [0, 7, 8, 7, 4, 0, 0]
    game = to_show(Variant(muggins=True), 1, min_points=4)
    pone = game.pone
    true = breakdown_of(game, pone, False).total
    events = game.apply(pone, Claim(true + 1))
    assert events[2].points == true - 1
    assert game.muggins_window.missed == 1


def test_the_dealer_waits_for_the_window_on_his_hand_before_the_crib():
    game = to_show(Variant(muggins=True), 1)
    pone, dealer = game.pone, game.dealer
    game.apply(pone, Claim(0))
    game.apply(dealer, Claim(0))  # settles the pone's window, opens one on the dealer's hand
    assert counter(game) == (dealer, True)
    assert game.to_act == [pone]  # the dealer may not count the crib yet
    with pytest.raises(IllegalAction, match="muggins"):
        game.apply(dealer, Claim(0))
    with pytest.raises(IllegalAction, match="opponent"):
        game.apply(dealer, LetGo())
    assert isinstance(game.apply(pone, LetGo())[0], CountSettled)
    assert game.to_act == [dealer]
    game.apply(dealer, Claim(0))
    assert game.to_act == [pone] and game.phase is Phase.SHOW
    events = game.apply(pone, LetGo())
    assert isinstance(events[0], CountSettled) and events[0].crib
    assert game.phase is Phase.DISCARD and game.dealer == pone and game.deal_number == 2


def test_partners_cannot_call_muggins_and_every_opponent_must_let_go():
    game = to_show(Variant(players=4, partnerships=True, muggins=True), 3)
    pone = game.pone
    partner = (pone + 2) % 4
    game.apply(pone, Claim(0))
    assert window_waiting(game) == sorted([(pone + 1) % 4, (pone + 3) % 4])
    assert partner not in game.to_act
    with pytest.raises(IllegalAction, match="opponent"):
        game.apply(partner, Muggins())
    assert game.apply((pone + 3) % 4, LetGo()) == []
    assert window_waiting(game) == [(pone + 1) % 4]
    with pytest.raises(IllegalAction, match="already"):
        game.apply((pone + 3) % 4, Muggins())
    events = game.apply((pone + 1) % 4, Claim(0))  # the next counter, an opponent, settles it
    assert isinstance(events[0], CountSettled) and events[0].seat == pone


def test_a_claim_that_reaches_the_target_wins_at_once():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone = game.pone
    game.scores[pone] = 120
    events = game.apply(pone, Claim(1))
    assert isinstance(events[-1], GameOver) and game.winner == pone
    assert game.to_act == [] and game.is_over


def test_a_muggins_call_that_reaches_the_target_wins_at_once():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    game.scores[dealer] = 120
    game.apply(pone, Claim(0))
    events = game.apply(dealer, Muggins())
    assert isinstance(events[-1], GameOver) and game.winner == dealer


def test_snapshot_round_trip_with_an_open_window():
    game = to_show(Variant(players=3, muggins=True), 5, min_points=2)
    game.apply(game.pone, Claim(1))
    data = game.to_dict()
    assert data["muggins_window"]["missed"] == breakdown_of(game, game.pone, False).total - 1
    copy = Game.from_dict(data)
    assert copy == game and copy.to_act == game.to_act
    seat = window_waiting(game)[0]
    assert copy.apply(seat, Muggins()) == game.apply(seat, Muggins())


@pytest.mark.parametrize(
    "variant",
    [
        Variant(2, muggins=True),
        Variant(3, muggins=True),
        Variant(4, muggins=True),
        Variant(4, True, 61, muggins=True),
    ],
    ids=lambda v: v.name,
)
def test_random_muggins_games_terminate_and_keep_invariants(variant):
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(variant, seed=seed)
        for _ in range(5000):
            if game.is_over:
                break
            assert game.to_act, game
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            assert legal
            scores = list(game.scores)
            game.apply(seat, rng.choice(legal))
            assert all(a >= b for a, b in zip(game.scores, scores, strict=True))
            assert max(game.scores) <= variant.target
            if rng.random() < 0.05:
                assert Game.from_dict(game.to_dict()) == game
        assert game.is_over and game.scores[game.winner] == variant.target


def test_computers_claim_exactly_and_call_muggins_on_a_miss():
    from bot.ai.players import choose_action

    game = Game.new(Variant(3, target=61, muggins=True), seed=11, first_dealer=0)
    claims = 0
    while not game.is_over:
        seat = game.to_act[0]
        action = choose_action(game, seat, level="easy", seed=1)
        for event in game.apply(seat, action):
            if isinstance(event, Shown):
                true = event.breakdown.total
            if isinstance(event, Claimed):
                claims += 1
                assert event.points == true
            if isinstance(event, CountSettled):
                assert event.missed == 0
    assert claims >= 4
    game = to_show(Variant(muggins=True), 1, min_points=2)
    game.apply(game.pone, Claim(0))
    assert choose_action(game, game.dealer, level="easy") == Muggins()
    game.apply(game.dealer, Claim(breakdown_of(game, game.dealer, False).total))
    assert choose_action(game, game.pone, level="easy") == LetGo()


def test_the_story_shows_the_claim_not_the_count_until_the_window_closes():
    from bot.render.story import story_lines

    game = to_show(Variant(muggins=True), 1, min_points=2)
    names = ["Alice", "Bob"]
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    lines = story_lines(game.apply(pone, Claim(true - 1)), names, game.variant)
    text = "\n".join(lines)
    assert f"claims **{true - 1}**" in text and "fifteen" not in text and "worth" not in text
    text = "\n".join(story_lines(game.apply(dealer, Muggins()), names, game.variant))
    assert "Muggins!" in text and f"was worth {true}" in text and "1 missed" in text
    assert "takes 1 point (now " in text
