"""Stores opened at once in one process each migrate their own database: Alembic's environment
is a module-global proxy, so the runs take turns (db.migrations' lock per event loop)."""

from __future__ import annotations

import asyncio

from db import Store
from db.migrations import head_revision


async def test_stores_migrating_at_once_each_reach_the_head(databases):
    places = [databases(f"store{i}", fresh=True) for i in range(4)]
    stores = await asyncio.gather(*(Store.open(place) for place in places))
    try:
        assert [store.revision for store in stores] == [head_revision()] * len(stores)
    finally:
        await asyncio.gather(*(store.close() for store in stores))
