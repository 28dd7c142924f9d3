"""The game's flow: cut for deal, deal, discard, starter, accessors and illegal actions."""

import pytest

from bot.engine import (
    Card,
    Cut,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discard,
    Game,
    IllegalAction,
    Phase,
    Play,
    StarterCut,
    Variant,
)
from bot.engine.game import _shuffled_pack


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2, 3 or 4"),
        ({"players": 5}, "2, 3 or 4"),
        ({"players": 3, "partnerships": True}, "Partnerships"),
        ({"target": 100}, "121 or 61"),
    ],
)
def test_variant_validation(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Variant(**kwargs)


def test_every_accessor_answers_before_the_deal():
    game = Game.new(Variant(players=3), seed=5)
    assert game.phase is Phase.CUT_FOR_DEAL
    assert game.to_act == [0, 1, 2] and game.dealer is None
    assert [game.hand(s) for s in range(3)] == [[], [], []]
    assert game.kept(0) == [] and game.crib == [] and game.starter is None
    assert game.count == 0 and game.pile == [] and game.scores == [0, 0, 0]
    assert game.skunks == [0, 0, 0] and game.winner is None and not game.is_over
    assert game.legal_actions(0) == [Cut(d) for d in range(4, 49)]


def test_cut_for_deal_lowest_deals_and_ties_cut_again():
    ties_seen = 0
    for seed in range(300):
        game = Game.new(Variant(players=4), seed=seed)
        events = []
        cut_cards = []
        while game.phase is Phase.CUT_FOR_DEAL:
            seat = game.to_act[-1]  # cuts may come in any order
            events += game.apply(seat, Cut(4))
        rounds: list[dict[int, Card]] = [{}]
        for e in events:
            if isinstance(e, CutForDeal):
                rounds[-1][e.seat] = e.card
                cut_cards.append(e.card)
            elif isinstance(e, CutTied):
                low = min(c.rank for c in rounds[-1].values())
                assert sorted(e.seats) == sorted(s for s, c in rounds[-1].items() if c.rank == low)
                ties_seen += 1
                rounds.append({})
        final = rounds[-1]
        chosen = next(e for e in events if isinstance(e, DealerChosen)).seat
        assert final[chosen].rank == min(c.rank for c in final.values())
        assert [c.rank for c in final.values()].count(final[chosen].rank) == 1
        for cuts in rounds:
            assert len(set(cuts.values())) == len(cuts)  # no two seats draw the same card
        assert game.dealer == chosen and game.phase is Phase.DISCARD
        assert isinstance(events[-1], Dealt)
    assert ties_seen > 0, "300 four-player cuts should include a tie"


def test_a_seat_cannot_cut_twice_for_deal():
    game = Game.new(Variant(players=2), seed=3)
    game.apply(0, Cut(10))
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="already cut"):
        game.apply(0, Cut(10))
    assert game.to_dict() == before


@pytest.mark.parametrize(
    ("variant", "each", "crib"),
    [(Variant(2), 6, 0), (Variant(3), 5, 1), (Variant(4), 5, 0), (Variant(4, True), 5, 0)],
)
def test_the_deal(variant, each, crib):
    game = Game.new(variant, seed=11, first_dealer=variant.players - 1)
    assert game.last_events == [Dealt(variant.players - 1, 1, each)]
    pack = _shuffled_pack(11, "deal:1")
    n = variant.players
    # one card at a time, starting with the player to the dealer's left (seat 0 here)
    for seat in range(n):
        assert sorted(pack[seat : each * n : n]) == game.hand(seat)
    assert len(game.crib) == crib
    assert len(game.pack) == 52 - each * n - crib
    assert game.to_act == list(range(n)) and game.pone == 0


def test_discard_then_the_pone_cuts_the_starter():
    game = Game.new(Variant(players=2), seed=2, first_dealer=0)
    hand1 = game.hand(1)
    events = game.apply(1, Discard(hand1[:2]))
    assert game.to_act == [0] and game.kept(1) == hand1[2:] and game.hand(1) == hand1[2:]
    with pytest.raises(IllegalAction, match="already laid away"):
        game.apply(1, Discard(hand1[2:4]))
    game.apply(0, Discard(game.hand(0)[-2:]))
    assert len(game.crib) == 4 and game.phase is Phase.CUT_FOR_STARTER
    assert game.to_act == [1]
    assert game.legal_actions(1) == [Cut(d) for d in range(4, 37)]
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(0, Cut(10))
    with pytest.raises(IllegalAction, match="from 4 to 36"):
        game.apply(1, Cut(37))
    turned = game.pack[20]
    events = game.apply(1, Cut(20))
    assert events[0] == StarterCut(1, turned) and game.starter == turned
    assert game.phase is Phase.PLAY and game.to_act == [1]
    assert len(game.pack) == 39


