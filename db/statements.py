"""The SQL the store runs inside its transactions, as functions over one connection.

:class:`db.connection.Database` owns the connection, the lock and the transactions; these
functions only say what to read and write (for the repositories of :class:`db.store.Store`).

Every statement is SQLAlchemy Core against :mod:`db.schema`'s tables, built once here with
named parameters (:func:`~sqlalchemy.bindparam`) so that each is compiled once per dialect; the
upsert of the points per deal is written per dialect (SQLite's and PostgreSQL's ``INSERT ... ON
CONFLICT``), side by side. The reads of whole games (:func:`select_games`) take a
:class:`GameQuery`, built once per condition by :func:`game_query`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Insert,
    Select,
    bindparam,
    func,
    insert,
    literal_column,
    null,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from . import archive, logcodec, standings
from . import schema as t
from .connection import Connection, Dialect
from .errors import Conflict
from .records import ActionWrite, DealPoints, Finish, GameRecord, MessageRef, SeatRecord

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


_DEAL_COLUMNS = (
    "game_id",
    "deal",
    "seat",
    "pegging",
    "hand",
    "crib",
    "heels",
    "hand_value",
    "hand_cards",
    "crib_value",
    "crib_cards",
)


def _deal_points_upsert(dialect_insert: Any) -> Insert:
    """A deal's points for a seat, added to what the deal already has (a deal's pegging comes
    in several actions; its hand and crib once shown)."""
    statement = dialect_insert(t.deal_points).values(
        {name: bindparam(name) for name in _DEAL_COLUMNS}
    )
    new, old = statement.excluded, t.deal_points.c
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[old.game_id, old.deal, old.seat],
        set_={
            "pegging": old.pegging + new.pegging,
            "hand": old.hand + new.hand,
            "crib": old.crib + new.crib,
            "heels": old.heels + new.heels,
            "hand_value": func.coalesce(new.hand_value, old.hand_value),
            "hand_cards": func.coalesce(new.hand_cards, old.hand_cards),
            "crib_value": func.coalesce(new.crib_value, old.crib_value),
            "crib_cards": func.coalesce(new.crib_cards, old.crib_cards),
        },
    )
    return upsert


#: The upsert of the points per deal, per dialect (their ``INSERT ... ON CONFLICT`` is the same
#: text, but each dialect's construct is its own).
DEAL_POINTS_UPSERT: dict[Dialect, Insert] = {
    "sqlite": _deal_points_upsert(sqlite.insert),
    "postgresql": _deal_points_upsert(postgresql.insert),
}
_INSERT_ACTION = insert(t.actions).values(
    game_id=bindparam("game_id"),
    seq=bindparam("seq"),
    seat=bindparam("seat"),
    action=bindparam("action"),
    created_at=bindparam("at"),
)
_ADVANCE_SNAPSHOT = (
    update(t.snapshots)
    .where(t.snapshots.c.game_id == bindparam("game"), t.snapshots.c.seq == bindparam("after"))
    .values(seq=bindparam("step"), state=bindparam("new_state"), ready=bindparam("new_ready"))
)
_ADVANCE_GAME = (
    update(t.games)
    .where(t.games.c.id == bindparam("game"), t.games.c.status == "active")
    .values(step=bindparam("step"), updated_at=bindparam("at"), warned_at=None)
)


_SNAPSHOT_STEP = select(_sn.seq).where(_sn.game_id == bindparam("game"))
_FINISH = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.status == "active")
    .values(
        status=bindparam("ended_as"),
        end_reason=bindparam("reason"),
        winner_side=bindparam("winner"),
        forfeit_seat=bindparam("forfeiter"),
        ended_at=bindparam("now"),
        updated_at=bindparam("now"),
    )
)
#: Each seat's points of a game, summed over its deals.
_POINT_SUMS = (
    select(_d.seat, func.sum(_d.pegging), func.sum(_d.hand), func.sum(_d.crib), func.sum(_d.heels))
    .where(_d.game_id == bindparam("game"))
    .group_by(_d.seat)
)
_SHOWN_HANDS = (
    select(_d.seat, _d.hand_value, _d.hand_cards)
    .where(_d.game_id == bindparam("game"), _d.hand_value.is_not(None))
    .order_by(_d.deal)
)
_RESULT_COLUMNS = (
    "game_id",
    "seat",
    "side",
    "outcome",
    "won",
    "final_score",
    "skunk_given",
    "skunk_taken",
    "pegging",
    "hand",
    "crib",
    "heels",
    "best_hand",
    "best_hand_cards",
)
_INSERT_RESULT = insert(t.results).values({name: bindparam(name) for name in _RESULT_COLUMNS})


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def log_time(at: float) -> float:
    """An action's time as logged: to the millisecond (what the compact log keeps in two
    bytes or so; a finer time costs 8), e.g. ``1700000000.1234567`` -> ``1700000000.123``."""
    return round(at, 3)


async def write_actions(
    conn: Connection,
    writes: Sequence[ActionWrite],
    rater: standings.Rater | None = None,
) -> None:
    """Append actions with their snapshots, steps, per-deal points and (final actions) results.

    Call inside a write transaction. Raises :class:`Conflict` when a write does not follow its
    game's snapshot or its game is not active (the caller rolls back). An action's time is
    kept to the millisecond (:func:`log_time`).
    """
    await conn.executemany(
        _INSERT_ACTION,
        [
            {
                "game_id": w.game_id,
                "seq": w.seq,
                "seat": w.seat,
                "action": dumps(w.action),
                "at": log_time(w.at),
            }
            for w in writes
        ],
    )
    cursor = await conn.executemany(
        _ADVANCE_SNAPSHOT,
        [
            {
                "step": w.seq,
                "new_state": dumps(w.state),
                "new_ready": dumps(list(w.ready)),
                "game": w.game_id,
                "after": w.seq - 1,
            }
            for w in writes
        ],
    )
    if cursor.rowcount != len(writes):
        astray = await _astray(conn, writes)
        raise Conflict(f"An action does not follow its game's latest snapshot ({astray}).")
    cursor = await conn.executemany(
        _ADVANCE_GAME, [{"step": w.seq, "at": w.at, "game": w.game_id} for w in writes]
    )
    if cursor.rowcount != len(writes):
        raise Conflict("An action was written for a game that is not active.")
    points = [(w.game_id, p) for w in writes for p in w.deal_points]
    if points:
        await conn.executemany(
            DEAL_POINTS_UPSERT[conn.dialect],
            [dict(zip(_DEAL_COLUMNS, deal_row(g, p), strict=True)) for g, p in points],
        )
    for write in writes:
        if write.finish is not None:
            await finish_game(conn, write.game_id, write.finish, write.at, rater)


async def _astray(conn: Connection, writes: Sequence[ActionWrite]) -> str:
    """Which writes did not follow their game's snapshot (for the error message)."""
    snapshots: dict[int, int] = {}
    for game_id in dict.fromkeys(w.game_id for w in writes):
        step = (await conn.execute(_SNAPSHOT_STEP, {"game": game_id})).scalar()
        if step is not None:
            snapshots[game_id] = step
    return ", ".join(
        f"game {w.game_id} step {w.seq} after "
        + (f"step {snapshots[w.game_id]}" if w.game_id in snapshots else "no snapshot")
        for w in writes
        if snapshots.get(w.game_id) != w.seq
    )


