"""Every request body is checked against its operation's ``requestBody`` schema in Discord's
OpenAPI description, and (with ``check_answers``) every answer against its response schema
(spec.py). Raw HTTP, as a bot would send it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from discord_emulator import DiscordEmulator, spec
from discord_emulator.gateway import GatewaySession
from discord_emulator.models import EmuUser

AUTH = {"Authorization": "Bot emulator-token"}


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator(check_answers=True) as emulator:
        yield emulator


async def post(emu: DiscordEmulator, path: str, body: Any, *, multipart: bool = False):
    async with aiohttp.ClientSession() as http:
        if multipart:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            form.add_field("files[0]", b"png", filename="board.png")
            request = http.post(f"{emu.base_url}{path}", data=form, headers=AUTH)
        else:
            request = http.post(f"{emu.base_url}{path}", json=body, headers=AUTH)
        async with request as response:
            return response.status, await response.json()


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": 5}, "content", "BASE_TYPE_COERCE"),  # a wrong type
        (  # a button without its required style
            {"components": [row({"type": 2, "label": "Go", "custom_id": "go"})]},
            "components.0.components.0.style",
            "BASE_TYPE_REQUIRED",
        ),
        (  # a component type Discord does not have
            {"components": [row({"type": 99, "custom_id": "x"})]},
            "components.0.components.0.type",
            "BASE_TYPE_CHOICES",
        ),
        (  # an embed field without its value
            {"embeds": [{"title": "t", "fields": [{"name": "n"}]}]},
            "embeds.0.fields.0.value",
            "BASE_TYPE_REQUIRED",
        ),
    ],
)
async def test_a_message_the_description_refuses_is_refused(
    emu: DiscordEmulator, body: dict[str, Any], path: str, code: str
) -> None:
    channel = emu.add_text_channel(emu.add_guild("G"), "general")
    with emu.expect_violation("invalid_message") as found:
        status, answer = await post(emu, f"/channels/{channel.id}/messages", body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    node = answer["errors"]
    for part in path.split("."):
        node = node[part]
    assert node["_errors"][0]["code"] == code
    assert found[0].detail.startswith(f"{path}: ")
    assert emu.public_messages(channel) == []  # nothing was posted


async def test_a_multipart_body_is_checked_by_its_payload_json(emu: DiscordEmulator) -> None:
    channel = emu.add_text_channel(emu.add_guild("G"), "general")
    with emu.expect_violation("invalid_message"):
        status, answer = await post(
            emu, f"/channels/{channel.id}/messages", {"content": "hi", "tts": "yes"},
            multipart=True,
        )
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["tts"]["_errors"][0]["code"] == "BASE_TYPE_COERCE"
    status, answer = await post(
        emu, f"/channels/{channel.id}/messages", {"content": "hi"}, multipart=True
    )
    assert status == 200 and answer["attachments"][0]["filename"] == "board.png"


async def test_a_request_that_carries_no_message_is_checked_too(emu: DiscordEmulator) -> None:
    channel = emu.add_text_channel(emu.add_guild("G"), "general")
    with emu.expect_violation("invalid_request") as found:
        status, answer = await post(emu, f"/channels/{channel.id}/threads", {"type": 11})
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["name"]["_errors"][0]["code"] == "BASE_TYPE_REQUIRED"
    assert found[0].route == f"POST /channels/{channel.id}/threads"


async def test_snowflakes_may_be_integers_in_requests_only(emu: DiscordEmulator) -> None:
    channel = emu.add_text_channel(emu.add_guild("G"), "general")
    status, first = await post(emu, f"/channels/{channel.id}/messages", {"content": "a"})
    reply = {"content": "b", "message_reference": {"message_id": int(first["id"])}}
    status, answer = await post(emu, f"/channels/{channel.id}/messages", reply)
    assert status == 200  # and the answer spells every id as a string, with the type
    assert answer["message_reference"] == {
        "type": 0, "channel_id": str(channel.id), "message_id": first["id"],
    }
    message = spec.operation("GET", "/channels/1/messages/2")
    assert message is not None
    assert spec.answer_problems(message, 200, {**answer, "id": int(answer["id"])}) == [
        ("id", f"Could not interpret {answer['id']} as string.")
    ]


async def test_an_answer_unlike_the_description_is_a_violation(
    emu: DiscordEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"{emu.base_url}/users/{emu.app_owner.id}"
    async with aiohttp.ClientSession() as http:
        async with http.get(url, headers=AUTH) as response:
            assert response.status == 200
        assert emu.take_violations() == []
        plain = EmuUser.payload
        monkeypatch.setattr(
            EmuUser, "payload", lambda user: {k: v for k, v in plain(user).items()
                                              if k != "primary_guild"}
        )
        async with http.get(url, headers=AUTH) as response:
            assert response.status == 200
    found = emu.take_violations("invalid_answer")
    assert [v.detail for v in found] == [
        "GET /users/{user_id}: primary_guild: This field is required"
    ]


def test_the_operation_is_found_by_its_most_literal_template() -> None:
    original = spec.operation("PATCH", "/webhooks/1/tok/messages/@original")
    other = spec.operation("PATCH", "/webhooks/1/tok/messages/123")
    assert original is not None and other is not None
    assert original.template.endswith("/messages/@original")
    assert other.template.endswith("/messages/{message_id}")
    assert spec.operation("POST", "/nowhere") is None


async def test_each_gateway_event_is_checked_before_it_is_sent(emu: DiscordEmulator) -> None:
    """The objects an event carries (a message, a member, a thread) are the description's:
    the emulator checks each event it sends, and records one that is not."""
    channel = emu.add_text_channel(emu.add_guild("G"), "general")
    status, message = await post(emu, f"/channels/{channel.id}/messages", {"content": "a"})
    assert status == 200
    session = GatewaySession(intents=0)
    session.check = emu.gateway._check_event
    await session.dispatch("MESSAGE_CREATE", {**message, "guild_id": str(channel.guild.id)})
    assert emu.take_violations() == []  # a message with the event's extra fields is fine
    broken = {k: v for k, v in message.items() if k != "author"}
    await session.dispatch("MESSAGE_UPDATE", broken)
    await session.dispatch("INTERACTION_CREATE", {"id": "1", "message": broken})
    found = emu.take_violations("invalid_event")
    assert [v.detail for v in found] == [
        "MESSAGE_UPDATE.author: This field is required",
        "INTERACTION_CREATE.message.author: This field is required",
    ]
    assert session.seq == 3  # recorded, and still sent: the test suites fail on the record
