"""Standings benchmark: the leaderboard, stats and history over 100,000 recorded games.

Run from the repository root: .venv/bin/python benchmarks/leaderboard.py [--games N] [--repeat N]
Prints one ``name: value unit`` line per figure; exits 1 if the leaderboard misses its budget
(50 ms).

The database is built in a temporary directory: the schema by the store itself, then games,
seats, results, per-deal points, standings and rating history in one bulk transaction. The
standings hold synthetic ratings (from each player's win rate): what the queries read is shaped
like the real thing, but 100,000 games are not run through openskill here. The real rating path
is timed separately: a game ending through ``store.games.record_result`` (rated in its
transaction) on the full database, and the start-up catch-up of games that ended unrated. No
``ANALYZE``: the bot never runs it either.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ratings import RATER  # noqa: E402
from db import Store  # noqa: E402
from db.standings import COMPUTER_PLAYERS  # noqa: E402
from tests.support.leaderboard import record_game  # noqa: E402

BUDGET_MS = 50.0
PLAYERS = 10_000
GUILDS = 100
HEAVY = 1  # a user who sits in about 2% of all games
LEVELS = ("easy", "standard", "expert")


def fill(path: Path, games: int, rng: random.Random) -> None:
    """Bulk-load ``games`` finished games into the (already migrated) database at ``path``.

    One transaction, no journal; the secondary indexes are dropped first and created again at
    the end (the same definitions, read back from the schema), rows go in primary-key order."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    indexes = conn.execute(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL "
        "AND tbl_name IN ('games', 'seats', 'results', 'standings', 'rating_history')"
    ).fetchall()
    conn.execute("BEGIN")
    for name, _ in indexes:
        conn.execute(f"DROP INDEX {name}")
    per_guild = PLAYERS // GUILDS
    # per-deal (pegging, hand, crib): a seat's deals are a slice of one random pool
    deal_pool = [(rng.randrange(8), rng.randrange(16), rng.randrange(10)) for _ in range(9973)]
    prefix = [(0, 0, 0)]
    for pegging, hand, crib in deal_pool:
        last = prefix[-1]
        prefix.append((last[0] + pegging, last[1] + hand, last[2] + crib))
    game_rows, seat_rows, result_rows, seat_deals, facts = [], [], [], [], []
    for game_id in range(1, games + 1):
        guild = rng.randrange(GUILDS)
        kind = rng.random()
        players, partnerships, computers = 2, 0, 0
        if kind < 0.10:
            players = 3
        elif kind < 0.20:
            players, partnerships = 4, 1
        elif kind < 0.30:
            computers = 1
        target = 121 if rng.random() < 0.8 else 61
        users = rng.sample(range(guild * per_guild + 100, (guild + 1) * per_guild + 100), players)
        if rng.random() < 0.02:
            users[0] = HEAVY
        sides = 2 if partnerships else players
        winner = rng.randrange(sides)
        scores = [
            target if s == winner else rng.randint(target // 2, target - 1) for s in range(sides)
        ]
        ended = 1_600_000_000 + game_id * 60.0
        game_rows.append(
            (game_id, guild + 1, game_id, players, partnerships, target, ended, ended, winner)
        )
        deals = rng.randint(6, 12) if target == 121 else rng.randint(3, 7)
        line = target - 30
        pool = "computers" if computers else "people"
        for seat in range(players):
            side = seat % 2 if partnerships else seat
            computer = LEVELS[rng.randrange(3)] if computers and seat == players - 1 else None
            user = None if computer else users[seat]
            seat_rows.append((game_id, seat, user, computer, side if partnerships else None))
            won = side == winner
            taken = 0 if won else 2 if target == 121 and scores[side] < 61 else scores[side] < line
            losers = [sc for s, sc in enumerate(scores) if s != winner]
            given = int(won and min(losers) < line)
            best = rng.choice((4, 6, 8, 8, 10, 12, 12, 14, 16, 20, 24, 29))
            start = rng.randrange(len(deal_pool) - deals)
            sums = [prefix[start + deals][k] - prefix[start][k] for k in range(3)]
            result_rows.append(
                (game_id, seat, side, "won" if won else "lost", int(won), scores[side], given)
                + (int(taken), *sums, best)
            )
            seat_deals.append((game_id, seat, deals, start))
            player = COMPUTER_PLAYERS[computer] if computer else user
            facts.append((game_id, player, pool, guild + 1, int(won), given, int(taken > 0)))
    conn.executemany(
        "INSERT INTO games (id, guild_id, channel_id, status, players, partnerships, target, "
        "host_id, created_at, updated_at, started_at, ended_at, end_reason, winner_side, rated_at) "
        "VALUES (?1, ?2, ?3, 'finished', ?4, ?5, ?6, 1, ?7, ?7, ?7, ?8, 'won', ?9, ?8)",
        game_rows,
    )
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, computer, team, joined_at) "
        "VALUES (?, ?, ?, ?, ?, 0)",
        seat_rows,
    )
    conn.executemany(
        "INSERT INTO results (game_id, seat, side, outcome, won, final_score, skunk_given, "
        "skunk_taken, pegging, hand, crib, best_hand, best_hand_cards) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '5H 5C 5S JD|5D')",
        result_rows,
    )
    conn.execute("CREATE TEMP TABLE pool (i INTEGER PRIMARY KEY, pegging, hand, crib)")
    conn.executemany(
        "INSERT INTO pool VALUES (?, ?, ?, ?)", [(i, *d) for i, d in enumerate(deal_pool)]
    )
    conn.execute("CREATE TEMP TABLE seat_deals (game_id, seat, deals, start)")
    conn.executemany("INSERT INTO seat_deals VALUES (?, ?, ?, ?)", seat_deals)
    conn.execute(
        """INSERT INTO deal_points (game_id, deal, seat, pegging, hand, crib, hand_value,
                                    hand_cards)
        WITH RECURSIVE n(deal) AS (SELECT 1 UNION ALL SELECT deal + 1 FROM n WHERE deal < 12)
        SELECT s.game_id, n.deal, s.seat, p.pegging, p.hand, p.crib, p.hand, '5H 5C 5S JD|5D'
        FROM seat_deals s JOIN n ON n.deal <= s.deals JOIN pool p ON p.i = s.start + n.deal - 1
        ORDER BY s.game_id, n.deal, s.seat"""
    )
    conn.execute(
        "CREATE TEMP TABLE facts (game_id INTEGER, player INTEGER, pool TEXT, guild INTEGER, "
        "won INTEGER, given INTEGER, taken INTEGER)"
    )
    conn.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?)", facts)
    for scope, pool in itertools.product(("0", "guild"), ("pool", "'all'")):
        conn.execute(
            f"""INSERT INTO standings (pool, scope, player, mu, sigma, ordinal, games, wins,
                                       forfeits, skunks_given, skunks_taken, last_game)
            SELECT pool, scope, player, mu, sigma, (mu - 3 * sigma) * 10, games, wins, 0, given,
                   taken, last_game
            FROM (
                SELECT {pool} AS pool, {scope} AS scope, player,
                       25 + 20 * (AVG(won) - 0.5) AS mu, 1 + 7.33 / sqrt(COUNT(*)) AS sigma,
                       COUNT(*) AS games, SUM(won) AS wins, SUM(given) AS given,
                       SUM(taken) AS taken, MAX(game_id) AS last_game
                FROM facts GROUP BY 1, 2, 3
            )"""
        )
    history = sorted(
        (game_id, p, scope, player, ended)
        for game_id, player, pool, guild, *_ in facts
        for p in (pool, "all")
        for scope in (0, guild)
        for ended in (1_600_000_000 + game_id * 60.0,)
    )
    conn.executemany(
        "INSERT OR IGNORE INTO rating_history (game_id, pool, scope, player, mu_before, "
        "sigma_before, mu_after, sigma_after, rated_at) VALUES (?, ?, ?, ?, 25, 8, 25.5, 7.9, ?)",
        history,
    )
    for _, sql in indexes:
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def timed(samples: list[float]):
    """An async context timer appending milliseconds to ``samples``."""

    class _Timer:
        async def __aenter__(self):
            self.start = time.perf_counter()

        async def __aexit__(self, *exc):
            samples.append((time.perf_counter() - self.start) * 1000)

    return _Timer()


