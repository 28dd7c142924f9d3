"""Per-server settings, as a server's managers chose them with ``/cribbage settings``.

:class:`GuildSettings` is the repository ``store.settings``, on the
:class:`~db.connection.Database` it receives. A server that never changed anything has no row
and gets the defaults of :class:`ServerSettings`. Reads are served from a small in-process cache
that every update refreshes, so the turn timers may ask every few seconds without touching
SQLite.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     before = await store.settings.get(42)
...     after = await store.settings.update(42, target=61, turn_minutes=None)
...     await store.close()
...     return before.target, before.turn_minutes, after.target, after.turn_minutes
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(121, 5, 61, None)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .connection import Database, Dialect

#: The longest turn a server may allow, in minutes (a day).
MAX_TURN_MINUTES = 24 * 60
#: The longest pause between deals a server may set, in seconds (ten minutes).
MAX_NEXT_DEAL_SECONDS = 600
TARGETS = (121, 61)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server's settings (``guild_id`` ``None``: a game outside any server, the defaults).

    ``target``: the game a new table plays to unless its host says otherwise; ``images``: draw
    the board and the show as pictures; ``turn_minutes``: how long a player has for a move before
    the computer plays it for them (``None``: no turn timer); ``muggins``: the default of the
    muggins rule for new tables (stored for that feature); ``computer_games_count``: whether games
    with a computer seat count on this server's leaderboard; ``next_deal_seconds``: after a show,
    how long the table waits for the people to click Next deal before it deals anyway (0: it
    deals at once); ``threads``: each game is played in a thread of its own (the lobby stays in
    the channel).
    """

    guild_id: int | None = None
    target: int = 121
    images: bool = True
    turn_minutes: int | None = 5
    muggins: bool = False
    computer_games_count: bool = False
    next_deal_seconds: int = 20
    threads: bool = True

    @property
    def turn_seconds(self) -> float | None:
        """The turn time in seconds (``None``: turns are not timed)."""
        return None if self.turn_minutes is None else 60.0 * self.turn_minutes

    def validated(self) -> ServerSettings:
        """Itself, or ``ValueError`` naming the first setting out of range."""
        if self.target not in TARGETS:
            raise ValueError("A game is played to 121 or 61 points")
        if self.turn_minutes is not None and not (
            isinstance(self.turn_minutes, int) and 1 <= self.turn_minutes <= MAX_TURN_MINUTES
        ):
            raise ValueError(f"A turn lasts from 1 to {MAX_TURN_MINUTES} minutes, or is untimed")
        seconds = self.next_deal_seconds
        if (
            not isinstance(seconds, int)
            or isinstance(seconds, bool)
            or not 0 <= seconds <= MAX_NEXT_DEAL_SECONDS
        ):
            raise ValueError(
                f"The pause between deals lasts from 0 to {MAX_NEXT_DEAL_SECONDS} seconds"
            )
        for name in ("images", "muggins", "computer_games_count", "threads"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} is on or off")
        return self


#: The settings a server may change (the keywords of :meth:`GuildSettings.update`).
SETTING_NAMES = tuple(f.name for f in dataclasses.fields(ServerSettings) if f.name != "guild_id")

#: The columns of a server's settings, in the order of :func:`_from_row`.
_COLUMNS = (
    "target",
    "images",
    "turn_minutes",
    "muggins",
    "computer_games_count",
    "next_deal_seconds",
    "threads",
)
_SELECT = select(*(t.guild_settings.c[name] for name in _COLUMNS)).where(
    t.guild_settings.c.guild_id == bindparam("guild_id")
)


def _upsert(dialect_insert: Any) -> Insert:
    replaced = (*_COLUMNS, "updated_at", "updated_by")
    statement = dialect_insert(t.guild_settings).values(
        {name: bindparam(name) for name in ("guild_id", *replaced)}
    )
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[t.guild_settings.c.guild_id],
        set_={name: statement.excluded[name] for name in replaced},
    )
    return upsert


#: Store a server's settings, replacing its row: per dialect (SQLite's and PostgreSQL's
#: ``INSERT ... ON CONFLICT``).
_UPSERT: dict[Dialect, Insert] = {
    "sqlite": _upsert(sqlite.insert),
    "postgresql": _upsert(postgresql.insert),
}


def _from_row(guild_id: int, row: Sequence[Any]) -> ServerSettings:
    target, images, turn_minutes, muggins, computer_games_count, next_deal, threads = row
    return ServerSettings(
        guild_id=guild_id,
        target=target,
        images=bool(images),
        turn_minutes=turn_minutes or None,  # stored as 0 when off
        muggins=bool(muggins),
        computer_games_count=bool(computer_games_count),
        next_deal_seconds=next_deal,
        threads=bool(threads),
    )


class GuildSettings:
    """Per-server settings, on the :class:`~db.connection.Database`, with a cache of the rows
    read (every update refreshes it)."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._cache: dict[int, ServerSettings] = {}

    async def get(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (the defaults for a server that never changed any)."""
        if guild_id is None:
            return ServerSettings()
        cache = self._cache
        if guild_id not in cache:
            rows = await self._database.fetchall(_SELECT, {"guild_id": guild_id})
            cache[guild_id] = _from_row(guild_id, rows[0]) if rows else ServerSettings(guild_id)
        return cache[guild_id]

    def cached(self, guild_id: int | None) -> ServerSettings | None:
        """A server's settings if they are in the cache (no database read), else ``None``."""
        return ServerSettings() if guild_id is None else self._cache.get(guild_id)

    async def update(
        self, guild_id: int, *, by: int | None = None, now: float | None = None, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings (keywords from :data:`SETTING_NAMES`); returns
        them all. ``by``: the user who changed them. Raises ``ValueError`` for an unknown
        setting or a value out of range (and changes nothing)."""
        unknown = sorted(set(changes) - set(SETTING_NAMES))
        if unknown:
            raise ValueError(f"No setting {', '.join(unknown)}")
        at = time.time() if now is None else now
        async with self._database.write() as conn:
            rows = list(await conn.execute_fetchall(_SELECT, {"guild_id": guild_id}))
            current = _from_row(guild_id, rows[0]) if rows else ServerSettings(guild_id)
            new = dataclasses.replace(current, **changes).validated()
            await conn.execute(
                _UPSERT[conn.dialect],
                {
                    "guild_id": guild_id,
                    "target": new.target,
                    "images": int(new.images),
                    "turn_minutes": new.turn_minutes or 0,
                    "muggins": int(new.muggins),
                    "computer_games_count": int(new.computer_games_count),
                    "next_deal_seconds": new.next_deal_seconds,
                    "threads": int(new.threads),
                    "updated_at": at,
                    "updated_by": by,
                },
            )
        self._cache[guild_id] = new
        return new
