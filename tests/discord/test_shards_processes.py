"""Shards end to end: two ``python -m bot`` processes, shards 0 and 1 of 2, share one
PostgreSQL schema. A guild on each shard; one person plays a 61-point game against the computer
in both at once. Each process answers only its own guild (the emulator routes each guild's
interactions to its shard's gateway session, Discord's Gateway docs "Sharding"; each process's
log names only its own game); a third process asking for shard 1 is refused (its advisory
lock); the shard 1 process is killed with SIGKILL mid-game and started again, and its game
finishes with nothing lost; both guilds' global leaderboards count both games, each rated once.

Run alone: ``.venv/bin/python -m pytest tests/discord/test_shards_processes.py -q``.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.app.verify import verify_game
from db import Store
from discord_emulator import DiscordEmulator
from tests.support import postgres
from tests.support.discord_players import Driver, Seat, bot_environment

LEADERBOARD_LINE = re.compile(r"alice — \*\*[0-9]+\*\* · ([0-9]+) games?")


class Process:
    """One ``python -m bot`` of shard ``shard`` of 2, its log file and its gateway session."""

    def __init__(self, shard: int, log: Path) -> None:
        self.shard, self.log = shard, log
        self.process: asyncio.subprocess.Process | None = None
        self.session = ""

    def said(self) -> str:
        return self.log.read_text(errors="replace")


def environment(tmp_path: Path, url: str, shard: int) -> dict[str, str]:
    env = bot_environment(tmp_path / "unused.db")
    del env["CRIBBAGE_DB"]
    return env | {
        "CRIBBAGE_DATABASE_URL": url,
        "CRIBBAGE_SHARD_COUNT": "2",
        "CRIBBAGE_SHARDS": str(shard),
    }


async def launch(
    emu: DiscordEmulator, url: str, shard: int, log: Path, started: list[Process]
) -> Process:
    """Start the process of ``shard`` (added to ``started``) and wait until its shard's new
    session is READY."""
    bot = Process(shard, log)
    known = set(emu.gateway.sessions)
    with log.open("ab") as out:
        bot.process = await asyncio.create_subprocess_exec(
            *emu.launch_command(module="bot"), cwd=log.parent,
            env=environment(log.parent, url, shard), stdout=out, stderr=out,
        )
    started.append(bot)

    def ready() -> str | None:
        assert bot.process is not None and bot.process.returncode is None, bot.said()
        for session in emu.gateway.live_sessions():
            if session.id not in known and session.ready and session.connected:
                assert session.shard == (shard, 2)
                return session.id
        return None

    bot.session = await emu.wait_for(ready, timeout=60, what=f"the shard {shard} process")
    return bot


async def stop(bot: Process) -> None:
    assert bot.process is not None
    if bot.process.returncode is None:
        bot.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(bot.process.wait(), timeout=20)


async def open_game(driver: Driver, alice) -> None:
    """``/cribbage start`` (61 points, the computer) and Start; the driver follows the table."""
    emu, channel = driver.emu, driver.channel
    await driver.slash(alice, "cribbage start", target=61, computer="easy")

    def lobby():
        return next(m for m in reversed(emu.public_messages(channel)) if m.find_button("Start"))

    await driver.click(alice, await emu.wait_for(lobby, what="the lobby"), "Start", kind="lobby")
    await driver.follow()


async def play(driver: Driver, seats: dict[int, Seat], *, until=None) -> None:
    """Move when the table says so, until the game is over (or ``until()``)."""
    for _ in range(1000):
        if driver.game_over() or (until is not None and until()):
            return
        await driver.emu.wait_for(
            lambda: driver.game_over() or driver.whose_move() or driver.between_deals(),
            timeout=20, what="the table to move on",
        )
        if not driver.game_over():
            await driver.round(seats)
    raise AssertionError("the game did not end")


@pytest.mark.slow  # three bot processes (and one refused), two whole games, a kill -9
async def test_two_shard_processes_share_postgresql_and_survive_a_kill(postgres_server, tmp_path):
    url = postgres_server.url()  # one schema for both processes
    began = time.perf_counter()
    processes: list[Process] = []
    async with DiscordEmulator(rate_limits=False) as emu:
        zero, one = emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))
        channels = [emu.add_text_channel(guild, "cribbage") for guild in (zero, one)]
        alice = emu.add_user("alice")  # the same person plays in both guilds
        routed: Counter[tuple[int, str]] = Counter()  # (guild, gateway session): interactions
        route = emu.gateway.route

        def counted_route(guild_id):
            session = route(guild_id)
            if session is not None:
                routed[guild_id, session.id] += 1
            return session

        emu.gateway.route = counted_route  # type: ignore[method-assign]

        refused: asyncio.subprocess.Process | None = None
        try:
            first = await launch(emu, url, 0, tmp_path / "shard0.log", processes)  # syncs
            await emu.wait_for(emu.has_commands, timeout=20, what="the commands")
            second = await launch(emu, url, 1, tmp_path / "shard1.log", processes)
            # a third process asking for shard 1 is refused: the shard's advisory lock
            refused = await asyncio.create_subprocess_exec(
                *emu.launch_command(module="bot"), cwd=tmp_path,
                env=environment(tmp_path, url, 1), stderr=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.DEVNULL,
            )
            drivers = [Driver(emu, channel, None) for channel in channels]
            seats = [{alice.id: Seat(alice)} for _ in drivers]
            await asyncio.gather(*(open_game(d, alice) for d in drivers))
            _, stderr = await asyncio.wait_for(refused.communicate(), timeout=30)
            said = stderr.decode()
            assert refused.returncode == 2, said
            paragraph = said.strip().splitlines()[-1]  # after the log lines: one paragraph
            assert paragraph.startswith("Shard 1 of 2 is already run by another process")
            assert "Traceback" not in said, said

            async def shard_1_with_a_kill() -> Process:
                driver = drivers[1]
                await play(driver, seats[1], until=lambda: driver.clicks_by_kind["discard"] >= 2)
                assert not driver.game_over()
                assert second.process is not None
                second.process.kill()  # SIGKILL: no shutdown, no goodbye to the gateway
                assert await second.process.wait() == -signal.SIGKILL
                again = await launch(
                    emu, url, 1, tmp_path / "shard1-restarted.log", processes
                )
                before = driver.clicks
                await play(driver, seats[1])  # on the hand and table the killed process drew
                assert driver.clicks > before
                return again

            _, restarted = await asyncio.gather(
                play(drivers[0], seats[0]), shard_1_with_a_kill()
            )
            assert all(d.game_over() for d in drivers)

            # both guilds' global leaderboards (against the computer) count both games
            for channel in (drivers[0].channel, drivers[1].channel):
                board = await emu.slash(
                    alice, channel, "cribbage leaderboard", scope="global", against="computers"
                )
                text = board.message.embeds[0]["description"]
                assert LEADERBOARD_LINE.search(text)[1] == "2", text
        finally:
            if refused is not None and refused.returncode is None:
                refused.kill()
                await refused.wait()
            for bot in processes:
                await stop(bot)
            del emu.gateway.route

    # each guild's interactions went only to its own shard's process
    sessions = {zero.id: {first.session}, one.id: {second.session, restarted.session}}
    for (guild_id, session), count in routed.items():
        assert session in sessions[guild_id], (guild_id, session, count)
    assert {session for _, session in routed} == sessions[zero.id] | sessions[one.id]

    connection = postgres.connect(url)
    games = dict(connection.execute("SELECT guild_id, id FROM games").fetchall())
    assert set(games) == {zero.id, one.id}
    store = await Store.open(url)
    try:  # nothing lost: each game's whole log replays to its stored scores and winner
        for game_id in games.values():
            record = await store.games.load_game(game_id)
            assert record is not None and record.status == "finished"
            check = await verify_game(store, game_id)
            assert check.replayed and check.problems == [], check
            totals: Counter[int] = Counter()
            deals = set()
            for row in await store.games.deal_points(game_id):
                totals[row.seat] += row.pegging + row.hand + row.crib + row.heels
                deals.add(row.deal)
            assert len(deals) == max(deals) >= 2  # every deal, in order
            for result in await store.games.results(game_id):
                assert min(totals[result.seat], 61) == result.final_score
                assert (result.final_score == 61) == (result.outcome == "won")
    finally:
        await store.close()

    try:
        rated = connection.execute("SELECT COUNT(*) FROM games WHERE rated_at IS NOT NULL")
        assert rated.fetchone() == (2,)
        # each game rated once: 2 pools x 2 scopes x 2 players; alice's global rating chained
        history = connection.execute(
            "SELECT game_id, COUNT(*) FROM rating_history GROUP BY game_id"
        ).fetchall()
        assert sorted(history) == sorted((g, 8) for g in games.values())
        chain = connection.execute(
            "SELECT mu_before, mu_after FROM rating_history WHERE player = ? AND scope = 0 "
            "AND pool = 'computers' ORDER BY rated_at, game_id", (alice.id,),
        ).fetchall()
        assert len(chain) == 2 and chain[1][0] == chain[0][1]
        standings = dict(connection.execute(
            "SELECT scope, games FROM standings WHERE player = ? AND pool = 'computers'",
            (alice.id,),
        ).fetchall())
        assert standings == {0: 2, zero.id: 1, one.id: 1}
    finally:
        connection.close()

    # each process's log names only its own guild's game; the restart resumed it, verified
    mine, theirs = games[zero.id], games[one.id]
    for bot, own, other in ((first, mine, theirs), (second, theirs, mine),
                            (restarted, theirs, mine)):
        said = bot.said()
        assert f"game {own}:" in said and f"game {other}:" not in said, said
    assert "Resumed 0 lobbies and 1 games (1 verified" in restarted.said()
    assert "Holding the locks of shards 1" in restarted.said()
    print(f"two-process proof: {time.perf_counter() - began:.1f} s")
