"""Whole games read from their rows: a game's row, its seats, its messages and its snapshot
(an ended game's from its archive), as :class:`~db.records.GameRecord`.

:func:`game_query` builds the three statements of a condition once (SQLAlchemy Core against
:mod:`db.schema`'s tables, each compiled once per dialect); :func:`select_games` runs them in
the caller's transaction. Writing a game (its log, its end) is :mod:`db.games`'.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    func,
    literal_column,
    null,
    select,
)

from . import archive, logcodec
from . import schema as t
from .connection import Connection
from .records import GameRecord, MessageRef, SeatRecord

_g, _x, _m, _z = t.games.c, t.seats.c, t.game_messages.c, t.game_archive.c
_a, _sn, _d, _r = t.actions.c, t.snapshots.c, t.deal_points.c, t.results.c
#: The highest step in a game's action log (none once its log is archived or pruned).
_LAST_LOGGED = select(func.max(_a.seq)).where(_a.game_id == _g.id).scalar_subquery()
#: A game's row with its snapshot, in the order :func:`game_record` reads it.
_GAME_COLUMNS = (
    _g.id,
    _g.guild_id,
    _g.channel_id,
    _g.status,
    _g.players,
    _g.partnerships,
    _g.target,
    _g.seed,
    _g.first_dealer,
    _g.host_id,
    _g.step,
    _g.created_at,
    _g.updated_at,
    _g.warned_at,
    _g.ended_at,
    _g.end_reason,
    _g.winner_side,
    _g.forfeit_seat,
    _sn.seq,
    _sn.state,
    _sn.ready,
)
STATE = 19  # the index of the snapshot's state in a game's row


def among(column: ColumnElement[Any], values: Iterable[str]) -> ColumnElement[bool]:
    """``column IN ('a', 'b')`` with the (fixed, trusted) values written into the statement:
    a partial index's condition can match it, and no expanding parameter makes the statement
    be compiled again at each run."""
    return column.in_([literal_column(f"'{value}'") for value in values])


#: The games still open: a lobby or an active game.
OPEN = among(_g.status, ("lobby", "active"))


@dataclass(frozen=True, slots=True)
class GameQuery:
    """The three reads of :func:`select_games` for one condition on ``games``: the games (with
    their snapshots), their seats and their messages."""

    games: Select[Any]
    seats: Select[Any]
    messages: Select[Any]


def game_query(where: ColumnElement[bool], *, archived: bool = True) -> GameQuery:
    """The reads of the games matching ``where`` (a condition on :data:`db.schema.games`);
    ``archived=False``: from a database opened read-only before schema 7 (no archive yet).

    Build it once per condition: each is compiled once per dialect."""
    with_snapshot = t.games.outerjoin(t.snapshots, _sn.game_id == _g.id)
    if archived:  # an ended game's last step and snapshot are in its archive row
        games = select(
            *_GAME_COLUMNS,
            func.coalesce(_LAST_LOGGED, _z.last_seq),
            _g.muggins,
            _z.log_parts.is_not(None),
        ).select_from(with_snapshot.outerjoin(t.game_archive, _z.game_id == _g.id))
    else:
        games = select(*_GAME_COLUMNS, _LAST_LOGGED, _g.muggins, null()).select_from(with_snapshot)
    return GameQuery(
        games=games.where(where).order_by(_g.id),
        seats=select(_g.id, _x.seat, _x.user_id, _x.computer, _x.team)
        .select_from(t.games.join(t.seats, _x.game_id == _g.id))
        .where(where)
        .order_by(_g.id, _x.seat),
        messages=select(_g.id, _m.kind, _m.channel_id, _m.message_id)
        .select_from(t.games.join(t.game_messages, _m.game_id == _g.id))
        .where(where),
    )


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


async def select_games(
    conn: Connection, query: GameQuery, params: Mapping[str, Any] | None = None
) -> list[GameRecord]:
    """The games of ``query`` (:func:`game_query`), with seats, messages and snapshot (an ended
    game's from its archive row)."""
    rows = await conn.execute_fetchall(query.games, params)
    seat_rows = await conn.execute_fetchall(query.seats, params)
    message_rows = await conn.execute_fetchall(query.messages, params)
    seats: dict[int, list[SeatRecord]] = {}
    for game_id, seat, user_id, computer, team in seat_rows:
        seats.setdefault(game_id, []).append(SeatRecord(seat, user_id, computer, team))
    messages: dict[int, dict[str, MessageRef]] = {}
    for game_id, kind, channel_id, message_id in message_rows:
        messages.setdefault(game_id, {})[kind] = MessageRef(channel_id, message_id)
    records = []
    for row in rows:
        snapshot = None
        if row[STATE] is None and row[-1]:  # an ended game: its last snapshot is archived
            log = await archive.load_log(conn, row[0])
            snapshot = None if log is None else log.snapshot
        records.append(game_record(row, seats.get(row[0], ()), messages.get(row[0], {}), snapshot))
    return records


def game_record(
    row: Iterable[Any],
    seats: Sequence[SeatRecord],
    messages: dict[str, MessageRef],
    archived_snapshot: logcodec.SnapshotRow | None = None,
) -> GameRecord:
    (
        game_id,
        guild_id,
        channel_id,
        status,
        players,
        partnerships,
        target,
        seed,
        first_dealer,
        host_id,
        step,
        created_at,
        updated_at,
        warned_at,
        ended_at,
        end_reason,
        winner_side,
        forfeit_seat,
        snapshot_seq,
        state,
        ready,
        last_seq,
        muggins,
        _,
    ) = row
    if archived_snapshot is not None:
        snapshot_seq, state, ready = archived_snapshot
    return GameRecord(
        id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        status=status,
        players=players,
        partnerships=bool(partnerships),
        target=target,
        seed=None if seed is None else int(seed),
        first_dealer=first_dealer,
        host_id=host_id,
        step=step,
        created_at=created_at,
        updated_at=updated_at,
        warned_at=warned_at,
        ended_at=ended_at,
        end_reason=end_reason,
        winner_side=winner_side,
        forfeit_seat=forfeit_seat,
        seats=tuple(seats),
        messages=messages,
        state=None if state is None else json.loads(state),
        snapshot_seq=snapshot_seq,
        ready=None if ready is None else tuple(json.loads(ready)),
        last_seq=last_seq or 0,
        muggins=bool(muggins),
    )
