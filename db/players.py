"""Each person's own settings (``/cribbage notify`` and the like), kept per Discord user.

:class:`Players` is the repository ``store.players``, on the :class:`~db.connection.Database`
it receives. A user who never changed anything has no row and gets the defaults of
:class:`PlayerSettings`. Reads are served from a small in-process cache (the most recently used
users; every update refreshes it), so the manager may ask for every person seated after every
click without touching the database.

Several processes share a PostgreSQL database (one per set of shards), and a person may change
a setting in a server of one while playing in a server of another. So on PostgreSQL an update
also notifies the others (``pg_notify`` on the schema's ``players`` channel, sent when its
transaction commits) and each process's :meth:`Players.start` listens: a notice drops that
person from the cache, and the next read asks the database. Until it listens (or on a store
opened read-only) a PostgreSQL store keeps no cache at all. SQLite serves one process: its
cache needs no notices.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     before = await store.players.get(42)
...     after = await store.players.update(42, autoplay=False)
...     await store.close()
...     return before, after
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
(PlayerSettings(notify=True, autoplay=True), PlayerSettings(notify=True, autoplay=False))
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .connection import Database, Dialect


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """One person's settings.

    ``notify``: the bot may ping them when the game waits for them and it cannot reach their
    hand; ``autoplay``: when they have exactly one card they may lay, it is laid for them (their
    last card always is).
    """

    notify: bool = True
    autoplay: bool = True

    def validated(self) -> PlayerSettings:
        """Itself, or ``ValueError`` naming the first setting that is not on or off."""
        for name in PLAYER_SETTING_NAMES:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} is on or off")
        return self


#: The settings a person may change (the keywords of :meth:`Players.update`).
PLAYER_SETTING_NAMES = tuple(f.name for f in dataclasses.fields(PlayerSettings))

#: The PostgreSQL notification channel of settings updates (the payload: the user id).
CHANNEL = "players"
_p = t.player_settings.c
_SELECT = select(_p.notify, _p.autoplay).where(_p.user_id == bindparam("user_id"))


def _upsert(dialect_insert: Any) -> Insert:
    statement = dialect_insert(t.player_settings).values(
        user_id=bindparam("user_id"),
        notify=bindparam("notify"),
        autoplay=bindparam("autoplay"),
        updated_at=bindparam("at"),
    )
    new = statement.excluded
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[_p.user_id],
        set_={"notify": new.notify, "autoplay": new.autoplay, "updated_at": new.updated_at},
    )
    return upsert


#: Store a person's settings, replacing their row: per dialect (SQLite's and PostgreSQL's
#: ``INSERT ... ON CONFLICT``).
_UPSERT: dict[Dialect, Insert] = {
    "sqlite": _upsert(sqlite.insert),
    "postgresql": _upsert(postgresql.insert),
}


def _from_row(row: Sequence[Any]) -> PlayerSettings:
    notify, autoplay = row
    return PlayerSettings(notify=bool(notify), autoplay=bool(autoplay))


class Players:
    """Each person's settings, on the :class:`~db.connection.Database`, with a cache of the
    ``cache_size`` users read most recently (every update refreshes it; on PostgreSQL, only
    once :meth:`start` listens to the other processes' updates)."""

    def __init__(self, database: Database, *, cache_size: int = 4096) -> None:
        self._database = database
        self._cache: OrderedDict[int, PlayerSettings] = OrderedDict()
        self._cache_size = cache_size
        #: SQLite: one process, its cache is always right. PostgreSQL: once :meth:`start` runs.
        self._caching = database.dialect == "sqlite"
        #: Notices heard so far: a read that overlapped one does not fill the cache.
        self._heard = 0

    async def start(self) -> None:
        """Keep the cache right across processes: on PostgreSQL, listen to the other
        processes' updates (each drops that person from the cache); then cache reads."""
        async with self._database.read() as conn:
            if conn.dialect == "postgresql":
                await conn.listen(CHANNEL, self._forget)
        self._caching = True

    def _forget(self, payload: str) -> None:
        """Another process changed someone's settings (``payload``: the user id)."""
        self._heard += 1
        try:
            self._cache.pop(int(payload), None)
        except ValueError:  # not ours to read: forget everyone
            self._cache.clear()

    def _keep(self, user_id: int, settings: PlayerSettings) -> None:
        if not self._caching:
            return
        self._cache[user_id] = settings
        self._cache.move_to_end(user_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def get(self, user_id: int) -> PlayerSettings:
        """A person's settings (the defaults for one who never changed any)."""
        settings = self._cache.get(user_id)
        if settings is not None:
            self._cache.move_to_end(user_id)
            return settings
        heard = self._heard
        rows = await self._database.fetchall(_SELECT, {"user_id": user_id})
        settings = _from_row(rows[0]) if rows else PlayerSettings()
        if heard == self._heard:  # else a notice came meanwhile: the row may be older
            self._keep(user_id, settings)
        return settings

    async def update(
        self, user_id: int, *, now: float | None = None, **changes: Any
    ) -> PlayerSettings:
        """Change some of a person's settings (keywords from :data:`PLAYER_SETTING_NAMES`);
        returns them all. Raises ``ValueError`` for an unknown setting or a value that is not
        on or off (and changes nothing). On PostgreSQL the other processes hear of it."""
        unknown = sorted(set(changes) - set(PLAYER_SETTING_NAMES))
        if unknown:
            raise ValueError(f"No setting {', '.join(unknown)}")
        at = time.time() if now is None else now
        async with self._database.write() as conn:
            rows = list(await conn.execute_fetchall(_SELECT, {"user_id": user_id}))
            current = _from_row(rows[0]) if rows else PlayerSettings()
            new = dataclasses.replace(current, **changes).validated()
            await conn.execute(
                _UPSERT[conn.dialect],
                {
                    "user_id": user_id,
                    "notify": int(new.notify),
                    "autoplay": int(new.autoplay),
                    "at": at,
                },
            )
            if conn.dialect == "postgresql":
                await conn.notify(CHANNEL, str(user_id))
        self._keep(user_id, new)
        return new
