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
with computers). And in two scopes: everywhere (``0``) and its server; a game of a server that
ends while one of its seasons is open (:mod:`db.seasons`) counts in a third, the season's
(``-`` its id). So a game makes up to six rating updates, each a separate rating with its own
history.

A player's first game of a season starts from a new player's rating when the season resets,
or, when it carries softly, from their rating in the server just before that game, its sigma
multiplied by the season's ``widen`` (never past a new player's sigma): :func:`_starting`.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from sqlalchemy import Insert, and_, bindparam, insert, literal_column, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .archive import indexed_by
from .connection import Connection, Dialect

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


_g, _r, _s, _st, _se = t.games.c, t.results.c, t.seats.c, t.standings.c, t.seasons.c
#: The finished games not rated yet, oldest first. The partial index ``games_to_rate`` holds
#: only these, in order: never a scan of games (its condition written as constants, which
#: SQLite needs to choose a partial index).
_PENDING = (
    indexed_by(select(_g.id, _g.guild_id, _g.target, _g.ended_at), t.games, "games_to_rate")
    .where(_g.status == literal_column("'finished'"), _g.rated_at.is_(None))
    .order_by(_g.ended_at, _g.id)
    .limit(bindparam("limit"))
)
_SEATS = (
    select(_r.side, _r.outcome, _r.final_score, _r.skunk_given, _r.skunk_taken)
    .add_columns(_s.user_id, _s.computer)
    .select_from(t.results.join(t.seats, and_(_s.game_id == _r.game_id, _s.seat == _r.seat)))
    .where(_r.game_id == bindparam("game"))
    .order_by(_r.side, _r.seat)
)
#: A game has at most four players (four seats; a computer level counts once): the ratings of
#: fewer are read with the last one repeated.
_MOST_PLAYERS = 4
#: The season of a server a game that ended at ``ended`` counts in (the one open then: from
#: its start to its end, both included; the later one at a shared instant).
_SEASON = (
    select(_se.id, _se.carry, _se.widen)
    .where(
        _se.guild_id == bindparam("guild"),
        _se.started_at <= bindparam("ended"),
        or_(_se.ended_at.is_(None), _se.ended_at >= bindparam("ended")),
    )
    .order_by(_se.started_at.desc())
    .limit(1)
)
_CURRENT = select(_st.player, _st.mu, _st.sigma).where(
    _st.pool == bindparam("pool"),
    _st.scope == bindparam("scope"),
    _st.player.in_([bindparam(f"player{n}") for n in range(_MOST_PLAYERS)]),
)


def _upsert(dialect_insert: Any) -> Insert:
    """A player's new rating in a pool and scope, with one more game in the running totals."""
    statement = dialect_insert(t.standings).values(
        pool=bindparam("pool"),
        scope=bindparam("scope"),
        player=bindparam("player"),
        mu=bindparam("mu"),
        sigma=bindparam("sigma"),
        ordinal=bindparam("ordinal"),
        games=1,
        wins=bindparam("wins"),
        forfeits=bindparam("forfeits"),
        skunks_given=bindparam("skunks_given"),
        skunks_taken=bindparam("skunks_taken"),
        last_game=bindparam("last_game"),
    )
    new = statement.excluded
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[_st.pool, _st.scope, _st.player],
        set_={
            "mu": new.mu,
            "sigma": new.sigma,
            "ordinal": new.ordinal,
            "games": _st.games + 1,
            "wins": _st.wins + new.wins,
            "forfeits": _st.forfeits + new.forfeits,
            "skunks_given": _st.skunks_given + new.skunks_given,
            "skunks_taken": _st.skunks_taken + new.skunks_taken,
            "last_game": new.last_game,
        },
    )
    return upsert


