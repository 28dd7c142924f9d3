"""Lobbies: a game before it starts, its seats and its variant, then its start (the game and its
first snapshot), or its close when it never starts: the repository ``store.lobbies``.

A lobby is a row of ``games`` with the status ``'lobby'``; every write here checks that it
still is one (:class:`~db.errors.Conflict` otherwise) and marks it touched (its idle clock
restarts). A started game's log is :mod:`db.games`'; a game made with its seats at once (a
match's next game, a rematch, a tournament's pairing) is :func:`db.games.insert_game`.

>>> import asyncio, tempfile, pathlib
>>> from db import SeatRecord, Store
>>> async def demo(path):
...     store = await Store.open(path)
...     game_id = await store.lobbies.create_lobby(
...         guild_id=1, channel_id=2, host_id=3, players=2, partnerships=False, target=121, now=0.0)
...     await store.lobbies.add_seat(game_id, SeatRecord(1, computer="easy"), now=1.0)
...     await store.lobbies.start_game(
...         game_id, seed=7, first_dealer=0, teams={}, state={}, ready=(0, 0), now=2.0)
...     game = await store.games.load_game(game_id)
...     await store.close()
...     return game is not None and (game.status, game.step, [s.seat for s in game.seats])
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
('active', 0, [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, update

from . import game_reads as reads
from . import schema as t
from .connection import Connection, Database
from .errors import Conflict
from .games import FIRST_SNAPSHOT, NEW_SEAT
from .records import SeatRecord

_g, _s = t.games.c, t.seats.c
#: A new lobby; its id (SQLite's rowid, PostgreSQL's identity) comes back.
_NEW_LOBBY = (
    insert(t.games)
    .values(
        guild_id=bindparam("guild_id"),
        channel_id=bindparam("channel_id"),
        status="lobby",
        players=bindparam("players"),
        partnerships=bindparam("partnerships"),
        target=bindparam("target"),
        host_id=bindparam("host_id"),
        created_at=bindparam("now"),
        updated_at=bindparam("now"),
        muggins=bindparam("muggins"),
    )
    .returning(_g.id)
)
_TOUCH_LOBBY = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.status == "lobby")
    .values(updated_at=bindparam("now"), warned_at=None)
)
_REMOVE_SEAT = delete(t.seats).where(_s.game_id == bindparam("game"), _s.seat == bindparam("seat"))
#: A lobby's host and variant; a ``None`` parameter leaves its column as it is.
_UPDATE_LOBBY = (
    update(t.games)
    .where(_g.id == bindparam("game"))
    .values(
        host_id=func.coalesce(bindparam("new_host", type_=t.INT), _g.host_id),
        players=func.coalesce(bindparam("new_players", type_=t.INT), _g.players),
        partnerships=func.coalesce(bindparam("new_partnerships", type_=t.INT), _g.partnerships),
        target=func.coalesce(bindparam("new_target", type_=t.INT), _g.target),
        muggins=func.coalesce(bindparam("new_muggins", type_=t.INT), _g.muggins),
    )
)
_CLOSE_LOBBY = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.status == "lobby")
    .values(
        status=bindparam("closed_as"),
        end_reason=bindparam("closed_as"),
        ended_at=bindparam("now"),
        updated_at=bindparam("now"),
    )
)
_START = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.status == "lobby")
    .values(
        status="active",
        seed=bindparam("new_seed"),
        first_dealer=bindparam("dealer"),
        step=0,
        started_at=bindparam("now"),
        updated_at=bindparam("now"),
        warned_at=None,
    )
)
_SET_TEAM = (
    update(t.seats)
    .where(_s.game_id == bindparam("game"), _s.seat == bindparam("seat_of"))
    .values(team=bindparam("new_team"))
)


class Lobbies:
    """The lobbies, on the :class:`~db.connection.Database` (see the module docstring)."""

    def __init__(self, database: Database) -> None:
        self._database = database

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
            async with self._database.write() as conn:
                cursor = await conn.execute(
                    _NEW_LOBBY,
                    {
                        "guild_id": guild_id,
                        "channel_id": channel_id,
                        "players": players,
                        "partnerships": int(partnerships),
                        "target": target,
                        "host_id": host_id,
                        "now": now,
                        "muggins": int(muggins),
                    },
                )
                game_id: int = cursor.scalar()
                await conn.execute(
                    NEW_SEAT,
                    {
                        "game_id": game_id,
                        "seat": 0,
                        "user_id": host_id,
                        "computer": None,
                        "team": None,
                        "now": now,
                    },
                )
        except Conflict as err:
            raise Conflict(f"Channel {channel_id} already has an open game ({err}).") from err
        assert game_id is not None
        return game_id

    async def add_seat(self, game_id: int, seat: SeatRecord, *, now: float) -> None:
        """Seat a user or a computer in a lobby. Raises :class:`Conflict` if taken."""
        try:
            async with self._database.write() as conn:
                await conn.execute(
                    NEW_SEAT,
                    {
                        "game_id": game_id,
                        "seat": seat.seat,
                        "user_id": seat.user_id,
                        "computer": seat.computer,
                        "team": seat.team,
                        "now": now,
                    },
                )
                await self._touch_lobby(conn, game_id, now)
        except Conflict as err:
            raise Conflict(f"Seat {seat.seat} of game {game_id} cannot be taken ({err}).") from err

    async def remove_seat(self, game_id: int, seat: int, *, now: float) -> None:
        """Free a seat of a lobby."""
        async with self._database.write() as conn:
            await conn.execute(_REMOVE_SEAT, {"game": game_id, "seat": seat})
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
        async with self._database.write() as conn:
            await conn.execute(
                _UPDATE_LOBBY,
                {
                    "new_host": host_id,
                    "new_players": players,
                    "new_partnerships": None if partnerships is None else int(partnerships),
                    "new_target": target,
                    "new_muggins": None if muggins is None else int(muggins),
                    "game": game_id,
                },
            )
            await self._touch_lobby(conn, game_id, now)

    @staticmethod
    async def _touch_lobby(conn: Connection, game_id: int, now: float) -> None:
        cursor = await conn.execute(_TOUCH_LOBBY, {"now": now, "game": game_id})
        if cursor.rowcount != 1:
            raise Conflict(f"Game {game_id} is not an open lobby.")

    async def close_lobby(self, game_id: int, *, status: str, now: float) -> None:
        """End a lobby that never started: ``status`` is ``'cancelled'`` or ``'abandoned'``."""
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"A lobby closes as cancelled or abandoned, not {status!r}")
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _CLOSE_LOBBY, {"closed_as": status, "now": now, "game": game_id}
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
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _START,
                {"new_seed": str(seed), "dealer": first_dealer, "now": now, "game": game_id},
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not an open lobby.")
            await conn.executemany(
                _SET_TEAM,
                [
                    {"new_team": team, "game": game_id, "seat_of": seat}
                    for seat, team in teams.items()
                ],
            )
            await conn.execute(
                FIRST_SNAPSHOT,
                {
                    "game_id": game_id,
                    "state": reads.dumps(state),
                    "ready": reads.dumps(list(ready)),
                },
            )
