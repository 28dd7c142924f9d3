"""Standings and ratings: how a finished game is counted, once, inside the store's write path.

A finished game (won or forfeited; abandoned games never count, nor aborted ones: a forfeit
before the first show is stored as abandoned) is *rated*: in the same transaction that ends
it, :func:`rate_pending` reads the current ratings of its players, asks the
``rater`` (a pure function, :func:`bot.ratings.rate_result` in the bot) for the new ones, and
writes them with the running totals (``standings``), one ``rating_history`` row per player, and
``games.rated_at`` as the mark that it was counted. It awaits nothing but SQLite, under the
store's write lock, so two games ending together are rated one after the other.

Games are rated in the order they ended. Every call rates *all* the finished games not yet
rated (normally just the one ending now): games that ended while no rater was set (an older
bot, or a store opened without ratings) are caught up first, by
:meth:`db.leaderboard.Standings.enable_ratings` at start and by the next game that ends. If
the rater fails, that work is rolled back to a savepoint (the game still ends) and retried
later.

Each game counts in two pools: ``people`` when only people sat or ``computers`` when a computer
did (kept apart from the rankings of people; computers are rated there too, as players ``-1``
easy, ``-2`` standard, ``-3`` expert), and ``all`` (every game, for servers that count games
with computers). And in two scopes: everywhere (``0``) and its server. So a game makes up to
four rating updates, each a separate rating with its own history.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from .sql_connection import Connection

log = logging.getLogger(__name__)

PEOPLE: Final = "people"
COMPUTERS: Final = "computers"
ALL: Final = "all"
EVERYWHERE = 0  # the scope of the global standings; any other scope is a guild id
COMPUTER_PLAYERS = {"easy": -1, "standard": -2, "expert": -3}
COMPUTER_LEVELS = {player: level for level, player in COMPUTER_PLAYERS.items()}


@dataclass(frozen=True, slots=True)
class RatedSide:
    """One side of a finished game, as the rater sees it."""

    side: int
    players: tuple[int, ...]  # user ids; computers as negative ids (COMPUTER_PLAYERS)
    ratings: tuple[tuple[float, float], ...]  # (mu, sigma) before the game
    score: int
    won: bool
    forfeited: bool
    skunk_taken: int


class NewRating(Protocol):
    @property
    def mu(self) -> float: ...

    @property
    def sigma(self) -> float: ...

    @property
    def ordinal(self) -> float: ...


class Rater(Protocol):
    """The rating model: ``default`` (mu, sigma) for a new player, and a call that returns, per
    side, the new rating of each of its players (:class:`bot.ratings.OpenSkillRater`)."""

    @property
    def default(self) -> tuple[float, float]: ...

    def __call__(
        self, sides: Sequence[RatedSide], *, target: int
    ) -> Sequence[Sequence[NewRating]]: ...


PENDING = (  # the partial index holds only the games due, in order: never a scan of games
    "SELECT id, guild_id, target FROM games INDEXED BY games_to_rate "
    "WHERE status = 'finished' AND rated_at IS NULL ORDER BY ended_at, id LIMIT ?"
)
SEATS = (
    "SELECT r.side, r.outcome, r.final_score, r.skunk_given, r.skunk_taken, s.user_id, "
    "s.computer FROM results r JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
    "WHERE r.game_id = ? ORDER BY r.side, r.seat"
)
CURRENT = (
    "SELECT player, mu, sigma FROM standings "
    "WHERE pool = ? AND scope = ? AND player IN (SELECT value FROM json_each(?))"
)
UPSERT = """
    INSERT INTO standings (pool, scope, player, mu, sigma, ordinal, games, wins, forfeits,
                           skunks_given, skunks_taken, last_game)
    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
    ON CONFLICT (pool, scope, player) DO UPDATE SET
        mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
        games = standings.games + 1,
        wins = standings.wins + excluded.wins,
        forfeits = standings.forfeits + excluded.forfeits,
        skunks_given = standings.skunks_given + excluded.skunks_given,
        skunks_taken = standings.skunks_taken + excluded.skunks_taken,
        last_game = excluded.last_game
"""
HISTORY = (
    "INSERT INTO rating_history (game_id, scope, player, pool, mu_before, sigma_before, "
    "mu_after, sigma_after, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass
class _Tally:
    """One player's part in one game (a computer level may hold several seats)."""

    won: int = 0
    forfeited: int = 0
    skunk_given: int = 0
    skunk_taken: int = 0


