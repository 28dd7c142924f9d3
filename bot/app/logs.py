"""Logs without secrets: the filter on every log handler of ``python -m bot``.

discord.py logs at DEBUG the URL of every request it makes, the payload it sent and the one it
received, and every gateway event. An interaction's token is in the URL of its replies
(``/interactions/<id>/<token>/callback``, ``/webhooks/<app>/<token>/...``) and in its
``INTERACTION_CREATE`` event; a reply's payload may be a player's private hand, and so may the
message a click came from. Whoever holds a token can answer for the bot in that conversation
for 15 minutes; whoever reads a hand knows what only its player may know.

:class:`RedactSecrets`, installed on the root logger's handlers by :func:`install` (at start,
after ``logging.basicConfig``), rewrites every record that reaches them, at every level, before
it is formatted:

* the payloads of requests to and answers from interaction routes are withheld (the route is
  kept, its token redacted), and an ``INTERACTION_CREATE`` event keeps only what it is (ids,
  type, command or custom id), without its token or the message clicked;
* aiosqlite's DEBUG lines (one per statement run) keep the statement and lose its parameters:
  they are the rows written, a game's state among them (every hand, and the pack);
* in the text of every record (its message, arguments, traceback and stack), interaction and
  webhook tokens in URLs, ``"token"`` fields and the bot's own token are replaced by
  ``[redacted]``.

>>> RedactSecrets(["sekrit"]).redact("POST /api/v10/interactions/1/aW50ZXJ.abc/callback sekrit")
'POST /api/v10/interactions/1/[redacted]/callback [redacted]'
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[redacted]"
WITHHELD = "[payload withheld: an interaction's reply]"

# /interactions/<id>/<token>... and /webhooks/<application>/<token>...
_ROUTE_TOKEN = re.compile(r"(/(?:interactions|webhooks)/[0-9]+/)([^/\s?#'\"]+)")
_PRIVATE_ROUTE = re.compile(r"/(?:interactions|webhooks)/[0-9]+/")
# "token": "..." in JSON, 'token': '...' in a dict's repr
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*)(['"])(?:(?!\2).)*\2""")
# what a Discord bot token looks like (three base64url parts), wherever it turns up
_BOT_TOKEN = re.compile(r"\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}\b")
_EVENT_KEYS = ("id", "type", "guild_id", "channel_id", "application_id")


class RedactSecrets(logging.Filter):
    """Rewrites each record without tokens or interaction payloads (see the module)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            record.msg = self.redact(self._message(record))
        except Exception:  # a record that cannot be formatted cannot be shown safely either
            record.msg = f"[a log line from {record.name} that could not be redacted]"
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True

    def redact(self, text: str) -> str:
        """``text`` without tokens: those of interaction routes, token fields, the bot's."""
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        text = _ROUTE_TOKEN.sub(rf"\g<1>{REDACTED}", text)
        text = _TOKEN_FIELD.sub(rf"\g<1>\g<2>{REDACTED}\g<2>", text)
        return _BOT_TOKEN.sub(REDACTED, text)

    @staticmethod
    def _message(record: logging.LogRecord) -> str:
        """The record's text, its payload arguments withheld where they may be private."""
        args = record.args
        if not args:
            return str(record.msg)
        if isinstance(args, Mapping):
            return str(record.msg) % {k: _safe(v) for k, v in args.items()}
        private = any(isinstance(a, str) and _PRIVATE_ROUTE.search(a) for a in args)
        shown = tuple(_withheld(a) if private else _safe(a) for a in args)
        return str(record.msg) % shown


def _withheld(arg: object) -> object:
    """An argument of a line about an interaction route: the payloads go, the rest stays."""
    if isinstance(arg, Mapping | list) or (isinstance(arg, str) and arg[:1] in "{["):
        return WITHHELD
    return arg


def _safe(arg: object) -> object:
    """A gateway event without what an interaction carries privately (token, clicked message);
    a database call (aiosqlite's) without its parameters."""
    if isinstance(arg, functools.partial):
        statements = [a for a in arg.args if isinstance(a, str)]  # SQL; the rows are parameters
        name = getattr(arg.func, "__qualname__", type(arg.func).__name__)
        return f"{name}({', '.join(map(repr, statements))}{', ...' if arg.args else ''})"
    if isinstance(arg, Mapping) and arg.get("t") == "INTERACTION_CREATE":
        event: Mapping[str, Any] = arg.get("d") or {}
        data: Mapping[str, Any] = event.get("data") or {}
        summary = {key: event[key] for key in _EVENT_KEYS if key in event}
        summary["data"] = {k: data[k] for k in ("name", "custom_id") if k in data}
        return {"t": "INTERACTION_CREATE", "s": arg.get("s"), "d": summary, "withheld": True}
    return arg


def install(*secrets: str, logger: logging.Logger | None = None) -> RedactSecrets:
    """Put one :class:`RedactSecrets` (``secrets``: e.g. the bot token) on every handler of
    ``logger`` (the root logger): every record that reaches them, from any logger, passes it."""
    target = logging.getLogger() if logger is None else logger
    redactor = RedactSecrets(secrets)
    for handler in target.handlers:
        handler.addFilter(redactor)
    return redactor
