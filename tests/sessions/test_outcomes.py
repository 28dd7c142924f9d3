"""One click, one pass: every outcome carries each person's own hand and the server's settings,
and the coach is reached through the manager."""

from __future__ import annotations

import random

import pytest

from bot.engine import Claim, Game, Phase, Variant
from bot.sessions import (
    AcceptRematch,
    AddComputer,
    AskCoach,
    AskRematch,
    Forfeit,
    GameSessionManager,
    GameStatus,
    GameView,
    Move,
    OpenLobby,
    Outcome,
    PrivateView,
    Refusal,
    RefusalReason,
    ServerSettings,
    ShowHand,
    Start,
)
from db import Store
from tests.support.sessions import (
    BOB,
    CAROL,
    HOST,
    play_one,
    play_past_first_show,
    play_to_end,
    running,
    started_game,
)

R = RefusalReason
GUILD = 1  # the guild of tests.support.sessions.started_game
SHORT = Variant(2, False, 61)
MUGGINS_2 = Variant(2, target=61, muggins=True)


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Crash(BaseException):
    """The process dying while a computer thinks (nothing may catch it)."""


async def custom_settings(manager: GameSessionManager) -> ServerSettings:
    """Settings that differ from the defaults, so an outcome cannot carry the defaults by luck."""
    settings = await manager.settings.update_server(GUILD, turn_minutes=2, images=False)
    assert settings != ServerSettings(GUILD)
    return settings


async def check(manager: GameSessionManager, outcome: Outcome, settings: ServerSettings) -> None:
    """``outcome`` carries the server's settings and, for every person seated, exactly their own
    view of the game as committed (their cards, and what they may do now)."""
    assert isinstance(outcome, Outcome), outcome
    assert outcome.settings == settings
    assert "hands" not in repr(outcome)  # no log line shows a hand
    people = {s.user_id: s.seat for s in outcome.view.seats if s is not None and s.user_id}
    record = await manager._store.games.load_game(outcome.game_id)
    if record.state is None:  # a lobby: nobody holds cards
        assert dict(outcome.hands) == {}
    else:
        game = Game.from_dict(record.state)
        assert set(outcome.hands) == set(people) and people
        for user, seat in people.items():
            mine = outcome.hands[user]
            assert isinstance(mine, PrivateView)
            assert (mine.game_id, mine.seat, mine.step) == (outcome.game_id, seat, outcome.step)
            assert mine.hand == tuple(game.hand(seat)) and mine.kept == tuple(game.kept(seat))
            if outcome.view.status is GameStatus.ACTIVE:
                assert mine == manager.hands.private_view(ShowHand(outcome.game_id, user))
                assert mine.legal_actions == tuple(game.legal_actions(seat))
            else:  # an ended game offers nothing more to do
                assert mine.legal_actions == () and not mine.must_act
    if outcome.next_game is not None:
        await check(manager, outcome.next_game, settings)


@pytest.mark.sqlite_only
async def test_start_act_timeouts_and_forfeit_carry_hands_and_settings(databases):
    clock = Clock()
    async with running(databases("o"), clock=clock, seed_source=lambda: 7) as manager:
        settings = await custom_settings(manager)
        started = await started_game(manager, humans=(HOST, BOB, CAROL), variant=Variant(3))
        await check(manager, started, settings)
        rng = random.Random(1)
        for _ in range(12):
            await check(manager, await play_one(manager, started.game_id, rng), settings)
        clock.now += 3600  # everyone's time runs out: the computer moves for them
        (expired,) = (await manager.timers.sweep()).expired
        assert expired.timeouts
        await check(manager, expired, settings)
        await play_past_first_show(manager, started.game_id, rng)  # else: aborted
        forfeit = await manager.play.forfeit(Forfeit(started.game_id, BOB))
        assert forfeit.finished.reason == "forfeit"
        await check(manager, forfeit, settings)