async def rate_pending(conn: Connection, rater: Rater, now: float, *, limit: int = 64) -> int:
    """Rate the finished games not rated yet, oldest first (at most ``limit``); return how many.

    Call inside a write transaction; on PostgreSQL it first waits for the transaction lock
    ``ratings``, so that processes sharing the database rate each game once, in order. A
    failing rater is logged and its work rolled back to a
    savepoint: the caller's transaction goes on, the games stay due.
    """
    if conn.dialect == "postgresql":  # processes sharing PostgreSQL rate one at a time
        await conn.transaction_lock("ratings")
    await conn.execute("SAVEPOINT rating")
    rated = 0
    try:
        for game_id, guild_id, target in await conn.execute_fetchall(PENDING, (limit,)):
            await rate_game(conn, rater, game_id, guild_id, target, now)
            rated += 1
    except Exception:
        log.exception("Rating finished games failed; they stay due and are retried later")
        await conn.execute("ROLLBACK TO rating")
        rated = 0
    await conn.execute("RELEASE rating")
    return rated


async def rate_game(
    conn: Connection,
    rater: Rater,
    game_id: int,
    guild_id: int | None,
    target: int,
    now: float,
) -> None:
    """Count one finished game in its pool and in ``all``, everywhere and in its server."""
    sides: dict[int, list[int]] = {}
    scores: dict[int, int] = {}
    won: dict[int, bool] = {}
    forfeited: dict[int, bool] = {}
    skunk_taken: dict[int, int] = {}
    tallies: dict[int, _Tally] = {}
    own_pool = PEOPLE
    for side, outcome, score, given, taken, user_id, computer in await conn.execute_fetchall(
        SEATS, (game_id,)
    ):
        if user_id is None:
            own_pool = COMPUTERS
            player = COMPUTER_PLAYERS[computer]
        else:
            player = user_id
        sides.setdefault(side, []).append(player)
        scores[side], skunk_taken[side] = score, taken
        won[side] = won.get(side, False) or outcome == "won"
        forfeited[side] = forfeited.get(side, False) or outcome == "forfeited"
        tally = tallies.setdefault(player, _Tally())
        tally.won = max(tally.won, int(outcome == "won"))
        tally.forfeited = max(tally.forfeited, int(outcome == "forfeited"))
        tally.skunk_given = max(tally.skunk_given, int(given > 0))
        tally.skunk_taken = max(tally.skunk_taken, int(taken > 0))
    if len(sides) < 2:
        raise ValueError(f"Game {game_id} has {len(sides)} sides in its results")
    order = sorted(sides)
    players = sorted(tallies)
    scopes = (EVERYWHERE,) if guild_id is None else (EVERYWHERE, guild_id)
    for pool, scope in itertools.product((own_pool, ALL), scopes):
        current = {
            player: (mu, sigma)
            for player, mu, sigma in await conn.execute_fetchall(
                CURRENT, (pool, scope, json.dumps(players))
            )
        }
        rated_sides = [
            RatedSide(
                side=side,
                players=tuple(sides[side]),
                ratings=tuple(current.get(p, rater.default) for p in sides[side]),
                score=scores[side],
                won=won[side],
                forfeited=forfeited[side],
                skunk_taken=skunk_taken[side],
            )
            for side in order
        ]
        new = rater(rated_sides, target=target)
        entries: dict[int, list[NewRating]] = {}
        for rated_side, ratings in zip(rated_sides, new, strict=True):
            for player, rating in zip(rated_side.players, ratings, strict=True):
                entries.setdefault(player, []).append(rating)
        upserts, history = [], []
        for player in players:
            # a computer level seated twice gets the mean of its two updates
            mu = sum(r.mu for r in entries[player]) / len(entries[player])
            sigma = sum(r.sigma for r in entries[player]) / len(entries[player])
            ordinal = sum(r.ordinal for r in entries[player]) / len(entries[player])
            t = tallies[player]
            upserts.append(
                (pool, scope, player, mu, sigma, ordinal, t.won, t.forfeited)
                + (t.skunk_given, t.skunk_taken, game_id)
            )
            before = current.get(player, rater.default)
            history.append((game_id, scope, player, pool, *before, mu, sigma, now))
        await conn.executemany(UPSERT, upserts)
        await conn.executemany(HISTORY, history)
    cursor = await conn.execute(
        "UPDATE games SET rated_at = ? WHERE id = ? AND rated_at IS NULL", (now, game_id)
    )
    if cursor.rowcount != 1:
        raise RuntimeError(f"Game {game_id} was rated twice")
