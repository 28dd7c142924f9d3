"""Configuration, only from the environment (``.env`` is loaded at start).

``DISCORD_TOKEN`` (required), ``CRIBBAGE_DB`` (default ``cribbage.db``), ``DISCORD_GUILD_ID``
(optional: sync commands instantly to that one server while developing),
``CRIBBAGE_SHARD_COUNT`` and ``CRIBBAGE_SHARDS`` (the gateway shards this process runs:
:mod:`bot.app.shards`; by default one process runs them all). The token is never printed or
logged: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.app.shards import ShardError, Shards, parse_shards

# Three base64url segments separated by dots (the shape of every Discord bot token).
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")

SETUP_HELP = (
    "cribbage-bot needs a Discord bot token. Copy .env.example to .env (cp .env.example .env), "
    "then paste your bot's token after DISCORD_TOKEN= (Discord Developer Portal -> your "
    "application -> Bot -> Reset Token; README.md walks through creating the application and "
    "inviting the bot). Optionally set CRIBBAGE_DB (the SQLite file, default cribbage.db) and "
    "DISCORD_GUILD_ID (a server id for instant command sync while developing). Then run "
    "`make run` again."
)


class ConfigError(Exception):
    """The environment does not configure the bot; the message says how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    database: Path | str  # the SQLite file, or a postgresql:// URL (CRIBBAGE_DATABASE_URL)
    guild_id: int | None
    shards: Shards = Shards()

    def __repr__(self) -> str:
        return (
            f"Config(token=<hidden>, database={str(self.database)!r}, guild_id={self.guild_id}, "
            f"shards={self.shards})"
        )


def _environment(environ: Mapping[str, str] | None, dotenv: bool) -> Mapping[str, str]:
    if dotenv and environ is None:
        from dotenv import load_dotenv

        load_dotenv()
    return os.environ if environ is None else environ


def database_path(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Path:
    """``CRIBBAGE_DB`` (default ``cribbage.db``): all that ``python -m bot backup`` / ``check``
    need, so they run without a token."""
    env = _environment(environ, dotenv)
    return Path(env.get("CRIBBAGE_DB", "").strip() or "cribbage.db")


def database_target(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Path | str:
    """``CRIBBAGE_DATABASE_URL`` (``postgresql://user:password@host:port/database``, optional
    ``?schema=name``, default schema ``cribbage``) when set: PostgreSQL (db/pg.py); else the
    SQLite file :func:`database_path`, unchanged."""
    env = _environment(environ, dotenv)
    url = env.get("CRIBBAGE_DATABASE_URL", "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "CRIBBAGE_DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:"
            "port/database); leave it empty to use the SQLite file CRIBBAGE_DB."
        )
    return url or database_path(env, dotenv=False)


def database_label(target: Path | str) -> str:
    """How an operator command names the database it works on: the SQLite file's path, or the
    PostgreSQL URL with its password replaced by ``***`` (never printed or logged)."""
    if isinstance(target, Path):
        return str(target)
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(target)
    if parts.password is None:
        return target
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{parts.username or ''}:***@{host}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def load_config(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Config:
    """Read the configuration (after loading ``.env`` when ``dotenv``); raise ConfigError."""
    env = _environment(environ, dotenv)
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set. " + SETUP_HELP)
    if not _TOKEN_SHAPE.match(token):
        raise ConfigError(
            "DISCORD_TOKEN does not look like a Discord bot token (three parts separated by "
            "dots; the value itself is not shown here). " + SETUP_HELP
        )
    guild_text = env.get("DISCORD_GUILD_ID", "").strip()
    guild_id = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(
                f"DISCORD_GUILD_ID must be a server id (digits only), not {guild_text!r}. "
                "Leave it empty to sync commands globally."
            )
        guild_id = int(guild_text)
    try:
        shards = parse_shards(env.get("CRIBBAGE_SHARD_COUNT", ""), env.get("CRIBBAGE_SHARDS", ""))
    except ShardError as err:
        raise ConfigError(str(err)) from None
    database = database_target(env, dotenv=False)
    if not shards.complete and not isinstance(database, str):  # str: a PostgreSQL URL
        raise ConfigError(
            f"CRIBBAGE_SHARDS={env.get('CRIBBAGE_SHARDS', '').strip()} runs only some of the "
            f"{shards.count} shards, and the others' processes would need the same database: "
            "SQLite (CRIBBAGE_DB) serves the processes of one machine only and cannot be shared "
            "safely by independent shard processes. Run every shard in this process (leave "
            "CRIBBAGE_SHARDS empty), or set CRIBBAGE_DATABASE_URL=postgresql://... for a "
            "database every shard process can share."
        )
    return Config(token=token, database=database, guild_id=guild_id, shards=shards)