@pytest.mark.sqlite_only
async def test_rematches_and_a_matchs_next_game_carry_them(databases):
    async with running(databases("o"), seed_source=iter(range(1, 10**6)).__next__) as manager:
        settings = await custom_settings(manager)
        started = await started_game(manager, variant=SHORT)
        final = await play_to_end(manager, started.game_id, random.Random(2))
        await check(manager, final, settings)
        lobby = await manager.rematches.ask(AskRematch(started.game_id, HOST))
        assert isinstance(lobby, GameView)
        rematch = await manager.rematches.accept(AcceptRematch(lobby.game_id, BOB))
        await check(manager, rematch, settings)
        await manager.play.forfeit(Forfeit(rematch.game_id, BOB))
        alone = await started_game(manager, humans=(HOST,), computers=("easy",), variant=SHORT)
        await manager.play.forfeit(Forfeit(alone.game_id, HOST))
        await check(
            manager, await manager.rematches.ask(AskRematch(alone.game_id, HOST)), settings
        )  # at once

    async with running(databases("m"), seed_source=iter(range(1, 10**6)).__next__) as manager:
        settings = await custom_settings(manager)
        lobby = await manager.lobbies.open(
            OpenLobby(guild_id=GUILD, channel_id=600, host_id=HOST, variant=SHORT, best_of=5)
        )
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
        first = await manager.lobbies.start(Start(lobby.game_id, HOST))
        final = await play_to_end(manager, first.game_id, random.Random(3))
        assert final.next_game is not None  # a best of 5 at 61 points goes on after one game
        await check(manager, final, settings)


async def test_resume_carries_them(databases):
    path = databases("o")

    def dies(game, seat, level):
        raise Crash

    async with running(path, strategy=dies) as manager:
        settings = await custom_settings(manager)
        lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=5, host_id=HOST))
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
        with pytest.raises(Crash):
            await manager.lobbies.start(
                Start(lobby.game_id, HOST)
            )  # the computer cuts first: crash
    store = await Store.open(path)
    try:
        manager = GameSessionManager(store)
        (outcome,) = (await manager.resume()).outcomes  # the computer cuts now
        assert outcome.game_id == lobby.game_id and outcome.step == 1
        await check(manager, outcome, settings)
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_idle_sweeps_carry_them(databases):
    now = [1000.0]
    async with running(
        databases("o"), clock=lambda: now[0], idle_warn_after=100, idle_abandon_after=150
    ) as manager:
        settings = await custom_settings(manager)
        game_id = (await started_game(manager)).game_id
        lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=900, host_id=CAROL))
        assert len((await manager.idle.sweep(1100.0)).warnings) == 2
        abandoned = (await manager.idle.sweep(1200.0)).abandoned
        assert {o.game_id for o in abandoned} == {game_id, lobby.game_id}
        for outcome in abandoned:
            await check(manager, outcome, settings)


@pytest.mark.sqlite_only
async def test_a_muggins_window_let_go_carries_them(databases):
    now = [1000.0]
    async with running(databases("o"), clock=lambda: now[0]) as manager:
        settings = await custom_settings(manager)
        game_id = (await started_game(manager, variant=MUGGINS_2)).game_id
        rng = random.Random(4)
        while manager.live.view(game_id).phase is not Phase.SHOW:
            await play_one(manager, game_id, rng)
        user = manager.live.view(game_id).seat_user(manager.live.view(game_id).pone)
        mine = manager.hands.private_view(ShowHand(game_id, user))
        claimed = await manager.play.act(Move(game_id, user, Claim(0), step=mine.step))
        await check(manager, claimed, settings)
        (outcome,) = await manager.muggins.close_due(manager.muggins.closes_at(game_id))
        await check(manager, outcome, settings)


# ---------------------------------------------------------------------- the coach


@pytest.mark.sqlite_only
async def test_advise_asks_the_coach_on_a_copy_of_the_game(databases):
    asked = []

    def coach(game: Game, seat: int) -> tuple[int, tuple]:
        asked.append(game)
        hand = tuple(game.hand(seat))
        game.apply(seat, game.legal_actions(seat)[0])  # the coach's own copy: the table stays
        return seat, hand

    async with running(databases("c"), coach=coach) as manager:
        lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=7, host_id=HOST))
        assert (await manager.hands.advise(AskCoach(lobby.game_id, HOST))).reason is R.NOT_STARTED
        started = await started_game(manager)
        mine = manager.hands.private_view(ShowHand(started.game_id, BOB))
        assert await manager.hands.advise(AskCoach(started.game_id, BOB)) == (mine.seat, mine.hand)
        table = manager.live[started.game_id]
        assert table.step == mine.step and table.game.hand(mine.seat) == list(mine.hand)
        assert manager.hands.private_view(ShowHand(started.game_id, BOB)) == mine
        assert (await manager.hands.advise(AskCoach(started.game_id, CAROL))).reason is R.NOT_SEATED
        assert (await manager.hands.advise(AskCoach(999, BOB))).reason is R.UNKNOWN_GAME


@pytest.mark.sqlite_only
async def test_without_a_coach_advise_refuses(databases):
    async with running(databases("c")) as manager:
        started = await started_game(manager)
        refused = await manager.hands.advise(AskCoach(started.game_id, HOST))
        assert isinstance(refused, Refusal) and refused.reason is R.INVALID
