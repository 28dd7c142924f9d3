"""Matches and rematches in the store: the ``matches`` table and the games linked to it.

:class:`Matches` is the repository ``store.matches``, on the :class:`~db.connection.Database`
it receives: ``store.matches.open_match(...)``. Schema (migration "matches and rematches"):

* ``matches``: one row per match of 3 or 5 games: channel, ``best_of``, the ``seats`` it is
  played with (JSON ``[[seat, user_id, computer], ...]``), ``wins`` (JSON, games held per side:
  a skunk counts two, a double skunk three), ``status`` (``forming`` while its first game is a
  lobby, ``playing``, then ``won``, ``conceded``, ``abandoned`` or ``cancelled``) and the winner;
* ``games.match_id`` links each game of a match (in order of ``id``);
* ``games.rematch_of`` marks a rematch lobby (and later game) with the game it replays, and
  ``rematch_accepted`` holds who of its people has accepted; it starts once all of them have.

Every method is one transaction; each next game of a match is created with its seats, first
snapshot and the match's new tally together, so a crash leaves either the old or the new state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Insert,
    Select,
    bindparam,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .connection import Connection, Database, Dialect
from .errors import Conflict
from .game_reads import dumps
from .games import insert_game
from .records import NewGame, SeatRecord

OPEN_MATCH = ("forming", "playing")


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A row of ``matches`` with the ids of its games, in the order they were played."""

    id: int
    guild_id: int | None
    channel_id: int
    best_of: int
    status: str
    wins: tuple[int, ...]
    winner_side: int | None
    seats: tuple[SeatRecord, ...]
    created_at: float
    ended_at: float | None
    games: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchGame:
    """How one game of a match stands: its status and, once ended, how (``skunk``: the worst
    skunk the winning side gave, from ``results``)."""

    game_id: int
    status: str
    end_reason: str | None
    winner_side: int | None
    skunk: int


@dataclass(frozen=True, slots=True)
class PendingRematch:
    """An open rematch lobby: the game it replays and the people who have accepted."""

    game_id: int
    of_game: int
    accepted: tuple[int, ...]


_m, _g, _r, _a = t.matches.c, t.games.c, t.results.c, t.rematch_accepted.c

_NEW_MATCH = (
    insert(t.matches)
    .values(
        guild_id=bindparam("guild_id"),
        channel_id=bindparam("channel_id"),
        best_of=bindparam("best_of"),
        status="forming",
        wins="[]",
        seats="[]",
        created_at=bindparam("now"),
    )
    .returning(_m.id)
)
_JOIN_MATCH = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.status == "lobby")
    .values(match_id=bindparam("match"))
)
_BEGIN_MATCH = (
    update(t.matches)
    .where(_m.id == bindparam("match"), _m.status == "forming")
    .values(status="playing", seats=bindparam("new_seats"), wins=bindparam("new_wins"))
)
_TALLY = (
    update(t.matches)
    .where(_m.id == bindparam("match"), _m.status == "playing")
    .values(wins=bindparam("new_wins"))
)
_STILL_OPEN = _m.status.in_([literal(status) for status in OPEN_MATCH])
_END_MATCH = (
    update(t.matches)
    .where(_m.id == bindparam("match"), _STILL_OPEN)
    .values(
        status=bindparam("new_status"),
        wins=bindparam("new_wins"),
        winner_side=bindparam("new_winner"),
        ended_at=bindparam("now"),
    )
)


def _matches_with_games(condition: ColumnElement[bool]) -> Select[Any]:
    """The matches meeting ``condition``, by id, each row with one of its games (by id; ``NULL``
    for a match without games)."""
    return (
        select(
            _m.id,
            _m.guild_id,
            _m.channel_id,
            _m.best_of,
            _m.status,
            _m.wins,
            _m.winner_side,
            _m.seats,
            _m.created_at,
            _m.ended_at,
            _g.id,
        )
        .select_from(t.matches.outerjoin(t.games, _g.match_id == _m.id))
        .where(condition)
        .order_by(_m.id, _g.id)
    )


