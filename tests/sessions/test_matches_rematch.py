"""Rematches in the session manager: same seats, the loser dealing, everyone accepting."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, Phase, Variant
from bot.sessions import (
    AcceptRematch,
    AddComputer,
    AskRematch,
    Cancel,
    DeclineRematch,
    Forfeit,
    GameStatus,
    GameView,
    OpenLobby,
    Outcome,
    RefusalReason,
    Start,
)
from tests.support.sessions import (
    BOB,
    CAROL,
    DAVE,
    HOST,
    open_manager,
    play_to_end,
    running,
    started_game,
)

R = RefusalReason
SHORT = Variant(2, False, 61)


@pytest.fixture
async def manager(databases):
    store, manager = await open_manager(databases("rematch"))
    yield manager
    await store.close()


async def finished_game(manager, *, humans=(HOST, BOB), computers=(), variant=SHORT, seed=1):
    started = await started_game(manager, humans=humans, computers=computers, variant=variant)
    final = await play_to_end(manager, started.game_id, random.Random(seed))
    return started, final


def seats_of(view) -> list[tuple[int, int | None, str | None]]:
    return [(s.seat, s.user_id, s.level) for s in view.seats]


async def test_a_rematch_keeps_the_seats_and_waits_for_everyone(manager):
    started, final = await finished_game(manager)
    loser = 1 - final.finished.winner_sides[0]
    asker = final.view.seat_user(loser)
    lobby = await manager.rematches.ask(AskRematch(started.game_id, asker))
    assert isinstance(lobby, GameView) and lobby.status is GameStatus.LOBBY
    assert seats_of(lobby) == seats_of(started.view) and lobby.variant == SHORT
    assert lobby.host_id == asker and lobby.game_id != started.game_id
    waiting = manager.rematches.view(lobby.game_id)
    other = final.view.seat_user(1 - loser)
    assert waiting.accepted == (asker,) and waiting.waiting == (other,)
    assert waiting.first_dealer == loser and waiting.of_game == started.game_id
    # the host cannot start without the others, and asking again points at this rematch
    assert (await manager.lobbies.start(Start(lobby.game_id, asker))).reason is R.SEATS_EMPTY
    again = await manager.rematches.ask(AskRematch(started.game_id, other))
    assert again.reason is R.CHANNEL_BUSY and "already waiting" in again.message
    assert (
        await manager.rematches.accept(AcceptRematch(lobby.game_id, asker))
    ).reason is R.ALREADY_SEATED
    assert (
        await manager.rematches.accept(AcceptRematch(lobby.game_id, CAROL))
    ).reason is R.NOT_SEATED
    outcome = await manager.rematches.accept(AcceptRematch(lobby.game_id, other))
    assert isinstance(outcome, Outcome)
    view = outcome.view
    assert view.status is GameStatus.ACTIVE and view.phase is Phase.DISCARD
    assert view.dealer == loser and view.deal_number == 1  # no cut for the deal
    assert manager.rematches.view(lobby.game_id) is None
    assert (
        await manager.rematches.accept(AcceptRematch(lobby.game_id, other))
    ).reason is R.ALREADY_STARTED


async def test_alone_with_computers_the_rematch_starts_at_once(manager):
    started, final = await finished_game(manager, humans=(HOST,), computers=("expert",))
    loser = 1 - final.finished.winner_sides[0]
    outcome = await manager.rematches.ask(AskRematch(started.game_id, HOST))
    assert isinstance(outcome, Outcome), outcome
    assert seats_of(outcome.view) == [(0, HOST, None), (1, None, "expert")]
    assert outcome.view.dealer == loser and outcome.view.status is GameStatus.ACTIVE


async def test_three_players_the_deal_passes_left_of_the_last_first_dealer(manager):
    variant = Variant(3, False, 61)
    started, final = await finished_game(
        manager, humans=(HOST,), computers=("easy", "easy"), variant=variant
    )
    first = await first_dealer_of(manager, started.game_id)
    outcome = await manager.rematches.ask(AskRematch(started.game_id, HOST))
    assert outcome.view.dealer == (first + 1) % 3


async def first_dealer_of(manager, game_id: int) -> int:
    """Who dealt first in an ended game (its last snapshot knows)."""
    record = await manager._store.games.load_game(game_id)
    return Game.from_dict(record.state).first_dealer


async def test_after_a_forfeit_the_one_who_forfeited_deals(manager):
    started = await started_game(manager, variant=SHORT)
    await manager.play.forfeit(Forfeit(started.game_id, BOB))
    lobby = await manager.rematches.ask(AskRematch(started.game_id, HOST))
    assert manager.rematches.view(lobby.game_id).first_dealer == 1  # BOB's seat
    outcome = await manager.rematches.accept(AcceptRematch(lobby.game_id, BOB))
    assert outcome.view.dealer == 1


async def test_who_may_ask_and_when(manager):
    started = await started_game(manager, variant=SHORT)
    assert (
        await manager.rematches.ask(AskRematch(started.game_id, HOST))
    ).reason is R.ALREADY_STARTED
    await play_to_end(manager, started.game_id, random.Random(1))
    refused = await manager.rematches.ask(AskRematch(started.game_id, CAROL))
    assert refused.reason is R.NOT_SEATED and "Only the players" in refused.message
    assert (await manager.rematches.ask(AskRematch(9999, HOST))).reason is R.UNKNOWN_GAME
    other = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=500, host_id=DAVE))
    busy = await manager.rematches.ask(AskRematch(started.game_id, HOST))
    assert busy.reason is R.CHANNEL_BUSY and "already a cribbage game" in busy.message
    await manager.lobbies.cancel(Cancel(other.game_id, DAVE))
    cancelled = await manager.rematches.ask(AskRematch(other.game_id, DAVE))
    assert cancelled.reason is R.INVALID


async def test_declining_calls_the_rematch_off(manager):
    started, _ = await finished_game(manager)
    lobby = await manager.rematches.ask(AskRematch(started.game_id, HOST))
    assert (
        await manager.rematches.decline(DeclineRematch(lobby.game_id, CAROL))
    ).reason is R.NOT_SEATED
    closed = await manager.rematches.decline(DeclineRematch(lobby.game_id, BOB))
    assert closed.status is GameStatus.CANCELLED
    assert manager.live.in_channel(500) is None
    # and the players may ask again
    assert isinstance(await manager.rematches.ask(AskRematch(started.game_id, BOB)), GameView)


async def test_a_rematch_lobby_and_its_acceptances_survive_a_restart(databases):
    path = databases("restart")
    async with running(path) as manager:
        started, _ = await finished_game(manager, humans=(HOST, BOB, CAROL), variant=Variant(3))
        lobby = await manager.rematches.ask(AskRematch(started.game_id, HOST))
        assert isinstance(
            await manager.rematches.accept(AcceptRematch(lobby.game_id, BOB)), GameView
        )
        planned = manager.rematches.view(lobby.game_id)
    async with running(path) as manager:
        assert manager.rematches.view(lobby.game_id) == planned
        assert manager.live.in_channel(500).status is GameStatus.LOBBY
        outcome = await manager.rematches.accept(AcceptRematch(lobby.game_id, CAROL))
        assert outcome.view.dealer == planned.first_dealer


async def test_the_rematch_of_a_match_is_a_new_match(manager):
    lobby = await manager.lobbies.open(
        OpenLobby(guild_id=1, channel_id=500, host_id=HOST, variant=SHORT, best_of=3)
    )
    await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
    started = await manager.lobbies.start(Start(lobby.game_id, HOST))
    refused = None
    game_id = started.game_id
    while True:
        final = await play_to_end(manager, game_id, random.Random(game_id))
        if final.next_game is None:
            break
        refused = await manager.rematches.ask(AskRematch(game_id, HOST))
        game_id = final.next_game.game_id
    if refused is not None:
        assert refused.reason is R.INVALID and "match" in refused.message
    outcome = await manager.rematches.ask(AskRematch(game_id, HOST))
    match = outcome.view.match
    assert match.best_of == 3 and match.game_number == 1 and match.wins == (0, 0)
    assert match.match_id != final.view.match.match_id


async def test_a_rematch_of_a_muggins_game_is_a_muggins_game(databases):
    path = databases("muggins")
    store, manager = await open_manager(path)
    muggins = Variant(2, False, 61, muggins=True)
    started, final = await finished_game(manager, variant=muggins)
    loser = 1 - final.finished.winner_sides[0]
    lobby = await manager.rematches.ask(AskRematch(started.game_id, final.view.seat_user(loser)))
    assert isinstance(lobby, GameView) and lobby.variant == muggins
    await store.close()
    store, manager = await open_manager(path)  # and it is stored so
    try:
        assert manager.live.view(lobby.game_id).variant == muggins
    finally:
        await store.close()
