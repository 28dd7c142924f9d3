"""Each person's own settings in the store (issue 13): defaults, updates, validation, cache."""

from __future__ import annotations

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
