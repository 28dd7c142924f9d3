"""Database bytes per finished game, for ``benchmarks/sessions.py``.

Whole games of people clicking random legal buttons are played to 121 on a new database, as on
a server: Discord-sized ids (so the rows are as wide as in production), ratings on, a clock that
advances by a person's thinking time (about 3 s) at each move. The figure is the growth of the
file's pages in use (``page_count - freelist_count``: a free page is reused before the file
grows) divided by the games, measured after a few games so that every table has its first
pages. Figures (``name: value unit``):

* ``db_bytes_per_finished_game``: two players (``_3p``: three; ``_4p``: four in partnerships);
* ``db_bytes_per_finished_game_as_rows``: the same two-player games with their logs kept as rows
  (as before schema 7); then that database is opened as after an upgrade: ``compact_per_game``
  is the time its background compaction takes per game, ``compact_write_wait_p50`` / ``_max``
  how long a write (a click's) made every 10 ms meanwhile takes;
* ``final_act_extra``: how much longer the move that ends a game takes than the median move
  (its transaction writes the results, rates the game and compacts it; ``_as_rows``: the same
  without compacting).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import db.archive
from bot.engine import Variant
from bot.ratings import RATER
from bot.sessions import (
    GameSessionManager,
    Join,
    Move,
    OpenLobby,
    Outcome,
    PrivateView,
    ShowHand,
    Start,
)
from db import Store

SNOWFLAKE = 1_100_000_000_000_000_000  # Discord ids are 18-19 digits
WARM_UP = 4


class ThinkingClock:
    """A clock that moves on by a random thinking time each time it is read."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.now = 1.76e9 + rng.random() * 1e6

    def __call__(self) -> float:
        self.now += self.rng.expovariate(1 / 3.0)
        return self.now


def bytes_in_use(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, free, size = (
            conn.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_count", "freelist_count", "page_size")
        )
    finally:
        conn.close()
    return int((pages - free) * size)


async def play_games(
    path: Path, variant: Variant, count: int, seed: int, latencies: list[tuple[bool, float]]
) -> None:
    """``count`` games played to the end; each move's (ended the game, latency) is appended."""
    rng = random.Random(seed)
    store = await Store.open(path, synchronous="NORMAL")
    try:
        await store.standings.enable_ratings(RATER)
        manager = GameSessionManager(store, clock=ThinkingClock(random.Random(seed)))
        await manager.resume()
        people = [SNOWFLAKE + rng.randrange(10**17) for _ in range(12)]
        for n in range(count):
            seated = rng.sample(people, variant.players)
            lobby = await manager.lobbies.open(OpenLobby(
                guild_id=SNOWFLAKE - 1, channel_id=SNOWFLAKE + seed * 10**6 + n,
                host_id=seated[0], variant=variant))  # fmt: skip
            assert isinstance(lobby.game_id, int)
            for user in seated[1:]:
                assert (await manager.lobbies.join(Join(lobby.game_id, user))).ok
            assert isinstance(await manager.lobbies.start(Start(lobby.game_id, seated[0])), Outcome)
            while True:
                view = manager.live.view(lobby.game_id)
                assert view is not None
                user = rng.choice(view.to_act_users)
                mine = manager.hands.private_view(ShowHand(lobby.game_id, user))
                assert isinstance(mine, PrivateView)
                action = rng.choice(mine.legal_actions)
                start = time.perf_counter()
                outcome = await manager.play.act(Move(lobby.game_id, user, action, step=mine.step))
                assert isinstance(outcome, Outcome), outcome
                latencies.append((outcome.finished is not None, time.perf_counter() - start))
                if outcome.finished is not None:
                    break
    finally:
        await store.close()


async def per_game(path: Path, variant: Variant, games: int, seed: int) -> tuple[float, list]:
    """Bytes in use per finished game, and the moves' latencies."""
    latencies: list[tuple[bool, float]] = []
    await play_games(path, variant, WARM_UP, seed, [])
    before = bytes_in_use(path)
    await play_games(path, variant, games, seed + 1, latencies)
    return (bytes_in_use(path) - before) / games, latencies


async def as_rows(path: Path, games: int, seed: int) -> tuple[float, list]:
    """Like :func:`per_game` for two players, the logs kept as rows (as before schema 7)."""
    keep: Callable[..., Awaitable[bool]] = db.archive.archive_or_keep

    async def no_archive(conn: object, game_id: int) -> bool:
        return False

    db.archive.archive_or_keep = no_archive  # type: ignore[assignment]
    try:
        return await per_game(path, Variant(2), games, seed)
    finally:
        db.archive.archive_or_keep = keep  # type: ignore[assignment]


async def compact_times(path: Path) -> tuple[float, list[float], int]:
    """(seconds per game, the waits of writes made meanwhile, games) compacting a database of
    ended games kept as rows, as the store does in the background after an upgrade."""
    store = await Store.open(path, synchronous="FULL")
    try:
        began = time.perf_counter()
        task = store.games.start_archiving()  # the one Store.open started
        waits = []
        while not task.done():  # a click's write every 10 ms meanwhile
            start = time.perf_counter()
            await store.meta.set("benchmark", str(start))
            waits.append(time.perf_counter() - start)
            await asyncio.sleep(0.01)
        done = await task
        elapsed = time.perf_counter() - began
    finally:
        await store.close()
    return elapsed / max(done, 1), waits, done


def final_extra(latencies: list[tuple[bool, float]]) -> float:
    """The median move that ends a game minus the median other move, in seconds."""
    final = statistics.median(t for ended, t in latencies if ended)
    return final - statistics.median(t for ended, t in latencies if not ended)


async def size_figures(folder: Path, games: int) -> list[str]:
    """The figures of the module docstring, as ``name: value unit`` lines."""
    lines = []
    two, latencies = await per_game(folder / "size-2p.db", Variant(2), games, 10)
    lines.append(f"db_bytes_per_finished_game: {two:.0f} bytes")
    three, _ = await per_game(folder / "size-3p.db", Variant(3), games, 20)
    lines.append(f"db_bytes_per_finished_game_3p: {three:.0f} bytes")
    four, _ = await per_game(folder / "size-4p.db", Variant(4, partnerships=True), games, 30)
    lines.append(f"db_bytes_per_finished_game_4p: {four:.0f} bytes")
    rows_path = folder / "size-rows.db"
    rows, row_latencies = await as_rows(rows_path, games, 10)
    lines.append(f"db_bytes_per_finished_game_as_rows: {rows:.0f} bytes")
    each, waits, _ = await compact_times(rows_path)
    lines.append(f"compact_per_game: {each * 1000:.2f} ms")
    lines.append(f"compact_write_wait_p50: {statistics.median(waits) * 1000:.1f} ms")
    lines.append(f"compact_write_wait_max: {max(waits) * 1000:.1f} ms")
    lines.append(f"final_act_extra: {final_extra(latencies) * 1000:.2f} ms")
    lines.append(f"final_act_extra_as_rows: {final_extra(row_latencies) * 1000:.2f} ms")
    return lines
