"""Reading the standings: the leaderboard, a player's statistics and history, rating changes.

:class:`Standings` is the repository ``store.standings``, on the
:class:`~db.connection.Database` it receives. Each query is one SQL statement, served by an
index:

* the leaderboard reads only ``standings`` (kept by :mod:`db.standings` as games end), never
  the games: the page walks the sort's index (``LIMIT``/``OFFSET``), the caller's rank is one
  plus the rows ahead of theirs, in one statement. Its cost grows with the players of the
  scope, not with the games recorded;
* statistics and history start from the player's seats (``seats_by_user``) and read the
  ``games``, ``results`` (which hold each seat's point sums), ``deal_points`` (the number of
  deals) and ``rating_history`` rows of those games by primary key. Their cost grows with the
  player's number of games, not with the database.

Scopes: ``0`` is everywhere, any other number a guild id. Pools: ``"people"`` (games where only
people sat), ``"computers"`` (games with a computer seat) and ``"all"`` (every game).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from . import archive, standings
from .connection import Database
from .standings import ALL, COMPUTERS, EVERYWHERE, PEOPLE, Rater

#: Players with fewer games than this (in the pool and scope shown) are listed as provisional.
PROVISIONAL_GAMES = 5
PAGE_SIZE = 10
CATCH_UP_BATCH = 200

Pool = Literal["people", "computers", "all"]
Sort = Literal["rating", "wins", "win rate", "skunks"]

#: Each sort's keys, best first: (SQL over the row ``{t}``, descending?). The last key is the
#: player id, so the order is total. A fixed set: nothing from users reaches the SQL.
SORTS: dict[str, tuple[tuple[str, bool], ...]] = {
    "rating": (("{t}.ordinal", True), ("{t}.games", True), ("{t}.player", False)),
    "wins": (("{t}.wins", True), ("{t}.ordinal", True), ("{t}.player", False)),
    "win rate": (
        (f"({{t}}.games >= {PROVISIONAL_GAMES})", True),
        ("CAST({t}.wins AS REAL) / {t}.games", True),
        ("{t}.games", True),
        ("{t}.player", False),
    ),
    "skunks": (("{t}.skunks_given", True), ("{t}.wins", True), ("{t}.player", False)),
}
COLUMNS = "player, mu, sigma, games, wins, forfeits, skunks_given, skunks_taken"


def _order_by(keys: tuple[tuple[str, bool], ...], t: str) -> str:
    return ", ".join(key.format(t=t) + (" DESC" if desc else "") for key, desc in keys)


def _ahead(keys: tuple[tuple[str, bool], ...], t: str, me: str) -> str:
    """Row ``t`` ranks before row ``me``: better on one key, equal on every key before it."""
    terms = []
    for i, (key, desc) in enumerate(keys):
        equal = [f"{k.format(t=t)} = {k.format(t=me)}" for k, _ in keys[:i]]
        better = f"{key.format(t=t)} {'>' if desc else '<'} {key.format(t=me)}"
        terms.append("(" + " AND ".join([*equal, better]) + ")")
    return " OR ".join(terms)


def leaderboard_sql(sort: str) -> str:
    """One statement: the page (LIMIT/OFFSET along the sort's index), the player's row with its
    rank (1 + the rows ahead of it), and the number of players ranked."""
    keys = SORTS[sort]
    return f"""
        SELECT 'page', :offset + ROW_NUMBER() OVER (ORDER BY {_order_by(keys, "p")}), {COLUMNS}
        FROM (
            SELECT {COLUMNS}, ordinal FROM standings s WHERE pool = :pool AND scope = :scope
            ORDER BY {_order_by(keys, "s")} LIMIT :size OFFSET :offset
        ) AS p
        UNION ALL
        SELECT 'me', 1 + (SELECT COUNT(*) FROM standings s WHERE s.pool = :pool
                          AND s.scope = :scope AND ({_ahead(keys, "s", "m")})), {COLUMNS}
        FROM standings m WHERE pool = :pool AND scope = :scope AND player = :player
        UNION ALL
        SELECT 'total', COUNT(*), {", ".join(["NULL"] * 8)}
        FROM standings WHERE pool = :pool AND scope = :scope
    """


RANKED_AHEAD = _ahead(SORTS["rating"], "x", "rating")  # as on the leaderboard: ties broken alike

STATS = f"""
    WITH mine AS MATERIALIZED (
        SELECT r.game_id, r.seat, r.side, r.won, r.outcome, r.skunk_given, r.skunk_taken,
               r.pegging, r.hand, r.crib, r.heels, r.best_hand, r.best_hand_cards, g.ended_at,
               EXISTS (SELECT 1 FROM seats c WHERE c.game_id = r.game_id AND c.computer IS NOT NULL)
                   AS computers,
               {archive.deals_of("r.game_id")} AS deals
        FROM seats s  -- CROSS JOIN keeps this order: from the player's seats (seats_by_user)
        CROSS JOIN games g ON g.id = s.game_id
        CROSS JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat
        WHERE s.user_id = :user AND g.status = 'finished' AND (:scope = 0 OR g.guild_id = :scope)
    ),
    ordered AS MATERIALIZED (
        SELECT won, ROW_NUMBER() OVER (ORDER BY ended_at DESC, game_id DESC) AS n FROM mine
    ),
    best AS (
        SELECT best_hand, best_hand_cards, game_id FROM mine WHERE best_hand IS NOT NULL
        ORDER BY best_hand DESC, ended_at, game_id LIMIT 1
    ),
    rival AS (
        SELECT o.user_id AS rival, COUNT(*) AS games, SUM(m.won) AS wins
        FROM mine m
        CROSS JOIN results ro ON ro.game_id = m.game_id AND ro.side <> m.side
        CROSS JOIN seats o ON o.game_id = ro.game_id AND o.seat = ro.seat
        WHERE o.user_id IS NOT NULL
        GROUP BY o.user_id ORDER BY games DESC, wins DESC, o.user_id LIMIT 1
    ),
    rating AS (
        SELECT player, mu, sigma, ordinal, games FROM standings
        WHERE pool = 'people' AND scope = :scope AND player = :user
    )
    SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(outcome = 'forfeited'), 0),
           COALESCE(SUM(skunk_given > 0), 0), COALESCE(SUM(skunk_taken > 0), 0),
           COALESCE(SUM(computers), 0), COALESCE(SUM(computers AND won), 0),
           COALESCE(SUM(deals), 0),
           COALESCE(SUM(pegging), 0), COALESCE(SUM(hand), 0), COALESCE(SUM(crib), 0),
           COALESCE(SUM(heels), 0),
           (SELECT best_hand FROM best), (SELECT best_hand_cards FROM best),
           (SELECT game_id FROM best),
           (SELECT won FROM ordered WHERE n = 1),
           COALESCE(
               (SELECT MIN(n) FROM ordered WHERE won <> (SELECT won FROM ordered WHERE n = 1)) - 1,
               COUNT(*)
           ),
           (SELECT rival FROM rival), (SELECT games FROM rival), (SELECT wins FROM rival),
           (SELECT mu FROM rating), (SELECT sigma FROM rating), (SELECT games FROM rating),
           (SELECT COUNT(*) + 1 FROM standings x JOIN rating
            WHERE x.pool = 'people' AND x.scope = :scope AND ({RANKED_AHEAD})),
           (SELECT COUNT(*) FROM standings WHERE pool = 'people' AND scope = :scope)
    FROM mine
