"""The SQLite store: opening and migrations, lobbies, the group-committed action log, results."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import sys
from types import FrameType
from typing import Any

import pytest

from bot.ratings import RATER
from db import (
    LATEST_VERSION,
    ActionWrite,
    Conflict,
    DatabaseTooNew,
    DealPoints,
    Finish,
    NotACribbageDatabase,
    SeatOutcome,
    SeatRecord,
    Store,
)
from db.connection import Connection
from db.records import MessageRef
from tests.support.postgres import connect
from tests.support.sessions import dump_database

STATE = {"fake": "state"}  # the store does not read snapshots, it stores them


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def lobby(store: Store, channel_id: int = 7) -> int:
    return await store.lobbies.create_lobby(
        guild_id=1,
        channel_id=channel_id,
        host_id=11,
        players=2,
        partnerships=False,
        target=121,
        now=1.0,
    )


async def active_game(store: Store, channel_id: int = 7) -> int:
    game_id = await lobby(store, channel_id)
    await store.lobbies.add_seat(game_id, SeatRecord(1, computer="easy"), now=2.0)
    await store.lobbies.start_game(
        game_id, seed=2**100, first_dealer=None, teams={}, state=STATE, ready=(0, 0), now=3.0
    )
    return game_id


def write(game_id: int, seq: int, **kwargs: Any) -> ActionWrite:
    default = ActionWrite(
        game_id=game_id,
        seq=seq,
        seat=seq % 2,
        action={"type": "cut", "depth": 4},
        state={"seq": seq},
        ready=(seq, seq),
        at=10.0 + seq,
    )
    return dataclasses.replace(default, **kwargs)


# ---------------------------------------------------------------------- opening and migrations


async def test_a_fresh_database_gets_the_schema_and_the_pragmas(tmp_path):
    path = tmp_path / "fresh.db"
    store = await Store.open(path)
    await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    assert {"games", "seats", "actions", "snapshots", "results", "deal_points"} <= tables
    conn.close()


async def test_the_connection_enforces_foreign_keys(store):
    game_id = await active_game(store)
    ghost = Finish("abandoned", "abandoned", None, (SeatOutcome(3, 3, "abandoned", 0),))
    with pytest.raises(Conflict, match="(?i)foreign key"):
        await store.games.record_result(game_id, ghost, now=5.0)  # there is no seat 3
    assert await store.games.game_status(game_id) == "active"


async def test_reopening_is_idempotent_and_keeps_the_data(tmp_path):
    path = tmp_path / "again.db"
    store = await Store.open(path)
    game_id = await lobby(store)
    await store.close()
    before = dump_database(path)
    for _ in range(2):
        store = await Store.open(path)
        assert store.schema_version == LATEST_VERSION
        assert [g.id for g in await store.games.load_active_games()] == [game_id]
        await store.close()
    assert dump_database(path) == before


async def test_a_newer_database_is_refused_untouched(tmp_path):
    path = tmp_path / "newer.db"
    store = await Store.open(path)
    await lobby(store)
    await store.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNew, match="newer cribbage-bot.*Upgrade"):
        await Store.open(path)
    assert path.read_bytes() == before


async def test_a_text_file_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: eggs, milk, a cribbage board\n" * 20)
    before = path.read_bytes()
    with pytest.raises(NotACribbageDatabase, match="not an SQLite database.*did not change it"):
        await Store.open(path)
    assert path.read_bytes() == before


async def test_another_applications_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.execute("INSERT INTO invoices (total) VALUES (12.5)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(NotACribbageDatabase, match="another application.*invoices"):
        await Store.open(path)
    assert path.read_bytes() == before
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


async def test_a_cribbage_database_missing_tables_is_refused(tmp_path):
    path = tmp_path / "damaged.db"
    store = await Store.open(path)
    await store.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE results")
    conn.commit()
    conn.close()
    with pytest.raises(NotACribbageDatabase, match="lacks the tables results"):
        await Store.open(path)


# ---------------------------------------------------------------------- lobbies


async def test_one_open_game_per_channel(store):
    first = await lobby(store, channel_id=7)
    with pytest.raises(Conflict):
        await lobby(store, channel_id=7)
    assert await lobby(store, channel_id=8) != first
    await store.lobbies.close_lobby(first, status="cancelled", now=5.0)
    await lobby(store, channel_id=7)  # the channel is free again


async def test_a_user_holds_one_seat_per_game(store):
    game_id = await lobby(store)
    with pytest.raises(Conflict):
        await store.lobbies.add_seat(game_id, SeatRecord(1, user_id=11), now=2.0)
    with pytest.raises(Conflict):
        await store.lobbies.add_seat(game_id, SeatRecord(0, user_id=12), now=2.0)  # seat taken


async def test_a_lobby_round_trips(store):
    game_id = await lobby(store)
    await store.lobbies.add_seat(game_id, SeatRecord(1, computer="expert"), now=2.0)
    await store.lobbies.update_lobby(game_id, players=4, partnerships=True, host_id=11, now=3.0)
    (record,) = await store.games.load_active_games()
    assert (record.id, record.status, record.players, record.partnerships) == (
        game_id,
        "lobby",
        4,
        True,
    )
    assert record.seats == (SeatRecord(0, user_id=11), SeatRecord(1, computer="expert"))
    assert record.updated_at == 3.0 and record.state is None
    assert (record.target, record.muggins) == (121, False)  # not named: left as they were
    await store.lobbies.update_lobby(game_id, muggins=True, now=4.0)
    (record,) = await store.games.load_active_games()
    assert (record.players, record.partnerships, record.muggins) == (4, True, True)


# ---------------------------------------------------------------------- the action log


async def test_actions_append_with_their_snapshot(store):
    game_id = await active_game(store)
    await store.games.append_action(write(game_id, 1))
    await store.games.append_action(write(game_id, 2))
    (record,) = await store.games.load_active_games()
    assert (record.step, record.snapshot_seq, record.last_seq) == (2, 2, 2)
    assert record.state == {"seq": 2} and record.ready == (2, 2)
    assert record.seed == 2**100
    assert [a.seq for a in await store.games.load_actions(game_id)] == [1, 2]


async def test_an_action_applied_twice_is_refused_and_changes_nothing(store, database):
    game_id = await active_game(store)
    await store.games.append_action(write(game_id, 1))
    before = dump_database(database)
    with pytest.raises(Conflict):
        await store.games.append_action(write(game_id, 1, state={"other": 1}))
    with pytest.raises(Conflict, match=f"game {game_id} step 3 after step 1"):
        await store.games.append_action(write(game_id, 3))  # skips seq 2
    assert dump_database(database) == before


async def test_the_log_is_append_only(database, store):
    game_id = await active_game(store)
    await store.games.append_action(write(game_id, 1))
    conn = connect(database)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions")
    conn.close()


async def test_concurrent_writes_are_committed_together_and_a_bad_one_fails_alone(store):
    games = [await active_game(store, channel_id=c) for c in range(20, 30)]
    futures = [store.games.append_action(write(g, 1)) for g in games]
    futures.append(store.games.append_action(write(games[0], 1)))  # a duplicate in the same batch
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert results[:-1] == [None] * len(games)
    assert isinstance(results[-1], Conflict)
    assert {r.step for r in await store.games.load_active_games()} == {1}


async def test_a_final_action_records_results_from_the_deal_points(store):
    game_id = await active_game(store)
    await store.games.append_action(
        write(game_id, 1, deal_points=(DealPoints(1, 0, pegging=3, hand_value=12, hand_cards="a"),))
    )
    finish = Finish(
        "finished",
        "won",
        0,
        (
            SeatOutcome(0, 0, "won", 121, skunk_given=1),
            SeatOutcome(1, 1, "lost", 80, skunk_taken=1),
        ),
    )
    await store.games.append_action(
        write(
            game_id,
            2,
            deal_points=(
                DealPoints(1, 0, pegging=2, hand=12, crib=4, heels=2),
                DealPoints(2, 0, hand_value=20, hand_cards="b"),
                DealPoints(2, 1, pegging=1),
            ),
            finish=finish,
        )
    )
    assert await store.games.game_status(game_id) == "finished"
    assert await store.games.load_active_games() == []
    won, lost = await store.games.results(game_id)
    assert (won.won, won.final_score, won.skunk_given, won.pegging, won.hand, won.crib) == (
        True,
        121,
        1,
        5,
        12,
        4,
    )
    assert (won.heels, won.best_hand, won.best_hand_cards) == (2, 20, "b")
    assert (lost.won, lost.outcome, lost.skunk_taken, lost.pegging, lost.best_hand) == (
        False,
        "lost",
        1,
        1,
        None,
    )
    first_deal = (await store.games.deal_points(game_id))[0]
    assert (first_deal.pegging, first_deal.hand_value, first_deal.hand_cards) == (5, 12, "a")


async def test_a_game_can_only_end_once(store):
    game_id = await active_game(store)
    finish = Finish("abandoned", "abandoned", None, (SeatOutcome(0, 0, "abandoned", 0),))
    await store.games.record_result(game_id, finish, now=5.0)
    with pytest.raises(Conflict):
        await store.games.record_result(game_id, finish, now=6.0)
    with pytest.raises(Conflict):
        await store.games.append_action(write(game_id, 1))


async def test_messages_are_stored_by_kind(store):
    from db import MessageRef

    game_id = await lobby(store)
    await store.games.set_message(game_id, "lobby", MessageRef(7, 1000))
    await store.games.set_message(game_id, "lobby", MessageRef(7, 1001))
    await store.games.set_message(game_id, "table", MessageRef(7, 1002))
    assert await store.games.messages(game_id) == {
        "lobby": MessageRef(7, 1001),
        "table": MessageRef(7, 1002),
    }
    (record,) = await store.games.load_active_games()
    assert record.messages["table"] == MessageRef(7, 1002)


async def test_a_closed_store_refuses_work(tmp_path):
    from db import StoreError

    store = await Store.open(tmp_path / "closed.db")
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError):
        await store.games.load_active_games()
    with pytest.raises(StoreError):
        await store.games.append_action(write(1, 1))


async def test_a_path_that_cannot_be_opened_says_so(tmp_path):
    from db import StoreError

    with pytest.raises(StoreError, match="Cannot open the database"):
        await Store.open(tmp_path / "no such directory" / "cribbage.db")


# ---------------------------------------------------------------------- no SQL text

#: The repositories whose statements are all SQLAlchemy constructs (none is SQL text that
#: PostgreSQL would need translated).
CORE_MODULES = {
    "db.games",
    "db.lobbies",
    "db.game_reads",
    "db.players",
    "db.settings",
    "db.leaderboard",
    "db.standing_queries",
}


def _caller() -> str:
    """The module that asked the connection for a statement (past the store's own layers)."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_globals["__name__"] == "db.connection":
        frame = frame.f_back
    return "" if frame is None else frame.f_globals["__name__"]


async def test_games_settings_and_standings_send_no_sql_text(database, monkeypatch):
    texts: list[tuple[str, str]] = []
    execute, executemany = Connection.execute, Connection.executemany

    async def execute_noting(self, statement, parameters=None):
        if isinstance(statement, str):
            texts.append((_caller(), statement))
        return await execute(self, statement, parameters)

    async def executemany_noting(self, statement, parameters):
        if isinstance(statement, str):
            texts.append((_caller(), statement))
        return await executemany(self, statement, parameters)

    monkeypatch.setattr(Connection, "execute", execute_noting)
    monkeypatch.setattr(Connection, "executemany", executemany_noting)
    store = await Store.open(database)
    try:
        await store.standings.enable_ratings(RATER)
        closed = await lobby(store, channel_id=6)
        await store.games.mark_warned(closed, at=1.5)
        await store.lobbies.close_lobby(closed, status="cancelled", now=2.0)
        game_id = await lobby(store)
        await store.lobbies.add_seat(game_id, SeatRecord(1, user_id=12), now=2.0)
        await store.lobbies.remove_seat(game_id, 1, now=2.0)
        await store.lobbies.add_seat(game_id, SeatRecord(1, user_id=12), now=2.0)
        await store.lobbies.update_lobby(game_id, target=61, now=2.0)
        await store.games.move_channel(game_id, 8)
        await store.games.set_message(game_id, "table", MessageRef(8, 1000))
        await store.lobbies.start_game(
            game_id, seed=5, first_dealer=0, teams={0: None, 1: None}, state=STATE,
            ready=(0, 0), now=3.0,
        )  # fmt: skip
        await store.games.append_action(write(game_id, 1, deal_points=(DealPoints(1, 0, 2),)))
        await store.games.repair_snapshot(game_id, seq=1, state=STATE, ready=(1, 1))
        finish = Finish(
            "finished", "won", 0, (SeatOutcome(0, 0, "won", 61), SeatOutcome(1, 1, "lost", 20))
        )
        await store.games.append_action(write(game_id, 2, finish=finish))
        ended = await store.games.load_game(game_id)
        assert ended is not None and ended.status == "finished"
        assert await store.games.load_active_games(shard_count=2, shard_ids=[1]) == []
        assert [a.seq for a in await store.games.load_actions(game_id)] == [1, 2]
        assert len(await store.games.results(game_id)) == 2
        assert [p.pegging for p in await store.games.deal_points(game_id)] == [2]
        assert not await store.games.log_pruned(game_id)
        assert await store.games.messages(game_id) == {"table": MessageRef(8, 1000)}
        assert (await store.settings.update(1, target=61)).target == 61
        assert not (await store.players.update(11, notify=False)).notify
        for sort in ("rating", "wins", "win rate", "skunks"):
            me = (await store.standings.leaderboard(sort=sort, player=11)).me
            assert me is not None and me.wins == 1
        assert (await store.standings.player_stats(11)).wins == 1
        assert len(await store.standings.player_history(11)) == 1
        assert len(await store.standings.rating_history(11)) == 1
    finally:
        await store.close()
    assert [(module, sql) for module, sql in texts if module in CORE_MODULES] == []
