"""How a forfeit ends a game (``bot/sessions/bookkeeping.py``): before the first show it aborts
the game (a forfeit at 0-0 in the first deal was a rated win); after it, the side
that conceded loses. Walked through every phase of a first deal, with and without muggins and
the hold between deals."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, Phase, Variant
from bot.sessions.bookkeeping import before_first_show, finish_forfeit


def play_until(game: Game, done, rng: random.Random) -> None:
    for _ in range(500):
        if done(game):
            return
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("never reached")


def phases_of_a_first_deal(variant: Variant, *, hold: bool, seed: int = 4):
    """(the game, whether a hand was counted yet) at each step up to the second deal."""
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed, hold_between_deals=hold)
    seen = []
    while game.deal_number < 2 and not game.is_over:
        counted = game.show_step > 0 or game.muggins_window is not None
        counted = counted or game.phase in (Phase.NEXT_DEAL, Phase.GAME_OVER)
        seen.append((game.copy(), counted))
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    seen.append((game.copy(), True))  # the second deal
    return seen


@pytest.mark.parametrize(
    ("variant", "hold"),
    [(Variant(), False), (Variant(), True), (Variant(muggins=True), True), (Variant(3), False)],
)
def test_only_a_forfeit_before_any_hand_is_counted_aborts(variant, hold):
    seen = phases_of_a_first_deal(variant, hold=hold)
    phases = {game.phase for game, _ in seen}
    assert {Phase.CUT_FOR_DEAL, Phase.DISCARD, Phase.PLAY} <= phases
    if variant.muggins:
        assert Phase.SHOW in phases  # before the first claim and after it
    if hold:
        assert Phase.NEXT_DEAL in phases
    for game, counted in seen:
        assert before_first_show(game) is not counted, (game, counted)
        finish = finish_forfeit(game, seat=1)
        if counted:
            assert (finish.status, finish.end_reason) == ("finished", "forfeit")
            assert finish.seats[1].outcome == "forfeited"
            assert {s.outcome for s in finish.seats if s.side != finish.seats[1].side} == {"won"}
        else:
            assert (finish.status, finish.end_reason, finish.winner_side) == (
                "abandoned",
                "aborted",
                None,
            )
            assert finish.forfeit_seat == 1
            assert {s.outcome for s in finish.seats} == {"abandoned"}
            assert [s.final_score for s in finish.seats] == [
                game.scores[game.side_of(s)] for s in range(game.players)
            ]


def test_points_pegged_in_the_first_deal_do_not_make_it_count():
    rng = random.Random(9)
    game = Game.new(Variant(), seed=9, first_dealer=0)
    play_until(game, lambda g: g.phase is Phase.PLAY and sum(g.scores) > 0, rng)
    assert game.deal_number == 1 and sum(game.scores) > 0
    assert finish_forfeit(game, 0).end_reason == "aborted"
