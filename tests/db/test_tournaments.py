"""The tournament repository on both backends: sign-up rules the store holds itself (one open
tournament a channel, nobody twice, the cap, no sign-up once started), a round written with its
number, a pairing's game created together with its link, the organiser's changes, and what a
restart reads back."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import insert

from db import Conflict, NewGame, SeatRecord, Store, schema
from db.tournaments import PairingRecord, TournamentSettings

SWISS = TournamentSettings("Friday night", "swiss", rounds=3, target=61, cap=3, bye_spread=10)


async def test_sign_up_is_held_by_the_store(databases):
    store = await Store.open(databases("store"))
    try:
        rows = store.tournaments
        made = await rows.create(1, 10, 100, SWISS, seed=2**127 + 5, now=1.0)
        assert (made.status, made.round, made.seed, made.settings) == ("signup", 0, 2**127 + 5,
                                                                       SWISS)  # fmt: skip
        with pytest.raises(Conflict):  # one open tournament a channel
            await rows.create(1, 10, 100, SWISS, seed=1, now=2.0)
        for user, at in ((201, 3.0), (202, 4.0), (203, 5.0)):
            await rows.add_entrant(made.id, user, now=at)
        with pytest.raises(Conflict):
            await rows.add_entrant(made.id, 201, now=6.0)  # twice
        with pytest.raises(Conflict):
            await rows.add_entrant(made.id, 204, now=6.0)  # over the cap
        assert await rows.remove_entrant(made.id, 203) is True
        assert await rows.remove_entrant(made.id, 203) is False
        await rows.set_message(made.id, 777)
        stored = await rows.load(made.id)
        assert stored is not None and stored.record.message_id == 777
        assert [(e.user_id, e.joined_at, e.status) for e in stored.entrants] == [
            (201, 3.0, "entered"), (202, 4.0, "entered")
        ]  # fmt: skip
        assert await rows.load(made.id + 1) is None
    finally:
        await store.close()


async def test_rounds_games_and_the_organisers_changes_come_back_after_a_restart(databases):
    place = databases("store")
    store = await Store.open(place)
    rows = store.tournaments
    made = await rows.create(1, 10, 100, SWISS, seed=9, now=1.0)
    for user in (201, 202, 203):
        await rows.add_entrant(made.id, user, now=2.0)
    one = [
        PairingRecord(1, 1, 202, 203, deadline_at=100.0),
        PairingRecord(1, 2, 201, None, "decided", decided_by="bye", decided_at=3.0),
    ]
    seeds = [(201, None, 3), (202, 12.5, 1), (203, 3.0, 2)]
    await rows.start(made.id, seeds, one, rounds=2, now=3.0)
    with pytest.raises(Conflict):
        await rows.start(made.id, seeds, one, rounds=2, now=3.0)  # not twice
    with pytest.raises(Conflict):
        await rows.add_entrant(made.id, 204, now=4.0)  # sign-up is over

    # the pairing's game: created with its seats, snapshot and link in one transaction
    seats = (SeatRecord(0, user_id=202), SeatRecord(1, user_id=203))
    game = NewGame(1, 5000, 202, 2, False, 61, seats, None)
    game_id = await rows.start_game(
        made.id, dataclasses.replace(one[0], thread_id=5000), game, seed=2**100, state={"x": 1},
        ready=(0, 0), now=4.0,
    )  # fmt: skip
    with pytest.raises(Conflict):  # the thread holds an open game already
        await rows.start_game(made.id, one[0], game, seed=1, state={}, ready=(0, 0), now=4.0)
    record = await store.games.load_game(game_id)
    assert record is not None and (record.status, record.channel_id, record.target) == (
        "active", 5000, 61
    )  # fmt: skip
    assert [s.user_id for s in record.seats] == [202, 203] and record.state == {"x": 1}

    await rows.set_status(made.id, "paused", paused_at=50.0)
    await rows.resume(made.id, 1, paused_for=30.0)  # the open pairing's deadline moves on
    await rows.extend(made.id, 1, 60.0)
    stored = await rows.load(made.id)
    assert stored is not None and stored.pairings[0].deadline_at == 100.0 + 30.0 + 60.0
    assert stored.pairings[1].deadline_at is None  # a bye has none
    await rows.replace(made.id, 203, 299)
    with pytest.raises(Conflict):
        await rows.replace(made.id, 555, 299)
    decided = dataclasses.replace(
        one[0], thread_id=5000, game_id=game_id, state="decided", games=((game_id, 61, 40),),
        decided_by="played", decided_at=9.0, deadline_at=190.0,
    )  # fmt: skip
    await rows.save_pairing(made.id, decided)
    two = [PairingRecord(2, 1, 201, 202, deadline_at=300.0)]
    await rows.open_round(made.id, 2, two)
    with pytest.raises(Conflict):
        await rows.open_round(made.id, 2, two)
    await rows.leave(
        made.id, 203, "withdrew",
        [dataclasses.replace(two[0], state="decided", forfeited_by=202, decided_by="withdrawal")],
        now=10.0,
    )  # fmt: skip
    await store.close()

    store = await Store.open(place)
    try:
        (stored,) = await store.tournaments.load_open()
        rec = stored.record
        assert (rec.status, rec.round, rec.started_at, rec.paused_at) == ("running", 2, 3.0, None)
        assert rec.settings.rounds == 2 and rec.seed == 9
        entrants = [(e.user_id, e.seed, e.rating, e.status, e.replaced_by) for e in stored.entrants]
        assert entrants == [
            (201, 3, None, "entered", None),
            (202, 1, 12.5, "entered", None),
            (203, 2, 3.0, "withdrew", 299),
        ]  # fmt: skip
        first, bye, second = stored.pairings
        assert first == dataclasses.replace(decided, deadline_at=190.0)
        assert bye == one[1]
        assert (second.state, second.forfeited_by, second.decided_by) == (
            "decided", 202, "withdrawal"
        )  # fmt: skip
        await store.tournaments.end(rec.id, "finished", now=11.0)
        assert await store.tournaments.load_open() == []
        ended = await store.tournaments.load(rec.id)
        assert ended is not None and (ended.record.status, ended.record.ended_at) == (
            "finished", 11.0
        )  # fmt: skip
        # the channel is free again
        await store.tournaments.create(1, 10, 100, SWISS, seed=1, now=12.0)
    finally:
        await store.close()


async def test_a_setting_the_schema_refuses_changes_nothing(databases):
    store = await Store.open(databases("store"))
    try:
        bad = dataclasses.replace(SWISS, cap=1000)
        with pytest.raises(Conflict):
            await store.tournaments.create(1, 10, 100, bad, seed=1, now=1.0)
        assert await store.tournaments.load_open() == []
    finally:
        await store.close()


async def test_ratings_are_read_from_the_servers_standings(databases):
    store = await Store.open(databases("store"))
    try:
        assert await store.tournaments.ratings({201, 202}, scope=1) == {}
        row = {"games": 3, "wins": 2, "forfeits": 0, "skunks_given": 0, "skunks_taken": 0,
               "last_game": 1, "mu": 30.0, "sigma": 5.0, "ordinal": 15.0}  # fmt: skip
        async with store._database.write() as conn:
            for pool, scope, player in (("people", 1, 201), ("people", 0, 202), ("all", 1, 202)):
                values = {**row, "pool": pool, "scope": scope, "player": player}
                await conn.execute(insert(schema.standings).values(values))
        # the server's people's ratings: 202's are elsewhere or in another pool
        assert await store.tournaments.ratings({201, 202}, scope=1) == {201: 15.0}
    finally:
        await store.close()
