"""Discord's rate limits in the emulator (rules and citations: emulator/ratelimits.py).

Each rule is checked with raw HTTP (what Discord answers), then discord.py's own handling is
checked against it (it reads the headers, sleeps, and loses nothing)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.support.emulator import DiscordEmulator

AUTH = {"Authorization": "Bot emulator-token", "Content-Type": "application/json"}


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


async def send(http: aiohttp.ClientSession, emu: DiscordEmulator, channel_id: int, text: str):
    url = f"{emu.base_url}/channels/{channel_id}/messages"
    async with http.post(url, json={"content": text}, headers=AUTH) as response:
        return response.status, dict(response.headers), await response.json()


async def test_a_channel_bucket_answers_headers_then_429_with_scope_user(emu) -> None:
    """Per-route limits and Header Format: X-RateLimit-*; Exceeding A Rate Limit: 429 with
    retry_after, global false, X-RateLimit-Scope: user."""
    channel = emu.add_text_channel(emu.add_guild("G"), "a")
    emu.rest.limits.set_bucket("message_create", 2, 5.0)
    async with aiohttp.ClientSession() as http:
        first = await send(http, emu, channel.id, "1")
        second = await send(http, emu, channel.id, "2")
        third = await send(http, emu, channel.id, "3")
    assert first[0] == second[0] == 200
    headers = first[1]
    assert headers["X-RateLimit-Limit"] == "2"
    assert headers["X-RateLimit-Remaining"] == "1"
    assert second[1]["X-RateLimit-Remaining"] == "0"
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert float(headers["X-RateLimit-Reset"]) > time.time()
    assert headers["X-RateLimit-Bucket"]
    status, headers, body = third
    assert status == 429
    assert headers["X-RateLimit-Scope"] == "user"
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0
    assert "Retry-After" in headers
    assert [m.content for m in emu.public_messages(channel)] == ["1", "2"]  # the 429 posted nothing
    assert emu.rest.limits.http_429 == 1


async def test_buckets_are_per_top_level_resource(emu) -> None:
    """Per-route limits count each channel (a top-level resource) on its own."""
    guild = emu.add_guild("G")
    one, two = emu.add_text_channel(guild, "one"), emu.add_text_channel(guild, "two")
    emu.rest.limits.set_bucket("message_create", 1, 5.0)
    async with aiohttp.ClientSession() as http:
        assert (await send(http, emu, one.id, "a"))[0] == 200
        assert (await send(http, emu, two.id, "b"))[0] == 200
        assert (await send(http, emu, one.id, "c"))[0] == 429


async def test_the_global_limit_binds_bot_token_routes_only(emu) -> None:
    """Global Rate Limit: 50/s per bot token (here 3 per 5 s); a 429 with global true and
    X-RateLimit-Global; interaction endpoints are not bound to it."""
    guild = emu.add_guild("G")
    channels = [emu.add_text_channel(guild, f"c{i}") for i in range(5)]
    emu.rest.limits.global_limit, emu.rest.limits.global_period = 3, 5.0
    async with aiohttp.ClientSession() as http:
        statuses = [(await send(http, emu, c.id, "x"))[0] for c in channels[:3]]
        status, headers, body = await send(http, emu, channels[3].id, "x")
        # an interaction webhook (unknown token: 404, but not refused by the global limit)
        url = f"{emu.base_url}/webhooks/{emu.application_id}/nope"
        async with http.post(url, json={"content": "x"}) as response:
            webhook_status = response.status
    assert statuses == [200, 200, 200]
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert webhook_status == 404
    assert emu.rest.limits.bot_token_requests == 4
    assert emu.rest.limits.interaction_requests == 1
    emu.take_violations()  # the made-up token


async def test_invalid_requests_past_the_limit_are_a_violation(emu) -> None:
    """Invalid Request Limit: 401/403/429 count (here 3 per 10 minutes); past it, a violation."""
    emu.add_text_channel(emu.add_guild("G"), "a")
    emu.rest.limits.invalid_limit = 3
    async with aiohttp.ClientSession() as http:
        for _ in range(4):
            async with http.get(f"{emu.base_url}/users/@me") as response:  # no token: 401
                assert response.status == 401
    found = emu.take_violations("invalid_request_limit")
    assert len(found) == 1
    assert emu.rest.limits.invalid_requests == 4


async def test_switched_off_nothing_is_refused_but_requests_are_counted() -> None:
    async with DiscordEmulator(rate_limits=False) as emu:
        channel = emu.add_text_channel(emu.add_guild("G"), "a")
        async with aiohttp.ClientSession() as http:
            statuses = [(await send(http, emu, channel.id, str(i)))[0] for i in range(8)]
        assert statuses == [200] * 8
        assert emu.rest.limits.bot_token_requests == 8 and emu.rest.limits.http_429 == 0


class Burst(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents(guilds=True), guild_ready_timeout=0.05
        )


async def test_discord_py_waits_out_the_buckets_and_loses_nothing(emu) -> None:
    """The real client under a burst: it reads the headers and sleeps, so every message and
    every edit arrives, the last edit wins, and it does not loop on 429s."""
    channel = emu.add_text_channel(emu.add_guild("G"), "burst")
    limits = emu.rest.limits
    limits.set_bucket("message_create", 3, 0.3)
    limits.set_bucket("message_edit", 2, 0.3)
    async with emu.running(Burst(), require_commands=False) as bot:
        target = bot.get_partial_messageable(channel.id)
        started = time.monotonic()
        sent = await asyncio.gather(*(target.send(f"m{i}") for i in range(9)))
        for i in range(6):
            await sent[0].edit(content=f"edit {i}")
        took = time.monotonic() - started
    contents = sorted(m.content for m in emu.public_messages(channel))
    assert contents == sorted(["edit 5"] + [f"m{i}" for i in range(1, 9)])
    assert took >= 0.6  # it waited for the buckets (9 sends at 3 per 0.3 s)
    assert limits.http_429 <= 2  # at most the first request of each bucket, before headers
