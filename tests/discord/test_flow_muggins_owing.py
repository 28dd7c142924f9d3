"""Who the table waits for in a muggins show (cogs.cribbage.muggins.owing_seats), checked against
the engine in random games of every variant, under the current rules and release 0.1.0's: the
seat that may claim now, and nobody who may only answer a window (that answer is optional: the
window closes by itself). The view names the next counter itself (``muggins_counter``), so every
state of the show is checked."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.engine import Claim, Game, Phase, Variant
from bot.engine.muggins import MugginsRules, counter, window_waiting
from cogs.cribbage.muggins import next_counter, owing_seats

VARIANTS = [
    Variant(muggins=True),
    Variant(players=3, muggins=True),
    Variant(players=4, muggins=True),
    Variant(players=4, partnerships=True, muggins=True),
]


def public(game: Game) -> SimpleNamespace:
    """What the table reads of the game (the fields of a GameView that owing_seats uses, as
    bot.sessions.session.build_view fills them)."""
    w = game.muggins_window
    nxt = counter(game) if game.phase is Phase.SHOW else None
    return SimpleNamespace(
        phase=game.phase,
        to_act=tuple(game.to_act),
        dealer=game.dealer,
        variant=game.variant,
        muggins_claimer=None if w is None else w.seat,
        muggins_crib=False if w is None else w.crib,
        muggins_waiting=tuple(window_waiting(game)),
        muggins_counter=None if nxt is None else nxt[0],
    )


@pytest.mark.parametrize("rules", list(MugginsRules), ids=str)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_the_table_waits_for_the_claimer_only(variant, rules):
    rng = random.Random(variant.players)
    shows = waiting_counters = 0
    for seed in range(4):
        game = Game.new(variant, seed=seed, first_dealer=0, muggins_rules=rules)
        while not game.is_over and game.deal_number <= 3:
            view = public(game)
            if game.phase is Phase.SHOW:
                shows += 1
                claimers = tuple(
                    s
                    for s in game.to_act
                    if any(isinstance(a, Claim) for a in game.legal_actions(s))
                )
                assert owing_seats(view) == claimers
                assert next_counter(view) == (claimers[0] if claimers else None)
                waiting_counters += view.muggins_counter is not None and not claimers
            else:
                assert owing_seats(view) == tuple(game.to_act)
                assert next_counter(view) is None
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert shows > 20
    # only the old rules make a counter wait for a window on its own side's count
    assert (waiting_counters > 0) is (rules is MugginsRules.QUEUED)
