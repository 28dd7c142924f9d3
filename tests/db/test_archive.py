"""Compacting ended games: the database no longer grows by ~11 KB per game.

An ended game's log, last snapshot and points per deal move into a few small archive rows in the
transaction that ends it; everything read back is what it was (replays identical), the log
stays append-only, games of older versions are compacted in batches, and a retention can drop
old logs while results, points per deal and ratings stay.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

import db.archive
import db.migrations
from bot.engine import Variant
from bot.ratings import RATER
from bot.sessions import Forfeit, GameSessionManager, Move, Outcome, ShowHand
from bot.sessions.history import rebuild
from db import ActionWrite, Conflict, Store
from tests.support.postgres import connect
from tests.support.sessions import BOB, CAROL, DAVE, HOST, play_to_end, started_game

PEOPLE = (HOST, BOB, CAROL, DAVE)
VARIANTS = (
    Variant(2),
    Variant(2, target=61),
    Variant(3),
    Variant(4),
    Variant(4, partnerships=True),
    Variant(2, target=61, muggins=True),
    Variant(3, target=61, muggins=True),
)


async def open_store(path: Path) -> tuple[Store, GameSessionManager]:
    store = await Store.open(path, synchronous="NORMAL")
    await store.standings.enable_ratings(RATER)
    manager = GameSessionManager(store)
    await manager.resume()
    return store, manager


async def play_games(
    manager: GameSessionManager, variants: tuple[Variant, ...], per_variant: int, seed: int
) -> list[int]:
    """Whole games of people clicking random legal buttons; their ids."""
    rng = random.Random(seed)
    ids = []
    for n, variant in enumerate(v for v in variants for _ in range(per_variant)):
        started = await started_game(
            manager, humans=PEOPLE[: variant.players], variant=variant, channel_id=10_000 + n
        )
        final = await play_to_end(manager, started.game_id, rng)
        assert final.finished is not None
        ids.append(started.game_id)
    return ids


async def stored(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything the store gives back about a game."""
    games = store.games
    return (
        await games.load_game(game_id),
        await games.load_actions(game_id),
        await games.deal_points(game_id),
        await games.results(game_id),
        await games.messages(game_id),
    )


def rows_left(path: Path | str, game_id: int) -> dict[str, int]:
    conn = connect(path)
    try:
        return {
            table: conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            for table in ("actions", "snapshots", "deal_points", "game_archive", "archive_parts")
        }
    finally:
        conn.close()


LOG_TABLES = ("actions", "snapshots", "deal_points", "game_archive", "archive_parts")


