"""End-to-end benchmark: whole games through the real discord.py client and the emulator.

Run from the repository root: .venv/bin/python benchmarks/e2e.py [--games 50] [--in-process]

Prints a whole 2-player game's time alone, then N games played concurrently (each in its own
channel, two scripted players clicking), with the latency of every click (from the click to the
bot's first response, as the emulator measures it).

By default the bot is the real ``python -m bot`` in its own process, as it is deployed: Discord
and its thousands of users are not on the bot's machine, and here the emulator and the scripted
players are the busier program (they parse every message the bot sends and click for a hundred
people). ``--in-process`` runs the bot object in the benchmark's own event loop instead, sharing
one core with the emulator and the players: a harsher, less realistic figure.

``bot_token_requests_per_click`` counts the requests made with the bot token (everything but
the interaction callback and the interaction webhooks, which Discord exempts from the global
limit of 50/s per token) per click, and ``http_429`` the 429s the emulator answered: it
enforces Discord's rate limits (``discord_emulator/ratelimits.py``). The unprefixed pair
is the paced phase's (the issue's goal: at most 0.3 requests per click, 0 429s).

``bot_cpu_ms_per_click`` is the CPU time of the bot process and its painters (user + system,
from /proc) divided by the clicks it answered: its cost per click whatever the machine is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from discord_emulator import DiscordEmulator  # noqa: E402
from tests.support.discord_players import Driver, Seat, bot_environment, make_bot  # noqa: E402

HUMAN_THINK = 2.0  # seconds a person takes for a click (the paced default)
ARRIVALS = 10  # paced games start over the first ARRIVALS thinking times (20 s by default)


async def one_game(
    emu, guild, bot, index: int, think: float = 0.0
) -> tuple[float, list[float], int]:
    channel = emu.add_text_channel(guild, f"table-{index}")
    alice = emu.add_user(f"alice{index}")
    bob = emu.add_user(f"bob{index}")
    driver = Driver(emu, channel, bot, think=think, seed=index)
    if think:  # people sit down at their tables over a while, not all in the same millisecond
        await asyncio.sleep(random.Random(index).uniform(0, ARRIVALS * think))
    start = time.perf_counter()
    await driver.start_game(alice, [bob])
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    seats[bob.id].rng.seed(index)
    await driver.play_out(seats)
    return time.perf_counter() - start, driver.latencies, driver.clicks


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.asynccontextmanager
async def bot_process(emu: DiscordEmulator, database: Path, script: str | None = None):
    """``python -m bot`` (or ``script``, e.g. one that instruments the bot and then runs it) in
    its own process on ``database``, connected to ``emu``."""
    command = emu.launch_command(script) if script else emu.launch_command(module="bot")
    log = open(database.with_suffix(".log"), "wb")  # noqa: SIM115
    process = await asyncio.create_subprocess_exec(
        *command, cwd=database.parent, env=bot_environment(database), stdout=log, stderr=log
    )
    try:
        await emu.wait_ready(timeout=60)
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), timeout=20)
        log.close()


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of process ``pid`` and every process under it (the bot's painter
    processes), from Linux's /proc; 0 when unknown."""
    if pid is None:
        return 0.0
    ticks_per_second = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}  # pid: (parent, seconds)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # it ended meanwhile
            ticks = int(fields[11]) + int(fields[12])
            stats[int(entry.name)] = (int(fields[1]), ticks / ticks_per_second)
    family, grew = {pid}, True
    while grew:
        grew = False
        for child, (parent, _) in stats.items():
            if parent in family and child not in family:
                family.add(child)
                grew = True
    return sum(seconds for p, (_, seconds) in stats.items() if p in family)


