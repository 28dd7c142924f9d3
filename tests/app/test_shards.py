"""Shards: the settings that choose them, and a process serving only its own servers' games."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.app.client import CribbageBot
from bot.app.config import Config, ConfigError, load_config
from bot.app.shards import ShardError, Shards, lock_name, parse_shards
from bot.sessions import (
    OTHER_PROCESS,
    Forfeit,
    GameSessionManager,
    Join,
    OpenLobby,
    Place,
    Refusal,
    RefusalReason,
    ShowHand,
    Start,
)
from db import Store
from tests.app.test_config import GOOD, ROOT
from tests.support.sessions import BOB, HOST

SHARD_0, SHARD_1 = 2 << 22, 3 << 22  # two servers' ids: on shards 0 and 1 of 2


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", Shards(1, (0,))),
        ("4", "", Shards(4, (0, 1, 2, 3))),
        ("4", "0-3", Shards(4, (0, 1, 2, 3))),
        ("4", "1", Shards(4, (1,))),
        ("4", "0,2", Shards(4, (0, 2))),
        ("8", " 6-7, 0 ,2-3,3", Shards(8, (0, 2, 3, 6, 7))),
    ],
)
def test_the_shard_settings_are_read(count, ids, expected):
    assert parse_shards(count, ids) == expected


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("two", "", "CRIBBAGE_SHARD_COUNT must be a whole number, not 'two'"),
        ("0", "", "from 1 to"),
        ("", "1", "needs CRIBBAGE_SHARD_COUNT"),
        ("2", "2", "names shard 2, but with CRIBBAGE_SHARD_COUNT=2 the shards are 0 to 1"),
        ("4", "3-1", "runs backwards"),
        ("4", "1,,2", "Each shard in CRIBBAGE_SHARDS must be a whole number"),
        ("4", "-1", "must be a whole number"),
    ],
)
def test_bad_shard_settings_are_explained(count, ids, message):
    with pytest.raises(ShardError, match=message) as err:
        parse_shards(count, ids)
    assert "e.g. 0-3, 1, or 0,2" in str(err.value)  # and how they are written


def test_discords_formula_routes_servers_and_dms():
    shards = Shards(2, (1,))
    assert [shards.shard_of(g) for g in (SHARD_0, SHARD_1, None)] == [0, 1, 0]
    assert not shards.owns(SHARD_0) and shards.owns(SHARD_1) and not shards.owns(None)
    assert not shards.syncs_commands and not shards.complete
    assert Shards().owns(SHARD_0) and Shards().owns(None) and Shards().syncs_commands


def test_the_config_carries_the_shards():
    env = {"DISCORD_TOKEN": GOOD}
    assert load_config(env, dotenv=False).shards == Shards(1, (0,))
    config = load_config(env | {"CRIBBAGE_SHARD_COUNT": "3"}, dotenv=False)
    assert config.shards == Shards(3, (0, 1, 2)) and "Shards(count=3" in repr(config)
    postgres = {"CRIBBAGE_DATABASE_URL": "postgresql://bot@db/cribbage"}
    config = load_config(
        env | postgres | {"CRIBBAGE_SHARD_COUNT": "2", "CRIBBAGE_SHARDS": "1"}, dotenv=False
    )
    assert config.shards == Shards(2, (1,))
    with pytest.raises(ConfigError, match="needs CRIBBAGE_SHARD_COUNT"):
        load_config(env | {"CRIBBAGE_SHARDS": "1"}, dotenv=False)


def test_a_partial_shard_set_on_sqlite_is_refused():
    env = {"DISCORD_TOKEN": GOOD, "CRIBBAGE_SHARD_COUNT": "2", "CRIBBAGE_SHARDS": "0"}
    with pytest.raises(ConfigError) as err:
        load_config(env, dotenv=False)
    text = str(err.value)
    assert "runs only some of the 2 shards" in text and "SQLite" in text
    assert "CRIBBAGE_DATABASE_URL=postgresql://" in text and "\n" not in text


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"CRIBBAGE_SHARD_COUNT": "2", "CRIBBAGE_SHARDS": "1"}, "SQLite"),
        ({"CRIBBAGE_SHARD_COUNT": "2", "CRIBBAGE_SHARDS": "5"}, "names shard 5"),
    ],
)
def test_python_m_bot_refuses_bad_shards_with_exit_2_and_one_paragraph(tmp_path, settings, says):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CRIBBAGE_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": GOOD} | settings
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert says in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0  # one paragraph


# ---------------------------------------------------------------- a process serves its servers


async def _started(manager: GameSessionManager, guild_id: int, channel_id: int) -> int:
    lobby = await manager.lobbies.open(
        OpenLobby(guild_id=guild_id, channel_id=channel_id, host_id=HOST)
    )
    assert not isinstance(lobby, Refusal), lobby
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    started = await manager.lobbies.start(Start(lobby.game_id, HOST))
    assert not isinstance(started, Refusal), started
    return lobby.game_id


async def test_a_shard_process_resumes_sweeps_and_answers_only_its_servers(tmp_path):
    path = tmp_path / "shards.db"
    store = await Store.open(path)
    try:  # one process ran everything: a game in a server of each shard, and a lobby in a DM
        manager = GameSessionManager(store, clock=lambda: 1000.0)
        await manager.resume()
        mine, theirs = await _started(manager, SHARD_1, 10), await _started(manager, SHARD_0, 20)
        dm = await manager.lobbies.open(OpenLobby(guild_id=None, channel_id=30, host_id=HOST))
        assert not isinstance(dm, Refusal)
    finally:
        await store.close()

    store = await Store.open(path)
    try:  # now the process of shard 1 of 2
        owner = Shards(2, (1,))
        manager = GameSessionManager(store, clock=lambda: 1000.0, owns=owner.owns)
        report = await manager.resume()
        assert (report.active, report.lobbies) == (1, 0)
        assert [v.game_id for v in manager.live.games()] == [mine]
        elsewhere = Place(SHARD_0, 20)
        mine_view = manager.hands.private_view(ShowHand(mine, HOST))
        assert not isinstance(mine_view, Refusal)
        for answer in (
            manager.hands.private_view(ShowHand(theirs, HOST, where=elsewhere)),
            await manager.play.forfeit(Forfeit(theirs, HOST, where=elsewhere)),
            await manager.lobbies.open(OpenLobby(guild_id=SHARD_0, channel_id=21, host_id=HOST)),
            await manager.lobbies.open(OpenLobby(guild_id=None, channel_id=31, host_id=HOST)),
        ):
            assert isinstance(answer, Refusal) and answer.message == OTHER_PROCESS
            assert answer.reason is RefusalReason.UNKNOWN_GAME
        here = Place(SHARD_1, 10)
        assert not isinstance(manager.hands.private_view(ShowHand(mine, HOST, where=here)), Refusal)
        sweep = await manager.idle.sweep(now=1000.0 + 30 * 86400)  # only its own game is idle
        assert [w.game_id for w in sweep.warnings] == [mine]
    finally:
        await store.close()

    store = await Store.open(path)
    try:  # the process of shard 0 has the other game and the DM's lobby, untouched
        owner = Shards(2, (0,))
        manager = GameSessionManager(store, clock=lambda: 1000.0, owns=owner.owns)
        report = await manager.resume()
        assert (report.active, report.lobbies) == (1, 1)
        assert sorted(v.game_id for v in manager.live.games()) == sorted([theirs, dm.game_id])
        sweep = await manager.idle.sweep(now=1000.0 + 30 * 86400)  # first warned here
        assert sorted(w.game_id for w in sweep.warnings) == sorted([theirs, dm.game_id])
    finally:
        await store.close()


async def test_on_sqlite_the_shards_locks_are_always_held(tmp_path):
    """SQLite serves one process (a partial shard set on it is refused): its locks always hold."""
    config = Config(token=GOOD, database=tmp_path / "one.db", guild_id=None, shards=Shards())
    stores = [await Store.open(config.database) for _ in range(2)]
    try:
        for store in stores:  # two bots on one file (one process): neither refuses
            await CribbageBot(config, store=store).hold_shards(store)
        assert lock_name(0) == "shard/0"
    finally:
        for store in stores:
            await store.close()
