"""A database of release 0.1.0 (schema version 8, made by that code: fixtures/make_v8.py) opens
with this code, and its games resume and replay to exactly what that code replayed them to."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from db import Store
from tests.db.fixtures.make_v8 import replays
from tests.support.sessions import open_manager

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE = FIXTURES / "release-0.1.0.db"


@pytest.fixture
def release_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "release-0.1.0.db"
    shutil.copyfile(RELEASE, copy)
    return copy


async def test_the_release_database_opens_and_its_games_replay_identically(release_copy):
    expected = json.loads((FIXTURES / "release-0.1.0.json").read_text())
    assert expected["schema_version"] == 8
    store, manager = await open_manager(release_copy)
    try:
        assert store.schema_version >= 8
        live = {view.game_id for view in manager.live.games()}
        open_games = {
            int(game_id)
            for game_id, facts in expected["games"].items()
            if facts["status"] in ("lobby", "active")
        }
        assert live == open_games  # every game in progress (and the open lobby) resumed
        for game_id in live:
            view = manager.live.view(game_id)
            assert view is not None
            assert view.step == expected["games"][str(game_id)]["step"]
    finally:
        await store.close()
    found = await replays(release_copy)
    assert found["games"] == expected["games"]


async def test_the_release_database_passes_the_stores_checks(release_copy):
    store = await Store.open(release_copy)
    try:
        assert await store.maintenance.integrity_problems() == []
        statuses = sorted({status for _, status in await store.maintenance.games()})
        assert statuses == ["active", "cancelled", "finished", "lobby"]
    finally:
        await store.close()
