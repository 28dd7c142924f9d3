"""Session manager benchmark: concurrent games through GameSessionManager on a real database.

    .venv/bin/python benchmarks/sessions.py [--games 200] [--think-ms 1000] [--seconds 10]
                                            [--resume-games 1000] [--synchronous both]
                                            [--size-games 100] [--database URL]

Two-player games of humans clicking random legal buttons; every ``act`` is timed from the call
to the durable outcome (commit included). Figures, one per line as ``name: value unit``:

* ``act_p50`` / ``act_p99``: ``--games`` games at once, each player clicking on average every
  ``--think-ms`` ms (200 games at 1 s: 200 clicks a second, several times what humans on
  Discord produce);
* ``act_p99_stress``: the same with a 100 ms pause (10x that load);
* ``actions_per_second`` / ``act_p99_saturated``: every game clicking with no pause at all (the
  throughput ceiling; latency is then queueing: about games / throughput);
* ``resume_<n>_games``: a cold start: open the store, load ``n`` active games, replay a sample
  against their logs;
* ``memory_per_game``: Python memory held per active game after that resume (tracemalloc);
* ``db_bytes_per_finished_game`` (and ``_3p``, ``_4p``, ``_as_rows``, ``compact_per_game``,
  ``compact_write_wait_p50`` / ``_max``, ``final_act_extra``): ``--size-games`` whole games to
  121 per figure, the database's pages in use per finished game (:mod:`benchmarks.db_size`;
  0: skipped).

``--synchronous``: the clicking figures with the store's ``synchronous=FULL`` (the bot's
setting: an acknowledged move survives a power cut; one fsync of the WAL per group-committed
batch), with ``NORMAL`` (a process crash only; figures suffixed ``_normal``), or ``both`` (the
default: the cost of FULL, measured in the same run).

``--database URL``: the same figures on PostgreSQL (a ``postgresql://`` URL; the default is a
new SQLite file per figure in a temporary directory). Each figure gets a new schema of that
database (``bench_<pid>_<figure>``), dropped at the end; ``--synchronous`` and the size figures
are SQLite's and are left out. A throwaway server, as the tests start one (no ``fsync``: its
figures leave out the disk's sync, which a production server pays at each commit)::

    .venv/bin/python -c "import subprocess, sys; from tests.support import postgres
    server = postgres.start()
    try: subprocess.run([sys.executable, 'benchmarks/sessions.py', '--database',
                         server.url('public')], check=True)
    finally: postgres.stop(server)"

Goals: act_p99 <= 20 ms at 200 games, resume of 1,000 games <= 1 s, <= 64 KB per game,
<= 3 KB of database per finished game.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
import tracemalloc
import urllib.parse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from bot.sessions import Join, Move, OpenLobby, ShowHand, Start

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.db_size import size_figures  # noqa: E402
from bot.engine import Variant  # noqa: E402
from bot.sessions import GameSessionManager, Outcome, PrivateView  # noqa: E402
from db import Store, pg  # noqa: E402
from db.opening import Synchronous  # noqa: E402

#: Where a figure's database is: a new SQLite file or PostgreSQL schema, by the figure's name.
Target = Path | str


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def open_games(manager: GameSessionManager, count: int, first_channel: int) -> list[int]:
    """``count`` started two-player games of humans (users 2c and 2c+1)."""
    games = []
    for n in range(count):
        channel = first_channel + n
        lobby = await manager.lobbies.open(
            OpenLobby(guild_id=1, channel_id=channel, host_id=2 * channel, variant=Variant(2))
        )
        await manager.lobbies.join(Join(lobby.game_id, 2 * channel + 1))
        outcome = await manager.lobbies.start(Start(lobby.game_id, 2 * channel))
        assert isinstance(outcome, Outcome), outcome
        games.append(lobby.game_id)
    return games


async def click(manager: GameSessionManager, game_id: int, rng: random.Random) -> float | None:
    """One random legal click by a player who must act; its latency (None if the game ended)."""
    view = manager.live.view(game_id)
    if view is None:
        return None
    user = rng.choice(view.to_act_users)
    mine = manager.hands.private_view(ShowHand(game_id, user))
    assert isinstance(mine, PrivateView), mine
    action = rng.choice(mine.legal_actions)
    start = time.perf_counter()
    outcome = await manager.play.act(Move(game_id, user, action, step=mine.step))
    latency = time.perf_counter() - start
    assert outcome.ok, outcome
    return latency


async def play(
    manager: GameSessionManager, games: list[int], think: float, seconds: float, seed: int
) -> tuple[list[float], float]:
    """Every game clicks until ``seconds`` pass (a finished game is replaced by a new one)."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    channels = iter(range(10**6 + seed * 10**5, 10**7))

    async def player(game_id: int, rng: random.Random) -> None:
        while time.perf_counter() < deadline:
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
            latency = await click(manager, game_id, rng)
            if latency is None:
                (game_id,) = await open_games(manager, 1, next(channels))
            else:
                latencies.append(latency)

    began = time.perf_counter()
    await asyncio.gather(*(player(g, random.Random(seed * 7919 + g)) for g in games))
    return latencies, time.perf_counter() - began


