"""Shards across processes: each process resumes only the games of the servers its
gateway shards own, and the database picks them (``(guild_id >> 22) % count``, Discord's
sharding formula), on SQLite and on PostgreSQL."""

from __future__ import annotations

from bot.app.shards import Shards
from bot.engine import Variant
from bot.sessions import GameSessionManager, Join, OpenLobby, Outcome, Start
from db import Store
from tests.support.sessions import BOB, HOST, open_manager

SNOWFLAKE = 2**63 - 1  # the largest id Discord may give: shard (2**41 - 1) % 2 = 1
# server -> its shard of 2: (guild_id >> 22) % 2; a game outside any server (None): shard 0
GUILDS = {10 << 22: 0, 11 << 22: 1, 12 << 22: 0, SNOWFLAKE: 1, None: 0}


async def open_tables(path) -> dict[int, int]:
    """A lobby in each server, and a started game in two: game id -> the shard owning it."""
    store, manager = await open_manager(path)
    shard_of: dict[int, int] = {}
    try:
        for n, (guild_id, shard) in enumerate(GUILDS.items()):
            lobby = await manager.lobbies.open(
                OpenLobby(guild_id=guild_id, channel_id=100 + n, host_id=HOST)
            )
            shard_of[lobby.game_id] = shard
        for n, guild_id in enumerate((10 << 22, SNOWFLAKE)):
            lobby = await manager.lobbies.open(
                OpenLobby(guild_id=guild_id, channel_id=200 + n, host_id=HOST, variant=Variant(2))
            )
            assert (await manager.lobbies.join(Join(lobby.game_id, BOB))).ok
            assert isinstance(await manager.lobbies.start(Start(lobby.game_id, HOST)), Outcome)
            shard_of[lobby.game_id] = GUILDS[guild_id]
    finally:
        await store.close()
    return shard_of


def loads_of(store: Store) -> list[list[int]]:
    """The ids of the games each ``load_active_games`` of ``store`` returns from then on."""
    loads: list[list[int]] = []
    real = store.games.load_active_games

    async def load(**kwargs):
        records = await real(**kwargs)
        loads.append([r.id for r in records])
        return records

    store.games.load_active_games = load  # type: ignore[method-assign]
    return loads


async def test_two_processes_shards_each_resume_only_their_games(databases):
    """Two processes (shard 0 and shard 1 of 2) on one database: each loads, from the database
    itself, exactly the games of its servers; together, every game once."""
    path = databases("shards")
    shard_of = await open_tables(path)
    stores, loaded = [], []
    try:
        for shard in (0, 1):
            store = await Store.open(path)
            stores.append(store)
            loads = loads_of(store)
            manager = GameSessionManager(store, owns=Shards(2, (shard,)).owns)
            report = await manager.resume()
            mine = {g for g, s in shard_of.items() if s == shard}
            assert loads == [sorted(mine)]  # the database picked them: nothing else was read
            assert report.active == 1 and report.lobbies == len(mine) - 1
            assert manager.live.view(min(mine)) is not None
            assert all(manager.live.view(g) is None for g in shard_of if g not in mine)
            loaded.append(mine)
        assert loaded[0] | loaded[1] == set(shard_of) and not loaded[0] & loaded[1]
    finally:
        for store in stores:
            await store.close()


async def test_every_shard_or_any_other_owner_loads_every_game(databases):
    """All the shards in one process: one query with no filter; an ``owns`` that is not a
    shard set's (a plain function) is applied to every game loaded."""
    path = databases("shards")
    shard_of = await open_tables(path)
    store, manager = await open_manager(path, owns=Shards(2, (0, 1)).owns)
    await store.close()
    assert {g for g in shard_of if manager.live.view(g) is not None} == set(shard_of)
    store = await Store.open(path)
    try:
        loads = loads_of(store)
        manager = GameSessionManager(store, owns=lambda guild_id: guild_id == 12 << 22)
        await manager.resume()
        assert loads == [sorted(shard_of)]
        assert [g for g in shard_of if manager.live.view(g) is not None] == [3]  # server 12's lobby
    finally:
        await store.close()