_OPEN_MATCHES = _matches_with_games(_STILL_OPEN)
_linked = t.games.alias("linked")
_MATCH_OF_GAME = _matches_with_games(
    _m.id == select(_linked.c.match_id).where(_linked.c.id == bindparam("game")).scalar_subquery()
)
#: The worst skunk a game's winning side gave (0 when none, or not ended).
_SKUNK = func.coalesce(
    select(func.max(_r.skunk_given)).where(_r.game_id == _g.id).scalar_subquery(), 0
)
_MATCH_GAMES = (
    select(_g.id, _g.status, _g.end_reason, _g.winner_side, _SKUNK)
    .where(_g.match_id == bindparam("match"))
    .order_by(_g.id)
)
_ACCEPT = insert(t.rematch_accepted).values(
    game_id=bindparam("game"), user_id=bindparam("user"), at=bindparam("now")
)
#: :data:`_ACCEPT`, nothing when that person has accepted already: per dialect.
_ACCEPT_AGAIN: dict[Dialect, Insert] = {
    "sqlite": sqlite.insert(t.rematch_accepted)
    .values(game_id=bindparam("game"), user_id=bindparam("user"), at=bindparam("now"))
    .on_conflict_do_nothing(),
    "postgresql": postgresql.insert(t.rematch_accepted)
    .values(game_id=bindparam("game"), user_id=bindparam("user"), at=bindparam("now"))
    .on_conflict_do_nothing(),
}
_TOUCH = (
    update(t.games)
    .where(_g.id == bindparam("game"))
    .values(updated_at=bindparam("now"), warned_at=None)
)
_PENDING_REMATCHES = (
    select(_g.id, _g.rematch_of, _a.user_id)
    .select_from(t.games.outerjoin(t.rematch_accepted, _a.game_id == _g.id))
    .where(_g.status == "lobby", _g.rematch_of.is_not(None))
    .order_by(_g.id, _a.at)
)
_REMATCH_OF = select(_g.rematch_of).where(_g.id == bindparam("game"))


