"""The operations of Discord's OpenAPI description (``openapi/openapi.json``): which one a
request's method and path address, the schema of its request body and of each answer.

The REST routes (rest.py) check every request body the bot sends against its operation's
``requestBody`` schema and, when ``DiscordEmulator.check_answers`` is on (the test suites turn
it on), each of the emulator's own JSON answers against the operation's response schema, with
the checker in limits.py (:func:`limits.schema_problems`).
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
