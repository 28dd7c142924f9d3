"""Capacity: what one bot process and one bot token serve, measured, and what N tables need.

Run from the repository root (about a minute on 2 cores):

    .venv/bin/python benchmarks/capacity.py [--saturated-games 8] [--paced-games 6]
        [--time-factor 0.05] [--think 2 4] [--utilisation 0.5] [--in-process]

Whole 2-player games to 121 are played through the real discord.py client and the Discord
emulator (``discord_emulator``, Discord's rate limits enforced by ``ratelimits.py``) by
the scripted players of ``tests/support/discord_players.py``; the bot is ``python -m bot`` in
its own process (``--in-process``: in this one), with the servers' defaults (pictures on, a
thread per game). Every figure is printed as ``name: value unit``. Two phases:

1. **Human pace** (``--paced-games`` tables at once). A person thinks ``--think`` seconds
   (uniform, 2 to 4 by default) before each click. To finish in under a minute the run is
   played ``1 / --time-factor`` times faster: every pause is multiplied by the factor, and so
   is every window of Discord's rate limits in the emulator (each bucket's period and the
   global one), so each table meets the buckets exactly as at human pace: a burst of requests
   after one click fills a bucket as much, and a table's steady rate is the same fraction of
   it. Measured here: ``bot_token_requests_per_click`` (requests made with the bot token: all
   but the interaction callback and the interaction webhooks, which Discord exempts from the
   global limit), ``interaction_requests_per_click``, ``http_429`` (429s answered: must be 0),
   ``paced_cpu_ms_per_click``, and a game's human duration: its wall time with every pause
   taken back to its human length (``wall + paused * (1 / factor - 1)``; the bot's answers
   keep their real time). The global window shrank too: to it the run is
   ``paced_equivalent_tables`` (= games / factor) human-paced tables on one token.
2. **Saturated** (``--saturated-games`` tables at once): the players click as fast as the bot
   answers (a player clicks once the bot has gone quiet in the channel). Discord's limits are
   off in this phase (counted, not enforced): it measures the CPU, and the Discord bound is
   the projection's other term. ``cpu_ms_per_click`` is the CPU time (user + system, /proc)
   of the bot process and its painter processes per click answered.

Formulas (``U``: ``--utilisation``, the share of a core a process may use, 0.5 by default, to
keep latency low and absorb bursts; ``G``: Discord's global limit, 50 requests/s per bot
token):

- ``human_clicks_per_table_per_s`` = clicks of the paced games / their human durations
  (the ``/cribbage start`` command is not counted as a click; its requests are);
- ``clicks_per_s_per_process`` = 1000 / ``cpu_ms_per_click`` (saturated): the clicks one
  core's worth of CPU answers. It equals the measured ``saturated_clicks_per_s`` divided by
  ``saturated_bot_core_share`` (the bot used that share of a core while the emulator and
  the players, the busier program, had the rest of the machine);
- ``clicks_per_s_per_process_human_paced`` = 1000 / ``paced_cpu_ms_per_click``: a
  human-paced click costs more (edits coalesce less, each position is drawn);
- ``tables_per_process`` = U * min(the two above) / ``human_clicks_per_table_per_s``;
- ``bot_token_requests_per_table_per_s`` = ``bot_token_requests_per_click`` *
  ``human_clicks_per_table_per_s``;
- ``tables_per_bot_token`` = G / ``bot_token_requests_per_table_per_s``;
- ``processes_for_N_tables`` = ceil(N / ``tables_per_process``);
- ``bot_token_requests_per_s_for_N_tables`` = N * ``bot_token_requests_per_table_per_s``;
  ``bot_tokens_for_N_tables`` = ceil(N / ``tables_per_bot_token``), printed only when more
  than one: one bot has one token, so past G Discord must raise the bot's global limit
  (which it does only in very few cases) or the bot must make fewer requests per click.

Assumptions: a process is one bot process with its painters and one core's worth of CPU; the
scripted players move in turn (two people discarding at once are played one after the other),
so a game lasts a little longer than with people; the per-route bucket sizes are the
emulator's (Discord publishes none; see ``ratelimits.py``); PostgreSQL or SQLite costs are in
the bot's CPU (SQLite here), a database server's are not; the compression of the paced phase
holds while the bot's own delays (an edit held back to be coalesced) are short beside the
compressed pauses (0.1 to 0.2 s by default): ``--time-factor 0.25 --paced-games 3`` (about two
and a half minutes) or ``--time-factor 1`` (real time) checks it (when this was written: 0.136
bot-token requests per click at 0.25, 0.149 at 0.05).

``--profile FILE`` runs the bot process under ``cProfile`` during the paced phase only (the
profiler starts at the phase's start and stops at its end, by signal) and writes its stats to
FILE (read them with ``python -m pstats FILE``, then ``sort cumulative`` / ``sort tottime``,
``stats 40``). Its clock is the event loop thread's CPU time (not wall time, which on a loaded
machine counts the waits for a core): the painter processes and the database driver's thread
are not profiled (their CPU is in the figures). The
profiler slows the bot, so a profiled run's CPU figures are not the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.e2e import bot_process, cpu_seconds, percentile  # noqa: E402
from discord_emulator import DiscordEmulator  # noqa: E402
from tests.support.discord_players import Driver, Seat, make_bot  # noqa: E402

# The bot under cProfile: SIGUSR1 starts the profiler, SIGUSR2 stops it and writes the stats.
PROFILED_BOT = """\
import cProfile, runpy, signal, sys, time

