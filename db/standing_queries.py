"""The statements of the standings' reads (:mod:`db.leaderboard` runs them): the leaderboard
page with the caller's rank, a player's statistics, history and rating changes. A fixed set,
built once: nothing from users reaches the SQL but bound parameters.

The leaderboard and the rating changes are SQLAlchemy Core. A player's statistics and history
are one ``text`` per dialect (their joins, window and JSON functions read better as SQL), side
by side: they differ only where the dialects do (:data:`IN_ORDER`, :data:`JSON_ROWS`).

Which games a scope holds: everywhere (``0``) every game; a server's, its games; a season's
(a negative scope, :mod:`db.seasons`), the games of its server that ended while it was open.
The statistics and history are told this as ``:guild`` (``0``: any) and ``:since`` /
``:until`` (both included; ``NULL``: no bound); the ratings they show are the ``:scope``'s own
rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    CompoundSelect,
    FromClause,
    Integer,
    Select,
    TextClause,
    and_,
    bindparam,
    cast,
    func,
    literal_column,
    null,
    or_,
    select,
    text,
    union_all,
)

from . import schema as t
from .connection import Dialect

#: Players with fewer games than this (in the pool and scope shown) are listed as provisional.
PROVISIONAL_GAMES = 5

#: A sort key: an expression over a row of ``standings`` (an alias), and whether the greater
#: value ranks first.
Key = tuple[Callable[[FromClause], ColumnElement[Any]], bool]


def _settled(row: FromClause) -> ColumnElement[Any]:
    """Whether the player is no longer provisional: the first key of the win rate, written as
    the ``standings_by_win_rate`` index is (the number in the statement, not a parameter)."""
    return row.c.games >= literal_column(str(PROVISIONAL_GAMES), Integer)


def _win_rate(row: FromClause) -> ColumnElement[Any]:
    return cast(row.c.wins, t.FLOAT).op("/")(row.c.games)


#: Each sort's keys, best first. The last key is the player id, so the order is total.
SORTS: dict[str, tuple[Key, ...]] = {
    "rating": (
        (lambda r: r.c.ordinal, True),
        (lambda r: r.c.games, True),
        (lambda r: r.c.player, False),
    ),
    "wins": (
        (lambda r: r.c.wins, True),
        (lambda r: r.c.ordinal, True),
        (lambda r: r.c.player, False),
    ),
    "win rate": (
        (_settled, True),
        (_win_rate, True),
        (lambda r: r.c.games, True),
        (lambda r: r.c.player, False),
    ),
    "skunks": (
        (lambda r: r.c.skunks_given, True),
        (lambda r: r.c.wins, True),
        (lambda r: r.c.player, False),
    ),
}
COLUMNS = ("player", "mu", "sigma", "games", "wins", "forfeits", "skunks_given", "skunks_taken")

_POOL = bindparam("pool", type_=t.TEXT)
_SCOPE = bindparam("scope", type_=t.INT)


def _order_by(keys: tuple[Key, ...], row: FromClause) -> list[ColumnElement[Any]]:
    return [key(row).desc() if desc else key(row) for key, desc in keys]


def _ahead(keys: tuple[Key, ...], row: FromClause, me: FromClause) -> ColumnElement[bool]:
    """Row ``row`` ranks before row ``me``: better on one key, equal on every key before it."""
    terms = []
    for i, (key, desc) in enumerate(keys):
        equal = [k(row) == k(me) for k, _ in keys[:i]]
        better = key(row) > key(me) if desc else key(row) < key(me)
        terms.append(and_(*equal, better))
    return or_(*terms)


def _in_scope(row: FromClause) -> ColumnElement[bool]:
    return and_(row.c.pool == _POOL, row.c.scope == _SCOPE)


def _leaderboard(sort: str) -> CompoundSelect[Any]:
    """One statement: the page (LIMIT/OFFSET along the sort's index), the player's row with its
    rank (1 + the rows ahead of it), and the number of players ranked."""
    keys = SORTS[sort]
    offset = bindparam("offset", type_=Integer)
    s = t.standings.alias("s")
    page = (
        select(*(s.c[name] for name in COLUMNS), s.c.ordinal)
        .where(_in_scope(s))
        .order_by(*_order_by(keys, s))
        .limit(bindparam("size", type_=Integer))
        .offset(offset)
        .subquery("p")
    )
    m, ahead = t.standings.alias("m"), t.standings.alias("x")
    rank = (
        select(func.count())
        .select_from(ahead)
        .where(_in_scope(ahead), _ahead(keys, ahead, m))
        .scalar_subquery()
    )
    total = t.standings.alias("n")
    return union_all(
        select(
            literal_column("'page'"),
            offset + func.row_number().over(order_by=_order_by(keys, page)),
            *(page.c[name] for name in COLUMNS),
        ),
        select(literal_column("'me'"), 1 + rank, *(m.c[name] for name in COLUMNS)).where(
            _in_scope(m), m.c.player == bindparam("player", type_=t.INT)
        ),
        select(literal_column("'total'"), func.count(), *([null()] * len(COLUMNS))).where(
            _in_scope(total)
        ),
    )


#: The leaderboard's statement of each sort (:func:`_leaderboard`).
LEADERBOARD: dict[str, CompoundSelect[Any]] = {sort: _leaderboard(sort) for sort in SORTS}

_h = t.rating_history.c
RATING_HISTORY: Select[Any] = (
    select(_h.game_id, _h.mu_before, _h.sigma_before, _h.mu_after, _h.sigma_after, _h.rated_at)
    .where(_h.player == bindparam("player"), _h.pool == _POOL, _h.scope == _SCOPE)
    .order_by(_h.game_id)
)

#: How each dialect joins tables in the order written: SQLite's ``CROSS JOIN ... ON`` keeps the
#: left table the outer loop (from the player's seats, along ``seats_by_user``, never from every
#: finished game); PostgreSQL's planner orders the joins itself.
IN_ORDER: dict[Dialect, str] = {"sqlite": "CROSS JOIN", "postgresql": "JOIN"}
#: The opening of an aggregate making a JSON list of one JSON list per row.
JSON_ROWS: dict[Dialect, str] = {
    "sqlite": "json_group_array(json_array(",
    "postgresql": "json_agg(json_build_array(",
}

# A comparison is a number on SQLite and a boolean on PostgreSQL: the sums count truths as
# CAST(... AS INTEGER), the same on both. The rank is the leaderboard's rating sort's (ties
# broken alike): one plus the players ahead.
_STATS = """
    WITH mine AS MATERIALIZED (
        SELECT r.game_id, r.seat, r.side, r.won, r.outcome, r.skunk_given, r.skunk_taken,
               r.pegging, r.hand, r.crib, r.heels, r.best_hand, r.best_hand_cards, g.ended_at,
               EXISTS (SELECT 1 FROM seats c WHERE c.game_id = r.game_id AND c.computer IS NOT NULL)
                   AS computers,
               COALESCE((SELECT MAX(d.deal) FROM deal_points d WHERE d.game_id = r.game_id),
                        (SELECT z.deals FROM game_archive z WHERE z.game_id = r.game_id))
                   AS deals
        FROM seats s
        {in_order} games g ON g.id = s.game_id
        {in_order} results r ON r.game_id = s.game_id AND r.seat = s.seat
        WHERE s.user_id = :user AND g.status = 'finished' AND (:guild = 0 OR g.guild_id = :guild)
          AND (:since IS NULL OR g.ended_at >= :since) AND (:until IS NULL OR g.ended_at <= :until)
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
        {in_order} results ro ON ro.game_id = m.game_id AND ro.side <> m.side
        {in_order} seats o ON o.game_id = ro.game_id AND o.seat = ro.seat
        WHERE o.user_id IS NOT NULL
        GROUP BY o.user_id ORDER BY games DESC, wins DESC, o.user_id LIMIT 1
    ),
    rating AS (
        SELECT player, mu, sigma, ordinal, games FROM standings
        WHERE pool = 'people' AND scope = :scope AND player = :user
    )
    SELECT COUNT(*), COALESCE(SUM(won), 0),
           COALESCE(SUM(CAST(outcome = 'forfeited' AS INTEGER)), 0),
           COALESCE(SUM(CAST(skunk_given > 0 AS INTEGER)), 0),
           COALESCE(SUM(CAST(skunk_taken > 0 AS INTEGER)), 0),
           COALESCE(SUM(CAST(computers AS INTEGER)), 0),
           COALESCE(SUM(CAST(computers AND won = 1 AS INTEGER)), 0),
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
           (SELECT COUNT(*) + 1 FROM standings x JOIN rating ON TRUE
            WHERE x.pool = 'people' AND x.scope = :scope
              AND (x.ordinal > rating.ordinal
                   OR (x.ordinal = rating.ordinal AND x.games > rating.games)
                   OR (x.ordinal = rating.ordinal AND x.games = rating.games
                       AND x.player < rating.player))),
           (SELECT COUNT(*) FROM standings WHERE pool = 'people' AND scope = :scope)
    FROM mine
"""

_HISTORY = """
    WITH latest AS MATERIALIZED (
        SELECT s.game_id, s.seat, g.ended_at
        FROM seats s
        {in_order} games g ON g.id = s.game_id
        WHERE s.user_id = :user AND g.status IN ('finished', 'abandoned')
          AND (:guild = 0 OR g.guild_id = :guild)
          AND (:since IS NULL OR g.ended_at >= :since) AND (:until IS NULL OR g.ended_at <= :until)
        ORDER BY g.ended_at DESC, g.id DESC
        LIMIT :limit
    )
    SELECT g.id, g.ended_at, g.status, g.end_reason, g.players, g.partnerships, g.target,
           g.forfeit_seat, r.seat, r.side, r.outcome, r.final_score, r.skunk_given, r.skunk_taken,
           (SELECT {json_rows}o.seat, ro.side, o.user_id, o.computer, ro.final_score))
            FROM results ro JOIN seats o ON o.game_id = ro.game_id AND o.seat = ro.seat
            WHERE ro.game_id = g.id AND ro.seat <> r.seat),
           h.mu_before, h.sigma_before, h.mu_after, h.sigma_after
    FROM latest l
    {in_order} games g ON g.id = l.game_id
    {in_order} results r ON r.game_id = l.game_id AND r.seat = l.seat
    LEFT JOIN rating_history h  -- the game's own pool: 'people' or 'computers'
        ON h.game_id = g.id AND h.pool IN ('people', 'computers') AND h.scope = :scope
        AND h.player = :user
    ORDER BY g.ended_at DESC, g.id DESC