async def main(
    games: int, think: float, in_process: bool, phases: str = "both", script: str | None = None
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator(keep_records=2000) as emu:
            guild = emu.add_guild("Benchmark")
            database = Path(tmp) / "bench.db"
            if in_process:
                bot = make_bot(database)
                running, pid = emu.running(bot), None
            else:
                bot, running = None, bot_process(emu, database, script)
            async with running as process:
                if not in_process:
                    pid = process.pid
                print(f"bot_in_own_process: {0 if in_process else 1} bool")
                cpu = cpu_seconds(pid)
                limits = emu.rest.limits  # Discord's rate limits (emulator ratelimits.py)
                with limits.scaled(0):  # machine speed: the limits counted, not enforced
                    alone, latencies, clicks = await one_game(emu, guild, bot, 0)
                if pid is not None:  # the wall time includes the players' waits for quiet
                    print(f"game_alone_bot_cpu_seconds: {cpu_seconds(pid) - cpu:.3f} s")
                print(f"game_alone_seconds: {alone:.3f} s")
                print(f"game_alone_clicks: {clicks} clicks")
                # what the two players waited for the bot, all game: every click's answer
                print(f"game_alone_waited_seconds: {sum(latencies):.3f} s")
                print(f"click_alone_p50: {percentile(latencies, 0.5) * 1000:.1f} ms")
                # paced first: the realistic load, on a bot and emulator fresh from one game
                # (after the saturated burst the emulator holds some 20,000 messages, and its
                # own pauses would be counted in the latency it measures)
                for label, pause in (("paced", think), ("saturated", 0.0)):
                    if phases not in ("both", label):
                        continue
                    start = time.perf_counter()
                    cpu = cpu_seconds(pid)
                    requests_before, refused_before = limits.bot_token_requests, limits.http_429
                    refused_by_bucket_before = limits.refused_by_bucket.copy()
                    offset = 1000 * (1 if pause == 0 else 2)  # channel and user names
                    # people think HUMAN_THINK s a click: a faster pace meets Discord's
                    # limits scaled with it; no pause: counted, not enforced
                    with limits.scaled(min(1.0, pause / HUMAN_THINK)):
                        results = await asyncio.gather(
                            *(one_game(emu, guild, bot, offset + i, pause) for i in range(games))
                        )
                    wall = time.perf_counter() - start
                    report(label, games, wall, results)
                    clicks = sum(c for _, _, c in results)
                    per_click = (limits.bot_token_requests - requests_before) / clicks
                    print(f"{label}_bot_token_requests_per_click: {per_click:.3f} requests")
                    print(f"{label}_http_429: {limits.http_429 - refused_before} responses")
                    if label == "paced":  # the figures are the human-paced ones
                        print(f"bot_token_requests_per_click: {per_click:.3f} requests")
                        print(f"http_429: {limits.http_429 - refused_before} responses")
                        refused = limits.refused_by_bucket - refused_by_bucket_before
                        for bucket, count in sorted(refused.items()):  # one line a bucket
                            print(f"http_429_{bucket}: {count} responses")
                    if pid is not None:
                        clicks = sum(c for _, _, c in results)
                        used = (cpu_seconds(pid) - cpu) * 1000 / clicks
                        print(f"{label}_bot_cpu_ms_per_click: {used:.2f} ms")


def report(label: str, games: int, wall: float, results) -> None:
    """Saturated: players click with no pause (throughput; latency is queueing). Paced:
    players pause like people between clicks (latency under a realistic load)."""
    all_latencies = [lat for _, lats, _ in results for lat in lats]
    game_times = [t for t, _, _ in results]
    total_clicks = sum(c for _, _, c in results)
    print(f"{label}_games: {games} games")
    print(f"{label}_wall_seconds: {wall:.2f} s")
    print(f"{label}_clicks_per_second: {total_clicks / wall:.0f} clicks/s")
    print(f"{label}_click_p50: {percentile(all_latencies, 0.5) * 1000:.1f} ms")
    print(f"{label}_click_p99: {percentile(all_latencies, 0.99) * 1000:.1f} ms")
    print(f"{label}_game_time_median: {statistics.median(game_times):.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds a paced player waits per click"
    )
    parser.add_argument(
        "--in-process", action="store_true", help="run the bot in this process's event loop"
    )
    parser.add_argument("--phases", choices=("both", "saturated", "paced"), default="both")
    parser.add_argument("--bot-script", help="run this script as the bot process, not -m bot")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(args.games, args.think, args.in_process, args.phases, args.bot_script))
