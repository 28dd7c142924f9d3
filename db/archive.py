"""Compacting ended games: their logs, last snapshots and points per deal in a few small rows.

A game in play keeps one row per action (``actions``, append-only), its latest snapshot
(``snapshots``) and its points per deal (``deal_points``). When it ends (finished or
abandoned), the transaction that ends it also moves those rows into two blobs of
:mod:`db.logcodec` (the points per deal; the log with the last snapshot), about 1.1 KB for a
two-player game to 121 where the rows took about 9.8 KB: one ``game_archive`` row says where
they are in ``archive_parts`` (rows of at most :data:`PART_BYTES`, appended in the order games
end, so that the pages fill up). Results, ratings, seats and the game's row stay as they are.
The repositories read an archived game exactly as before (``load_actions``, ``load_game``,
``deal_points``): a replay is identical.

The action log stays append-only: a trigger lets rows of ``actions`` be deleted only for an
ended game whose archive row exists (written first, in the same transaction), and the archive
can neither be deleted nor rewritten; :func:`prune` may only drop a log (retention: the points
per deal, results and ratings stay).

Archiving never stops a game from ending: a log that cannot be put in the compact form without
loss (:class:`~db.logcodec.ArchiveError`) stays as rows, and ``Games.archive_ended`` tries it
again later; so do games that ended before this schema (migration 7).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import (
    Select,
    Table,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal,
    literal_column,
    select,
    update,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler

from . import logcodec
from . import schema as t
from .connection import REFUSED, Connection
from .errors import Conflict
from .logcodec import ArchiveError, DecodedLog

log = logging.getLogger(__name__)

#: The schema version that brought the archive (migration 7).
SCHEMA_VERSION = 7
#: The most bytes of a blob in one row of ``archive_parts``: small rows fill the pages (a
#: game's 1.2-1.6 KB in one row would leave a third of its pages empty).
PART_BYTES = 400
#: The ended games one transaction of ``Games.archive_ended`` compacts: about 3 ms each, so
#: that a click waits about 10 ms at most for the transaction in progress.
ARCHIVE_BATCH = 3


@compiles(Table, "sqlite")
def _table_with_hint(table: Table, compiler: SQLCompiler, **kw: Any) -> str:
    """A table as SQLite reads it, then the hint a select gave it for SQLite (:func:`indexed_by`):
    SQLAlchemy's SQLite dialect keeps a select's hints but writes none."""
    sql: str = compiler.visit_table(table, **kw)  # type: ignore[no-untyped-call]
    hints = kw.get("fromhints")
    if kw.get("asfrom") and hints and table in hints:
        sql += f" {hints[table]}"
    return sql


def indexed_by(statement: Select[Any], table: Table, index: str) -> Select[Any]:
    """``statement`` reading ``table`` through ``index`` on SQLite (its ``INDEXED BY``, which
    fails rather than scan when the index cannot serve); PostgreSQL's planner chooses its own.

    >>> from sqlalchemy.dialects import sqlite
    >>> statement = indexed_by(select(t.games.c.id), t.games, "games_by_status")
    >>> " ".join(str(statement.compile(dialect=sqlite.dialect())).split())
    'SELECT games.id FROM games INDEXED BY games_by_status'
    """
    return statement.with_hint(table, f"INDEXED BY {index}", "sqlite")


_g, _m, _a, _n = t.games.c, t.matches.c, t.actions.c, t.snapshots.c
_d, _z, _p = t.deal_points.c, t.game_archive.c, t.archive_parts.c

#: The columns of ``deal_points`` a game's archive keeps, in the order :mod:`db.logcodec`
#: encodes them.
_POINT_COLUMNS = (
    _d.deal,
    _d.seat,
    _d.pegging,
    _d.hand,
    _d.crib,
    _d.heels,
    _d.hand_value,
    _d.hand_cards,
    _d.crib_value,
    _d.crib_cards,
)
#: An ended game's statuses, written into the statements as constants: SQLite uses the partial
#: index ``games_to_archive`` only for a condition that names them as its definition does.
_ENDED = _g.status.in_([literal_column("'finished'"), literal_column("'abandoned'")])
#: The game (``games``, of the enclosing statement) is in a match still being played: its last
#: snapshot may still be read to go on with it.
_IN_OPEN_MATCH = exists().where(
    _m.id == _g.match_id, _m.status.in_([literal("forming"), literal("playing")])
)
_ACTIONS = (
    select(_a.seq, _a.seat, _a.action, _a.created_at)
    .where(_a.game_id == bindparam("game"))
    .order_by(_a.seq)
)
_SNAPSHOT = select(_n.seq, _n.state, _n.ready).where(_n.game_id == bindparam("game"))
_POINTS = select(*_POINT_COLUMNS).where(_d.game_id == bindparam("game")).order_by(_d.deal, _d.seat)
_MARK_ARCHIVED = (
    update(t.games).where(_g.id == bindparam("game"), _g.archived == 0, _ENDED).values(archived=1)
)
_NEXT_PART = select(func.coalesce(func.max(_p.id), 0) + 1)
_NEW_ARCHIVE = insert(t.game_archive).values(
    game_id=bindparam("game"),
    last_seq=bindparam("last_seq"),
    deals=bindparam("deals"),
    first_part=bindparam("first_part"),
    points_parts=bindparam("points_parts"),
    log_parts=bindparam("log_parts"),
)
_NEW_PART = insert(t.archive_parts).values(
    id=bindparam("part"), game_id=bindparam("game"), data=bindparam("data")
)
_DROP_ROWS = tuple(
    delete(table).where(table.c.game_id == bindparam("game"))
    for table in (t.actions, t.snapshots, t.deal_points)
)
#: Ended games not archived yet, by id (the partial index ``games_to_archive`` holds only them).
_PENDING = (
    indexed_by(select(_g.id), t.games, "games_to_archive")
    .where(
        _g.archived == literal_column("0"),
        _g.started_at.is_not(None),
        _ENDED,
        _g.id > bindparam("after"),
    )
    .order_by(_g.id)
    .limit(bindparam("limit"))
)
#: Where an archived game's blobs are (first part, number of parts): its log (with the last
#: snapshot; none once pruned) and its points per deal.
_LOG_SPAN = select(_z.first_part + _z.points_parts, _z.log_parts).where(
    _z.game_id == bindparam("game"), _z.log_parts.is_not(None)
)
_POINTS_SPAN = select(_z.first_part, _z.points_parts).where(_z.game_id == bindparam("game"))
_PARTS = (
    select(_p.data).where(_p.id >= bindparam("first"), _p.id < bindparam("end")).order_by(_p.id)
)
_PRUNABLE = (
    select(_z.game_id, _z.first_part + _z.points_parts, _z.log_parts)
    .select_from(t.game_archive.join(t.games, _g.id == _z.game_id))
    .where(_z.log_parts.is_not(None), _g.ended_at < bindparam("before"), ~_IN_OPEN_MATCH)
    .order_by(_z.game_id)
    .limit(bindparam("limit"))
)
_PRUNE_LOG = update(t.game_archive).where(_z.game_id == bindparam("game")).values(log_parts=None)
_DROP_PARTS = delete(t.archive_parts).where(_p.id >= bindparam("first"), _p.id < bindparam("end"))


async def archive_game(conn: Connection, game_id: int) -> None:
    """Move an ended game's log, snapshot and points per deal into its archive row and parts.
    Call inside a write transaction. Raises :class:`ArchiveError` (nothing written) when the
    rows cannot be put in the compact form without loss, and :class:`~db.errors.Conflict` when
    the game is not ended or is archived already."""
    game = {"game": game_id}
    rows = await conn.execute_fetchall(_ACTIONS, game)
    snapshots = list(await conn.execute_fetchall(_SNAPSHOT, game))
    points = list(await conn.execute_fetchall(_POINTS, game))
    actions = [(seq, seat, action, at) for seq, seat, action, at in rows]
    log_parts = _cut(logcodec.encode_log(actions, tuple(snapshots[0]) if snapshots else None))
    points_parts = _cut(logcodec.encode_points([tuple(row) for row in points]))
    cursor = await conn.execute(_MARK_ARCHIVED, game)
    if cursor.rowcount != 1:
        raise Conflict(f"game {game_id} is not an ended game to archive")
    ((first,),) = await conn.execute_fetchall(_NEXT_PART)
    await conn.execute(
        _NEW_ARCHIVE,
        {
            "game": game_id,
            "last_seq": actions[-1][0] if actions else 0,
            "deals": max((row[0] for row in points), default=None),
            "first_part": first,
            "points_parts": len(points_parts),
            "log_parts": len(log_parts),
        },
    )
    await conn.executemany(
        _NEW_PART,
        [
            {"part": first + n, "game": game_id, "data": part}
            for n, part in enumerate(points_parts + log_parts)
        ],
    )
    for statement in _DROP_ROWS:
        await conn.execute(statement, game)


def _cut(blob: bytes) -> list[bytes]:
    """A blob in parts of at most :data:`PART_BYTES` (at least one part)."""
    return [blob[n : n + PART_BYTES] for n in range(0, max(len(blob), 1), PART_BYTES)]


async def archive_or_keep(conn: Connection, game_id: int) -> bool:
    """:func:`archive_game` in a savepoint of the caller's transaction: on an
    :class:`ArchiveError` or a refused write, the rows stay as they were (logged) and the
    transaction goes on. Whether the game was archived."""
    await conn.driver_sql("SAVEPOINT archive")
    try:
        await archive_game(conn, game_id)
    except (ArchiveError, *REFUSED) as err:
        await conn.driver_sql("ROLLBACK TO archive")
        await conn.driver_sql("RELEASE archive")
        log.error("game %d: its log stays as rows, not archived: %s", game_id, err)
        return False
    await conn.driver_sql("RELEASE archive")
    return True


async def pending(conn: Connection, *, after: int, limit: int) -> list[int]:
    """Ended games not archived yet (index ``games_to_archive``), by id, after ``after``."""
    rows = await conn.execute_fetchall(_PENDING, {"after": after, "limit": limit})
    return [row[0] for row in rows]


async def load_log(conn: Connection, game_id: int) -> DecodedLog | None:
    """An archived game's log and last snapshot; ``None`` when it is not archived or its log
    was pruned."""
    blob = await _blob(conn, game_id, _LOG_SPAN)
    return None if blob is None else logcodec.decode_log(blob)


async def load_points(conn: Connection, game_id: int) -> list[tuple[Any, ...]]:
    """An archived game's ``deal_points`` rows (empty when it is not archived)."""
    blob = await _blob(conn, game_id, _POINTS_SPAN)
    return [] if blob is None else logcodec.decode_points(blob)


async def _blob(conn: Connection, game_id: int, span: Select[Any]) -> bytes | None:
    """The parts ``span`` (first id, count) of an archived game's row, joined."""
    for first, count in await conn.execute_fetchall(span, {"game": game_id}):
        parts = list(await conn.execute_fetchall(_PARTS, {"first": first, "end": first + count}))
        if len(parts) != count:
            raise ArchiveError(f"game {game_id}: {len(parts)} of its {count} archive parts")
        return b"".join(part for (part,) in parts)
    return None


async def prune(conn: Connection, *, ended_before: float, limit: int) -> int:
    """Drop the logs (and last snapshots) of up to ``limit`` archived games that ended before
    ``ended_before``, except the games of a match still being played. Call inside a write
    transaction; the number of logs dropped."""
    rows = list(await conn.execute_fetchall(_PRUNABLE, {"before": ended_before, "limit": limit}))
    await conn.executemany(_PRUNE_LOG, [{"game": game_id} for game_id, _, _ in rows])
    await conn.executemany(
        _DROP_PARTS, [{"first": first, "end": first + count} for _, first, count in rows]
    )
    return len(rows)
