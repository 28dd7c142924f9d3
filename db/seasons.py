"""A server's seasons: the repository ``store.seasons``.

A season is a stretch of a server's games with standings of their own. An organiser starts one
(:meth:`Seasons.start`, at most one open per server) and ends it (:meth:`Seasons.end`); while it
is open, every rated game of the server that ends is also rated in the season's scope
(:func:`scope_of`, the negative season id: never ``0``, everywhere, nor a guild's id). The
leaderboard, statistics and history read a season like any scope (:mod:`db.leaderboard`), and
an ended season stays readable by its name.

``carry`` says where a player's first rating of the season starts: ``"reset"``, a new player's;
``"soft"``, their rating in the server at that moment with its sigma widened (multiplied by
``widen``, never past a new player's): the order of the server stays, the season moves it more.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     spring = await store.seasons.start(7, "Spring", carry="soft", started_by=1, now=10.0)
...     ended = await store.seasons.end(7, now=20.0)
...     found = await store.seasons.named(7, "spring")
...     await store.close()
...     return spring.scope, ended.open, found == ended
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(-1, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from sqlalchemy import bindparam, func, insert, select, update

from . import schema as t
from .connection import Database
from .errors import Conflict

Carry = Literal["soft", "reset"]
CARRIES: Final = ("soft", "reset")
#: How much a soft carry widens a player's sigma at the season's start.
SOFT_WIDEN: Final = 2.0
NAME_LENGTH: Final = 50


def scope_of(season_id: int) -> int:
    """The season's scope in ``standings`` and ``rating_history``: its id, negated."""
    return -season_id


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    name: str
    carry: Carry
    widen: float
    started_by: int
    started_at: float
    ended_at: float | None  # None while open

    @property
    def open(self) -> bool:
        return self.ended_at is None

    @property
    def scope(self) -> int:
        return scope_of(self.id)


_s = t.seasons.c
_COLUMNS = (
    _s.id,
    _s.guild_id,
    _s.name,
    _s.carry,
    _s.widen,
    _s.started_by,
    _s.started_at,
    _s.ended_at,
)
_NEW = (
    insert(t.seasons)
    .values(
        guild_id=bindparam("guild"),
        name=bindparam("name"),
        carry=bindparam("carry"),
        widen=bindparam("widen"),
        started_by=bindparam("by"),
        started_at=bindparam("now"),
    )
    .returning(_s.id)
)
_BY_ID = select(*_COLUMNS).where(_s.id == bindparam("id"))
_OPEN = select(*_COLUMNS).where(_s.guild_id == bindparam("guild"), _s.ended_at.is_(None))
#: Names are told apart regardless of case ("Spring" and "spring" are one season).
_NAMED = select(*_COLUMNS).where(
    _s.guild_id == bindparam("guild"), func.lower(_s.name) == func.lower(bindparam("name"))
)
_ALL = (
    select(*_COLUMNS)
    .where(_s.guild_id == bindparam("guild"))
    .order_by(_s.started_at.desc(), _s.id.desc())
    .limit(bindparam("limit"))
)
_END = (
    update(t.seasons)
    .where(_s.id == bindparam("season"), _s.ended_at.is_(None))
    .values(ended_at=bindparam("now"))
)
_st, _g = t.standings.c, t.games.c
#: When the latest game rated in a season ended: the last game of one of its players (games are
#: rated in the order they ended), read along the standings' primary key.
_LATEST_GAME = (
    select(func.max(_g.ended_at))
    .select_from(t.standings.join(t.games, _g.id == _st.last_game))
    .where(_st.pool == "all", _st.scope == bindparam("scope"))
)
#: When the server's last season ended.
_LAST_END = select(func.max(_s.ended_at)).where(_s.guild_id == bindparam("guild"))


def _season(row: Any) -> Season:
    return Season(*row)


class Seasons:
    """Starting, ending and finding a server's seasons."""

    carries: Final = CARRIES
    name_length: Final = NAME_LENGTH

    def __init__(self, database: Database) -> None:
        self._database = database

    async def start(
        self,
        guild_id: int,
        name: str,
        *,
        carry: Carry,
        started_by: int,
        now: float,
        widen: float = SOFT_WIDEN,
    ) -> Season:
        """Open a season in the server. Raises :class:`Conflict` when one is open there, or
        when a season of the server already has this name (in any case); :class:`ValueError`
        for an empty or too long name or an unknown carry."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_LENGTH:
            raise ValueError(f"A season's name has 1 to {NAME_LENGTH} characters.")
        if carry not in CARRIES:
            raise ValueError(f"No carry {carry!r}")
        async with self._database.write() as conn:
            if (await conn.execute(_OPEN, {"guild": guild_id})).first() is not None:
                raise Conflict(f"Server {guild_id} already has an open season.")
            if (await conn.execute(_NAMED, {"guild": guild_id, "name": name})).first():
                raise Conflict(f"Server {guild_id} already had a season named {name!r}.")
            last_end = (await conn.execute(_LAST_END, {"guild": guild_id})).scalar()
            now = now if last_end is None else max(now, last_end)  # seasons never overlap
            params = {
                "guild": guild_id,
                "name": name,
                "carry": carry,
                "widen": widen,
                "by": started_by,
                "now": now,
            }
            season_id = (await conn.execute(_NEW, params)).scalar()
            row = (await conn.execute(_BY_ID, {"id": season_id})).first()
        return _season(row)

    async def end(self, guild_id: int, *, now: float) -> Season | None:
        """End the server's open season; the season ended (``None``: none was open). Games
        that end from now on count in the server's standings only.

        It ends at ``now``, or when the latest game rated in it ended if that is later (a
        clock of another process a little ahead): every game rated in a season lies within
        its start and end, as its statistics and history read it."""
        async with self._database.write() as conn:
            row = (await conn.execute(_OPEN, {"guild": guild_id})).first()
            if row is None:
                return None
            season = _season(row)
            latest = (await conn.execute(_LATEST_GAME, {"scope": season.scope})).scalar()
            end = now if latest is None else max(now, latest)
            await conn.execute(_END, {"season": season.id, "now": end})
            row = (await conn.execute(_BY_ID, {"id": season.id})).first()
        return _season(row)

    async def current(self, guild_id: int) -> Season | None:
        """The server's open season, if any."""
        rows = await self._database.fetchall(_OPEN, {"guild": guild_id})
        return _season(rows[0]) if rows else None

    async def named(self, guild_id: int, name: str) -> Season | None:
        """The server's season of this name (open or ended; case aside), if any."""
        name = " ".join(name.split())
        rows = await self._database.fetchall(_NAMED, {"guild": guild_id, "name": name})
        return _season(rows[0]) if rows else None

    async def get(self, season_id: int) -> Season | None:
        rows = await self._database.fetchall(_BY_ID, {"id": season_id})
        return _season(rows[0]) if rows else None

    async def of_guild(self, guild_id: int, *, limit: int = 25) -> list[Season]:
        """The server's seasons, the latest started first."""
        rows = await self._database.fetchall(_ALL, {"guild": guild_id, "limit": limit})
        return [_season(row) for row in rows]
