"""Lobbies: one per channel, joining and leaving, computers, the variant, the host's powers."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import CutForDeal, Phase, Variant
from bot.sessions import (
    AddComputer,
    Cancel,
    ChangeVariant,
    GameStatus,
    Join,
    Leave,
    OpenLobby,
    Outcome,
    Refusal,
    RefusalReason,
    RemoveComputer,
    Start,
)
from tests.support.sessions import BOB, CAROL, DAVE, HOST, dump_database, open_manager, running

R = RefusalReason


@pytest.fixture
async def setup(database):
    store, manager = await open_manager(database)
    yield manager, database
    await store.close()


async def new_lobby(manager, channel_id=500, host=HOST, variant=None):
    view = await manager.lobbies.open(
        OpenLobby(guild_id=1, channel_id=channel_id, host_id=host, variant=variant)
    )
    assert not isinstance(view, Refusal), view
    return view


@pytest.mark.sqlite_only
async def test_the_host_opens_a_lobby_in_seat_zero(setup):
    manager, _ = setup
    view = await new_lobby(manager)
    assert view.status is GameStatus.LOBBY and view.host_id == HOST
    assert view.seats[0].user_id == HOST and view.seats[1] is None
    assert manager.live.in_channel(500) == view
    assert manager.live.games_of(HOST) == [view]


async def test_one_open_lobby_or_game_per_channel(setup):
    manager, _ = setup
    await new_lobby(manager)
    refusal = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=500, host_id=BOB))
    assert refusal.reason is R.CHANNEL_BUSY and "already a cribbage game" in refusal.message
    assert (await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=501, host_id=HOST))).ok


async def test_two_racing_creations_in_a_channel_give_one_lobby(setup):
    manager, path = setup
    results = await asyncio.gather(
        *(
            manager.lobbies.open(OpenLobby(guild_id=1, channel_id=500, host_id=u))
            for u in (HOST, BOB, CAROL)
        )
    )
    assert sum(r.ok for r in results) == 1
    assert sum('INSERT INTO "games"' in line for line in dump_database(path)) == 1


@pytest.mark.sqlite_only
async def test_join_and_leave(setup):
    manager, _ = setup
    lobby = await new_lobby(manager)
    view = await manager.lobbies.join(Join(lobby.game_id, BOB))
    assert view.seat_of(BOB) == 1 and view.is_full
    assert (await manager.lobbies.join(Join(lobby.game_id, BOB))).reason is R.ALREADY_SEATED
    assert (await manager.lobbies.join(Join(lobby.game_id, CAROL))).reason is R.LOBBY_FULL
    view = await manager.lobbies.leave(Leave(lobby.game_id, BOB))
    assert view.seat_of(BOB) is None and not view.is_full
    assert (await manager.lobbies.leave(Leave(lobby.game_id, BOB))).reason is R.NOT_SEATED


@pytest.mark.sqlite_only
async def test_a_user_may_sit_in_several_channels(setup):
    manager, _ = setup
    first = await new_lobby(manager, channel_id=500)
    second = await new_lobby(manager, channel_id=501, host=BOB)
    assert (await manager.lobbies.join(Join(second.game_id, HOST))).ok
    assert {v.game_id for v in manager.live.games_of(HOST)} == {first.game_id, second.game_id}


async def test_a_chosen_seat_must_be_free(setup):
    manager, _ = setup
    lobby = await new_lobby(manager, variant=Variant(players=4, partnerships=True))
    view = await manager.lobbies.join(Join(lobby.game_id, BOB, seat=2))
    assert view.seat_of(BOB) == 2 and view.seats[2].side == 0  # partner of seat 0
    assert (await manager.lobbies.join(Join(lobby.game_id, CAROL, seat=2))).reason is R.SEAT_TAKEN


@pytest.mark.sqlite_only
async def test_only_the_host_adds_computers_at_a_known_level(setup):
    manager, _ = setup
    lobby = await new_lobby(manager)
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    await manager.lobbies.leave(Leave(lobby.game_id, BOB))
    assert (
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, BOB, "easy"))
    ).reason is R.NOT_HOST
    assert (
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "genius"))
    ).reason is R.INVALID
    view = await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "expert"))
    assert view.seats[1].is_computer and view.seats[1].level == "expert"
    view = await manager.lobbies.remove_computer(RemoveComputer(lobby.game_id, HOST, 1))
    assert view.seats[1] is None
    assert (
        await manager.lobbies.remove_computer(RemoveComputer(lobby.game_id, HOST, 0))
    ).reason is R.INVALID


@pytest.mark.sqlite_only
async def test_the_variant_can_change_while_the_seats_fit(setup):
    manager, _ = setup
    lobby = await new_lobby(manager)
    view = await manager.lobbies.set_variant(
        ChangeVariant(lobby.game_id, HOST, Variant(players=3, target=61))
    )
    assert view.variant == Variant(players=3, target=61) and len(view.seats) == 3
    await manager.lobbies.join(Join(lobby.game_id, BOB, seat=2))
    refusal = await manager.lobbies.set_variant(
        ChangeVariant(lobby.game_id, HOST, Variant(players=2))
    )
    assert refusal.reason is R.INVALID and "free the extra seats" in refusal.message
    assert (
        await manager.lobbies.set_variant(ChangeVariant(lobby.game_id, BOB, Variant()))
    ).reason is R.NOT_HOST


@pytest.mark.sqlite_only
async def test_only_the_host_starts_and_only_a_full_lobby(setup):
    manager, _ = setup
    lobby = await new_lobby(manager, variant=Variant(players=3))
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    refusal = await manager.lobbies.start(Start(lobby.game_id, HOST))
    assert refusal.reason is R.SEATS_EMPTY and "1 more player" in refusal.message
    await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "standard"))
    assert (await manager.lobbies.start(Start(lobby.game_id, BOB))).reason is R.NOT_HOST
    outcome = await manager.lobbies.start(Start(lobby.game_id, HOST))
    assert isinstance(outcome, Outcome) and outcome.view.status is GameStatus.ACTIVE
    assert (await manager.lobbies.start(Start(lobby.game_id, HOST))).reason is R.ALREADY_STARTED
    assert (await manager.lobbies.join(Join(lobby.game_id, DAVE))).reason is R.ALREADY_STARTED


@pytest.mark.sqlite_only
async def test_on_start_the_computers_cut_and_the_humans_are_asked_to(setup):
    manager, _ = setup
    lobby = await new_lobby(manager, variant=Variant(players=4))
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
    await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
    outcome = await manager.lobbies.start(Start(lobby.game_id, HOST))
    cuts = [e for e in outcome.events if isinstance(e.event, CutForDeal)]
    assert {c.event.seat for c in cuts} == {2, 3}
    assert [c.step for c in cuts] == [1, 2] and outcome.step == 2
    assert outcome.view.phase is Phase.CUT_FOR_DEAL
    assert set(outcome.to_act_users) == {HOST, BOB}


@pytest.mark.sqlite_only
async def test_a_leaving_host_hands_over_or_closes_the_lobby(setup):
    manager, _ = setup
    lobby = await new_lobby(manager)
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    view = await manager.lobbies.leave(Leave(lobby.game_id, HOST))
    assert view.host_id == BOB and view.status is GameStatus.LOBBY
    await manager.lobbies.add_computer(AddComputer(lobby.game_id, BOB, "easy"))
    view = await manager.lobbies.leave(Leave(lobby.game_id, BOB))
    assert view.status is GameStatus.CANCELLED
    assert manager.live.in_channel(500) is None
    assert (await manager.lobbies.join(Join(lobby.game_id, CAROL))).reason is R.GAME_OVER


@pytest.mark.sqlite_only
async def test_the_host_cancels_a_lobby_and_frees_the_channel(setup):
    manager, _ = setup
    lobby = await new_lobby(manager)
    assert (await manager.lobbies.cancel(Cancel(lobby.game_id, BOB))).reason is R.NOT_HOST
    view = await manager.lobbies.cancel(Cancel(lobby.game_id, HOST))
    assert view.status is GameStatus.CANCELLED
    refusal = await manager.lobbies.join(Join(lobby.game_id, BOB))
    assert refusal.reason is R.GAME_OVER and "cancelled" in refusal.message
    assert (await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=500, host_id=BOB))).ok


async def test_lobbies_survive_a_restart(databases):
    path = databases("restart")
    async with running(path) as manager:
        lobby = await new_lobby(manager, variant=Variant(players=3))
        await manager.lobbies.join(Join(lobby.game_id, BOB))
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "expert"))
        await manager.records.set_message(lobby.game_id, "lobby", 500, 9000)
    async with running(path) as manager:
        view = manager.live.view(lobby.game_id)
        assert view.variant == Variant(players=3) and view.seat_of(BOB) == 1
        assert view.seats[2].level == "expert" and view.messages["lobby"].message_id == 9000
        assert (
            await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=500, host_id=CAROL))
        ).reason is (R.CHANNEL_BUSY)
        assert (await manager.lobbies.start(Start(lobby.game_id, HOST))).ok
