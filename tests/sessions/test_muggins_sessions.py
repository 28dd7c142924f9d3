"""Muggins through the session manager: the lobby flag is stored, claims are durable steps,
a window nobody answers is let go after ``muggins_window`` seconds."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Claim, CountSettled, Game, Muggins, Phase, Variant, action_from_dict
from bot.engine.muggins import breakdown_of, window_waiting
from bot.sessions import ChangeVariant, Move, OpenLobby, Outcome, PrivateView, ShowHand
from tests.support.postgres import connect
from tests.support.sessions import (
    BOB,
    HOST,
    play_one,
    play_to_end,
    running,
    started_game,
    stored_log,
)

MUGGINS_2 = Variant(2, target=61, muggins=True)


def replay_checks(path, game_id: int) -> Game:
    """The log replays to the stored snapshot (variant from the snapshot: muggins included)."""
    conn = connect(path, read_only=True)
    try:
        seed, first_dealer, muggins = conn.execute(
            "SELECT seed, first_dealer, muggins FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        log, snapshot = stored_log(conn, game_id)  # rows, or the archive once it ended
        state = json.loads(snapshot[1])
        rows = [(seat, json.dumps(action)) for _, seat, action, _ in log]
    finally:
        conn.close()
    variant = Variant.from_dict(state["variant"])
    assert variant.muggins and muggins == 1
    hold = state.get("hold_between_deals", False)  # every game the manager makes holds
    game = Game.new(variant, int(seed), first_dealer, hold_between_deals=hold)
    for seat, action in rows:
        game.apply(seat, action_from_dict(json.loads(action)))
    assert game.to_dict() == state
    return game


async def to_show(manager, game_id: int, rng: random.Random) -> Game:
    for _ in range(500):
        game = manager.live[game_id].game
        if game.phase is Phase.SHOW:
            return game
        await play_one(manager, game_id, rng)
    raise AssertionError("no show")


async def test_the_flag_survives_a_restart_and_a_whole_game_replays(databases):
    path = databases("m")
    async with running(path) as manager:
        outcome = await started_game(manager, variant=MUGGINS_2)
        game_id = outcome.game_id
        await to_show(manager, game_id, random.Random(1))
    async with running(path) as manager:
        assert manager.live.view(game_id).variant == MUGGINS_2
        final = await play_to_end(manager, game_id, random.Random(2))
        assert final.finished is not None
    replay_checks(path, game_id)


@pytest.mark.sqlite_only
async def test_the_host_can_turn_muggins_on_in_the_lobby(databases):
    path = databases("m")
    async with running(path) as manager:
        lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=5, host_id=HOST))
        view = await manager.lobbies.set_variant(ChangeVariant(lobby.game_id, HOST, MUGGINS_2))
        assert view.variant.muggins
    async with running(path) as manager:
        assert manager.live.view(lobby.game_id).variant == MUGGINS_2


@pytest.mark.sqlite_only
async def test_an_under_claim_is_caught_through_act(databases):
    path = databases("m")
    async with running(path) as manager:
        game_id = (await started_game(manager, variant=MUGGINS_2)).game_id
        rng = random.Random(3)
        for _ in range(20):  # a show where the pone's hand is worth something
            game = await to_show(manager, game_id, rng)
            if breakdown_of(game, game.pone, False).total >= 2:
                break
            while manager.live[game_id].game.phase is Phase.SHOW:
                await play_one(manager, game_id, rng)
        users = {0: HOST, 1: BOB}
        pone, dealer = game.pone, game.dealer
        mine = manager.hands.private_view(ShowHand(game_id, users[pone]))
        assert mine.legal_actions == tuple(Claim(p) for p in range(30))
        outcome = await manager.play.act(Move(game_id, users[pone], Claim(0), step=mine.step))
        assert isinstance(outcome, Outcome)
        theirs = manager.hands.private_view(ShowHand(game_id, users[dealer]))
        assert isinstance(theirs, PrivateView) and Muggins() in theirs.legal_actions
        outcome = await manager.play.act(Move(game_id, users[dealer], Muggins(), step=theirs.step))
        settled = [e.event for e in outcome.events if isinstance(e.event, CountSettled)]
        assert settled and settled[0].missed == breakdown_of(game, pone, False).total
    replay_checks(path, game_id)


@pytest.mark.sqlite_only
async def test_an_unanswered_window_is_let_go_after_the_timeout(databases):
    path = databases("m")
    now = [1000.0]
    async with running(path, clock=lambda: now[0]) as manager:
        game_id = (await started_game(manager, variant=MUGGINS_2)).game_id
        game = await to_show(manager, game_id, random.Random(4))
        user = {0: HOST, 1: BOB}[game.pone]
        mine = manager.hands.private_view(ShowHand(game_id, user))
        await manager.play.act(Move(game_id, user, Claim(0), step=mine.step))
        assert window_waiting(manager.live[game_id].game)
        closes = manager.muggins.closes_at(game_id)
        assert closes == now[0] + manager.muggins.window
        assert await manager.muggins.close_due(closes - 1) == []
        (outcome,) = await manager.muggins.close_due(closes)
        assert any(isinstance(e.event, CountSettled) for e in outcome.events)
        assert not window_waiting(manager.live[game_id].game)
        assert manager.muggins.closes_at(game_id) is None
    replay_checks(path, game_id)


@pytest.mark.sqlite_only
async def test_computers_claim_and_call_through_the_manager(databases):
    from bot.ai import choose_action

    def strategy(game, seat, level):
        return choose_action(game, seat, level="easy", seed=1)

    path = databases("m")
    async with running(path, strategy=strategy) as manager:
        game_id = (
            await started_game(manager, humans=(HOST,), computers=("easy",), variant=MUGGINS_2)
        ).game_id
        final = await play_to_end(manager, game_id, random.Random(5))
        assert final.finished is not None
    replay_checks(path, game_id)


@pytest.mark.sqlite_only
async def test_each_window_stands_by_itself_its_own_time_after_its_claim(databases):
    """The dealer claims his hand and his crib while the window on the pone's hand is open:
    each window is let go ``window`` seconds after its own claim, one ``LetGo`` naming it."""
    path = databases("m")
    now = [1000.0]
    async with running(path, clock=lambda: now[0]) as manager:
        game_id = (await started_game(manager, variant=MUGGINS_2)).game_id
        game = await to_show(manager, game_id, random.Random(4))
        users = {0: HOST, 1: BOB}
        pone, dealer = game.pone, game.dealer
        windows = manager.muggins

        async def claim_at(when: float, seat: int) -> None:
            now[0] = when
            mine = manager.hands.private_view(ShowHand(game_id, users[seat]))
            await manager.play.act(Move(game_id, users[seat], Claim(0), step=mine.step))
            windows.closes_at(game_id)  # as the table asks when it draws the claim

        await claim_at(1000.0, pone)
        await claim_at(1010.0, dealer)
        assert windows.closes_at(game_id) == 1010.0 + windows.window  # the latest claim's
        await claim_at(1015.0, dealer)  # the crib, the other windows still open
        live = manager.live[game_id].game
        assert [(w.seat, w.crib) for w in live.muggins_windows] == [
            (pone, False),
            (dealer, False),
            (dealer, True),
        ]
        assert await windows.close_due(1000.0 + windows.window - 1) == []
        (outcome,) = await windows.close_due(1000.0 + windows.window)
        settled = [e.event for e in outcome.events if isinstance(e.event, CountSettled)]
        assert [(e.seat, e.crib) for e in settled] == [(pone, False)]
        (outcome,) = await windows.close_due(1010.0 + windows.window)
        settled = [e.event for e in outcome.events if isinstance(e.event, CountSettled)]
        assert [(e.seat, e.crib) for e in settled] == [(dealer, False)]
        assert manager.live[game_id].game.phase is Phase.SHOW
        (outcome,) = await windows.close_due(1015.0 + windows.window)
        assert manager.live[game_id].game.phase is not Phase.SHOW
        assert windows.closes_at(game_id) is None
    assert replay_checks(path, game_id).phase is Phase.NEXT_DEAL  # the log holds each LetGo
