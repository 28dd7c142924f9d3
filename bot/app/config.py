"""Configuration, only from the environment (``.env`` is loaded at start).

``DISCORD_TOKEN`` (required), ``CRIBBAGE_DB`` (default ``cribbage.db``), ``DISCORD_GUILD_ID``
(optional: sync commands instantly to that one server while developing). The token is never
printed or logged: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

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
    database: Path
    guild_id: int | None

    def __repr__(self) -> str:
        return f"Config(token=<hidden>, database={str(self.database)!r}, guild_id={self.guild_id})"


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
    return Config(token=token, database=database_path(env, dotenv=False), guild_id=guild_id)
