"""The SQLite store: one aiosqlite connection per process, intent-named async methods.

Every SQL statement of the project lives in ``db/``. Rules kept here:

* one connection, opened by :meth:`Store.open` and closed by :meth:`Store.close`; WAL journal,
  ``synchronous=NORMAL`` (a committed transaction survives the process being killed),
  foreign keys on, a busy timeout;
* every write is ``BEGIN IMMEDIATE … COMMIT`` under one :class:`asyncio.Lock` and awaits nothing
  but SQLite while the transaction is open; reads take the same lock so they never see another
  coroutine's uncommitted rows on the shared connection;
* actions are group-committed: :meth:`Store.append_action` queues the write and a single writer
  task commits whatever is queued in one transaction (each action with its snapshot, per-deal
  points and, for a final action, the results). If a batch fails, its writes are retried one by
  one so that only the faulty one fails.

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     store = await Store.open(path)
...     game_id = await store.create_lobby(
...         guild_id=1, channel_id=2, host_id=3, players=2, partnerships=False, target=121, now=0.0)
...     games = await store.load_active_games()
...     await store.close()
...     return game_id, [(g.id, g.status, g.seats) for g in games]
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(1, [(1, 'lobby', (SeatRecord(seat=0, user_id=3, computer=None, team=None),))])
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from . import leaderboard, migrations
from . import statements as sql
from .errors import Conflict, StoreError
from .reads import GameReads
from .records import (
    ActionWrite,
    Finish,
    MessageRef,
    SeatRecord,
)
from .settings import GuildSettings
from .turns import TurnMarks

log = logging.getLogger(__name__)


class Store(GameReads, leaderboard.Standings, GuildSettings, TurnMarks):
    """The bot's database. Open with ``await Store.open(path)``; close with ``await close()``."""

    #: The most action writes committed together in one transaction.
    max_batch = 256

    def __init__(self, conn: aiosqlite.Connection, path: Path, version: int) -> None:
        self._conn = conn
        self.path = path
        self.schema_version = version
        self._lock = asyncio.Lock()
        self._queue: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises :class:`~db.errors.NotACribbageDatabase` or :class:`~db.errors.DatabaseTooNew`
        (leaving the file untouched) when the file is not one this version may use.
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise StoreError(
                f"Cannot open the database {path}: the directory {path.parent} does not exist. "
                "Create it, or point CRIBBAGE_DB at a file in an existing directory."
            )
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"Cannot open the database {path}: {err}") from err
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await migrations.identify(conn, path)  # before any pragma that writes the file
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            version = await migrations.migrate(conn, path)
        except BaseException:
            await conn.close()
            raise
        log.info("database %s open (schema version %d)", path, version)
        return cls(conn, path, version)

    async def close(self) -> None:
        """Commit what is queued, then close the connection. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._writer is not None:
            await self._writer
        await self._conn.close()
        log.info("database %s closed", self.path)

    # ------------------------------------------------------------------ transactions

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE … COMMIT`` under the write lock; rolled back on any exception."""
        if self._closed:
            raise StoreError("The database is closed.")
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                # Queued after whatever is still running on the connection's thread, so it
                # rolls back even when this task was cancelled mid-statement.
                with contextlib.suppress(sqlite3.Error):
                    await self._conn.execute("ROLLBACK")
                raise

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction; a broken constraint comes out as :class:`Conflict`."""
        try:
            async with self._transaction() as conn:
                yield conn
        except sqlite3.IntegrityError as err:
            raise Conflict(f"The database refused the write: {err}") from err

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self._closed:
            raise StoreError("The database is closed.")
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, params))

    # ------------------------------------------------------------------ lobbies

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        players: int,
        partnerships: bool,
        target: int,
        now: float,
        muggins: bool = False,
    ) -> int:
        """A new lobby with the host in seat 0; returns its game id.

        Raises :class:`Conflict` when the channel already has an open lobby or game.
        """
        try:
            async with self._write() as conn:
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, status, players, partnerships, "
                    "target, host_id, created_at, updated_at, muggins) "
                    "VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        players,
                        int(partnerships),
                        target,
                        host_id,
                        now,
                        now,
                        int(muggins),
                    ),
                )
                game_id = cursor.lastrowid
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)",
                    (game_id, host_id, now),
                )
        except sqlite3.IntegrityError as err:
            raise Conflict(f"Channel {channel_id} already has an open game ({err}).") from err
        assert game_id is not None
        return game_id

    async def add_seat(self, game_id: int, seat: SeatRecord, *, now: float) -> None:
        """Seat a user or a computer in a lobby. Raises :class:`Conflict` if taken."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, computer, team, joined_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seat.seat, seat.user_id, seat.computer, seat.team, now),
                )
                await self._touch_lobby(conn, game_id, now)
        except sqlite3.IntegrityError as err:
            raise Conflict(f"Seat {seat.seat} of game {game_id} cannot be taken ({err}).") from err

    async def remove_seat(self, game_id: int, seat: int, *, now: float) -> None:
        """Free a seat of a lobby."""
        async with self._write() as conn:
            await conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            await self._touch_lobby(conn, game_id, now)

    async def update_lobby(
        self,
        game_id: int,
        *,
        now: float,
        host_id: int | None = None,
        players: int | None = None,
        partnerships: bool | None = None,
        target: int | None = None,
        muggins: bool | None = None,
    ) -> None:
        """Change a lobby's host and/or variant (``None`` leaves a field as it is)."""
        async with self._write() as conn:
            await conn.execute(
                "UPDATE games SET host_id = COALESCE(?, host_id), "
                "players = COALESCE(?, players), partnerships = COALESCE(?, partnerships), "
                "target = COALESCE(?, target), muggins = COALESCE(?, muggins) WHERE id = ?",
                (
                    host_id,
                    players,
                    None if partnerships is None else int(partnerships),
                    target,
                    None if muggins is None else int(muggins),
                    game_id,
                ),
            )
            await self._touch_lobby(conn, game_id, now)

    @staticmethod
    async def _touch_lobby(conn: aiosqlite.Connection, game_id: int, now: float) -> None:
        cursor = await conn.execute(
            "UPDATE games SET updated_at = ?, warned_at = NULL WHERE id = ? AND status = 'lobby'",
            (now, game_id),
        )
        if cursor.rowcount != 1:
            raise Conflict(f"Game {game_id} is not an open lobby.")

    async def close_lobby(self, game_id: int, *, status: str, now: float) -> None:
        """End a lobby that never started: ``status`` is ``'cancelled'`` or ``'abandoned'``."""
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"A lobby closes as cancelled or abandoned, not {status!r}")
        async with self._write() as conn:
            cursor = await conn.execute(
                "UPDATE games SET status = ?, end_reason = ?, ended_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'lobby'",
                (status, status, now, now, game_id),
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not an open lobby.")

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        first_dealer: int | None,
        teams: dict[int, int | None],
        state: dict[str, Any],
        ready: Sequence[int],
        now: float,
    ) -> None:
        """Turn a full lobby into an active game at step 0, with its first snapshot."""
        async with self._write() as conn:
            cursor = await conn.execute(
                "UPDATE games SET status = 'active', seed = ?, first_dealer = ?, step = 0, "
                "started_at = ?, updated_at = ?, warned_at = NULL "
                "WHERE id = ? AND status = 'lobby'",
                (str(seed), first_dealer, now, now, game_id),
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not an open lobby.")
            await conn.executemany(
                "UPDATE seats SET team = ? WHERE game_id = ? AND seat = ?",
                [(team, game_id, seat) for seat, team in teams.items()],
            )
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state, ready) VALUES (?, 0, ?, ?)",
                (game_id, sql.dumps(state), sql.dumps(list(ready))),
            )

    # ------------------------------------------------------------------ the action log

    def append_action(self, write: ActionWrite) -> asyncio.Future[None]:
        """Queue one applied action for commit; the future resolves once it is durable.

        The action, its snapshot (which must follow snapshot ``write.seq - 1``), the game's step,
        the per-deal points and, with ``write.finish``, the results are committed in one
        transaction. The write happens even if the awaiting task is cancelled. The future fails
        with :class:`Conflict` when the log already has that seq or the snapshot is not the
        previous one (an action applied twice), or with the SQLite error.
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._closed:
            fut.set_exception(StoreError("The database is closed."))
            return fut
        self._queue.append((write, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_queued())
        return fut

    async def _write_queued(self) -> None:
        while self._queue:
            async with self._lock:
                batch = self._queue[: self.max_batch]
                del self._queue[: len(batch)]
                try:
                    await self._write_batch([w for w, _ in batch])
                except asyncio.CancelledError:
                    for _, fut in batch:  # outcome unknown: callers reload from the database
                        _settle(fut, StoreError("The write was interrupted."))
                    raise
                except Exception as err:
                    if len(batch) == 1:
                        _settle(batch[0][1], err)
                        continue
                    log.warning(
                        "a batch of %d actions failed (%s); retrying one by one", len(batch), err
                    )
                    for write, fut in batch:
                        try:
                            await self._write_batch([write])
                        except Exception as single_err:
                            _settle(fut, single_err)
                        else:
                            _settle(fut, None)
                else:
                    for _, fut in batch:
                        _settle(fut, None)

    async def _write_batch(self, writes: Sequence[ActionWrite]) -> None:
        conn = self._conn
        try:
            await conn.execute("BEGIN IMMEDIATE")
            await sql.write_actions(conn, writes, self._rater)
            await conn.execute("COMMIT")
        except BaseException as err:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            if isinstance(err, sqlite3.IntegrityError):
                raise Conflict(f"The action log refused the write: {err}") from err
            raise

    # ------------------------------------------------------------------ endings and results

    async def record_result(self, game_id: int, finish: Finish, *, now: float) -> None:
        """End an active game without a final action (forfeit, abandoned) and write its results."""
        async with self._write() as conn:
            await sql.finish_game(conn, game_id, finish, now, self._rater)

    # ------------------------------------------------------------------ small updates

    async def mark_warned(self, game_id: int, *, at: float) -> None:
        """Remember that the idle warning was sent (any later activity clears it)."""
        async with self._write() as conn:
            await conn.execute("UPDATE games SET warned_at = ? WHERE id = ?", (at, game_id))

    async def set_message(self, game_id: int, kind: str, ref: MessageRef) -> None:
        """Store (or replace) the id of a game's public message of this ``kind``."""
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO game_messages (game_id, kind, channel_id, message_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id",
                (game_id, kind, ref.channel_id, ref.message_id),
            )

    async def repair_snapshot(
        self, game_id: int, *, seq: int, state: dict[str, Any], ready: Sequence[int]
    ) -> None:
        """Replace a game's snapshot (after a replay of its log disagreed with it)."""
        async with self._write() as conn:
            await conn.execute(
                "UPDATE snapshots SET seq = ?, state = ?, ready = ? WHERE game_id = ?",
                (seq, sql.dumps(state), sql.dumps(list(ready)), game_id),
            )
            await conn.execute("UPDATE games SET step = ? WHERE id = ?", (seq, game_id))


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
