"""Replay verification of one stored game, for ``python -m bot check``.

A started game's action log, replayed through the engine from its seed
(:func:`bot.sessions.history.rebuild`), must reproduce what the database says about it: the
snapshot (state, step, buttons' freshness), the winner and every seat's final score. A lobby
or cancelled game has no log. The log is read with ``store.games.load_actions`` whatever form
it is stored in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.engine import Game, Variant
from bot.engine.muggins import MugginsRules
from bot.sessions.history import Rebuilt, hold_of, muggins_rules_of, rebuild
from db import ActionRecord, GameRecord, ResultRecord, Store, StoreError

#: What a log that does not replay raises (IllegalAction is a ValueError).
REPLAY_ERRORS = (ValueError, KeyError, TypeError, IndexError)


@dataclass(frozen=True, slots=True)
class GameCheck:
    """What checking one game found: its problems (none: all is well) and whether its log was
    replayed (not for a lobby, nor for a log that a retention pruned)."""

    problems: list[str]
    replayed: bool = True


async def verify_game(store: Store, game_id: int) -> GameCheck:
    """Check game ``game_id``: its log replayed against everything stored about it."""
    try:
        record = await store.games.load_game(game_id)
        if record is None:
            return GameCheck(["the game disappeared while it was being checked"], False)
        log = await store.games.load_actions(game_id)
        pruned = not log and await store.games.log_pruned(game_id)
        results = await store.games.results(game_id) if record.ended_at is not None else []
    except StoreError as err:
        return GameCheck([f"cannot be read ({err})"], False)
    except REPLAY_ERRORS as err:  # e.g. an action that is not JSON
        return GameCheck([f"its stored rows cannot be read ({type(err).__name__}: {err})"], False)
    if record.seed is None:
        problems = [f"it never started, yet its log holds {len(log)} actions"] if log else []
        return GameCheck(problems, False)
    if pruned:  # a retention dropped the log; results, points and ratings stay
        return GameCheck([], False)
    return GameCheck(_replay_problems(record, record.seed, log, results))


def _replay_problems(
    record: GameRecord, seed: int, log: list[ActionRecord], results: list[ResultRecord]
) -> list[str]:
    variant = Variant(record.players, record.partnerships, record.target, record.muggins)
    hold = hold_of(record.state)  # the hold between deals: from the snapshot
    rules = muggins_rules_of(record.state)  # and the muggins rules it is played by
    try:
        rebuilt = rebuild(variant, seed, record.first_dealer, log, hold=hold, muggins_rules=rules)
    except REPLAY_ERRORS as err:
        return [_replay_failure(variant, seed, record.first_dealer, log, err, hold, rules)]
    problems = _snapshot_problems(record, rebuilt, len(log))
    game = rebuilt.game
    if record.status == "active" and game.winner is not None:
        problems.append("its log reaches the end of the game, yet it is still marked active")
    if record.end_reason == "won" and game.winner != record.winner_side:
        problems.append(
            f"it is recorded as won by side {record.winner_side}, but its log gives "
            f"{'no winner' if game.winner is None else f'side {game.winner}'}"
        )
    if record.status in ("finished", "abandoned"):
        problems += _result_problems(record, game, results)
    return problems


def _replay_failure(
    variant: Variant,
    seed: int,
    first_dealer: int | None,
    log: list[ActionRecord],
    err: Exception,
    hold: bool | None = None,
    rules: MugginsRules | None = None,
) -> str:
    """Which logged action the replay refuses (the shortest prefix of the log that fails)."""
    low, high = 0, len(log)  # log[:low] replays; log[:high] does not
    while high - low > 1:
        middle = (low + high) // 2
        try:
            rebuild(variant, seed, first_dealer, log[:middle], hold=hold, muggins_rules=rules)
        except REPLAY_ERRORS as failure:
            high, err = middle, failure
        else:
            low = middle
    bad = log[high - 1] if log else None
    where = "" if bad is None else f"; the replay stops at action {bad.seq} (seat {bad.seat}: "
    where += "" if bad is None else f"{json.dumps(bad.action, separators=(',', ':'))})"
    return f"its action log ({len(log)} actions) does not replay{where}: {err}"


def _snapshot_problems(record: GameRecord, rebuilt: Rebuilt, actions: int) -> list[str]:
    problems = []
    if record.step != actions:
        problems.append(f"it is at step {record.step}, but its log holds {actions} actions")
    if record.state is None:
        return problems  # an ended game's snapshot may be compacted away: the log is the truth
    try:
        stored = Game.from_dict(record.state)
    except REPLAY_ERRORS as err:
        return [*problems, f"its snapshot cannot be read ({type(err).__name__}: {err})"]
    if record.snapshot_seq != actions:
        problems.append(f"its snapshot is of step {record.snapshot_seq}, its log has {actions}")
    elif stored != rebuilt.game:
        problems.append("its snapshot differs from the replay of its log")
    elif record.ready is not None and tuple(record.ready) != rebuilt.ready:
        problems.append("its snapshot's button steps differ from the replay of its log")
    return problems


def _result_problems(record: GameRecord, game: Game, results: list[ResultRecord]) -> list[str]:
    seats = {seat.seat for seat in record.seats}
    if {r.seat for r in results} != seats:
        return [f"it ended but its results cover seats {sorted(r.seat for r in results)}"]
    problems = []
    for r in results:
        side = game.side_of(r.seat)
        if r.side != side or r.final_score != game.scores[side]:
            problems.append(
                f"seat {r.seat}'s result says side {r.side} with {r.final_score} points; its log "
                f"gives side {side} with {game.scores[side]}"
            )
        if record.end_reason == "won" and r.won != (side == game.winner):
            problems.append(f"seat {r.seat}'s result says {'won' if r.won else 'lost'}")
    return problems