profiler = cProfile.Profile(time.thread_time)  # the event loop thread's CPU, not wall time
signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())


def dump(*_):
    profiler.disable()
    profiler.dump_stats({stats!r})


signal.signal(signal.SIGUSR2, dump)
sys.argv = ["bot"]
runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""

GLOBAL_LIMIT = 50  # requests/s per bot token (Discord's "Global Rate Limit")
TABLES = (10_000, 100_000)  # the projections' table counts


class Player(Driver):
    """The scripted players of a table, pausing ``think`` seconds (uniform between the two)
    times ``factor`` after each action; ``paused``: the seconds they slept."""

    def __init__(self, *args, think=(0.0, 0.0), factor: float = 1.0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.think_range = think
        self.factor = factor
        self.paused = 0.0

    async def _pause(self) -> None:
        low, high = self.think_range
        if high > 0:
            seconds = self._pace.uniform(low, high) * self.factor
            self.paused += seconds
            await asyncio.sleep(seconds)


@dataclass
class Played:
    seconds: float  # wall time, from the command to the end
    human_seconds: float  # the same with every pause at its human length
    clicks: int
    latencies: list[float]


async def one_game(emu, guild, bot, name: str, seed: int, think, factor: float) -> Played:
    channel = emu.add_text_channel(guild, name)
    alice, bob = emu.add_user(f"{name}-alice"), emu.add_user(f"{name}-bob")
    driver = Player(emu, channel, bot, seed=seed, think=think, factor=factor)
    if think[1] > 0:  # people sit down at their tables over a while (ten clicks' time)
        await asyncio.sleep(random.Random(seed).uniform(0, 10 * think[1] * factor))
    start = time.perf_counter()
    await driver.start_game(alice, [bob])
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    seats[bob.id].rng.seed(seed)
    await driver.play_out(seats)
    wall = time.perf_counter() - start
    human = wall + driver.paused * (1 / factor - 1)
    return Played(wall, human, driver.clicks, driver.latencies)


class Phase:
    """The counters of one phase: clicks, wall time, the bot's CPU and the emulator's counts."""

    def __init__(self, emu, pid: int | None) -> None:
        self.limits = emu.rest.limits
        self.pid = pid
        self.cpu = self._cpu()
        self.start = time.perf_counter()
        self.requests = self.limits.bot_token_requests
        self.interactions = self.limits.interaction_requests
        self.refused = self.limits.http_429
        self.by_bucket = self.limits.by_bucket.copy()
        self.refused_by_bucket = self.limits.refused_by_bucket.copy()

    def _cpu(self) -> float:  # in-process: this whole process (emulator and players too)
        return cpu_seconds(self.pid if self.pid is not None else os.getpid())

    def end(self, games: list[Played]) -> None:
        self.wall = time.perf_counter() - self.start
        self.cpu_used = self._cpu() - self.cpu
        self.clicks = max(1, sum(g.clicks for g in games))
        self.requests = self.limits.bot_token_requests - self.requests
        self.interactions = self.limits.interaction_requests - self.interactions
        self.refused = self.limits.http_429 - self.refused
        self.by_bucket = self.limits.by_bucket - self.by_bucket
        self.refused_by_bucket = self.limits.refused_by_bucket - self.refused_by_bucket
        self.latencies = [lat for g in games for lat in g.latencies]

    @property
    def cpu_ms_per_click(self) -> float:
        return self.cpu_used * 1000 / self.clicks


def figure(name: str, value: float, unit: str, digits: int = 3) -> None:
    print(f"{name}: {value:.{digits}f} {unit}" if digits else f"{name}: {value:.0f} {unit}")


async def play_phase(emu, guild, bot, pid, label: str, games: int, think, factor) -> tuple:
    phase = Phase(emu, pid)
    played = await asyncio.gather(
        *(one_game(emu, guild, bot, f"{label}-{i}", i, think, factor) for i in range(games))
    )
    phase.end(played)
    return phase, played


async def main(args: argparse.Namespace) -> None:
    think = tuple(args.think)
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator(keep_records=2000) as emu:
            guild = emu.add_guild("Capacity")
            database = Path(tmp) / "capacity.db"
            script = None
            if args.profile:
                script = Path(tmp) / "profiled_bot.py"
                script.write_text(PROFILED_BOT.format(stats=str(Path(args.profile).resolve())))
            if args.in_process:
                bot = make_bot(database)
                running = emu.running(bot)
            else:
                bot, running = None, bot_process(emu, database, str(script) if script else None)
            async with running as process:
                pid = None if args.in_process else process.pid
                figure("bot_in_own_process", 0 if args.in_process else 1, "bool", 0)
                limits = emu.rest.limits
                # 1. human pace, Discord's limits on, every window scaled with the pauses
                if args.profile:
                    await profiler_signal(process, signal.SIGUSR1)
                with limits.scaled(args.time_factor):
                    paced, games = await play_phase(
                        emu, guild, bot, pid, "paced", args.paced_games, think, args.time_factor
                    )
                if args.profile:
                    await profiler_signal(process, signal.SIGUSR2)
                # 2. saturated: no pause, Discord's limits counted but not enforced
                with limits.scaled(0):
                    saturated, _ = await play_phase(
                        emu, guild, bot, pid, "saturated", args.saturated_games, (0.0, 0.0), 1.0
                    )
    report(args, paced, games, saturated)


async def profiler_signal(process, signum: int) -> None:
    """Send the profiled bot ``signum`` and give it a moment to act on it (its handler runs
    between two of its bytecodes; the stats take a moment to write)."""
    process.send_signal(signum)
    await asyncio.sleep(1.0)


def report(args, paced: Phase, games: list[Played], saturated: Phase) -> None:
    figure("saturated_games", args.saturated_games, "games", 0)
    figure("saturated_clicks", saturated.clicks, "clicks", 0)
    figure("saturated_wall_seconds", saturated.wall, "s", 2)
    figure("saturated_clicks_per_s", saturated.clicks / saturated.wall, "clicks/s", 1)
    figure("saturated_click_p50", percentile(saturated.latencies, 0.5) * 1000, "ms", 1)
    figure("saturated_bot_core_share", saturated.cpu_used / saturated.wall, "cores", 2)
    figure("cpu_ms_per_click", saturated.cpu_ms_per_click, "ms", 2)
    per_process = 1000 / saturated.cpu_ms_per_click
    figure("clicks_per_s_per_process", per_process, "clicks/s", 0)

    figure("paced_games", args.paced_games, "games", 0)
    figure("paced_time_factor", args.time_factor, "x", 3)
    # the windows shrank with the pauses: to Discord's global limit, as many human-paced tables
    figure("paced_equivalent_tables", args.paced_games / args.time_factor, "tables", 0)
    figure("think_seconds_mean", sum(args.think) / 2, "s", 1)
    figure("paced_clicks_per_game", paced.clicks / len(games), "clicks", 1)
    figure("paced_wall_seconds", paced.wall, "s", 2)
    figure("paced_click_p50", percentile(paced.latencies, 0.5) * 1000, "ms", 1)
    figure("paced_click_p99", percentile(paced.latencies, 0.99) * 1000, "ms", 1)
    figure("paced_cpu_ms_per_click", paced.cpu_ms_per_click, "ms", 2)
    paced_per_process = 1000 / paced.cpu_ms_per_click
    figure("clicks_per_s_per_process_human_paced", paced_per_process, "clicks/s", 0)
    requests_per_click = paced.requests / paced.clicks
    figure("bot_token_requests_per_click", requests_per_click, "requests")
    for bucket, count in sorted(paced.by_bucket.items()):  # one line a bucket
        figure(f"bot_token_requests_per_click_{bucket}", count / paced.clicks, "requests")
    figure("interaction_requests_per_click", paced.interactions / paced.clicks, "requests")
    figure("http_429", paced.refused, "responses", 0)
    for bucket, count in sorted(Counter(paced.refused_by_bucket).items()):
        figure(f"http_429_{bucket}", count, "responses", 0)
    figure(
        "saturated_bot_token_requests_per_click", saturated.requests / saturated.clicks, "requests"
    )

    # the projection (formulas: the module's docstring)
    human_minutes = sum(g.human_seconds for g in games) / len(games) / 60
    figure("human_game_minutes", human_minutes, "min", 1)
    per_table = sum(g.clicks for g in games) / sum(g.human_seconds for g in games)
    figure("human_clicks_per_table_per_s", per_table, "clicks/s")
    figure("utilisation_target", args.utilisation, "cores", 2)
    tables_per_process = args.utilisation * min(per_process, paced_per_process) / per_table
    figure("tables_per_process", tables_per_process, "tables", 1)
    requests_per_table = requests_per_click * per_table
    figure("bot_token_requests_per_table_per_s", requests_per_table, "requests/s", 4)
    tables_per_token = args.global_limit / requests_per_table if requests_per_table else math.inf
    figure("tables_per_bot_token", min(tables_per_token, 1e9), "tables", 0)
    for tables in TABLES:
        figure(
            f"processes_for_{tables}_tables", math.ceil(tables / tables_per_process), "processes", 0
        )
    for tables in TABLES:
        figure(
            f"bot_token_requests_per_s_for_{tables}_tables",
            tables * requests_per_table,
            "requests/s",
            0,
        )
        tokens = math.ceil(tables / tables_per_token)
        if tokens > 1:  # one bot has one token: Discord would have to raise its limit
            figure(f"bot_tokens_for_{tables}_tables", tokens, "tokens", 0)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--saturated-games", type=int, default=8, help="tables clicking with no pause, at once"
    )
    parser.add_argument("--paced-games", type=int, default=6, help="tables at human pace, at once")
    parser.add_argument(
        "--time-factor",
        type=float,
        default=0.05,
        help="pauses and Discord's rate-limit windows times this (1: real time)",
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[2.0, 4.0],
        metavar=("MIN", "MAX"),
        help="a person's seconds before each click",
    )
    parser.add_argument(
        "--utilisation", type=float, default=0.5, help="the share of a core a process may use"
    )
    parser.add_argument(
        "--global-limit",
        type=float,
        default=GLOBAL_LIMIT,
        help="requests/s per bot token (Discord's global limit)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the bot in this process (its CPU then includes the emulator's)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="profile the bot process (cProfile) during the paced phase, stats to FILE",
    )
    args = parser.parse_args(argv)
    if args.profile and args.in_process:
        parser.error("--profile profiles the bot's own process: not with --in-process")
    if not 0 < args.time_factor <= 1 or min(args.paced_games, args.saturated_games) < 1:
        parser.error("--time-factor in (0, 1], at least one game a phase")
    return args


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(arguments()))