"""

#: Parameters PostgreSQL must be told the type of (``:guild = 0`` alone would make it a
#: 32-bit integer, too small for a guild id; ``:since IS NULL`` alone, of no type at all).
_BINDS = (
    bindparam("user", type_=BigInteger()),
    bindparam("scope", type_=BigInteger()),
    bindparam("guild", type_=BigInteger()),
    bindparam("since", type_=t.FLOAT),
    bindparam("until", type_=t.FLOAT),
    bindparam("limit", type_=Integer()),
)


def _text(sql: str, **names: str) -> TextClause:
    used = [b for b in _BINDS if f":{b.key}" in sql]
    return text(sql.format(**names)).bindparams(*used)


#: A player's statistics: one row (games, wins, ..., rank, players ranked).
STATS: dict[Dialect, TextClause] = {
    "sqlite": _text(_STATS, in_order=IN_ORDER["sqlite"]),
    "postgresql": _text(_STATS, in_order=IN_ORDER["postgresql"]),
}
#: A player's latest ended games, newest first (the other seats as a JSON list).
HISTORY: dict[Dialect, TextClause] = {
    "sqlite": _text(_HISTORY, in_order=IN_ORDER["sqlite"], json_rows=JSON_ROWS["sqlite"]),
    "postgresql": _text(
        _HISTORY, in_order=IN_ORDER["postgresql"], json_rows=JSON_ROWS["postgresql"]
    ),
}

_se = t.seasons.c
#: A season's server and the times its games ended between (``ended_at`` NULL: open).
SEASON_BOUNDS: Select[Any] = select(_se.guild_id, _se.started_at, _se.ended_at).where(
    _se.id == bindparam("season")
)