"""

HISTORY = """
    WITH latest AS MATERIALIZED (
        SELECT s.game_id, s.seat, g.ended_at
        FROM seats s  -- CROSS JOIN keeps this order: from the player's seats (seats_by_user)
        CROSS JOIN games g ON g.id = s.game_id
        WHERE s.user_id = :user AND g.status IN ('finished', 'abandoned')
          AND (:scope = 0 OR g.guild_id = :scope)
        ORDER BY g.ended_at DESC, g.id DESC
        LIMIT :limit
    )
    SELECT g.id, g.ended_at, g.status, g.end_reason, g.players, g.partnerships, g.target,
           r.side, r.outcome, r.final_score, r.skunk_given, r.skunk_taken,
           (SELECT json_group_array(json_array(o.seat, ro.side, o.user_id, o.computer,
                                               ro.final_score))
            FROM results ro JOIN seats o ON o.game_id = ro.game_id AND o.seat = ro.seat
            WHERE ro.game_id = g.id AND ro.seat <> r.seat),
           h.mu_before, h.sigma_before, h.mu_after, h.sigma_after
    FROM latest l
    CROSS JOIN games g ON g.id = l.game_id
    CROSS JOIN results r ON r.game_id = l.game_id AND r.seat = l.seat
    LEFT JOIN rating_history h  -- the game's own pool: 'people' or 'computers'
        ON h.game_id = g.id AND h.pool IN ('people', 'computers') AND h.scope = :scope
        AND h.player = :user
    ORDER BY g.ended_at DESC, g.id DESC
"""

RATING_HISTORY = """
    SELECT game_id, mu_before, sigma_before, mu_after, sigma_after, rated_at
    FROM rating_history
    WHERE player = :player AND pool = :pool AND scope = :scope
    ORDER BY game_id
"""


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
    end_reason: str  # 'won', 'forfeit', 'abandoned'
    players: int
    partnerships: bool
    target: int
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
        page = max(0, page)
        rows = await self._database.fetchall(
            leaderboard_sql(sort),
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
        (row,) = await self._database.fetchall(STATS, {"user": user_id, "scope": scope})
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
        rows = await self._database.fetchall(
            HISTORY, {"user": user_id, "scope": scope, "limit": limit}
        )
        return [_history_entry(row) for row in rows]

    async def rating_history(
        self, player: int, *, pool: Pool = PEOPLE, scope: int = EVERYWHERE
    ) -> list[RatingChange]:
        """Every rating change of a player in a pool and scope, oldest first."""
        rows = await self._database.fetchall(
            RATING_HISTORY, {"player": player, "pool": pool, "scope": scope}
        )
        return [RatingChange(g, (mb, sb), (ma, sa), at) for g, mb, sb, ma, sa, at in rows]


def _history_entry(row: Any) -> HistoryEntry:
    (game_id, ended_at, status, end_reason, players, partnerships, target, side) = row[:8]
    outcome, score, given, taken, others, mu_before, sigma_before, mu_after, sigma_after = row[8:]
    seats = [Participant(*o) for o in json.loads(others or "[]")]
    return HistoryEntry(
        game_id=game_id,
        ended_at=ended_at,
        status=status,
        end_reason=end_reason,
        players=players,
        partnerships=bool(partnerships),
        target=target,
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
