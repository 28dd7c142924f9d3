"""Who the table waits for in a muggins show (cogs.cribbage.muggins.owing_seats), checked against
the engine in random games of every variant: the seat that may claim now, and nobody who may
only answer a window (that answer is optional: the window closes by itself).

The table's view names the window on the latest open count only. When the latest claim has no
window open (an over-claim, or a window its opponents already answered) while an earlier one
is, and the counter may also answer that earlier window, the view cannot tell who counts next:
those states are counted, not checked, until the view carries the counter itself."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.engine import Claim, Game, Phase, Variant
from bot.engine.muggins import counter, position_of, window_waiting
from cogs.cribbage.muggins import next_counter, owing_seats

VARIANTS = [
    Variant(muggins=True),
    Variant(players=3, muggins=True),
    Variant(players=4, muggins=True),
    Variant(players=4, partnerships=True, muggins=True),
]


def public(game: Game) -> SimpleNamespace:
    """What the table reads of the game (the fields of a GameView that owing_seats uses)."""
    w = game.muggins_window
    return SimpleNamespace(
        phase=game.phase,
        to_act=tuple(game.to_act),
        dealer=game.dealer,
        variant=game.variant,
        muggins_claimer=None if w is None else w.seat,
        muggins_crib=False if w is None else w.crib,
        muggins_waiting=tuple(window_waiting(game)),
    )


def decidable(game: Game) -> bool:
    """Whether the view tells who counts next (see the module docstring)."""
    nxt = counter(game)
    if game.muggins_window is None or (nxt is not None and nxt[0] not in window_waiting(game)):
        return True
    newest = game.muggins_window
    return position_of(game, newest.seat, newest.crib) == game.show_step - 1


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_the_table_waits_for_the_claimer_only(variant):
    rng = random.Random(variant.players)
    shows = undecidable = 0
    for seed in range(4):
        game = Game.new(variant, seed=seed, first_dealer=0)
        while not game.is_over and game.deal_number <= 3:
            view = public(game)
            if game.phase is Phase.SHOW and not decidable(game):
                undecidable += 1
            elif game.phase is Phase.SHOW:
                shows += 1
                claimers = tuple(
                    s
                    for s in game.to_act
                    if any(isinstance(a, Claim) for a in game.legal_actions(s))
                )
                assert owing_seats(view) == claimers
                assert next_counter(view) == (claimers[0] if claimers else None)
            else:
                assert owing_seats(view) == tuple(game.to_act)
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert shows > 20 and undecidable < shows
