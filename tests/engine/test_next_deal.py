"""The hold between deals: after a show the table waits in NEXT_DEAL until every seat
is ready; the last one deals. Off by default: old games and old snapshots deal at once."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Claim,
    Dealt,
    Game,
    GameOver,
    IllegalAction,
    LetGo,
    NextDeal,
    Phase,
    Play,
    ReadyForDeal,
    Variant,
    action_from_dict,
)
from tests.support.engine_positions import play, position


def held(game: Game) -> Game:
    """The same position in a game that holds between deals."""
    return Game.from_dict({**game.to_dict(), "hold_between_deals": True, "ready_for_deal": []})


def last_cards() -> Game:
    """Two-handed, dealer 0: the pone (1) lays the 2H, then the dealer the KS: the last card,
    and the show. Hands: 1 holds 5C 5D 5H 2H (20 with the 5S starter), 0 holds KS QS JS 10S."""
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KS QS JS 10S", "5C 5D 5H 2H"],
        starter="5S",
        crib="AC 3D 7H 9C",
        held=["KS", "2H"],
        pile="",
        turn=1,
    )
    return game


def test_the_action_and_the_event_are_plain_data():
    assert NextDeal().to_dict() == {"type": "next_deal"}
    assert action_from_dict({"type": "next_deal"}) == NextDeal()
    assert ReadyForDeal(1) == ReadyForDeal(seat=1)


def test_a_show_that_does_not_end_the_game_holds_in_next_deal():
    game = held(last_cards())
    events = play(game, "2H", "KS")
    assert not any(isinstance(e, Dealt) for e in events)
    assert game.phase is Phase.NEXT_DEAL and game.to_act == [0, 1]
    assert game.legal_actions(0) == game.legal_actions(1) == [NextDeal()]
    # the deal just shown is still there, as it was shown
    assert game.dealer == 0 and game.deal_number == 1
    assert [c.code for c in game.kept(1)] == ["2H", "5C", "5D", "5H"]
    assert [c.code for c in game.crib] == ["AC", "3D", "7H", "9C"]
    assert game.starter.code == "5S"
    scores = list(game.scores)

    assert game.apply(1, NextDeal()) == [ReadyForDeal(1)]
    assert game.to_act == [0] and game.legal_actions(1) == [] and game.phase is Phase.NEXT_DEAL
    with pytest.raises(IllegalAction, match="already ready"):
        game.apply(1, NextDeal())
    with pytest.raises(IllegalAction, match="get ready for the next deal"):
        game.apply(0, Play(game.kept(0)[0]))

    events = game.apply(0, NextDeal())  # the last one ready deals
    assert events[0] == ReadyForDeal(0) and isinstance(events[1], Dealt)
    assert events[1].dealer == 1 and events[1].number == 2
    assert game.phase is Phase.DISCARD and game.dealer == 1 and game.scores == scores
    assert game.ready_for_deal == frozenset()
    with pytest.raises(IllegalAction, match="already started"):
        game.apply(0, NextDeal())


def test_without_the_hold_the_show_deals_at_once_as_before():
    game = last_cards()
    events = play(game, "2H", "KS")
    assert isinstance(events[-1], Dealt) and game.phase is Phase.DISCARD and game.dealer == 1
    assert "hold_between_deals" not in game.to_dict()  # snapshots without the hold: unchanged


def test_the_hold_and_who_is_ready_survive_a_snapshot():
    game = held(last_cards())
    play(game, "2H", "KS")
    game.apply(0, NextDeal())
    data = game.to_dict()
    assert data["hold_between_deals"] is True and data["ready_for_deal"] == [0]
    restored = Game.from_dict(data)
    assert restored == game and restored.to_act == [1]
    assert isinstance(restored.apply(1, NextDeal())[-1], Dealt)


def test_an_old_snapshot_without_the_flag_deals_at_once():
    game = held(last_cards())
    old = game.to_dict()
    del old["hold_between_deals"], old["ready_for_deal"]  # as written before the hold existed
    restored = Game.from_dict(old)
    assert not restored.hold_between_deals
    assert isinstance(play(restored, "2H", "KS")[-1], Dealt)


def test_a_show_that_ends_the_game_never_holds():
    game = held(
        position(
            Variant(players=2),
            dealer=0,
            kept=["KS QS JS 10S", "5C 5D 5H 2H"],
            starter="5S",
            crib="AC 3D 7H 9C",
            held=["KS", "2H"],
            turn=1,
            scores=[0, 110],  # the pone's 20 wins it
        )
    )
    events = play(game, "2H", "KS")
    assert isinstance(events[-1], GameOver)
    assert game.phase is Phase.GAME_OVER and game.to_act == [] and game.legal_actions(0) == []


def test_a_completed_muggins_show_holds_too():
    game = Game.new(Variant(2, target=61, muggins=True), seed=3, first_dealer=0)
    game = held(game)
    rng = random.Random(3)
    while game.phase is not Phase.SHOW:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    while game.phase is Phase.SHOW:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, LetGo() if LetGo() in legal else Claim(0))
    assert game.phase is Phase.NEXT_DEAL and game.to_act == [0, 1]


@pytest.mark.parametrize("variant", [Variant(2, target=61), Variant(3, target=61)])
def test_whole_games_hold_after_every_show_and_end_without_holding(variant):
    rng = random.Random(11)
    for seed in range(3):
        game = Game.new(variant, seed=seed, first_dealer=0, hold_between_deals=True)
        holds = 0
        while not game.is_over:
            seat = rng.choice(game.to_act)
            before = game.deal_number
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            if game.phase is Phase.NEXT_DEAL:
                assert game.deal_number == before and not any(isinstance(e, Dealt) for e in events)
            if any(isinstance(e, Dealt) for e in events):
                holds += 1
                assert isinstance(events[-2], ReadyForDeal)  # dealt only by the last ready
        assert game.phase is Phase.GAME_OVER and holds == game.deal_number - 1
