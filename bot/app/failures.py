"""What ``python -m bot`` says when it cannot start: one paragraph and an exit status, never a
traceback.

Exit status 2: the configuration or the database must be fixed by the operator (a missing or
refused token, a database that cannot be used: :mod:`db.errors`, a shard another process
already runs: :class:`~bot.app.shards.ShardTaken`). Exit status 1: Discord could
not be reached (the network, an outage); starting again later may work.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord

from bot.app.shards import ShardTaken
from db import StoreError

#: The exit status of an error the operator must fix (configuration, database).
CONFIGURATION = 2
#: The exit status of a failure to reach Discord.
UNREACHABLE = 1


_UNREACHABLE = (
    aiohttp.ClientError,
    discord.HTTPException,
    discord.GatewayNotFound,
    discord.ConnectionClosed,
    TimeoutError,
)


@dataclass(frozen=True, slots=True)
class Failure:
    """Why the bot stopped: the exit status and one paragraph for the operator."""

    status: int
    text: str


def start_failure(err: BaseException, database: Path | str) -> Failure | None:
    """The paragraph for an error that stopped ``python -m bot``; ``None`` for a bug (which
    deserves its traceback)."""
    if isinstance(err, (StoreError, ShardTaken)):
        return Failure(CONFIGURATION, str(err))
    if isinstance(err, discord.LoginFailure):
        return Failure(
            CONFIGURATION,
            "Discord refused the token (DISCORD_TOKEN in .env; the value is not shown here): it "
            "was reset or mistyped. Open the Discord Developer Portal -> your application -> Bot "
            "-> Reset Token, paste the new token after DISCORD_TOKEN= in .env and start again.",
        )
    if isinstance(err, discord.PrivilegedIntentsRequired):
        return Failure(
            CONFIGURATION,
            "Discord refused the connection: it asks for a privileged intent this bot does not "
            "use. Check that you run an unmodified cribbage-bot, then start again.",
        )
    if isinstance(err, _UNREACHABLE):
        return Failure(
            UNREACHABLE,
            f"Cannot reach Discord ({type(err).__name__}: {err}). Check this machine's network "
            "connection and https://discordstatus.com, then start the bot again; the games are "
            "safe in the database.",
        )
    return None
