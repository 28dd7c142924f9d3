"""A match goes on whichever part of the manager ends its game: a move made for a player whose
time ran out, a muggins window let go, an idle game abandoned (all through the front)."""

from __future__ import annotations

import random

import pytest

from bot.engine import Action, Game, LetGo, Variant
from bot.sessions import (
    AddComputer,
    GameSessionManager,
    GameStatus,
    Join,
    Move,
    OpenLobby,
    Outcome,
    PrivateView,
    ShowHand,
    Start,
)
from bot.sessions.strategy import simple_strategy
from tests.support.sessions import BOB, HOST, running

CHANNEL = 500


def ends_the_game(game: Game, seat: int, action: Action) -> bool:
    trial = game.copy()
    trial.apply(seat, action)
    return trial.is_over


def finisher(game: Game, seat: int, level: str) -> Action:
    """A computer that ends the game when it can (it plays the moves of absent players)."""
    for action in game.legal_actions(seat):
        if ends_the_game(game, seat, action):
            return action
    return simple_strategy(game, seat, level)


def seeds():
    counter = iter(range(1, 10**6))
    return lambda: next(counter)


async def first_game_of_a_match(
    manager: GameSessionManager, variant: Variant, *, computer: bool = False
) -> Outcome:
    """A best of 5: HOST and BOB (or a computer)."""
    lobby = await manager.lobbies.open(
        OpenLobby(guild_id=1, channel_id=CHANNEL, host_id=HOST, variant=variant, best_of=5)
    )
    if computer:
        assert (await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))).ok
    else:
        assert (await manager.lobbies.join(Join(lobby.game_id, BOB))).ok
    started = await manager.lobbies.start(Start(lobby.game_id, HOST))
    assert isinstance(started, Outcome), started
    return started


def choices(manager: GameSessionManager, game_id: int) -> list[tuple[int, PrivateView]]:
    """(user, private view) of every person who must act now."""
    view = manager.live.view(game_id)
    mine = [
        (user, manager.hands.private_view(ShowHand(game_id, user))) for user in view.to_act_users
    ]
    assert all(isinstance(p, PrivateView) for _, p in mine)
    return mine


def game_of(manager: GameSessionManager, game_id: int) -> Game:
    return manager.live[game_id].game


def assert_the_match_went_on(ended: Outcome, manager: GameSessionManager) -> None:
    assert ended.finished is not None and ended.finished.reason == "won"
    match = ended.view.match
    assert match is not None and not match.over  # (a best of 5 at 61 goes on after one game)
    following = ended.next_game
    assert following is not None and following.view.status is GameStatus.ACTIVE
    assert following.view.match.game_number == match.game_number + 1
    assert following.view.dealer == 1 - ended.finished.winner_sides[0]  # the loser deals
    assert manager.live.in_channel(CHANNEL).game_id == following.game_id


async def test_the_next_game_starts_after_a_move_made_for_a_player_out_of_time(databases):
    now = [1000.0]
    async with running(
        databases("t"), clock=lambda: now[0], strategy=finisher, seed_source=seeds()
    ) as manager:
        game_id = (await first_game_of_a_match(manager, Variant(2, False, 61))).game_id
        rng = random.Random(1)
        for _ in range(2000):  # people play, but never a move that ends the game
            mine = choices(manager, game_id)
            game = game_of(manager, game_id)
            if any(ends_the_game(game, p.seat, a) for _, p in mine for a in p.legal_actions):
                break
            user, private = rng.choice(mine)
            action = rng.choice(private.legal_actions)
            outcome = await manager.play.act(Move(game_id, user, action, step=private.step))
            assert isinstance(outcome, Outcome), outcome
            if outcome.finished is not None:  # a last card laid by itself ended it: the next
                assert outcome.next_game is not None
                game_id = outcome.next_game.game_id
        else:
            raise AssertionError("no move could end the game")
        now[0] += 24 * 3600  # the one who could end it is away: the computer does it for them
        report = await manager.timers.sweep()
        (ended,) = report.expired
        assert ended.timeouts and ended.timeouts[0].expiries == 1
        assert_the_match_went_on(ended, manager)


@pytest.mark.slow  # plays games until a rare ending: a crib let through a window wins
async def test_the_next_game_starts_after_a_muggins_window_is_let_go(databases):
    """The person never answers the computer's claims: each window is let go by the manager,
    and the computer (the dealer) counts its crib at once; when that count wins the game, the
    match's next game starts from the same request."""
    now = [1000.0]
    muggins = Variant(2, target=61, muggins=True)
    async with running(
        databases("m"), clock=lambda: now[0], strategy=finisher, seed_source=seeds()
    ) as manager:
        rng = random.Random(2)
        game_id = (await first_game_of_a_match(manager, muggins, computer=True)).game_id
        for _ in range(20000):
            mine = manager.hands.private_view(ShowHand(game_id, HOST))
            assert isinstance(mine, PrivateView) and mine.must_act
            if LetGo() in mine.legal_actions:  # a window waits for the person: let it go
                closes = manager.muggins.closes_at(game_id)
                assert closes is not None and await manager.muggins.close_due(closes - 1) == []
                (outcome,) = await manager.muggins.close_due(closes)
                if outcome.finished is not None and not outcome.view.match.over:
                    assert_the_match_went_on(outcome, manager)
                    return
            else:
                game = game_of(manager, game_id)
                safe = [a for a in mine.legal_actions if not ends_the_game(game, mine.seat, a)]
                action = rng.choice(safe or list(mine.legal_actions))
                outcome = await manager.play.act(Move(game_id, HOST, action, step=mine.step))
                assert isinstance(outcome, Outcome), outcome
            if outcome.finished is not None:  # the game ended some other way: play on
                following = outcome.next_game
                if following is None:  # the match is over: another one
                    following = await first_game_of_a_match(manager, muggins, computer=True)
                game_id = following.game_id
        raise AssertionError("no crib counted after a window was let go ever won a game")


async def test_an_idle_game_abandoned_by_the_sweep_abandons_its_match(databases):
    now = [1000.0]
    async with running(
        databases("i"), clock=lambda: now[0], idle_warn_after=100, idle_abandon_after=150
    ) as manager:
        started = await first_game_of_a_match(manager, Variant(2, False, 61))
        await manager.idle.sweep(1100.0)  # warned
        (abandoned,) = (await manager.idle.sweep(1200.0)).abandoned
        assert abandoned.finished.reason == "abandoned" and abandoned.next_game is None
        assert abandoned.view.match.status == "abandoned"
        assert manager.live.in_channel(CHANNEL) is None
        row = await manager._store.matches.match_of_game(started.game_id)
        assert row.status == "abandoned"
        lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=CHANNEL, host_id=HOST))
        assert lobby.ok  # the channel is free again
