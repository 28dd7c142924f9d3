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

from discord_emulator import DiscordEmulator
from discord_emulator.limits import schema_problems

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


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
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


# --------------------------------------------------------------------------- Discord's schema
# Invalid Form Body (HTTP 400, code 50035) for what Discord's OpenAPI description and developer
# docs refuse (emulator/limits.py cites each rule); the bot's own commands and embeds pass.

INT53 = 2**53 - 1  # OpenAPI, components.schemas.Int53Type


def integer_command(max_value: int) -> dict:
    option = {"type": 4, "name": "game", "description": "a game", "min_value": 1,
              "max_value": max_value}
    return {"name": "replay", "description": "a replay", "type": 1, "options": [option]}


async def put_commands(emu: DiscordEmulator, body) -> tuple[int, dict | list]:
    url = f"{emu.base_url}/applications/{emu.application_id}/commands"
    async with aiohttp.ClientSession() as http, http.put(url, json=body, headers=AUTH) as answer:
        return answer.status, await answer.json()


async def test_a_command_option_past_int53_is_refused_as_discord_does(emu) -> None:
    """Int53Type: an integer option's max_value is at most 2^53 - 1; one more is refused with
    Discord's error shape, the field's path nested by index, and nothing is registered."""
    status, body = await put_commands(emu, [integer_command(2**53)])
    assert status == 400
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    [error] = body["errors"]["0"]["options"]["0"]["max_value"]["_errors"]
    assert error == {
        "code": "NUMBER_TYPE_MAX",
        "message": f"int value should be less than or equal to {INT53}.",
    }
    assert not emu.registered_commands()
    [violation] = emu.take_violations("invalid_commands")
    assert "0.options.0.max_value" in violation.detail
    status, body = await put_commands(emu, [integer_command(INT53)])
    assert status == 200 and body[0]["options"][0]["max_value"] == INT53


@pytest.mark.parametrize(
    ("command", "path", "code"),
    [
        ({"name": "Cribbage", "description": "x"}, "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "c" * 33, "description": "x"}, "0.name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "cribbage", "description": ""}, "0.description", "BASE_TYPE_REQUIRED"),
        ({"name": "cribbage", "description": "d" * 101}, "0.description",
         "BASE_TYPE_MAX_LENGTH"),
        (
            {"name": "cribbage", "description": "x",
             "options": [{"type": 4, "name": "n", "description": "n", "min_value": -(2**53)}]},
            "0.options.0.min_value", "NUMBER_TYPE_MIN",
        ),
        (
            {"name": "cribbage", "description": "x",
             "options": [{"type": 4, "name": "n", "description": "n", "min_value": 5,
                          "max_value": 4}]},
            "0.options.0.min_value", "INVALID",
        ),
        (
            {"name": "cribbage", "description": "x",
             "options": [{"type": 3, "name": "a", "description": "a"},
                         {"type": 3, "name": "b", "description": "b", "required": True}]},
            "0.options.1.required", "INVALID",
        ),
        (
            {"name": "cribbage", "description": "x",
             "options": [{"type": 12, "name": "a", "description": "a"}]},
            "0.options.0.type", "BASE_TYPE_CHOICES",
        ),
        (
            {"name": "cribbage", "description": "x",
             "options": [{"type": 3, "name": "a", "description": "a",
                          "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]},
            "0.options.0.choices", "BASE_TYPE_MAX_LENGTH",
        ),
    ],
)
async def test_commands_discord_refuses_are_refused(emu, command, path, code) -> None:
    status, body = await put_commands(emu, [command])
    assert status == 400 and body["code"] == 50035
    node = body["errors"]
    for part in path.split("."):
        node = node[part]
    assert [e["code"] for e in node["_errors"]] == [code]
    assert len(emu.take_violations("invalid_commands")) == 1


async def test_one_command_created_or_edited_is_checked_too(emu) -> None:
    """POST (ApplicationCommandCreateRequest) and PATCH (ApplicationCommandPatchRequestPartial)."""
    url = f"{emu.base_url}/applications/{emu.application_id}/commands"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json=integer_command(2**53), headers=AUTH) as answer:
            assert answer.status == 400
        async with http.post(url, json=integer_command(10), headers=AUTH) as answer:
            assert answer.status == 201
            command_id = (await answer.json())["id"]
        patch = {"options": integer_command(2**60)["options"]}
        async with http.patch(f"{url}/{command_id}", json=patch, headers=AUTH) as answer:
            assert answer.status == 400
    [command] = emu.registered_commands()
    assert command["options"][0]["max_value"] == 10  # the refused edit changed nothing
    assert len(emu.take_violations("invalid_commands")) == 2


@pytest.mark.parametrize(
    ("embed", "path", "code"),
    [
        ({"title": "t", "footer": {}}, "footer.text", "BASE_TYPE_REQUIRED"),
        ({"title": "t", "footer": {"text": ""}}, "footer.text", "BASE_TYPE_REQUIRED"),
        ({"title": "t", "author": {"url": "https://x.test"}}, "author.name",
         "BASE_TYPE_REQUIRED"),
        ({"fields": [{"name": "n", "value": ""}]}, "fields.0.value", "BASE_TYPE_REQUIRED"),
        ({"fields": [{"value": "v"}]}, "fields.0.name", "BASE_TYPE_REQUIRED"),
        ({"title": "t", "image": {}}, "image.url", "BASE_TYPE_REQUIRED"),
        ({"title": "t", "color": 2**24}, "color", "NUMBER_TYPE_MAX"),
        ({"title": "t", "url": "not a url"}, "url", "URL_TYPE_INVALID_URL"),
        ({"title": 5}, "title", "BASE_TYPE_COERCE"),
    ],
)
async def test_embeds_discord_refuses_are_refused(emu, embed, path, code) -> None:
    """RichEmbed (OpenAPI) and the docs' embed structures (a footer's text, an author's name,
    a field's name and value, an image's url)."""
    channel = emu.add_text_channel(emu.add_guild("G"), "a")
    url = f"{emu.base_url}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as http:
        payload = {"content": "x", "embeds": [embed]}
        async with http.post(url, json=payload, headers=AUTH) as answer:
            status, body = answer.status, await answer.json()
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    node = body["errors"]["embeds"]["0"]
    for part in path.split("."):
        node = node[part]
    assert code in [e["code"] for e in node["_errors"]]
    assert not emu.public_messages(channel)
    assert len(emu.take_violations("invalid_message")) == 1


async def test_an_embed_that_shows_nothing_is_an_empty_message(emu) -> None:
    channel = emu.add_text_channel(emu.add_guild("G"), "a")
    url = f"{emu.base_url}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"embeds": [{"color": 5}]}, headers=AUTH) as answer:
            status, body = answer.status, await answer.json()
        ok = {"embeds": [{"title": "t", "footer": {"text": "f"}, "color": 5}]}
        async with http.post(url, json=ok, headers=AUTH) as answer:
            assert answer.status == 200
    assert status == 400 and body["code"] == 50006
    assert len(emu.take_violations("invalid_message")) == 1


def test_the_schema_checker_never_passes_what_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="does not know"):
        schema_problems(1, {"type": "integer", "multipleOf": 2})
    assert schema_problems(None, {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/"
                                                               "Int53Type"}]}) == []
