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

from . import statements as sql
from .connection import Database
from .errors import Conflict
from .records import NewGame, SeatRecord
from .sql_connection import Connection

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


MATCH_COLUMNS = (
    "id, guild_id, channel_id, best_of, status, wins, winner_side, seats, created_at, ended_at"
)


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
            cursor = await conn.execute(
                "UPDATE games SET match_id = ? WHERE id = ? AND status = 'lobby'",
                (match_id, game_id),
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Game {game_id} is not an open lobby.")
        return match_id

    async def begin_match(self, match_id: int, *, seats: Sequence[SeatRecord], sides: int) -> None:
        """The first game started: record the seats and start the tally at nothing each."""
        async with self._database.write() as conn:
            await conn.execute(
                "UPDATE matches SET status = 'playing', seats = ?, wins = ? "
                "WHERE id = ? AND status = 'forming'",
                (_seats_json(seats), sql.dumps([0] * sides), match_id),
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
                "UPDATE matches SET wins = ? WHERE id = ? AND status = 'playing'",
                (sql.dumps(list(wins)), match_id),
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Match {match_id} is not being played.")
            game_id = await _insert_game(
                conn, game, status="active", now=now, match_id=match_id, seed=seed
            )
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state, ready) VALUES (?, 0, ?, ?)",
                (game_id, sql.dumps(state), sql.dumps(list(ready))),
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
                "UPDATE matches SET status = ?, wins = ?, winner_side = ?, ended_at = ? "
                "WHERE id = ? AND status IN ('forming', 'playing')",
                (status, sql.dumps(list(wins)), winner_side, now, match_id),
            )

    async def open_matches(self) -> list[MatchRecord]:
        """Every match still forming or being played, with its games."""
        return await self._matches("status IN ('forming', 'playing')", ())

    async def match_of_game(self, game_id: int) -> MatchRecord | None:
        """The match a game belongs to, if any."""
        found = await self._matches("id = (SELECT match_id FROM games WHERE id = ?)", (game_id,))
        return found[0] if found else None

    async def match_games(self, match_id: int) -> list[MatchGame]:
        """The games of a match in order, with how each ended (from ``games`` and ``results``)."""
        rows = await self._database.fetchall(
            "SELECT g.id, g.status, g.end_reason, g.winner_side, "
            "COALESCE((SELECT MAX(r.skunk_given) FROM results r WHERE r.game_id = g.id), 0) "
            "FROM games g WHERE g.match_id = ? ORDER BY g.id",
            (match_id,),
        )
        return [MatchGame(*row) for row in rows]

    async def _matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        rows = await self._database.fetchall(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id", params
        )
        if not rows:
            return []
        ids = [row[0] for row in rows]
        marks = ", ".join("?" * len(ids))
        game_rows = await self._database.fetchall(
            f"SELECT match_id, id FROM games WHERE match_id IN ({marks}) ORDER BY id", ids
        )
        games: dict[int, list[int]] = {}
        for match_id, game_id in game_rows:
            games.setdefault(match_id, []).append(game_id)
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
                games=tuple(games.get(row[0], ())),
            )
            for row in rows
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
            game_id = await _insert_game(
                conn, game, status="lobby", now=now, match_id=match_id, rematch_of=of_game
            )
            await conn.execute(
                "INSERT INTO rematch_accepted (game_id, user_id, at) VALUES (?, ?, ?)",
                (game_id, accepted, now),
            )
        return game_id, match_id

    async def accept_rematch(self, game_id: int, user_id: int, *, now: float) -> None:
        """``user_id`` accepted the rematch lobby ``game_id`` (again: no change)."""
        async with self._database.write() as conn:
            await conn.execute(
                "INSERT INTO rematch_accepted (game_id, user_id, at) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, user_id, now),
            )
            await conn.execute(
                "UPDATE games SET updated_at = ?, warned_at = NULL WHERE id = ?", (now, game_id)
            )

    async def pending_rematches(self) -> list[PendingRematch]:
        """Every rematch lobby still open, with who has accepted."""
        rows = await self._database.fetchall(
            "SELECT g.id, g.rematch_of, a.user_id FROM games g "
            "LEFT JOIN rematch_accepted a ON a.game_id = g.id "
            "WHERE g.status = 'lobby' AND g.rematch_of IS NOT NULL ORDER BY g.id, a.at",
        )
        found: dict[int, tuple[int, list[int]]] = {}
        for game_id, of_game, user_id in rows:
            entry = found.setdefault(game_id, (of_game, []))
            if user_id is not None:
                entry[1].append(user_id)
        return [PendingRematch(g, of, tuple(users)) for g, (of, users) in found.items()]

    async def rematch_of(self, game_id: int) -> int | None:
        """The game that ``game_id`` is a rematch of, if it is one."""
        rows = await self._database.fetchall(
            "SELECT rematch_of FROM games WHERE id = ?", (game_id,)
        )
        return rows[0][0] if rows else None


async def _insert_match(
    conn: Connection, guild_id: int | None, channel_id: int, best_of: int, now: float
) -> int:
    cursor = await conn.execute(
        "INSERT INTO matches (guild_id, channel_id, best_of, status, wins, seats, created_at) "
        "VALUES (?, ?, ?, 'forming', '[]', '[]', ?)",
        (guild_id, channel_id, best_of, now),
    )
    match_id = cursor.lastrowid
    assert match_id is not None
    return match_id


async def _insert_game(
    conn: Connection,
    game: NewGame,
    *,
    status: str,
    now: float,
    match_id: int | None,
    seed: int | None = None,
    rematch_of: int | None = None,
) -> int:
    started = now if status == "active" else None
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, status, players, partnerships, target, seed, "
        "first_dealer, host_id, created_at, updated_at, started_at, match_id, rematch_of, "
        "muggins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.guild_id,
            game.channel_id,
            status,
            game.players,
            int(game.partnerships),
            game.target,
            None if seed is None else str(seed),
            game.first_dealer,
            game.host_id,
            now,
            now,
            started,
            match_id,
            rematch_of,
            int(game.muggins),
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, computer, team, joined_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.computer, s.team, now) for s in game.seats],
    )
    return game_id


def _seats_json(seats: Sequence[SeatRecord]) -> str:
    return sql.dumps([[s.seat, s.user_id, s.computer] for s in sorted(seats, key=lambda s: s.seat)])
