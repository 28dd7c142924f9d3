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

from . import logcodec
from .errors import Conflict
from .logcodec import ArchiveError, DecodedLog
from .sql_connection import REFUSED, Connection

log = logging.getLogger(__name__)

#: The schema version that brought the archive (migration 7).
SCHEMA_VERSION = 7
#: The most bytes of a blob in one row of ``archive_parts``: small rows fill the pages (a
#: game's 1.2-1.6 KB in one row would leave a third of its pages empty).
PART_BYTES = 400
#: The ended games one transaction of ``Games.archive_ended`` compacts: about 3 ms each, so
#: that a click waits about 10 ms at most for the transaction in progress.
ARCHIVE_BATCH = 3

POINTS_COLUMNS = (
    "deal, seat, pegging, hand, crib, heels, hand_value, hand_cards, crib_value, crib_cards"
)
ENDED = "('finished', 'abandoned')"
#: The games in an open match: their last snapshot may still be read to go on with it.
IN_OPEN_MATCH = (
    "EXISTS (SELECT 1 FROM matches m "
    "WHERE m.id = g.match_id AND m.status IN ('forming', 'playing'))"
)


def deals_of(game: str) -> str:
    """SQL for the number of deals of the game ``game`` (an SQL expression): from its points
    per deal, or from its archive row once it ended."""
    return (
        f"COALESCE((SELECT MAX(d.deal) FROM deal_points d WHERE d.game_id = {game}), "
        f"(SELECT z.deals FROM game_archive z WHERE z.game_id = {game}))"
    )


async def archive_game(conn: Connection, game_id: int) -> None:
    """Move an ended game's log, snapshot and points per deal into its archive row and parts.
    Call inside a write transaction. Raises :class:`ArchiveError` (nothing written) when the
    rows cannot be put in the compact form without loss, and :class:`~db.errors.Conflict` when
    the game is not ended or is archived already."""
    rows = await conn.execute_fetchall(
        "SELECT seq, seat, action, created_at FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    snapshots = list(
        await conn.execute_fetchall(
            "SELECT seq, state, ready FROM snapshots WHERE game_id = ?", (game_id,)
        )
    )
    points = list(
        await conn.execute_fetchall(
            f"SELECT {POINTS_COLUMNS} FROM deal_points WHERE game_id = ? ORDER BY deal, seat",
            (game_id,),
        )
    )
    actions = [(seq, seat, action, at) for seq, seat, action, at in rows]
    log_parts = _cut(logcodec.encode_log(actions, tuple(snapshots[0]) if snapshots else None))
    points_parts = _cut(logcodec.encode_points([tuple(row) for row in points]))
    cursor = await conn.execute(
        f"UPDATE games SET archived = 1 WHERE id = ? AND archived = 0 AND status IN {ENDED}",
        (game_id,),
    )
    if cursor.rowcount != 1:
        raise Conflict(f"game {game_id} is not an ended game to archive")
    ((first,),) = await conn.execute_fetchall("SELECT COALESCE(MAX(id), 0) + 1 FROM archive_parts")
    await conn.execute(
        "INSERT INTO game_archive (game_id, last_seq, deals, first_part, points_parts, "
        "log_parts) VALUES (?, ?, ?, ?, ?, ?)",
        (
            game_id,
            actions[-1][0] if actions else 0,
            max((row[0] for row in points), default=None),
            first,
            len(points_parts),
            len(log_parts),
        ),
    )
    await conn.executemany(
        "INSERT INTO archive_parts (id, game_id, data) VALUES (?, ?, ?)",
        [(first + n, game_id, part) for n, part in enumerate(points_parts + log_parts)],
    )
    await conn.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
    await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
    await conn.execute("DELETE FROM deal_points WHERE game_id = ?", (game_id,))


def _cut(blob: bytes) -> list[bytes]:
    """A blob in parts of at most :data:`PART_BYTES` (at least one part)."""
    return [blob[n : n + PART_BYTES] for n in range(0, max(len(blob), 1), PART_BYTES)]


async def archive_or_keep(conn: Connection, game_id: int) -> bool:
    """:func:`archive_game` in a savepoint of the caller's transaction: on an
    :class:`ArchiveError` or a refused write, the rows stay as they were (logged) and the
    transaction goes on. Whether the game was archived."""
    await conn.execute("SAVEPOINT archive")
    try:
        await archive_game(conn, game_id)
    except (ArchiveError, *REFUSED) as err:
        await conn.execute("ROLLBACK TO archive")
        await conn.execute("RELEASE archive")
        log.error("game %d: its log stays as rows, not archived: %s", game_id, err)
        return False
    await conn.execute("RELEASE archive")
    return True


async def pending(conn: Connection, *, after: int, limit: int) -> list[int]:
    """Ended games not archived yet (index ``games_to_archive``), by id, after ``after``."""
    rows = await conn.execute_fetchall(
        "SELECT id FROM games INDEXED BY games_to_archive "
        f"WHERE archived = 0 AND started_at IS NOT NULL AND status IN {ENDED} AND id > ? "
        "ORDER BY id LIMIT ?",
        (after, limit),
    )
    return [row[0] for row in rows]


async def load_log(conn: Connection, game_id: int) -> DecodedLog | None:
    """An archived game's log and last snapshot; ``None`` when it is not archived or its log
    was pruned."""
    blob = await _blob(
        conn,
        game_id,
        "first_part + points_parts, log_parts",
        "log_parts IS NOT NULL",
    )
    return None if blob is None else logcodec.decode_log(blob)


async def load_points(conn: Connection, game_id: int) -> list[tuple[Any, ...]]:
    """An archived game's ``deal_points`` rows (empty when it is not archived)."""
    blob = await _blob(conn, game_id, "first_part, points_parts", "TRUE")
    return [] if blob is None else logcodec.decode_points(blob)


async def _blob(conn: Connection, game_id: int, span: str, condition: str) -> bytes | None:
    """The parts ``span`` (first id, count) of an archived game's row, joined."""
    rows = await conn.execute_fetchall(
        f"SELECT {span} FROM game_archive WHERE game_id = ? AND {condition}", (game_id,)
    )
    for first, count in rows:
        parts = list(
            await conn.execute_fetchall(
                "SELECT data FROM archive_parts WHERE id >= ? AND id < ? ORDER BY id",
                (first, first + count),
            )
        )
        if len(parts) != count:
            raise ArchiveError(f"game {game_id}: {len(parts)} of its {count} archive parts")
        return b"".join(part for (part,) in parts)
    return None


async def prune(conn: Connection, *, ended_before: float, limit: int) -> int:
    """Drop the logs (and last snapshots) of up to ``limit`` archived games that ended before
    ``ended_before``, except the games of a match still being played. Call inside a write
    transaction; the number of logs dropped."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT z.game_id, z.first_part + z.points_parts, z.log_parts "
            "FROM game_archive z JOIN games g ON g.id = z.game_id "
            f"WHERE z.log_parts IS NOT NULL AND g.ended_at < ? AND NOT {IN_OPEN_MATCH} "
            "ORDER BY z.game_id LIMIT ?",
            (ended_before, limit),
        )
    )
    await conn.executemany(
        "UPDATE game_archive SET log_parts = NULL WHERE game_id = ?",
        [(game_id,) for game_id, _, _ in rows],
    )
    await conn.executemany(
        "DELETE FROM archive_parts WHERE id >= ? AND id < ?",
        [(first, first + count) for _, first, count in rows],
    )
    return len(rows)
