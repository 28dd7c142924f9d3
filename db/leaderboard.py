"""Reading the standings: the leaderboard, a player's statistics and history, rating changes.

:class:`Standings` is the repository ``store.standings``, on the
:class:`~db.connection.Database` it receives. Each query is one statement (in
:mod:`db.standing_queries`), served by an index:

* the leaderboard reads only ``standings`` (kept by :mod:`db.standings` as games end), never
  the games: the page walks the sort's index (``LIMIT``/``OFFSET``), the caller's rank is one
  plus the rows ahead of theirs, in one statement. Its cost grows with the players of the
  scope, not with the games recorded;
* statistics and history start from the player's seats (``seats_by_user``) and read the
  ``games``, ``results`` (which hold each seat's point sums), ``deal_points`` (the number of
  deals) and ``rating_history`` rows of those games by primary key. Their cost grows with the
  player's number of games, not with the database.

Statistics, ratings and the leaderboard count finished games only; the history also lists the
abandoned ones, among them the *aborted* games (a forfeit before the first show, stored as
abandoned with the seat that left: its ``end_reason`` reads ``'aborted'`` here).

Scopes: ``0`` is everywhere, a negative number a season (:func:`db.seasons.scope_of`), any
other number a guild id. Pools: ``"people"`` (games where only
people sat), ``"computers"`` (games with a computer seat) and ``"all"`` (every game).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from . import standings
from .connection import Database
from .standing_queries import (
    HISTORY,
    LEADERBOARD,
    PROVISIONAL_GAMES,
    RATING_HISTORY,
    SEASON_BOUNDS,
    STATS,
)
from .standings import ALL, COMPUTERS, EVERYWHERE, PEOPLE, Rater

PAGE_SIZE = 10
CATCH_UP_BATCH = 200

Pool = Literal["people", "computers", "all"]
Sort = Literal["rating", "wins", "win rate", "skunks"]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line on the leaderboard (a computer's ``player`` is negative)."""

    rank: int
    player: int
    mu: float
    sigma: float
    games: int
    wins: int
    forfeits: int
    skunks_given: int
    skunks_taken: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def computer(self) -> str | None:
        """The computer level of a computer's row."""
        return standings.COMPUTER_LEVELS.get(self.player)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a leaderboard, and the asking player's row wherever it ranks."""

    pool: str
    scope: int
    sort: str
    page: int  # from 0
    page_size: int
    total: int  # players ranked
    rows: tuple[StandingRow, ...]
    me: StandingRow | None

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record over finished games (everywhere or in one guild)."""

    user_id: int
    scope: int
    games: int
    wins: int
    forfeits: int
    skunks_given: int  # games in which their side skunked someone
    skunks_taken: int
    computer_games: int  # of ``games``, those with a computer seated
    computer_wins: int
    deals: int  # deals played (the last, unfinished one included)
    pegging: int  # points, summed over every deal
    hand: int
    crib: int
    heels: int
    best_hand: int | None
    best_hand_cards: str | None  # "5H 5C 5S JD|5D" (hand | starter)
    best_hand_game: int | None
    streak_won: bool | None  # the result of the latest game (None: no game)
    streak: int  # how many latest games in a row had that result
    rival: int | None  # the person they played most against
    rival_games: int
    rival_wins: int
    rating: tuple[float, float] | None  # (mu, sigma) among people, in this scope
    rated_games: int
    rank: int | None
    ranked_players: int

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def per_deal(self, points: int) -> float:
        return points / self.deals if self.deals else 0.0


@dataclass(frozen=True, slots=True)
class Participant:
    """Another seat of a game in someone's history."""

    seat: int
    side: int
    user_id: int | None
    computer: str | None
    score: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One ended game, from one player's seat."""

    game_id: int
    ended_at: float
    status: str  # 'finished' or 'abandoned'
    end_reason: str  # 'won', 'forfeit', 'abandoned', 'aborted' (a forfeit before the first show)
    players: int
    partnerships: bool
    target: int
    forfeit_seat: int | None  # who forfeited (or left an aborted game)
    seat: int
    side: int
    outcome: str  # 'won', 'lost', 'forfeited', 'abandoned'
    score: int
    skunk_given: int
    skunk_taken: int
    partners: tuple[Participant, ...]
    opponents: tuple[Participant, ...]
    rating_before: tuple[float, float] | None  # (mu, sigma), when the game was rated
    rating_after: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class RatingChange:
    game_id: int
    before: tuple[float, float]
    after: tuple[float, float]
    rated_at: float