async def measure(store: Store, repeat: int, rng: random.Random) -> dict[str, tuple[float, float]]:
    """(median, max) milliseconds per query."""
    figures: dict[str, list[float]] = {}

    async def run(name: str, call) -> None:
        samples = figures.setdefault(name, [])
        for _ in range(repeat):
            async with timed(samples):
                await call()

    async def page(**kwargs):
        board = await store.standings.leaderboard(**kwargs)
        assert board.rows, kwargs

    player = PLAYERS // 2 + 100
    await run("leaderboard", lambda: page(player=player))
    for sort in ("wins", "win rate", "skunks"):
        await run(
            f"leaderboard_{sort.replace(' ', '_')}", lambda s=sort: page(sort=s, player=player)
        )
    await run("leaderboard_page_50", lambda: page(page=50, player=player))
    await run("leaderboard_server", lambda: page(scope=1 + rng.randrange(GUILDS), player=player))
    await run("leaderboard_computers", lambda: page(pool="computers", player=player))
    await run("stats", lambda: store.standings.player_stats(player))
    await run("stats_heavy_player", lambda: store.standings.player_stats(HEAVY))
    await run("history", lambda: store.standings.player_history(player))
    await run("history_heavy_player", lambda: store.standings.player_history(HEAVY))
    return {name: (statistics.median(s), max(s)) for name, s in figures.items() if s}


