"""End-to-end benchmark: whole games through the real discord.py client and the emulator.

Run from the repository root: .venv/bin/python benchmarks/e2e.py [--games 50]

Prints a whole 2-player game's time alone, then N games played concurrently (each in its own
channel, two scripted players clicking), with the latency of every click (from the click to the
bot's first response, as the emulator measures it).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.discord_players import Driver, Seat, make_bot  # noqa: E402
from tests.emulator import DiscordEmulator  # noqa: E402


async def one_game(
    emu, guild, bot, index: int, think: float = 0.0
) -> tuple[float, list[float], int]:
    channel = emu.add_text_channel(guild, f"table-{index}")
    alice = emu.add_user(f"alice{index}")
    bob = emu.add_user(f"bob{index}")
    driver = Driver(emu, channel, bot, think=think, seed=index)
    start = time.perf_counter()
    await driver.start_game(alice, [bob])
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    seats[bob.id].rng.seed(index)
    await driver.play_out(seats)
    return time.perf_counter() - start, driver.latencies, driver.clicks


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(games: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator(keep_records=2000) as emu:
            guild = emu.add_guild("Benchmark")
            bot = make_bot(Path(tmp) / "bench.db")
            async with emu.running(bot):
                alone, latencies, clicks = await one_game(emu, guild, bot, 0)
                print(f"game_alone_seconds: {alone:.3f} s")
                print(f"game_alone_clicks: {clicks} clicks")
                print(f"click_alone_p50: {percentile(latencies, 0.5) * 1000:.1f} ms")
                for label, pause in (("saturated", 0.0), ("paced", think)):
                    start = time.perf_counter()
                    offset = 1000 * (1 if pause == 0 else 2)
                    results = await asyncio.gather(
                        *(one_game(emu, guild, bot, offset + i, pause) for i in range(games))
                    )
                    wall = time.perf_counter() - start
                    report(label, games, wall, results)


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
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(args.games, args.think))
