"""The SQL of the standings' reads (:mod:`db.leaderboard` runs it): the leaderboard page with
the caller's rank, a player's statistics, history and rating changes. A fixed set of statements:
nothing from users reaches the SQL but bound parameters."""

from __future__ import annotations

from . import archive, pg

#: Players with fewer games than this (in the pool and scope shown) are listed as provisional.
PROVISIONAL_GAMES = 5

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
#: PostgreSQL: a truth is no number (``SUM((...)::int)``), and a join without ``ON`` is a
#: ``CROSS JOIN``.
STATS = pg.override(
    STATS,
    pg.sum_of_truths(
        STATS.replace("JOIN rating\n", "CROSS JOIN rating\n"),
        "outcome = 'forfeited'",
        "skunk_given > 0",
        "skunk_taken > 0",
        "computers",
    ).replace("SUM(computers AND won)", "SUM((computers AND won = 1)::int)"),
)

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
           g.forfeit_seat, r.seat, r.side, r.outcome, r.final_score, r.skunk_given, r.skunk_taken,
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