class Matches:
    """The match and rematch statements, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    # ------------------------------------------------------------------ matches

    async def open_match(
        self, game_id: int, *, guild_id: int | None, channel_id: int, best_of: int, now: float
    ) -> int:
        """A match of ``best_of`` whose first game is the lobby ``game_id``; returns its id."""
        async with self._database.write() as conn:
            match_id = await _insert_match(conn, guild_id, channel_id, best_of, now)
            cursor = await conn.execute(_JOIN_MATCH, {"match": match_id, "game": game_id})
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not an open lobby.")
        return match_id

    async def begin_match(self, match_id: int, *, seats: Sequence[SeatRecord], sides: int) -> None:
        """The first game started: record the seats and start the tally at nothing each."""
        async with self._database.write() as conn:
            await conn.execute(
                _BEGIN_MATCH,
                {
                    "new_seats": _seats_json(seats),
                    "new_wins": dumps([0] * sides),
                    "match": match_id,
                },
            )

    async def start_next_game(
        self,
        match_id: int,
        game: NewGame,
        *,
        seed: int,
        state: dict[str, Any],
        ready: Sequence[int],
        wins: Sequence[int],
        now: float,
    ) -> int:
        """The next game of a match, started (seats, first snapshot), with the match's tally.

        Raises :class:`Conflict` when the channel already has an open game, or the match is
        not being played any more.
        """
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _TALLY, {"new_wins": dumps(list(wins)), "match": match_id}
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Match {match_id} is not being played.")
            game_id = await insert_game(
                conn,
                game,
                status="active",
                now=now,
                match_id=match_id,
                seed=seed,
                snapshot=(state, ready),
            )
        return game_id

    async def end_match(
        self,
        match_id: int,
        *,
        status: str,
        wins: Sequence[int],
        winner_side: int | None,
        now: float,
    ) -> None:
        """A match is over: ``won``, ``conceded``, ``abandoned`` or ``cancelled``."""
        async with self._database.write() as conn:
            await conn.execute(
                _END_MATCH,
                {
                    "new_status": status,
                    "new_wins": dumps(list(wins)),
                    "new_winner": winner_side,
                    "now": now,
                    "match": match_id,
                },
            )

    async def open_matches(self) -> list[MatchRecord]:
        """Every match still forming or being played, with its games."""
        return await self._matches(_OPEN_MATCHES, {})

    async def match_of_game(self, game_id: int) -> MatchRecord | None:
        """The match a game belongs to, if any."""
        found = await self._matches(_MATCH_OF_GAME, {"game": game_id})
        return found[0] if found else None

    async def match_games(self, match_id: int) -> list[MatchGame]:
        """The games of a match in order, with how each ended (from ``games`` and ``results``)."""
        rows = await self._database.fetchall(_MATCH_GAMES, {"match": match_id})
        return [MatchGame(*row) for row in rows]

    async def _matches(self, statement: Select[Any], params: dict[str, Any]) -> list[MatchRecord]:
        """The matches of ``statement`` (:func:`_matches_with_games`), each with its games."""
        firsts: dict[int, tuple[Any, ...]] = {}
        games: dict[int, list[int]] = {}
        for row in await self._database.fetchall(statement, params):
            firsts.setdefault(row[0], row)
            played = games.setdefault(row[0], [])
            if row[10] is not None:
                played.append(row[10])
        return [
            MatchRecord(
                id=row[0],
                guild_id=row[1],
                channel_id=row[2],
                best_of=row[3],
                status=row[4],
                wins=tuple(json.loads(row[5])),
                winner_side=row[6],
                seats=tuple(SeatRecord(*s) for s in json.loads(row[7])),
                created_at=row[8],
                ended_at=row[9],
                games=tuple(games[row[0]]),
            )
            for row in firsts.values()
        ]

    # ------------------------------------------------------------------ rematches

    async def open_rematch(
        self, of_game: int, game: NewGame, *, accepted: int, best_of: int, now: float
    ) -> tuple[int, int | None]:
        """A lobby replaying ``of_game``: every seat taken as in ``game.seats``, the first
        dealer planned, ``accepted`` (the host) having accepted; with a new match when
        ``best_of`` > 1. Returns (game id, match id). :class:`Conflict` if the channel is busy.
        """
        async with self._database.write() as conn:
            match_id = None
            if best_of > 1:
                match_id = await _insert_match(conn, game.guild_id, game.channel_id, best_of, now)
            game_id = await insert_game(
                conn, game, status="lobby", now=now, match_id=match_id, rematch_of=of_game
            )
            await conn.execute(_ACCEPT, {"game": game_id, "user": accepted, "now": now})
        return game_id, match_id

    async def accept_rematch(self, game_id: int, user_id: int, *, now: float) -> None:
        """``user_id`` accepted the rematch lobby ``game_id`` (again: no change)."""
        async with self._database.write() as conn:
            await conn.execute(
                _ACCEPT_AGAIN[conn.dialect], {"game": game_id, "user": user_id, "now": now}
            )
            await conn.execute(_TOUCH, {"now": now, "game": game_id})

    async def pending_rematches(self) -> list[PendingRematch]:
        """Every rematch lobby still open, with who has accepted."""
        rows = await self._database.fetchall(_PENDING_REMATCHES)
        found: dict[int, tuple[int, list[int]]] = {}
        for game_id, of_game, user_id in rows:
            entry = found.setdefault(game_id, (of_game, []))
            if user_id is not None:
                entry[1].append(user_id)
        return [PendingRematch(g, of, tuple(users)) for g, (of, users) in found.items()]

    async def rematch_of(self, game_id: int) -> int | None:
        """The game that ``game_id`` is a rematch of, if it is one."""
        rows = await self._database.fetchall(_REMATCH_OF, {"game": game_id})
        return rows[0][0] if rows else None


async def _insert_match(
    conn: Connection, guild_id: int | None, channel_id: int, best_of: int, now: float
) -> int:
    cursor = await conn.execute(
        _NEW_MATCH,
        {"guild_id": guild_id, "channel_id": channel_id, "best_of": best_of, "now": now},
    )
    match_id: int = cursor.scalar()
    return match_id


def _seats_json(seats: Sequence[SeatRecord]) -> str:
    return dumps([[s.seat, s.user_id, s.computer] for s in sorted(seats, key=lambda s: s.seat)])
