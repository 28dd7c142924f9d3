"""Which games a process loads when it runs some of the bot's gateway shards.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count`` (Discord's Gateway
docs, "Sharding": "Sharding Formula"; events outside any server go to shard 0). A process running
some of the shards resumes only the games of the servers they own: :func:`shard_filter` is the
condition the database applies (:meth:`db.games.Games.load_active_games`), so that it reads no
other process's games.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

#: SQLite's and PostgreSQL's ``>>`` and ``%`` agree on 64-bit integers (Discord's ids are
#: positive); ``json_each(?)`` is PostgreSQL's ``json_array_elements_text`` (:mod:`db.pg`).
CONDITION = "(COALESCE(g.guild_id, 0) >> 22) % ? IN (SELECT value FROM json_each(?))"


def shard_filter(
    shard_count: int, shard_ids: Collection[int] | None
) -> tuple[str, tuple[Any, ...]]:
    """The condition on ``games g`` keeping the games of the servers the gateway shards
    ``shard_ids`` of ``shard_count`` own (``" AND ..."``, to append to a ``WHERE``), and its
    parameters; nothing when they own every server (or ``shard_ids`` is ``None``).

    >>> shard_filter(2, [1])
    (' AND (COALESCE(g.guild_id, 0) >> 22) % ? IN (SELECT value FROM json_each(?))', (2, '[1]'))
    >>> shard_filter(2, [1, 0]), shard_filter(1, None)
    (('', ()), ('', ()))
    """
    if shard_ids is None:
        return "", ()
    ids = sorted(set(shard_ids))
    if shard_count < 1 or any(not 0 <= i < shard_count for i in ids):
        raise ValueError(f"shards {ids} are not among {shard_count}")
    if len(ids) == shard_count:
        return "", ()
    return f" AND {CONDITION}", (shard_count, json.dumps(ids, separators=(",", ":")))