async def finish_and_rate(store: Store, repeat: int) -> tuple[float, float]:
    """A game ending through the store, rated in the same transaction (median, max ms)."""
    samples = []
    games = store.games
    original = games.record_result

    async def timed_record(game_id, finish, *, now):
        start = time.perf_counter()
        await original(game_id, finish, now=now)
        samples.append((time.perf_counter() - start) * 1000)

    games.record_result = timed_record  # type: ignore[method-assign]
    for i in range(repeat):
        await record_game(
            store,
            [HEAVY, 200 + i],
            [121, 90 + i % 20],
            winner=0,
            channel_id=10**9 + i,
            now=2_000_000_000.0 + i,
        )
    games.record_result = original  # type: ignore[method-assign]
    return statistics.median(samples), max(samples)


async def catch_up(store: Store, games: int) -> float:
    """Games per second rated by the start-up catch-up (games that ended while unrated)."""
    store.standings.rater = None  # as if an older bot ended them
    for i in range(games):
        await record_game(
            store,
            [300 + i % 50, 400 + i % 37],
            [121, 100],
            winner=0,
            channel_id=2 * 10**9 + i,
            now=2_100_000_000.0 + i,
        )
    start = time.perf_counter()
    rated = await store.standings.enable_ratings(RATER)
    elapsed = time.perf_counter() - start
    assert rated == games, rated
    return games / elapsed


async def main_async(args) -> int:
    rng = random.Random(2024)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        store = await Store.open(path)
        await store.close()
        start = time.perf_counter()
        fill(path, args.games, rng)
        fill_s = time.perf_counter() - start
        store = await Store.open(path)
        try:
            await store.standings.enable_ratings(RATER)
            figures = await measure(store, args.repeat, rng)
            figures["finish_and_rate"] = await finish_and_rate(store, args.repeat)
            per_second = await catch_up(store, 500)
        finally:
            await store.close()
        size_mb = path.stat().st_size / 1e6
    print(f"games: {args.games} games")
    print(f"players: {PLAYERS} players")
    print(f"fill_time: {fill_s:.1f} s")
    print(f"database_size: {size_mb:.0f} MB")
    for name, (median, worst) in figures.items():
        print(f"{name}_ms: {median:.2f} ms")
        print(f"{name}_max_ms: {worst:.2f} ms")
    print(f"catch_up_rate: {per_second:.0f} games/s")
    worst = max(figures[n][0] for n in figures if n.startswith("leaderboard"))
    print(f"leaderboard_budget_ms: {BUDGET_MS:.0f} ms")
    return 0 if worst <= BUDGET_MS else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
