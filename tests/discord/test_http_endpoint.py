"""``/healthz`` and ``/metrics``: the bot in this process against the emulator, serving them on
a free port of 127.0.0.1; and ``python -m bot`` serving them only when ``CRIBBAGE_HTTP_PORT``
is set."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import time

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app.config import ConfigError
from bot.app.health import Endpoint, EndpointUnavailable, HttpSettings, http_settings
from bot.app.metrics import Metrics, created_at
from discord_emulator import DiscordEmulator
from tests.support.discord_players import Driver, Seat, bot_environment, make_bot


@contextlib.asynccontextmanager
async def serving(tmp_path, *, rate_limits: bool = False):
    """A server with #cribbage and two users, and the bot serving its endpoint on a free port;
    yields (driver, base URL)."""
    async with DiscordEmulator(rate_limits=rate_limits) as emu:
        guild = emu.add_guild("Club")
        channel = emu.add_text_channel(guild, "cribbage")
        users = [emu.add_user(name) for name in ("alice", "bob")]
        database = tmp_path / "cribbage.db"
        bot = make_bot(database, http=HttpSettings("127.0.0.1", 0))
        async with emu.running(bot):
            driver = Driver(emu, channel, bot)
            driver.users, driver.guild, driver.database = users, guild, database
            yield driver, f"http://127.0.0.1:{bot.endpoint.port}"


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text(), response.headers["Content-Type"]


async def samples(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    status, text, content_type = await get(f"{base}/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=0.0.4")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_healthz_is_ok_when_connected_and_metrics_count_each_click_and_commit(tmp_path):
    async with serving(tmp_path) as (driver, base):
        assert await get(f"{base}/healthz") == (200, "ok\n", "text/plain; charset=utf-8")
        before = await samples(base)
        assert before[("cribbage_db_commit_seconds_count", ())] == 0
        assert before[("cribbage_interactions_answered_total", (("kind", "click"),))] == 0
        assert before[("cribbage_discord_rate_limited_total", (("scope", "user"),))] == 0
        assert before[("cribbage_live_games", (("status", "active"),))] == 0
        assert before[("cribbage_gateway_connected", (("shard", "0"),))] == 1
        assert before[("cribbage_gateway_latency_seconds", (("shard", "0"),))] >= 0

        alice, bob = driver.users
        await driver.start_game(alice, [bob])
        seats = {u.id: Seat(u) for u in (alice, bob)}
        for _ in range(6):
            for user_id in driver.whose_move():
                await driver.move(seats[user_id])
        after = await samples(base)

    clicks = (("kind", "click"),)
    assert driver.clicks > 5
    assert after[("cribbage_interactions_answered_total", clicks)] == driver.clicks
    assert after[("cribbage_interactions_answered_total", (("kind", "command"),))] == 1
    assert after[("cribbage_interaction_answer_seconds_count", clicks)] == driver.clicks
    within_3s = ("cribbage_interaction_answer_seconds_bucket", (*clicks, ("le", "3.0")))
    assert after[within_3s] == driver.clicks  # Discord's limit
    assert after[("cribbage_db_commit_seconds_count", ())] >= 1  # the moves' group commits
    assert after[("cribbage_db_commit_seconds_sum", ())] > 0
    assert (
        after[("cribbage_db_committed_actions_total", ())]
        >= after[("cribbage_db_commit_seconds_count", ())]
    )
    assert after[("cribbage_live_games", (("status", "active"),))] == 1


async def test_healthz_is_503_while_another_program_holds_the_database(tmp_path):
    async with serving(tmp_path) as (driver, base):
        driver.bot.health_timeout = 0.3
        other = sqlite3.connect(driver.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the write lock: the bot's write check waits
        try:
            started = time.monotonic()
            status, text, _ = await get(f"{base}/healthz")
            assert time.monotonic() - started < 2  # the answer does not wait for the database
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (status, text) == (503, "database: no write within the time\n")
        assert await get(f"{base}/healthz") == (200, "ok\n", "text/plain; charset=utf-8")


async def test_healthz_is_503_when_the_database_is_closed(tmp_path):
    async with serving(tmp_path) as (driver, base):
        store = driver.bot.store
        await store.close()  # every write now fails (StoreError)
        status, text, _ = await get(f"{base}/healthz")
        assert (status, text) == (503, "database: not writable\n")


async def test_healthz_is_503_while_the_gateway_is_down(tmp_path):
    async with serving(tmp_path) as (driver, base):
        driver.bot.identify_spacing = 0  # its reconnection identifies at once
        shard = driver.bot.get_shard(0)
        await shard.disconnect()
        status, text, _ = await get(f"{base}/healthz")
        assert (status, text) == (503, "gateway: shard 0 not connected\n")
        assert (await samples(base))[("cribbage_gateway_connected", (("shard", "0"),))] == 0
        await shard.connect()
        await driver.emu.wait_for(lambda: not shard.is_closed(), what="the shard to reconnect")
        assert (await get(f"{base}/healthz"))[:2] == (200, "ok\n")


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_429_from_discord_is_counted_by_scope(tmp_path):
    async with serving(tmp_path, rate_limits=True) as (driver, base):
        limits = driver.emu.rest.limits
        limits.global_limit, limits.global_period = 2, 0.5  # a burst meets the global limit
        limits.set_bucket("message_create", 50, 1.0)  # and no other
        target = driver.bot.get_partial_messageable(driver.channel.id)
        await asyncio.gather(*(target.send(f"m{i}") for i in range(5)))
        counted = await samples(base)
    assert limits.responses_429["global"] > 0
    scope = (("scope", "global"),)
    assert counted[("cribbage_discord_rate_limited_total", scope)] == limits.responses_429["global"]


async def test_other_paths_are_404(tmp_path):
    async with serving(tmp_path) as (_, base):
        assert (await get(f"{base}/"))[0] == 404
        assert (await get(f"{base}/metrics/x"))[0] == 404


def test_the_settings_turn_the_endpoint_on_only_with_a_port():
    assert http_settings({}) is None
    assert http_settings({"CRIBBAGE_HTTP_PORT": " ", "CRIBBAGE_HTTP_HOST": "0.0.0.0"}) is None
    assert http_settings({"CRIBBAGE_HTTP_PORT": "9102"}) == HttpSettings("127.0.0.1", 9102)
    assert http_settings(
        {"CRIBBAGE_HTTP_PORT": "9102", "CRIBBAGE_HTTP_HOST": "0.0.0.0"}
    ) == HttpSettings("0.0.0.0", 9102)
    for bad in ("http", "0", "65536", "-1", "80.5"):
        with pytest.raises(ConfigError, match="CRIBBAGE_HTTP_PORT must be a TCP port"):
            http_settings({"CRIBBAGE_HTTP_PORT": bad})


async def test_a_port_in_use_stops_the_start_with_a_clear_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def healthy() -> list[str]:
            return []

        endpoint = Endpoint(HttpSettings("127.0.0.1", port), Metrics(), healthy)
        with pytest.raises(EndpointUnavailable, match=f"127.0.0.1:{port}.*CRIBBAGE_HTTP_PORT"):
            await endpoint.start()
        await endpoint.stop()


def test_an_answer_counts_once_and_only_for_an_interaction_noted():
    metrics = Metrics()

    class Click:
        id = (int((time.time() - 1_420_070_400) * 1000) << 22) + 7
        type = discord.InteractionType.component

    click = Click()
    metrics.received(click)
    callback = f"/api/v10/interactions/{click.id}/aW50.tok3n/callback"
    metrics.answer_seen(callback, 404)  # refused (too late): not an answer
    metrics.answer_seen(callback, 204, now=created_at(click.id) + 0.25)
    metrics.answer_seen(callback, 204)  # a retry of the same answer: counted once
    metrics.answer_seen("/api/v10/interactions/99/x/callback", 204)  # never noted
    assert metrics.answered.labels(kind="click")._value.get() == 1
    text = metrics.render().decode()
    assert 'cribbage_interaction_answer_seconds_bucket{kind="click",le="0.25"} 1.0' in text
    assert 'cribbage_interaction_answer_seconds_bucket{kind="click",le="0.1"} 0.0' in text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow  # two bot processes in turn
async def test_python_m_bot_serves_the_endpoint_only_when_the_port_is_set(tmp_path):
    """The real start: ``CRIBBAGE_HTTP_PORT`` set, /healthz answers ok once connected; unset,
    nothing listens there."""
    port = free_port()
    async with DiscordEmulator() as emu:
        emu.add_text_channel(emu.add_guild("Club"), "cribbage")
        for environment, served in (({"CRIBBAGE_HTTP_PORT": str(port)}, True), ({}, False)):
            process = await asyncio.create_subprocess_exec(
                *emu.launch_command(module="bot"),
                cwd=tmp_path,
                env=bot_environment(tmp_path / "cribbage.db") | environment,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            try:
                await emu.wait_ready(timeout=60)
                if served:
                    deadline = time.monotonic() + 10
                    while await answer(port, "/healthz") != (200, "ok\n"):
                        assert time.monotonic() < deadline, await answer(port, "/healthz")
                        await asyncio.sleep(0.05)
                    assert (await answer(port, "/metrics") or (0,))[0] == 200
                else:
                    assert await answer(port, "/healthz") is None
            finally:
                process.terminate()
                output, _ = await asyncio.wait_for(process.communicate(), timeout=20)
            assert process.returncode == 0, output.decode()
            log = output.decode()
            assert ("Serving /healthz and /metrics" in log) is served
            assert "voice will NOT be supported" not in log


async def answer(port: int, path: str) -> tuple[int, str] | None:
    """(status, body) of a GET on 127.0.0.1:``port`` (``None``: nothing listens there)."""
    try:
        status, text, _ = await get(f"http://127.0.0.1:{port}{path}")
    except aiohttp.ClientConnectorError:
        return None
    return status, text


@pytest.mark.slow  # a bot process
async def test_python_m_bot_on_a_port_in_use_stops_with_one_paragraph(tmp_path):
    async with DiscordEmulator() as emu:
        emu.add_text_channel(emu.add_guild("Club"), "cribbage")
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            process = await asyncio.create_subprocess_exec(
                *emu.launch_command(module="bot"),
                cwd=tmp_path,
                env=bot_environment(tmp_path / "cribbage.db")
                | {"CRIBBAGE_HTTP_PORT": str(taken.getsockname()[1])},
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            _, errors = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 2
    text = errors.decode()
    assert "Cannot serve /healthz and /metrics on 127.0.0.1:" in text
    assert "Traceback" not in text