async def finish_game(
    conn: Connection,
    game_id: int,
    finish: Finish,
    now: float,
    rater: standings.Rater | None = None,
) -> None:
    """End an active game: status, reason, winner, and one results row per seat (with the
    point sums and best hand from ``deal_points``); with a ``rater``, a finished game is rated
    at once (:func:`db.standings.rate_pending`). Then its log, snapshot and points per deal are
    compacted into its archive row (:func:`db.archive.archive_or_keep`: if they cannot be, they
    stay as rows and the game still ends). Call inside a write transaction."""
    cursor = await conn.execute(
        _FINISH,
        {
            "ended_as": finish.status,
            # an aborted game (a forfeit before the first show) is stored as abandoned, with
            # its forfeit_seat (the games table's CHECK has no 'aborted')
            "reason": "abandoned" if finish.end_reason == "aborted" else finish.end_reason,
            "winner": finish.winner_side,
            "forfeiter": finish.forfeit_seat,
            "now": now,
            "game": game_id,
        },
    )
    if cursor.rowcount != 1:
        raise Conflict(f"Game {game_id} is not active.")
    sums = {row[0]: row[1:] for row in await conn.execute_fetchall(_POINT_SUMS, {"game": game_id})}
    best: dict[int, tuple[int, str]] = {}
    for seat, value, cards in await conn.execute_fetchall(_SHOWN_HANDS, {"game": game_id}):
        if seat not in best or value > best[seat][0]:
            best[seat] = (value, cards)
    rows: list[dict[str, Any]] = []
    for s in finish.seats:
        pegging, hand, crib, heels = sums.get(s.seat, (0, 0, 0, 0))
        best_value, best_cards = best.get(s.seat, (None, None))
        rows.append(
            {
                "game_id": game_id,
                "seat": s.seat,
                "side": s.side,
                "outcome": s.outcome,
                "won": int(s.won),
                "final_score": s.final_score,
                "skunk_given": s.skunk_given,
                "skunk_taken": s.skunk_taken,
                "pegging": pegging,
                "hand": hand,
                "crib": crib,
                "heels": heels,
                "best_hand": best_value,
                "best_hand_cards": best_cards,
            }
        )
    await conn.executemany(_INSERT_RESULT, rows)
    if rater is not None and finish.status == "finished":
        await standings.rate_pending(conn, rater, now)
    await archive.archive_or_keep(conn, game_id)


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


def deal_row(game_id: int, p: DealPoints) -> tuple[Any, ...]:
    return (game_id, p.deal, p.seat, p.pegging, p.hand, p.crib, p.heels) + (
        p.hand_value,
        p.hand_cards,
        p.crib_value,
        p.crib_cards,
    )


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
