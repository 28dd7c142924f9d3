"""Games and their logs: the group-committed action log, endings and results, the public
message ids and the points of each deal, the reads of a game, its compacting and retention: the
repository ``store.games``. A game made with its seats at once (a match's next game, a rematch,
a tournament's pairing) is :func:`insert_game`; a lobby, until it starts, is
:mod:`db.lobbies`'.

A game that ends is compacted in the transaction that ends it (:mod:`db.archive`): its log,
last snapshot and points per deal become a few small compressed rows, read back exactly as
before; :meth:`Games.prune_logs` is the optional retention of old logs.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     game_id = await store.lobbies.create_lobby(
...         guild_id=1, channel_id=2, host_id=3, players=2, partnerships=False, target=121, now=0.0)
...     games = await store.games.load_active_games()
...     await store.close()
...     return game_id, [(g.id, g.status, g.seats) for g in games]
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(1, [(1, 'lobby', (SeatRecord(seat=0, user_id=3, computer=None, team=None),))])
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Insert,
    Integer,
    bindparam,
    func,
    insert,
    literal,
    literal_column,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from . import archive, standings
from . import game_reads as reads
from . import schema as t
from .connection import REFUSED, Connection, Database, Dialect
from .errors import Conflict, StoreError
from .leaderboard import Standings
from .records import (
    ActionRecord,
    ActionWrite,
    DealPoints,
    Finish,
    GameRecord,
    MessageRef,
    NewGame,
    ResultRecord,
)
from .shards import shard_filter

log = logging.getLogger(__name__)

_g, _m = t.games.c, t.game_messages.c
_sn, _d = t.snapshots.c, t.deal_points.c
_WARNED = update(t.games).where(_g.id == bindparam("game")).values(warned_at=bindparam("at"))
_STATUS = select(_g.status).where(_g.id == bindparam("game"))
_MESSAGES = select(_m.kind, _m.channel_id, _m.message_id).where(_m.game_id == bindparam("game"))
#: One seat of a game (:func:`insert_game`'s seats; a lobby's, :mod:`db.lobbies`).
NEW_SEAT = insert(t.seats).values(
    game_id=bindparam("game_id"),
    seat=bindparam("seat"),
    user_id=bindparam("user_id"),
    computer=bindparam("computer"),
    team=bindparam("team"),
    joined_at=bindparam("now"),
)
#: A game's first snapshot, step 0 of its log (:func:`insert_game`; a lobby's start,
#: :mod:`db.lobbies`).
FIRST_SNAPSHOT = insert(t.snapshots).values(
    game_id=bindparam("game_id"), seq=0, state=bindparam("state"), ready=bindparam("ready")
)
#: A game started with its seats at once (a match's next game, a rematch, a tournament's
#: pairing: :func:`insert_game`); a lobby is made by :mod:`db.lobbies`.
_NEW_GAME = (
    insert(t.games)
    .values(
        guild_id=bindparam("guild_id"),
        channel_id=bindparam("channel_id"),
        status=bindparam("status"),
        players=bindparam("players"),
        partnerships=bindparam("partnerships"),
        target=bindparam("target"),
        seed=bindparam("seed"),
        first_dealer=bindparam("first_dealer"),
        host_id=bindparam("host_id"),
        created_at=bindparam("now"),
        updated_at=bindparam("now"),
        started_at=bindparam("started_at"),
        match_id=bindparam("match_id"),
        rematch_of=bindparam("rematch_of"),
        muggins=bindparam("muggins"),
    )
    .returning(_g.id)
)
_MOVE = (
    update(t.games)
    .where(_g.id == bindparam("game"), reads.OPEN)
    .values(channel_id=bindparam("new_channel"))
)
_REPAIR_SNAPSHOT = (
    update(t.snapshots)
    .where(t.snapshots.c.game_id == bindparam("game"))
    .values(seq=bindparam("new_seq"), state=bindparam("new_state"), ready=bindparam("new_ready"))
)
_SET_STEP = update(t.games).where(_g.id == bindparam("game")).values(step=bindparam("new_step"))
_a, _r, _d = t.actions.c, t.results.c, t.deal_points.c
_ACTIONS = (
    select(_a.seq, _a.seat, _a.action, _a.created_at)
    .where(_a.game_id == bindparam("game"))
    .order_by(_a.seq)
)
_RESULTS = (
    select(
        _r.game_id,
        _r.seat,
        _r.side,
        _r.outcome,
        _r.won,
        _r.final_score,
        _r.skunk_given,
        _r.skunk_taken,
        _r.pegging,
        _r.hand,
        _r.crib,
        _r.heels,
        _r.best_hand,
        _r.best_hand_cards,
    )
    .where(_r.game_id == bindparam("game"))
    .order_by(_r.seat)
)
#: A game's points per deal, as :class:`DealPoints` reads them.
_DEAL_POINTS = (
    select(
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
    .where(_d.game_id == bindparam("game"))
    .order_by(_d.deal, _d.seat)
)
_LOG_PRUNED = select(t.game_archive.c.game_id).where(
    t.game_archive.c.game_id == bindparam("game"), t.game_archive.c.log_parts.is_(None)
)
#: One game, by id; the open games (lobbies and active games): with or without the archive.
_ONE_GAME = {
    archived: reads.game_query(_g.id == bindparam("game"), archived=archived)
    for archived in (True, False)
}
_OPEN_GAMES = {
    archived: reads.game_query(reads.OPEN, archived=archived) for archived in (True, False)
}


def _of_shards(shard_count: int, shard_ids: Collection[int] | None) -> ColumnElement[bool] | None:
    """The games of the servers the gateway shards ``shard_ids`` of ``shard_count`` own
    (:func:`db.shards.shard_filter`'s rule, which also checks the numbers), or ``None`` when
    they own every server. SQLite's and PostgreSQL's ``>>`` and ``%`` agree on 64-bit ids."""
    if not shard_filter(shard_count, shard_ids)[0]:
        return None
    assert shard_ids is not None
    # PostgreSQL shifts a bigint by an int (no bigint >> bigint): the 22 is written in
    shifted = func.coalesce(_g.guild_id, 0).op(">>")(literal_column("22", Integer))
    shard = shifted.op("%")(literal(shard_count, t.INT))
    return shard.in_([literal(i, t.INT) for i in sorted(set(shard_ids))])


def _set_message(dialect_insert: Any) -> Insert:
    statement = dialect_insert(t.game_messages).values(
        game_id=bindparam("game_id"),
        kind=bindparam("kind"),
        channel_id=bindparam("channel_id"),
        message_id=bindparam("message_id"),
    )
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[_m.game_id, _m.kind],
        set_={
            "channel_id": statement.excluded.channel_id,
            "message_id": statement.excluded.message_id,
        },
    )
    return upsert


#: Store (or replace) a game's public message of a kind: per dialect.
_SET_MESSAGE: dict[Dialect, Insert] = {
    "sqlite": _set_message(sqlite.insert),
    "postgresql": _set_message(postgresql.insert),
}


# ------------------------------------------------------------------ the log of a game

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
                "action": reads.dumps(w.action),
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
                "new_state": reads.dumps(w.state),
                "new_ready": reads.dumps(list(w.ready)),
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


def deal_row(game_id: int, p: DealPoints) -> tuple[Any, ...]:
    return (game_id, p.deal, p.seat, p.pegging, p.hand, p.crib, p.heels) + (
        p.hand_value,
        p.hand_cards,
        p.crib_value,
        p.crib_cards,
    )


async def insert_game(
    conn: Connection,
    game: NewGame,
    *,
    status: str,
    now: float,
    seed: int | None = None,
    match_id: int | None = None,
    rematch_of: int | None = None,
    snapshot: tuple[dict[str, Any], Sequence[int]] | None = None,
) -> int:
    """A game made with its seats in one go (``status`` ``'lobby'`` or ``'active'``), and
    with ``snapshot`` (state, ready) its first snapshot: for the repositories that start a
    game of their own (a match's next game, a rematch, a tournament's pairing), inside their
    write transaction. Returns the game's id."""
    cursor = await conn.execute(
        _NEW_GAME,
        {
            "guild_id": game.guild_id,
            "channel_id": game.channel_id,
            "status": status,
            "players": game.players,
            "partnerships": int(game.partnerships),
            "target": game.target,
            "seed": None if seed is None else str(seed),
            "first_dealer": game.first_dealer,
            "host_id": game.host_id,
            "now": now,
            "started_at": now if status == "active" else None,
            "match_id": match_id,
            "rematch_of": rematch_of,
            "muggins": int(game.muggins),
        },
    )
    game_id: int = cursor.scalar()
    await conn.executemany(
        NEW_SEAT,
        [
            {
                "game_id": game_id,
                "seat": s.seat,
                "user_id": s.user_id,
                "computer": s.computer,
                "team": s.team,
                "now": now,
            }
            for s in game.seats
        ],
    )
    if snapshot is not None:
        state, ready = snapshot
        await conn.execute(
            FIRST_SNAPSHOT,
            {"game_id": game_id, "state": reads.dumps(state), "ready": reads.dumps(list(ready))},
        )
    return game_id


class Games:
    """The games and their action logs, on the :class:`~db.connection.Database`. A game that
    ends is rated in its ending transaction by ``standings`` (once ratings are enabled), then
    compacted (:func:`db.archive.archive_or_keep`)."""

    #: The most action writes committed together in one transaction.
    max_batch = 256

    def __init__(self, database: Database, standings: Standings) -> None:
        self._database = database
        self._standings = standings
        self._actions = database.group_commit(self._write_actions, max_batch=self.max_batch)
        self._archiving: asyncio.Task[int] | None = None
        #: False only for a database opened read-only before schema 7 (no archive table).
        self._archived = database.schema_version >= archive.SCHEMA_VERSION

    # ------------------------------------------------------------------ the action log

    def append_action(self, write: ActionWrite) -> asyncio.Future[None]:
        """Queue one applied action for commit; the future resolves once it is durable.

        The action, its snapshot (which must follow snapshot ``write.seq - 1``), the game's step,
        the per-deal points and, with ``write.finish``, the results are committed in one
        transaction (with the other actions queued meanwhile). The write happens even if the
        awaiting task is cancelled. The future fails with :class:`Conflict` when the log already
        has that seq or the snapshot is not the previous one (an action applied twice), or with
        the SQLite error.
        """
        return self._actions.submit(write)

    async def _write_actions(self, conn: Connection, writes: Sequence[ActionWrite]) -> None:
        await write_actions(conn, writes, self._standings.rater)

    # ------------------------------------------------------------------ endings and results

    async def record_result(self, game_id: int, finish: Finish, *, now: float) -> None:
        """End an active game without a final action (forfeit, abandoned) and write its results."""
        async with self._database.write() as conn:
            await finish_game(conn, game_id, finish, now, self._standings.rater)

    # ------------------------------------------------------------------ small updates

    async def mark_warned(self, game_id: int, *, at: float) -> None:
        """Remember that the idle warning was sent (any later activity clears it)."""
        async with self._database.write() as conn:
            await conn.execute(_WARNED, {"at": at, "game": game_id})

    async def move_channel(self, game_id: int, channel_id: int) -> None:
        """A live lobby or game now lives in ``channel_id`` (a thread); its messages stay.
        :class:`Conflict` if that channel has an open game, or this one is not open."""
        async with self._database.write() as conn:
            try:
                cursor = await conn.execute(_MOVE, {"new_channel": channel_id, "game": game_id})
            except REFUSED as err:
                raise Conflict(f"Channel {channel_id} already has an open game ({err}).") from err
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not open.")

    async def set_message(self, game_id: int, kind: str, ref: MessageRef) -> None:
        """Store (or replace) the id of a game's public message of this ``kind``."""
        async with self._database.write() as conn:
            await conn.execute(
                _SET_MESSAGE[conn.dialect],
                {
                    "game_id": game_id,
                    "kind": kind,
                    "channel_id": ref.channel_id,
                    "message_id": ref.message_id,
                },
            )

    async def repair_snapshot(
        self, game_id: int, *, seq: int, state: dict[str, Any], ready: Sequence[int]
    ) -> None:
        """Replace a game's snapshot (after a replay of its log disagreed with it)."""
        async with self._database.write() as conn:
            await conn.execute(
                _REPAIR_SNAPSHOT,
                {
                    "new_seq": seq,
                    "new_state": reads.dumps(state),
                    "new_ready": reads.dumps(list(ready)),
                    "game": game_id,
                },
            )
            await conn.execute(_SET_STEP, {"new_step": seq, "game": game_id})

    # ------------------------------------------------------------------ reads

    async def load_active_games(
        self, *, shard_count: int = 1, shard_ids: Collection[int] | None = None
    ) -> list[GameRecord]:
        """Every lobby and active game, with seats, message ids and latest snapshot; given
        ``shard_ids`` (of ``shard_count``), only those of the servers these gateway shards own
        (:func:`db.shards.shard_filter`: the database picks them)."""
        shards = _of_shards(shard_count, shard_ids)
        if shards is None:
            query = _OPEN_GAMES[self._archived]
        else:  # built for these shards (once, at a start)
            query = reads.game_query(reads.OPEN & shards, archived=self._archived)
        async with self._database.read() as conn:
            return await reads.select_games(conn, query)

    async def load_game(self, game_id: int) -> GameRecord | None:
        """One game in any status, or ``None`` (an ended game's last snapshot comes from its
        archive: the same record as before it was compacted)."""
        async with self._database.read() as conn:
            games = await reads.select_games(conn, _ONE_GAME[self._archived], {"game": game_id})
        return games[0] if games else None

    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        """A game's action log, in order: the same records once it is archived (empty once a
        retention pruned it: :meth:`log_pruned`)."""
        async with self._database.read() as conn:
            rows = await conn.execute_fetchall(_ACTIONS, {"game": game_id})
            if rows:
                return [
                    ActionRecord(game_id, seq, seat, json.loads(a), at) for seq, seat, a, at in rows
                ]
            archived = await archive.load_log(conn, game_id) if self._archived else None
        if archived is None:
            return []
        return [ActionRecord(game_id, *action) for action in archived.actions]

    async def game_status(self, game_id: int) -> str | None:
        """``'lobby'``, ``'active'``, ``'finished'``, ``'abandoned'``, ``'cancelled'`` or None."""
        rows = await self._database.fetchall(_STATUS, {"game": game_id})
        return rows[0][0] if rows else None

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game, by kind."""
        rows = await self._database.fetchall(_MESSAGES, {"game": game_id})
        return {kind: MessageRef(channel_id, message_id) for kind, channel_id, message_id in rows}

    async def results(self, game_id: int) -> list[ResultRecord]:
        """The per-seat results of an ended game (empty before it ends)."""
        rows = await self._database.fetchall(_RESULTS, {"game": game_id})
        return [
            ResultRecord(
                game_id=row[0],
                seat=row[1],
                side=row[2],
                outcome=row[3],
                won=bool(row[4]),
                final_score=row[5],
                skunk_given=row[6],
                skunk_taken=row[7],
                pegging=row[8],
                hand=row[9],
                crib=row[10],
                heels=row[11],
                best_hand=row[12],
                best_hand_cards=row[13],
            )
            for row in rows
        ]

    async def deal_points(self, game_id: int) -> list[DealPoints]:
        """A game's points per deal and seat, in deal order (archived or not)."""
        async with self._database.read() as conn:
            rows = await conn.execute_fetchall(_DEAL_POINTS, {"game": game_id})
            if rows or not self._archived:
                return [DealPoints(*row) for row in rows]
            points = await archive.load_points(conn, game_id)
        return [DealPoints(*row) for row in points]

    # ------------------------------------------------------------------ compacting and retention

    async def archive_ended(self, *, limit: int | None = None) -> int:
        """Compact the ended games whose logs are still rows (those that ended before schema
        version 7, or whose log could not be compacted then; a game that ends now is compacted
        as it ends): :data:`~db.archive.ARCHIVE_BATCH` games per transaction, then a pause as
        long as it took, so that clicks have the database at least half the time. Returns how
        many were compacted; a game that cannot be is logged and left as it is."""
        done = tried = 0
        after = 0
        while limit is None or tried < limit:
            size = archive.ARCHIVE_BATCH
            if limit is not None:
                size = min(size, limit - tried)
            async with self._database.read() as conn:  # no write lock when none is left
                if not await archive.pending(conn, after=after, limit=1):
                    break
            began = time.perf_counter()
            async with self._database.write() as conn:
                ids = await archive.pending(conn, after=after, limit=size)
                for game_id in ids:
                    done += await archive.archive_or_keep(conn, game_id)
            if not ids:
                break
            tried += len(ids)
            after = ids[-1]
            await asyncio.sleep(time.perf_counter() - began)  # queued clicks go first
        return done

    def start_archiving(self) -> asyncio.Task[int]:
        """Run :meth:`archive_ended` in the background (the store does at open: after an
        upgrade, the games that ended before are compacted while the bot plays)."""
        if self._archiving is None or self._archiving.done():
            self._archiving = asyncio.get_running_loop().create_task(self._archive_quietly())
        return self._archiving

    async def stop_archiving(self) -> None:
        """Stop the background :meth:`archive_ended` (its open transaction is rolled back)."""
        task, self._archiving = self._archiving, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _archive_quietly(self) -> int:
        try:
            done = await self.archive_ended()
        except StoreError as err:  # e.g. closed, or another program's lock
            log.warning("compacting the ended games stopped (%s); the next start goes on", err)
            return 0
        if done:
            log.info("compacted the logs of %d ended games", done)
        return done

    async def prune_logs(self, *, ended_before: float) -> int:
        """Retention: drop the action logs (and last snapshots) of the archived games that ended
        before ``ended_before`` (a time, e.g. ``time.time() - 365 * 86400``), except those of a
        match still being played. Their results, points per deal, ratings and rows stay; their
        replay is gone. Returns how many logs were dropped; the space is reused by new games."""
        pruned = 0
        while True:
            async with self._database.write() as conn:
                count = await archive.prune(conn, ended_before=ended_before, limit=500)
            pruned += count
            if count < 500:
                return pruned
            await asyncio.sleep(0)

    async def log_pruned(self, game_id: int) -> bool:
        """Whether a retention dropped this game's action log (see :meth:`prune_logs`)."""
        if not self._archived:
            return False
        rows = await self._database.fetchall(_LOG_PRUNED, {"game": game_id})
        return bool(rows)