#: :func:`_upsert` per dialect (the same ``INSERT ... ON CONFLICT``, each dialect's construct).
_UPSERT: dict[Dialect, Insert] = {
    "sqlite": _upsert(sqlite.insert),
    "postgresql": _upsert(postgresql.insert),
}
_HISTORY = insert(t.rating_history).values(
    game_id=bindparam("game_id"),
    scope=bindparam("scope"),
    player=bindparam("player"),
    pool=bindparam("pool"),
    mu_before=bindparam("mu_before"),
    sigma_before=bindparam("sigma_before"),
    mu_after=bindparam("mu_after"),
    sigma_after=bindparam("sigma_after"),
    rated_at=bindparam("now"),
)
_RATED = (
    update(t.games)
    .where(_g.id == bindparam("game"), _g.rated_at.is_(None))
    .values(rated_at=bindparam("now"))
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
    await conn.driver_sql("SAVEPOINT rating")
    rated = 0
    try:
        pending = await conn.execute_fetchall(_PENDING, {"limit": limit})
        for game_id, guild_id, target, ended_at in pending:
            await rate_game(conn, rater, game_id, guild_id, target, now, ended_at=ended_at)
            rated += 1
    except Exception:
        log.exception("Rating finished games failed; they stay due and are retried later")
        await conn.driver_sql("ROLLBACK TO rating")
        rated = 0
    await conn.driver_sql("RELEASE rating")
    return rated


async def rate_game(
    conn: Connection,
    rater: Rater,
    game_id: int,
    guild_id: int | None,
    target: int,
    now: float,
    *,
    ended_at: float | None = None,
) -> None:
    """Count one finished game in its pool and in ``all``, everywhere, in its server and in the
    server's season open when it ended (``ended_at``)."""
    sides: dict[int, list[int]] = {}
    scores: dict[int, int] = {}
    won: dict[int, bool] = {}
    forfeited: dict[int, bool] = {}
    skunk_taken: dict[int, int] = {}
    tallies: dict[int, _Tally] = {}
    own_pool = PEOPLE
    for side, outcome, score, given, taken, user_id, computer in await conn.execute_fetchall(
        _SEATS, {"game": game_id}
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
    if len(players) > _MOST_PLAYERS:
        raise ValueError(f"Game {game_id} has {len(players)} players in its results")
    asked = {f"player{n}": players[min(n, len(players) - 1)] for n in range(_MOST_PLAYERS)}
    scopes = [EVERYWHERE] if guild_id is None else [EVERYWHERE, guild_id]
    season = None
    if guild_id is not None and ended_at is not None:
        found = await conn.execute_fetchall(_SEASON, {"guild": guild_id, "ended": ended_at})
        season = found[0] if found else None
    if season is not None:
        scopes.append(-season[0])
    # every rating before the game, read before any is written (a soft season starts from
    # the server's rating before this game)
    before: dict[tuple[str, int], dict[int, tuple[float, float]]] = {}
    for pool, scope in itertools.product((own_pool, ALL), scopes):
        before[pool, scope] = {
            player: (mu, sigma)
            for player, mu, sigma in await conn.execute_fetchall(
                _CURRENT, {"pool": pool, "scope": scope, **asked}
            )
        }
    for pool, scope in itertools.product((own_pool, ALL), scopes):
        current = before[pool, scope]
        if season is not None and scope == -season[0]:
            _, carry, widen = season
            assert guild_id is not None
            current = _starting(current, before[pool, guild_id], players, carry, widen, rater)
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
        upserts: list[dict[str, Any]] = []
        history: list[dict[str, Any]] = []
        for player in players:
            # a computer level seated twice gets the mean of its two updates
            mu = sum(r.mu for r in entries[player]) / len(entries[player])
            sigma = sum(r.sigma for r in entries[player]) / len(entries[player])
            ordinal = sum(r.ordinal for r in entries[player]) / len(entries[player])
            tally = tallies[player]
            upserts.append(
                {
                    "pool": pool,
                    "scope": scope,
                    "player": player,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": ordinal,
                    "wins": tally.won,
                    "forfeits": tally.forfeited,
                    "skunks_given": tally.skunk_given,
                    "skunks_taken": tally.skunk_taken,
                    "last_game": game_id,
                }
            )
            mu_before, sigma_before = current.get(player, rater.default)
            history.append(
                {
                    "game_id": game_id,
                    "scope": scope,
                    "player": player,
                    "pool": pool,
                    "mu_before": mu_before,
                    "sigma_before": sigma_before,
                    "mu_after": mu,
                    "sigma_after": sigma,
                    "now": now,
                }
            )
        await conn.executemany(_UPSERT[conn.dialect], upserts)
        await conn.executemany(_HISTORY, history)
    cursor = await conn.execute(_RATED, {"now": now, "game": game_id})
    if cursor.rowcount != 1:
        raise RuntimeError(f"Game {game_id} was rated twice")


def _starting(
    season: dict[int, tuple[float, float]],
    server: dict[int, tuple[float, float]],
    players: Sequence[int],
    carry: str,
    widen: float,
    rater: Rater,
) -> dict[int, tuple[float, float]]:
    """The season's ratings of ``players`` before a game: their own where they have one; for a
    player's first game of the season, a new player's (``reset``) or their server rating with
    its sigma widened (``soft``; a new player's when they have none there either)."""
    default_sigma = rater.default[1]
    start = dict(season)
    for player in players:
        if player in start:
            continue
        if carry == "soft" and player in server:
            mu, sigma = server[player]
            start[player] = (mu, min(default_sigma, max(sigma, sigma * widen)))
        else:
            start[player] = rater.default
    return start