class Standings:
    """Ratings and standings: the leaderboard, a player's statistics and history.

    ``rater`` rates each game that ends (in its ending transaction); ``None`` until
    :meth:`enable_ratings`, and then such games wait to be caught up.
    """

    # The standings' rules, for whoever shows them (the bot reads them here, not from db).
    everywhere: ClassVar[int] = EVERYWHERE  # the scope of the global standings
    provisional_games: ClassVar[int] = PROVISIONAL_GAMES
    computer_players: ClassVar[Mapping[str, int]] = standings.COMPUTER_PLAYERS  # level -> id
    computer_levels: ClassVar[Mapping[int, str]] = standings.COMPUTER_LEVELS  # id -> level

    def __init__(self, database: Database) -> None:
        self._database = database
        self.rater: Rater | None = None

    async def enable_ratings(self, rater: Rater, *, now: float | None = None) -> int:
        """Rate every game that ends from now on, in its ending transaction; first catch up
        with the finished games not rated yet, oldest first. Returns how many were caught up."""
        self.rater = rater
        caught_up = 0
        while True:
            async with self._database.write() as conn:
                at = time.time() if now is None else now
                rated = await standings.rate_pending(conn, rater, at, limit=CATCH_UP_BATCH)
            caught_up += rated
            if rated < CATCH_UP_BATCH:
                return caught_up

    async def leaderboard(
        self,
        *,
        pool: Pool = PEOPLE,
        scope: int = EVERYWHERE,
        sort: Sort = "rating",
        page: int = 0,
        page_size: int = PAGE_SIZE,
        player: int | None = None,
    ) -> LeaderboardPage:
        """A page of the ranking (``page`` from 0) and ``player``'s row wherever it ranks."""
        if pool not in (PEOPLE, COMPUTERS, ALL):
            raise ValueError(f"No pool {pool!r}")
        if sort not in LEADERBOARD:
            raise ValueError(f"No sort {sort!r}")
        page = max(0, page)
        rows = await self._database.fetchall(
            LEADERBOARD[sort],
            {
                "pool": pool,
                "scope": scope,
                "offset": page * page_size,
                "size": page_size,
                "player": player,
            },
        )
        parts: dict[str, list[StandingRow]] = {"page": [], "me": []}
        total = 0
        for kind, *row in rows:
            if kind == "total":
                total = row[0]
            else:
                parts[kind].append(StandingRow(*row))
        shown = tuple(sorted(parts["page"], key=lambda r: r.rank))
        me = parts["me"][0] if parts["me"] else None
        return LeaderboardPage(pool, scope, sort, page, page_size, total, shown, me)

    async def player_stats(self, user_id: int, *, scope: int = EVERYWHERE) -> PlayerStats:
        """Games, wins, skunks, points per deal, best hand, streak, rival and rating."""
        games = await self._games_of(scope)
        (row,) = await self._database.fetchall(
            STATS[self._database.dialect], {"user": user_id, "scope": scope, **games}
        )
        (games, wins, forfeits, given, taken, cgames, cwins, deals) = row[:8]
        pegging, hand, crib, heels, best, best_cards, best_game, last_won, streak = row[8:17]
        rival, rival_games, rival_wins, mu, sigma, rated, rank, ranked = row[17:]
        return PlayerStats(
            user_id=user_id,
            scope=scope,
            games=games,
            wins=wins,
            forfeits=forfeits,
            skunks_given=given,
            skunks_taken=taken,
            computer_games=cgames,
            computer_wins=cwins,
            deals=deals,
            pegging=pegging or 0,
            hand=hand or 0,
            crib=crib or 0,
            heels=heels or 0,
            best_hand=best,
            best_hand_cards=best_cards,
            best_hand_game=best_game,
            streak_won=None if last_won is None else bool(last_won),
            streak=streak if games else 0,
            rival=rival,
            rival_games=rival_games or 0,
            rival_wins=rival_wins or 0,
            rating=None if mu is None else (mu, sigma),
            rated_games=rated or 0,
            rank=rank if mu is not None else None,
            ranked_players=ranked,
        )

    async def player_history(
        self, user_id: int, *, scope: int = EVERYWHERE, limit: int = 10
    ) -> list[HistoryEntry]:
        """The player's latest ended games (finished or abandoned), newest first."""
        games = await self._games_of(scope)
        rows = await self._database.fetchall(
            HISTORY[self._database.dialect],
            {"user": user_id, "scope": scope, "limit": limit, **games},
        )
        return [_history_entry(row) for row in rows]

    async def _games_of(self, scope: int) -> dict[str, Any]:
        """Which games a scope holds, as the statistics and history ask: a server (``guild``,
        ``0`` for any) and the times they ended between (``since``, ``until``; ``None``: no
        bound). A season's are its server's games that ended while it was open."""
        if scope >= 0:
            return {"guild": scope, "since": None, "until": None}
        rows = await self._database.fetchall(SEASON_BOUNDS, {"season": -scope})
        if not rows:
            raise ValueError(f"No season of scope {scope}")
        guild, since, until = rows[0]
        return {"guild": guild, "since": since, "until": until}

    async def rating_history(
        self, player: int, *, pool: Pool = PEOPLE, scope: int = EVERYWHERE
    ) -> list[RatingChange]:
        """Every rating change of a player in a pool and scope, oldest first."""
        rows = await self._database.fetchall(
            RATING_HISTORY, {"player": player, "pool": pool, "scope": scope}
        )
        return [RatingChange(g, (mb, sb), (ma, sa), at) for g, mb, sb, ma, sa, at in rows]


def _history_entry(row: Any) -> HistoryEntry:
    (game_id, ended_at, status, end_reason, players, partnerships, target) = row[:7]
    forfeit_seat, seat, side = row[7:10]
    outcome, score, given, taken, others, mu_before, sigma_before, mu_after, sigma_after = row[10:]
    if status == "abandoned" and forfeit_seat is not None:
        end_reason = "aborted"  # stored as abandoned, with who left (bot/sessions/bookkeeping.py)
    seats = [Participant(*o) for o in json.loads(others or "[]")]
    return HistoryEntry(
        game_id=game_id,
        ended_at=ended_at,
        status=status,
        end_reason=end_reason,
        players=players,
        partnerships=bool(partnerships),
        target=target,
        forfeit_seat=forfeit_seat,
        seat=seat,
        side=side,
        outcome=outcome,
        score=score,
        skunk_given=given,
        skunk_taken=taken,
        partners=tuple(p for p in seats if p.side == side),
        opponents=tuple(p for p in seats if p.side != side),
        rating_before=None if mu_before is None else (mu_before, sigma_before),
        rating_after=None if mu_after is None else (mu_after, sigma_after),
    )
