"""The operations of Discord's OpenAPI description (``openapi/openapi.json``): which one a
request's method and path address, the schema of its request body and of each answer.

The REST routes (rest.py) check every request body the bot sends against its operation's
``requestBody`` schema and, when ``DiscordEmulator.check_answers`` is on (the test suites turn
it on), each of the emulator's own JSON answers against the operation's response schema, with
the checker in limits.py (:func:`limits.schema_problems`). The gateway's events are checked
too (:func:`event_problems`): the description has no gateway, but the objects its events carry
are the REST API's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .limits import SPEC, Problem, schema_problems


@dataclass(frozen=True)
class Operation:
    method: str  # lower case, as the description spells it
    template: str  # e.g. "/channels/{channel_id}/messages"
    pattern: re.Pattern[str]
    literals: int  # how many segments are literal: "@original" beats "{message_id}"
    body: dict[str, Any] | None  # the request body's JSON schema (also payload_json's)
    responses: dict[str, dict[str, Any] | None]  # status -> answer's JSON schema (None: none)


def _compile(template: str) -> tuple[re.Pattern[str], int]:
    parts = template.strip("/").split("/")
    regex = []
    literals = 0
    for part in parts:
        if part.startswith("{") and part.endswith("}"):
            regex.append("[^/]+")
        else:
            regex.append(re.escape(part))
            literals += 1
    return re.compile("/" + "/".join(regex) + "$"), literals


def _json_schema(content: dict[str, Any] | None) -> dict[str, Any] | None:
    found = (content or {}).get("application/json")
    return None if found is None else found.get("schema")


@lru_cache(maxsize=1)
def operations() -> list[Operation]:
    with SPEC.open(encoding="utf-8") as spec:
        description = json.load(spec)
    found: list[Operation] = []
    for template, item in description["paths"].items():
        pattern, literals = _compile(template)
        for method, operation in item.items():
            if method == "parameters":
                continue
            body = _json_schema((operation.get("requestBody") or {}).get("content"))
            responses = {
                status: _json_schema(answer.get("content"))
                for status, answer in operation.get("responses", {}).items()
                if "$ref" not in answer  # the shared 429 / 4XX error answers
            }
            found.append(Operation(method, template, pattern, literals, body, responses))
    # the most literal template first: "/messages/@original" before "/messages/{message_id}"
    found.sort(key=lambda op: -op.literals)
    return found


def operation(method: str, path: str) -> Operation | None:
    """The operation a request addresses (``path`` without ``/api/v10``), None if the
    description has no such operation."""
    method = method.lower()
    for op in operations():
        if op.method == method and op.pattern.match(path):
            return op
    return None


def request_problems(op: Operation, body: Any) -> list[Problem]:
    """What the description refuses in a request body (JSON, or a multipart's payload_json)."""
    if op.body is None:
        return []
    return schema_problems(body, op.body)


def answer_problems(op: Operation, status: int, body: Any) -> list[Problem]:
    """How an answer differs from the description's schema of the operation's answer with
    this status (an answer the description does not list at all is a problem too)."""
    if str(status) not in op.responses:
        listed = ", ".join(sorted(op.responses))
        return [("", f"the description lists no {status} answer (only {listed})")]
    schema = op.responses[str(status)]
    if schema is None:
        return [] if body is None else [("", f"the {status} answer has no body")]
    if body is None:
        return [("", f"the {status} answer needs a JSON body")]
    return schema_problems(body, schema, request=False)


#: The objects inside each gateway event (the developer docs, topics/gateway-events.mdx), by
#: where they sit in its ``d`` and the description's schema of that object. "Message Create:
#: a message object, with extra fields" (``guild_id``, ``member``): the description's schemas
#: allow extra fields, so the object's own schema holds. A path ending in ``[]`` is each item
#: of a list; ``""`` is ``d`` itself.
EVENT_OBJECTS: dict[str, tuple[tuple[str, str], ...]] = {
    # "Ready Event Fields": user, a user object
    "READY": (("user", "UserResponse"),),
    # "Guild Create": a guild object with extra fields: members, channels, threads. The guild
    # and its channels are the gateway's own shape, not GET /guilds/{id}'s (its channels come
    # without guild_id, which GuildChannelResponse requires): their members and threads only
    "GUILD_CREATE": (
        ("members[]", "GuildMemberResponse"),
        ("threads[]", "ThreadResponse"),
    ),
    # "Guild Members Chunk Event Fields": members, an array of guild member objects
    "GUILD_MEMBERS_CHUNK": (("members[]", "GuildMemberResponse"),),
    "MESSAGE_CREATE": (("", "MessageResponse"),),
    # "Message Update": a message object, with the same extra fields as Message Create
    "MESSAGE_UPDATE": (("", "MessageResponse"),),
    # "Thread Create" / "Thread Update": a channel object (a thread)
    "THREAD_CREATE": (("", "ThreadResponse"),),
    "THREAD_UPDATE": (("", "ThreadResponse"),),
    # "Interaction Create": an interaction object (resources/interactions.mdx, "Interaction
    # Object"): its user, member (with permissions) and the message a component is on
    "INTERACTION_CREATE": (
        ("user", "UserResponse"),
        ("member", "GuildMemberResponse"),
        ("message", "MessageResponse"),
    ),
    # "Message Reaction Add Event Fields": member, the member who reacted
    "MESSAGE_REACTION_ADD": (("member", "GuildMemberResponse"),),
}


def event_problems(event: str, data: dict[str, Any]) -> list[Problem]:
    """How the objects a gateway event carries differ from the description's schemas."""
    problems: list[Problem] = []
    for where, schema in EVENT_OBJECTS.get(event, ()):
        if where == "":
            problems += schema_problems(data, schema, event, request=False)
        elif where.endswith("[]"):
            key = where[:-2]
            for i, item in enumerate(data.get(key) or ()):
                problems += schema_problems(item, schema, f"{event}.{key}[{i}]", request=False)
        elif data.get(where) is not None:
            problems += schema_problems(data[where], schema, f"{event}.{where}", request=False)
    return problems
