"""The bot's logs: their level and format (:func:`configure`), and without secrets: the filter
on every log handler of ``python -m bot``.

:func:`configure` (called once at start) reads ``LOG_LEVEL`` (``DEBUG``, ``INFO``, the default,
``WARNING``, ``ERROR`` or ``CRITICAL``) and ``LOG_FORMAT`` (``text``, the default: ``time level
logger: message``; or ``json``: one JSON object per line, :class:`JsonLines`), puts one handler
on stderr, and installs the filter below on every handler of the root logger.

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

The JSON lines pass the same filter, and :class:`JsonLines` redacts every string it writes once
more (the exception's text, and any field a caller added with ``extra=``, which the filter
does not see).

>>> RedactSecrets(["sekrit"]).redact("POST /api/v10/interactions/1/aW50ZXJ.abc/callback sekrit")
'POST /api/v10/interactions/1/[redacted]/callback [redacted]'
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

from bot.app.config import ConfigError

REDACTED = "[redacted]"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
FORMATS = ("text", "json")
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


@dataclass(frozen=True)
class LogSettings:
    """``LOG_LEVEL`` (a :mod:`logging` level) and ``LOG_FORMAT`` (``text`` or ``json``)."""

    level: int = logging.INFO
    format: str = "text"


def log_settings(environ: Mapping[str, str]) -> LogSettings:
    """The settings of ``environ``; :class:`~bot.app.config.ConfigError` for an unknown level
    or format."""
    level = environ.get("LOG_LEVEL", "").strip()
    if level and level.upper() not in LEVELS:
        raise ConfigError(
            f"LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}. Leave it empty for INFO."
        )
    form = environ.get("LOG_FORMAT", "").strip()
    if form and form.lower() not in FORMATS:
        raise ConfigError(
            f"LOG_FORMAT must be text or json, not {form!r}. Leave it empty for text (one line "
            "per record: time, level, logger, message)."
        )
    number = logging.getLevelNamesMapping()[level.upper() or "INFO"]
    return LogSettings(number, form.lower() or "text")


class JsonLines(JsonFormatter):
    """One JSON object per record: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
    ``message``, then ``exception`` (the traceback's text) and ``stack`` when the record has
    them, and any field a caller added with ``extra=``; every string redacted by ``redactor``."""

    def __init__(self, redactor: RedactSecrets) -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={
                "levelname": "level",
                "name": "logger",
                "exc_info": "exception",
                "stack_info": "stack",
            },
            json_ensure_ascii=False,
        )
        self.redactor = redactor

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        return {key: self._redacted(value) for key, value in log_data.items()}

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        log_data["time"] = dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(
            timespec="milliseconds"
        )
        super().add_fields(log_data, record, message_dict)

    def _redacted(self, value: object) -> object:
        if isinstance(value, str):
            return self.redactor.redact(value)
        if isinstance(value, Mapping):
            return {
                str(k): REDACTED if str(k).lower() == "token" else self._redacted(v)
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [self._redacted(v) for v in value]
        if value is None or isinstance(value, bool | int | float):
            return value
        return self.redactor.redact(str(value))


def configure(
    token: str,
    environ: Mapping[str, str] | None = None,
    *,
    stream: TextIO | None = None,
    logger: logging.Logger | None = None,
) -> RedactSecrets:
    """Set up the bot's logs from ``environ`` (default: the process's environment, ``.env``
    loaded): one handler writing to ``stream`` (stderr) in ``LOG_FORMAT``, ``logger`` (the
    root logger) at ``LOG_LEVEL``, and :class:`RedactSecrets` (``token`` among its secrets) on
    every handler it has. :class:`~bot.app.config.ConfigError` for a bad setting (nothing
    changed then)."""
    settings = log_settings(os.environ if environ is None else environ)
    target = logging.getLogger() if logger is None else logger
    handler = logging.StreamHandler(stream)
    target.addHandler(handler)
    target.setLevel(settings.level)
    redactor = install(token, logger=target)
    if settings.format == "json":
        handler.setFormatter(JsonLines(redactor))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    return redactor
