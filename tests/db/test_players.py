"""Each person's own settings in the store: defaults, updates, validation, cache;
the cache of each process kept right when several share a PostgreSQL database."""

from __future__ import annotations

import asyncio
import time

import pytest

from db import PLAYER_SETTING_NAMES, PlayerSettings, Store
from db.players import Players
from tests.support.postgres import connect


async def test_a_person_who_changed_nothing_has_the_defaults(databases):
    store = await Store.open(databases("players"))
    try:
        assert await store.players.get(5) == PlayerSettings(notify=True, autoplay=True)
        assert PLAYER_SETTING_NAMES == ("notify", "autoplay")
    finally:
        await store.close()


async def test_an_update_changes_only_what_it_names_and_lasts(databases):
    path = databases("players")
    store = await Store.open(path)
    try:
        assert await store.players.update(5, autoplay=False, now=3.0) == PlayerSettings(
            notify=True, autoplay=False
        )
        assert await store.players.update(5, notify=False) == PlayerSettings(False, False)
        assert await store.players.get(6) == PlayerSettings()  # others untouched
    finally:
        await store.close()
    store = await Store.open(path)  # a fresh process: no cache
    try:
        assert await store.players.get(5) == PlayerSettings(notify=False, autoplay=False)
    finally:
        await store.close()
    conn = connect(path)
    assert conn.execute("SELECT user_id, notify, autoplay FROM player_settings").fetchall() == [
        (5, 0, 0)
    ]
    conn.close()


@pytest.mark.parametrize("changes", [{"notify": "no"}, {"autoplay": 0}, {"colour": True}])
async def test_a_bad_value_is_refused_and_changes_nothing(databases, changes):
    store = await Store.open(databases("players"))
    try:
        await store.players.update(5, autoplay=False)
        with pytest.raises(ValueError):
            await store.players.update(5, **changes)
        assert await store.players.get(5) == PlayerSettings(autoplay=False)
    finally:
        await store.close()


async def test_reads_come_from_a_bounded_cache(databases):
    store = await Store.open(databases("players"))
    try:
        players = Players(store._database, cache_size=2)
        await players.start()
        await players.update(1, notify=False)
        for user in (2, 3, 1, 4):
            await players.get(user)
        assert list(players._cache) == [1, 4]  # the least recently read left first
        reads = 0
        real = store._database.fetchall

        async def counting(*args):
            nonlocal reads
            reads += 1
            return await real(*args)

        store._database.fetchall = counting  # type: ignore[method-assign]
        assert await players.get(1) == PlayerSettings(notify=False)
        assert reads == 0  # cached
        assert await players.get(2) == PlayerSettings()
        assert reads == 1
    finally:
        await store.close()


def count_reads(store: Store) -> list[int]:
    """A one-item list counting the reads of ``store``'s settings from then on."""
    reads = [0]
    real = store._database.fetchall

    async def counting(*args):
        reads[0] += 1
        return await real(*args)

    store._database.fetchall = counting  # type: ignore[method-assign]
    return reads


async def test_a_change_made_in_one_process_reaches_the_others(postgres_server):
    """Two processes (two stores) on one PostgreSQL schema: a person switches autoplay off in a
    server of the first while the second has their settings cached; the second's next reads
    (after the notice has come: milliseconds) see it, and are cached again."""
    url = postgres_server.url()
    first, second = await Store.open(url), await Store.open(url)
    try:
        assert await second.players.get(5) == PlayerSettings()
        reads = count_reads(second)
        assert await second.players.get(5) == PlayerSettings()
        assert reads == [0]  # cached
        await first.players.update(5, autoplay=False)
        deadline = time.monotonic() + 5
        while await second.players.get(5) != PlayerSettings(autoplay=False):
            assert time.monotonic() < deadline, "the second process kept the old setting"
            await asyncio.sleep(0.005)
        assert reads == [1]  # one read after the notice
        assert await second.players.get(5) == PlayerSettings(autoplay=False)
        assert reads == [1]  # and cached again
        assert await first.players.get(6) == PlayerSettings()
        await second.players.update(6, notify=False)  # the other way round
        deadline = time.monotonic() + 5
        while await first.players.get(6) != PlayerSettings(notify=False):
            assert time.monotonic() < deadline, "the first process kept the old setting"
            await asyncio.sleep(0.005)
    finally:
        await first.close()
        await second.close()


async def test_a_postgresql_store_that_does_not_listen_keeps_no_cache(postgres_server):
    store = await Store.open(postgres_server.url())
    try:
        players = Players(store._database)  # not started: it would not hear other processes
        reads = count_reads(store)
        await players.get(5)
        await players.get(5)
        assert reads == [2] and not players._cache
    finally:
        await store.close()