async def fill(manager: GameSessionManager, count: int, rng: random.Random) -> None:
    """``count`` active games, each stopped somewhere in its first deals."""
    games = await open_games(manager, count, 10**8)

    async def advance(game_id: int, clicks: int) -> None:
        for _ in range(clicks):
            if await click(manager, game_id, rng) is None:
                return

    await asyncio.gather(*(advance(g, rng.randint(2, 60)) for g in games))


async def resume_time(path: Target) -> tuple[float, int]:
    start = time.perf_counter()
    store = await Store.open(path)
    manager = GameSessionManager(store)
    report = await manager.resume()
    elapsed = time.perf_counter() - start
    await store.close()
    return elapsed, report.active


async def resume_memory(path: Target) -> tuple[float, int]:
    store = await Store.open(path)
    manager = GameSessionManager(store)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    report = await manager.resume(verify=0)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del manager
    await store.close()
    return grown / max(1, report.active), report.active


async def clicking(args: argparse.Namespace, path: Target, synchronous: Synchronous) -> None:
    """The clicking figures on a new database with this ``synchronous`` setting (SQLite's)."""
    suffix = "" if synchronous == "FULL" else f"_{synchronous.lower()}"
    store = await Store.open(path, synchronous=synchronous)
    manager = GameSessionManager(store)
    await manager.resume()
    games = await open_games(manager, args.games, 1)
    paced, paced_time = await play(manager, games, args.think_ms / 1000, args.seconds, 1)
    live = [v.game_id for v in manager.live.games()][: args.games]
    stress, _ = await play(manager, live, 0.1, args.seconds / 2, 2)
    live = [v.game_id for v in manager.live.games()][: args.games]
    rushed, rushed_time = await play(manager, live, 0.0, args.seconds / 2, 3)
    await store.close()

    ms = 1000
    print(f"database{suffix}: {store.dialect}")
    if store.dialect == "sqlite":
        print(f"synchronous{suffix}: {synchronous}")
    print(f"games{suffix}: {args.games} games")
    print(f"act_p50{suffix}: {percentile(paced, 0.50) * ms:.2f} ms")
    print(f"act_p99{suffix}: {percentile(paced, 0.99) * ms:.2f} ms")
    print(f"paced_actions_per_second{suffix}: {len(paced) / paced_time:.0f} actions/s")
    print(f"act_p50_stress{suffix}: {percentile(stress, 0.50) * ms:.2f} ms")
    print(f"act_p99_stress{suffix}: {percentile(stress, 0.99) * ms:.2f} ms")
    print(f"actions_per_second{suffix}: {len(rushed) / rushed_time:.0f} actions/s")
    print(f"act_p99_saturated{suffix}: {percentile(rushed, 0.99) * ms:.2f} ms")


def schema_url(url: str, schema: str) -> str:
    """``url`` naming ``schema`` (its ``schema`` query parameter replaced)."""
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "schema"]
    query.append(("schema", schema))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


@asynccontextmanager
async def databases(url: str | None) -> AsyncIterator[Callable[[str], Target]]:
    """A new database by a figure's name: a file of a temporary directory, or (``url``) a new
    schema of that PostgreSQL database, each dropped at the end."""
    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            yield lambda name: Path(tmp) / f"{name}.db"
        return
    if not pg.is_url(url):
        raise SystemExit(f"--database must be a postgresql:// URL, not {pg.redact(url)}")
    made: list[str] = []

    def schema(name: str) -> str:
        made.append(f"bench_{os.getpid()}_{name.replace('-', '_')}")
        return schema_url(url, made[-1])

    try:
        yield schema
    finally:
        if made:
            conn = await asyncpg.connect(pg.split_url(url)[0])
            try:
                for name in made:
                    await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            finally:
                await conn.close()


async def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    modes: tuple[Synchronous, ...] = (
        ("FULL", "NORMAL") if args.synchronous == "both" else (args.synchronous,)
    )
    if args.database is not None:
        modes = ("FULL",)  # PostgreSQL: the server's own durability
    async with databases(args.database) as new_database:
        for mode in modes:
            await clicking(args, new_database(f"bench-{mode.lower()}"), mode)

        ms = 1000
        resume_path = new_database("resume")
        store = await Store.open(resume_path)
        manager = GameSessionManager(store)
        await manager.resume()
        await fill(manager, args.resume_games, random.Random(3))
        await store.close()
        del manager
        elapsed, active = await resume_time(resume_path)
        print(f"resume_{active}_games: {elapsed * ms:.0f} ms")
        per_game, active = await resume_memory(resume_path)
        print(f"memory_per_game: {per_game / 1024:.1f} KB")
    if args.size_games and args.database is None:
        with tempfile.TemporaryDirectory() as folder:
            for line in await size_figures(Path(folder), args.size_games):
                print(line)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument(
        "--think-ms", type=float, default=1000.0, help="mean pause per click (1000)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="paced run length (10)")
    parser.add_argument("--resume-games", type=int, default=1000, help="games to resume (1000)")
    parser.add_argument(
        "--size-games", type=int, default=100, help="games per database size figure (100)"
    )
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "NORMAL", "both"),
        default="both",
        help="the store's synchronous setting for the clicking figures (both: FULL, then NORMAL)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a postgresql:// URL to measure on (a new schema per figure); default: SQLite files",
    )
    raise SystemExit(asyncio.run(main(parser.parse_args())))
