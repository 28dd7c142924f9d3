"""Finished games for the summary and review tests and the review benchmark: seeded games played
by computer players through the engine, logged, and rebuilt from the log as the manager does
(:func:`bot.sessions.history.rebuild` and :func:`~bot.sessions.history.build_replay`)."""

from __future__ import annotations

from bot.ai import choose_action
from bot.engine import Game, Variant
from bot.sessions.history import Replay, build_replay, rebuild
from bot.sessions.views import SeatView
from db import ActionRecord


def played_replay(
    seed: int, variant: Variant | None = None, *, level: str = "standard", game_id: int = 1
) -> Replay:
    """A whole game played by ``level`` computers (seeded), as its replay; seat 0 is user 100,
    seat 1 user 101 and so on (no computer seats in the replay's seats)."""
    variant = variant or Variant()
    game = Game.new(variant, seed=seed, first_dealer=None, hold_between_deals=False)
    log: list[ActionRecord] = []
    while not game.is_over:
        seat = game.to_act[0]
        action = choose_action(game, seat, level=level, seed=seed + len(log))
        game.apply(seat, action)
        log.append(ActionRecord(game_id, len(log) + 1, seat, action.to_dict(), 0.0))
    rebuilt = rebuild(variant, seed, None, log, hold=False)
    seats = tuple(
        SeatView(seat, 100 + seat, None, variant.side_of(seat)) for seat in range(variant.players)
    )
    return build_replay(game_id, seats, rebuilt)
