"""A muggins game begun under release 0.1.0's rules (one window at a time:
bot.engine.muggins_queued) replays by them through :func:`bot.sessions.history.rebuild`: with
the rules its snapshot names, and without a snapshot by falling back to them when the current
rules refuse its log; the manager resumes the release database's muggins game and plays it on
by them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from bot.engine import Claim, Claimed, CountSettled, Game, LetGo, Muggins, Phase, Shown, Variant
from bot.engine.muggins import MugginsRules, breakdown_of, counter
from bot.sessions import Move, Refusal, Replay
from bot.sessions.history import muggins_rules_of, rebuild
from db import ActionRecord
from tests.support.sessions import play_one, play_to_end, running

RELEASE = Path(__file__).parents[1] / "db" / "fixtures" / "release-0.1.0.db"
RELEASE_MUGGINS_GAME = 13  # two people, in its third deal

QUEUED = MugginsRules.QUEUED
VARIANT = Variant(players=2, target=61, muggins=True)


def show_action(game: Game, seat: int, rng: random.Random) -> Claim | Muggins | LetGo:
    """A player who over-claims, under-claims or counts exactly, and calls or lets go."""
    legal = game.legal_actions(seat)
    nxt = counter(game)
    if nxt is not None and Claim(0) in legal and (Muggins() not in legal or rng.random() < 0.5):
        true = breakdown_of(game, seat, nxt[1]).total
        return Claim(min(29, max(0, true + rng.choice((-2, -1, 0, 0, 1, 2)))))
    return Muggins() if rng.random() < 0.4 else LetGo()


def played(seed: int) -> tuple[Game, list[ActionRecord], list[tuple], dict[str, int]]:
    """A whole game under 0.1.0's rules, its log, each step's events, and what it went through."""
    rng = random.Random(seed)
    game = Game.new(VARIANT, seed=seed, hold_between_deals=True, muggins_rules=QUEUED)
    log: list[ActionRecord] = []
    steps: list[tuple] = []
    seen = {"over_claim_answered": 0, "claim_closed_a_window": 0, "crib_after_window": 0}
    over = False
    while not game.is_over:
        seat = rng.choice(game.to_act)
        if game.phase is Phase.SHOW:
            action = show_action(game, seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        window_before = game.muggins_window is not None
        events = game.apply(seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, action.to_dict(), 0.0))
        steps.append(tuple(events))
        for e in events:
            if isinstance(e, Shown):
                true = e.breakdown.total
            elif isinstance(e, Claimed):
                over = e.points > true
                # the dealer's hand always opens a window: his crib waited for its answer
                seen["crib_after_window"] += e.crib and not window_before
        if isinstance(action, Claim) and window_before:
            seen["claim_closed_a_window"] += isinstance(events[0], CountSettled)
        if isinstance(action, Muggins | LetGo) and over:
            seen["over_claim_answered"] += 1
    return game, log, steps, seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_of_the_old_rules_replays_identically_with_and_without_its_snapshot(seed):
    game, log, steps, seen = played(seed)
    assert all(seen.values()), seen  # over-claims answered, windows closed by claims, cribs
    data = game.to_dict()
    assert "muggins_rules" not in data and "muggins_window" in data  # 0.1.0's snapshot
    assert muggins_rules_of(data) is QUEUED
    with pytest.raises(ValueError):  # the current rules refuse it
        rebuild(VARIANT, seed, None, log, hold=True, muggins_rules=MugginsRules.INDEPENDENT)
    for rules in (muggins_rules_of(data), None):  # the snapshot's rules; none: the fallback
        rebuilt = rebuild(VARIANT, seed, None, log, hold=True, muggins_rules=rules)
        assert rebuilt.game == game and rebuilt.game.muggins_rules is QUEUED
        assert [step.events for _, step, _ in rebuilt.steps] == steps
    rebuilt = rebuild(VARIANT, seed, None, log)  # neither the hold nor the rules said
    assert rebuilt.game == game


def test_every_step_of_an_old_game_rebuilds_from_its_log_by_its_snapshots_rules():
    """As the loader checks a live game: each prefix of the log against the snapshot then."""
    rng = random.Random(5)
    game = Game.new(VARIANT, seed=5, hold_between_deals=True, muggins_rules=QUEUED)
    log: list[ActionRecord] = []
    shows = 0
    while not game.is_over:
        seat = rng.choice(game.to_act)
        if game.phase is Phase.SHOW:
            shows += 1
            action = show_action(game, seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, action.to_dict(), 0.0))
        snapshot = game.to_dict()
        rules = muggins_rules_of(snapshot)
        assert rules is QUEUED
        assert rebuild(VARIANT, 5, None, log, hold=True, muggins_rules=rules).game == game
    assert shows > 10


def test_the_rules_a_snapshot_says():
    new = Game.new(VARIANT, seed=1, first_dealer=0)
    assert muggins_rules_of(new.to_dict()) is MugginsRules.INDEPENDENT
    assert muggins_rules_of(Game.new(VARIANT, seed=1, muggins_rules=QUEUED).to_dict()) is QUEUED
    assert muggins_rules_of(Game.new(Variant(), seed=1).to_dict()) is None  # no muggins
    for unreadable in (None, "{}", {"version": 2}, {**new.to_dict(), "muggins_rules": "later"}):
        assert muggins_rules_of(unreadable) is None  # the log decides


def test_a_new_game_replays_by_the_current_rules():
    rng = random.Random(9)
    game = Game.new(VARIANT, seed=9, hold_between_deals=True)
    log: list[ActionRecord] = []
    while not game.is_over:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        action = show_action(game, seat, rng) if game.phase is Phase.SHOW else rng.choice(legal)
        game.apply(seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, action.to_dict(), 0.0))
    for rules in (muggins_rules_of(game.to_dict()), None):
        rebuilt = rebuild(VARIANT, 9, None, log, hold=True, muggins_rules=rules)
        assert rebuilt.game == game and rebuilt.game.muggins_rules is MugginsRules.INDEPENDENT


async def test_the_release_databases_muggins_game_plays_on_by_its_rules(tmp_path):
    copy = tmp_path / "release-0.1.0.db"
    shutil.copyfile(RELEASE, copy)
    game_id = RELEASE_MUGGINS_GAME
    rng = random.Random(3)
    async with running(copy) as manager:
        assert manager.live[game_id].game.muggins_rules is QUEUED
        for _ in range(500):  # on to a crib that waits for the window on the dealer's hand
            game = manager.live[game_id].game
            nxt = counter(game) if game.phase is Phase.SHOW else None
            if nxt is not None and nxt[1] and game.muggins_window is not None:
                break
            await play_one(manager, game_id, rng)
        view = manager.live.view(game_id)
        assert view is not None and view.muggins_counter == game.dealer
        assert game.dealer not in view.to_act and view.to_act == (game.pone,)
        # the dealer who claims his crib now is told why he waits, by the rules of his game
        dealer = view.seats[game.dealer].user_id
        early = await manager.play.act(Move(game_id, dealer, Claim(0), step=view.step))
        assert isinstance(early, Refusal) and early.message.startswith("Wait: "), early
        assert manager.live[game_id].game == game  # and nothing changed
    async with running(copy, verify_sample=0) as manager:
        assert await manager.loader.verify(game_id) == "ok"  # the log replays to the snapshot
        resumed = manager.live[game_id].game
        assert resumed == game and resumed.muggins_rules is QUEUED
        final = await play_to_end(manager, game_id, rng)
        assert final.finished is not None
        replay = await manager.records.replay(game_id)  # the ended game, rebuilt from its log
    assert isinstance(replay, Replay)
    assert replay.scores == final.view.scores and replay.winner == final.view.winner
    assert replay.variant.target in replay.scores