def test_three_handed_crib_gets_one_from_the_pack_and_one_from_each():
    game = Game.new(Variant(players=3), seed=4, first_dealer=2)
    crib_start = game.crib
    for seat in range(3):
        game.apply(seat, Discard(game.hand(seat)[:1]))
    assert len(game.crib) == 4 and set(crib_start) <= set(game.crib)
    assert all(len(game.kept(s)) == 4 for s in range(3))


def illegal(game: Game, seat: int, action, match: str) -> None:
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=match):
        game.apply(seat, action)
    assert game.to_dict() == before


def test_illegal_actions_change_nothing():
    game = Game.new(Variant(players=2), seed=9, first_dealer=0)
    hand0, hand1 = game.hand(0), game.hand(1)
    illegal(game, 0, Discard(hand0[:1]), "exactly 2 cards")
    illegal(game, 0, Discard(hand0[:3]), "exactly 2 cards")
    illegal(game, 0, Discard([hand0[0], hand0[0]]), "2 different cards")
    illegal(game, 0, Discard([hand0[0], hand1[0]]), "don't hold")
    illegal(game, 0, Play(hand0[0]), "lay away cards")
    illegal(game, 0, Cut(10), "lay away cards")
    illegal(game, 7, Discard(hand0[:2]), "no seat 7")
    game.apply(0, Discard(hand0[:2]))
    game.apply(1, Discard(hand1[:2]))
    game.apply(1, Cut(10))
    illegal(game, 0, Play(game.hand(0)[0]), "not your turn")
    illegal(game, 1, Play(game.hand(0)[0]), "don't hold")
    illegal(game, 1, Discard(game.hand(1)[:2]), "play a card")
    illegal(game, 1, Play(hand0[0]), "don't hold")  # a card laid away to the crib


def test_over_31_is_refused_with_the_count():
    from tests.support.engine_positions import position

    game = position(Variant(2), dealer=0, kept=["KD QD 5S 9S", "JH 10H AC 2C"], starter="6S")
    game.apply(1, Play(Card.parse("JH")))
    game.apply(0, Play(Card.parse("KD")))
    game.apply(1, Play(Card.parse("10H")))  # 30
    # seat 0 holds Q, 5, 9: none playable, so it's passed; seat 1 plays on
    assert game.to_act == [1]
    illegal(game, 1, Play(Card.parse("2C")), "past 31 \\(the count is 30\\)")
    assert game.legal_actions(1) == [Play(Card.parse("AC"))]


def test_after_game_over_everything_is_refused():
    from tests.support.engine_positions import position

    game = position(
        Variant(2), dealer=0, kept=["5C 9D JH QH", "10C 2S 3S 4S"], starter="AH", scores=[119, 0]
    )
    game.apply(1, Play(Card.parse("10C")))
    game.apply(0, Play(Card.parse("5C")))
    assert game.is_over and game.winner == 0
    illegal(game, 1, Play(Card.parse("2S")), "game is over")
    assert game.legal_actions(0) == game.legal_actions(1) == [] and game.to_act == []


def test_a_new_game_without_seed_draws_a_secret_one(monkeypatch):
    import random

    calls = []
    monkeypatch.setattr(random, "randrange", lambda *a, **k: calls.append(a) or 0)
    monkeypatch.setattr(random, "random", lambda *a, **k: calls.append(a) or 0.0)
    a = Game.new(Variant())
    b = Game.new(Variant())
    assert a.seed != b.seed and a.seed.bit_length() > 64
    assert not calls  # the module-level random generator is never used


def test_same_seed_same_game():
    a = Game.new(Variant(3), seed=42)
    b = Game.new(Variant(3), seed=42)
    for seat in (0, 1, 2):
        assert a.apply(seat, Cut(7)) == b.apply(seat, Cut(7))
    assert a == b and a.hand(0) == b.hand(0)
    assert Game.new(Variant(3), seed=43, first_dealer=0).hand(0) != Game.new(
        Variant(3), seed=42, first_dealer=0
    ).hand(0)


def test_from_dict_refuses_unknown_versions():
    state = Game.new(Variant()).to_dict()
    state["version"] = 99
    with pytest.raises(ValueError, match="version"):
        Game.from_dict(state)


def test_a_seat_knows_its_own_discards_for_the_deal():
    game = Game.new(Variant(players=2), seed=21, first_dealer=0)
    assert game.discards(1) == []
    thrown = game.hand(1)[:2]
    game.apply(1, Discard(thrown))
    assert game.discards(1) == thrown and game.discards(0) == []
    assert Game.from_dict(game.to_dict()).discards(1) == thrown
    game.apply(0, Discard(game.hand(0)[:2]))
    game.apply(1, Cut(10))
    # the computer's view of seat 1 knows them; seat 0's view does not
    from bot.ai.view import SeatKnowledge

    assert set(SeatKnowledge.of(game, 1).discards) == set(thrown)
    assert not set(SeatKnowledge.of(game, 0).discards or ()) & set(thrown)