def bytes_used(path: Path, tables: tuple[str, ...] = ()) -> int:
    """Bytes of the file's pages that rows use (``dbstat``; of ``tables`` and their indexes, or
    all); a freed page is not counted."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        names = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_schema WHERE tbl_name IN (SELECT value FROM json_each(?))",
                (json.dumps(tables),),
            )
        ]
        where = f"WHERE name IN ({', '.join('?' * len(names))})" if tables else ""
        return conn.execute(f"SELECT SUM(pgsize - unused) FROM dbstat {where}", names).fetchone()[0]
    except sqlite3.OperationalError as err:  # an SQLite built without dbstat
        pytest.skip(f"no dbstat: {err}")
    finally:
        conn.close()


@pytest.fixture
def no_archiving(monkeypatch):
    """Games end as they did before schema 7: their logs stay rows."""

    async def keep(conn, game_id):
        return False

    monkeypatch.setattr(db.archive, "archive_or_keep", keep)
    return monkeypatch


# ---------------------------------------------------------------------- replays identical


@pytest.mark.slow
async def test_every_variant_reads_back_identically_once_archived(database, no_archiving):
    """Games of every variant played to the end (plus a forfeit), read before and after their
    archiving: the same records, and the log replays to the recorded final scores."""
    path = database
    store, manager = await open_store(path)
    try:
        ids = await play_games(manager, VARIANTS, 1, seed=14)
        forfeited = await started_game(
            manager, humans=(HOST, BOB, CAROL), variant=Variant(3), channel_id=77
        )
        await play_to_end_steps(manager, forfeited.game_id, 5)
        outcome = await manager.play.forfeit(Forfeit(forfeited.game_id, BOB))
        assert isinstance(outcome, Outcome) and outcome.finished is not None
        ids.append(forfeited.game_id)
        before = {game_id: await stored(store, game_id) for game_id in ids}
        assert all(rows_left(path, g)["actions"] for g in ids)  # not archived yet
        no_archiving.undo()

        assert await store.games.archive_ended() == len(ids)

        for game_id in ids:
            assert await stored(store, game_id) == before[game_id], f"game {game_id}"
            left = rows_left(path, game_id)
            assert left["actions"] == left["snapshots"] == left["deal_points"] == 0, left
            assert left["game_archive"] == 1 and left["archive_parts"] >= 2
            record, actions, _, results, _ = before[game_id]
            assert record.state is not None and record.last_seq == len(actions)
            variant = Variant(record.players, record.partnerships, record.target, record.muggins)
            game = rebuild(variant, record.seed, record.first_dealer, actions).game
            assert [game.scores[r.side] for r in results] == [r.final_score for r in results]
            replay = await manager.records.replay(game_id)
            assert replay.scores == tuple(game.scores)
        assert await store.games.archive_ended() == 0  # nothing left to do
    finally:
        await store.close()


@pytest.mark.slow
async def test_many_games_of_every_variant_read_back_identically(tmp_path, no_archiving):
    path = tmp_path / "many.db"  # SQLite only: on PostgreSQL it would take 19 s
    store, manager = await open_store(path)
    try:
        ids = await play_games(manager, VARIANTS, 12, seed=1414)
        before = {game_id: await stored(store, game_id) for game_id in ids}
        no_archiving.undo()
        assert await store.games.archive_ended() == len(ids)
        for game_id in ids:
            assert await stored(store, game_id) == before[game_id], f"game {game_id}"
    finally:
        await store.close()


async def test_the_transaction_that_ends_a_game_archives_it(database):
    """Won, forfeited and abandoned: no row of the log is left, and the log read back is the
    one written, action by action."""
    path = database
    now = [1000.0]
    store = await Store.open(path)
    manager = GameSessionManager(
        store, clock=lambda: now[0], idle_warn_after=100, idle_abandon_after=150
    )
    await manager.resume()
    try:
        won = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
        rng = random.Random(5)
        last_active = []
        while True:
            view = manager.live.view(won)
            assert view is not None
            user = rng.choice(view.to_act_users)
            mine = manager.hands.private_view(ShowHand(won, user))
            now[0] += rng.random() * 9
            outcome = await manager.play.act(
                Move(won, user, rng.choice(mine.legal_actions), step=mine.step)
            )
            assert isinstance(outcome, Outcome)
            if outcome.finished is not None:
                break
            last_active = await store.games.load_actions(won)
        archived = await store.games.load_actions(won)
        assert archived[: len(last_active)] == last_active and len(archived) > len(last_active)
        assert rows_left(path, won)["actions"] == 0 and rows_left(path, won)["game_archive"] == 1

        forfeited = (await started_game(manager, channel_id=501)).game_id
        await play_to_end_steps(manager, forfeited, 7)
        written = await store.games.load_actions(forfeited)
        assert isinstance(await manager.play.forfeit(Forfeit(forfeited, BOB)), Outcome)
        assert await store.games.load_actions(forfeited) == written
        assert rows_left(path, forfeited)["actions"] == 0

        idle = (await started_game(manager, channel_id=502)).game_id
        await play_to_end_steps(manager, idle, 3)
        written = await store.games.load_actions(idle)
        await manager.idle.sweep(now[0] + 100)
        report = await manager.idle.sweep(now[0] + 300)
        assert [o.game_id for o in report.abandoned] == [idle]
        assert await store.games.load_actions(idle) == written and written
        assert rows_left(path, idle)["actions"] == rows_left(path, idle)["snapshots"] == 0
    finally:
        await store.close()


async def play_to_end_steps(manager: GameSessionManager, game_id: int, steps: int) -> None:
    rng = random.Random(game_id)
    for _ in range(steps):
        view = manager.live.view(game_id)
        user = rng.choice(view.to_act_users)
        mine = manager.hands.private_view(ShowHand(game_id, user))
        assert (
            await manager.play.act(
                Move(game_id, user, rng.choice(mine.legal_actions), step=mine.step)
            )
        ).ok


async def test_a_log_that_cannot_be_compacted_stays_and_the_game_still_ends(
    databases, monkeypatch, caplog
):
    path = databases("kept")
    store, manager = await open_store(path)
    try:

        def refuse(rows, snapshot):
            raise db.logcodec.ArchiveError("not this one")

        monkeypatch.setattr(db.logcodec, "encode_log", refuse)
        (game_id,) = await play_games(manager, (Variant(2, target=61),), 1, seed=3)
        assert await store.games.game_status(game_id) == "finished"
        assert "not archived: not this one" in caplog.text
        written = await stored(store, game_id)
        assert rows_left(path, game_id)["game_archive"] == 0 and written[1]

        monkeypatch.undo()
        assert await store.games.archive_ended() == 1  # the next start catches up
        assert await stored(store, game_id) == written
    finally:
        await store.close()


# ---------------------------------------------------------------------- size


async def test_a_finished_game_takes_under_3_kb(tmp_path):
    """11.3 KB per finished game (actions 7.5 KB). Two-player games to 121 with
    ratings on: the bytes the rows use grow by less than 3 KB per game."""
    path = tmp_path / "size.db"
    store, manager = await open_store(path)
    try:
        await play_games(manager, (Variant(2),), 1, seed=1)  # every table has its first page
        await store.close()
        empty = bytes_used(path)
        store, manager = await open_store(path)
        ids = await play_games(manager, (Variant(2),), 8, seed=2)
    finally:
        await store.close()
    per_game = (bytes_used(path) - empty) / len(ids)
    assert per_game < 3000, f"{per_game:.0f} bytes per finished game"


# ---------------------------------------------------------------------- append-only


async def test_the_log_and_the_archive_refuse_rewrites(database, no_archiving):
    path = database
    store, manager = await open_store(path)
    try:
        unarchived, archived = await play_games(manager, (Variant(2, target=61),), 2, seed=9)
        no_archiving.undo()
        active = (await started_game(manager, channel_id=600)).game_id
        await play_to_end_steps(manager, active, 4)
        async with store.games._database.write() as conn:  # archive one of the two
            assert await db.archive.archive_or_keep(conn, archived)
    finally:
        await store.close()
    conn = connect(path)
    refused = [
        ("DELETE FROM actions WHERE game_id = ?", active),  # a game in play
        ("DELETE FROM actions WHERE game_id = ?", unarchived),  # ended, not archived
        ("UPDATE actions SET seat = 1 WHERE game_id = ?", active),
        ("DELETE FROM game_archive WHERE game_id = ?", archived),
        ("UPDATE game_archive SET last_seq = 1 WHERE game_id = ?", archived),
        ("UPDATE archive_parts SET data = data WHERE game_id = ?", archived),
        ("DELETE FROM archive_parts WHERE game_id = ?", archived),  # its log is not pruned
    ]
    try:
        for statement, game_id in refused:
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(statement, (game_id,))
    finally:
        conn.close()


# ---------------------------------------------------------------------- retention


async def test_retention_drops_old_logs_and_keeps_results_points_and_ratings(tmp_path):
    path = tmp_path / "old.db"
    store, manager = await open_store(path)
    try:
        ids = await play_games(manager, (Variant(2, target=61), Variant(3, target=61)), 2, 4)
        ended = {g: (await store.games.load_game(g)).ended_at for g in ids}
        cut = sorted(ended.values())[2]  # the first two games are "old"
        old = [g for g in ids if ended[g] < cut]
        kept = {g: await stored(store, g) for g in ids}
        ratings = await store.standings.rating_history(HOST)
        stats = await store.standings.player_stats(HOST)
        used = bytes_used(path)

        assert await store.games.prune_logs(ended_before=cut) == 2
        assert await store.games.prune_logs(ended_before=cut) == 0

        for game_id in ids:
            record, actions, points, results, messages = await stored(store, game_id)
            was = kept[game_id]
            assert (points, results, messages) == was[2:]
            assert record.step == was[0].step and record.ended_at == was[0].ended_at
            if game_id in old:
                assert actions == [] and record.state is None
                assert await store.games.log_pruned(game_id)
            else:
                assert (record, actions) == was[:2]
                assert not await store.games.log_pruned(game_id)
        assert await store.standings.rating_history(HOST) == ratings
        assert await store.standings.player_stats(HOST) == stats
    finally:
        await store.close()
    assert bytes_used(path) < used


# ---------------------------------------------------------------------- older databases


def downgrade_to_v6(path: Path) -> None:
    """Make a database of schema 7 or later whose ended games are not archived look like
    version 6."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert conn.execute("SELECT COUNT(*) FROM game_archive").fetchone() == (0,)
        for statement in (
            # schema 8: the pause between deals, threads, each player's settings
            "DROP TABLE player_settings",
            "ALTER TABLE guild_settings DROP COLUMN threads",
            "ALTER TABLE guild_settings DROP COLUMN next_deal_seconds",
            "DROP TRIGGER archive_parts_only_pruned",
            "DROP TRIGGER archive_parts_are_kept",
            "DROP TRIGGER game_archive_only_prunes",
            "DROP TRIGGER game_archive_is_kept",
            "DROP TRIGGER actions_are_append_only_delete",
            """CREATE TRIGGER actions_are_append_only_delete BEFORE DELETE ON actions
                BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
            "DROP INDEX games_to_archive",
            "ALTER TABLE games DROP COLUMN archived",
            "DROP TABLE archive_parts",
            "DROP TABLE game_archive",
            "PRAGMA user_version = 6",
        ):
            conn.execute(statement)
    finally:
        conn.close()


async def test_a_version_6_database_is_compacted_in_batches_while_the_bot_plays(
    tmp_path, no_archiving
):
    path = tmp_path / "v6.db"
    store, manager = await open_store(path)
    try:
        ids = await play_games(manager, (Variant(2, target=61),), 3 * db.archive.ARCHIVE_BATCH, 6)
        before = {game_id: await stored(store, game_id) for game_id in ids}
    finally:
        await store.close()
    no_archiving.undo()
    downgrade_to_v6(path)
    as_rows = bytes_used(path, LOG_TABLES)

    store = await Store.open(path)  # migrates, then compacts in the background
    try:
        assert store.schema_version == db.migrations.LATEST_VERSION
        catching_up = store.games.start_archiving()  # the task Store.open started
        lobby = await store.lobbies.create_lobby(
            guild_id=1,
            channel_id=9,
            host_id=HOST,
            players=2,
            partnerships=False,
            target=121,
            now=1.0,
        )  # written between two batches, not after them all
        assert not catching_up.done() and lobby
        assert await catching_up == len(ids)
        for game_id in ids:
            assert await stored(store, game_id) == before[game_id]
    finally:
        await store.close()
    assert bytes_used(path, LOG_TABLES) < as_rows / 4


async def test_a_version_6_database_opened_read_only_reads_as_before(tmp_path, no_archiving):
    """``python -m bot check`` / ``backup`` open read-only, without migrating: no archive yet."""
    path = tmp_path / "v6ro.db"
    store, manager = await open_store(path)
    try:
        (game_id,) = await play_games(manager, (Variant(2, target=61),), 1, 8)
        before = await stored(store, game_id)
    finally:
        await store.close()
    no_archiving.undo()
    downgrade_to_v6(path)
    store = await Store.open(path, read_only=True)
    try:
        assert store.schema_version == 6
        assert await stored(store, game_id) == before
        assert not await store.games.log_pruned(game_id)
    finally:
        await store.close()


async def test_no_action_can_follow_an_archived_game(databases):
    path = databases("after")
    store, manager = await open_store(path)
    try:
        (game_id,) = await play_games(manager, (Variant(2, target=61),), 1, 11)
        before = await stored(store, game_id)
        step = before[0].step
        late = ActionWrite(game_id, step + 1, 0, {"type": "let_go"}, {}, (0, 0), at=5.0)
        with pytest.raises(Conflict, match=f"game {game_id} step {step + 1} after no snapshot"):
            await store.games.append_action(late)
        assert await stored(store, game_id) == before
    finally:
        await store.close()
