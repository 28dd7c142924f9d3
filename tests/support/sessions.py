"""Helpers shared by the store and session tests (real SQLite files, no mocks)."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

from bot.engine import Game, Variant, action_from_dict
from bot.sessions import (
    AddComputer,
    GameSessionManager,
    Join,
    Move,
    OpenLobby,
    Outcome,
    PrivateView,
    Refusal,
    ShowHand,
    Start,
)
from db import Store
from db.logcodec import decode_log, decode_points
from tests.support.postgres import connect

HOST, BOB, CAROL, DAVE, EVE = 101, 102, 103, 104, 105


def dump_database(path: Path | str) -> list[str]:
    """Every row of every table, as SQL text (a second, read-only connection; a PostgreSQL URL:
    tests/support/postgres.py)."""
    conn = connect(path, read_only=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def stored_log(
    conn: sqlite3.Connection, game_id: int
) -> tuple[list[tuple[int, int, dict, float]], tuple[int, str, str] | None]:
    """A game's logged actions (seq, seat, action, time) and snapshot (seq, state text, ready
    text) as stored: rows while it is played, its archive row (db/logcodec.py) once it ended."""
    rows = conn.execute(
        "SELECT seq, seat, action, created_at FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    snapshot = conn.execute(
        "SELECT seq, state, ready FROM snapshots WHERE game_id = ?", (game_id,)
    ).fetchone()
    archived = archived_blobs(conn, game_id)
    if archived is not None:
        assert not rows and snapshot is None, f"game {game_id}: archived and still in rows"
        decoded = decode_log(archived[1])
        return decoded.actions, decoded.snapshot
    return [(seq, seat, json.loads(a), at) for seq, seat, a, at in rows], snapshot


def archived_blobs(conn: sqlite3.Connection, game_id: int) -> tuple[bytes, bytes] | None:
    """An archived game's (points blob, log blob) as db/archive.py stores them, or None."""
    row = conn.execute(
        "SELECT first_part, points_parts, log_parts FROM game_archive WHERE game_id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    first, points, log = row
    parts = [
        data
        for (data,) in conn.execute(
            "SELECT data FROM archive_parts WHERE id >= ? AND id < ? ORDER BY id",
            (first, first + points + (log or 0)),
        )
    ]
    return b"".join(parts[:points]), b"".join(parts[points:])


def stored_deal_points(conn: sqlite3.Connection, game_id: int) -> list[tuple]:
    """A game's ``deal_points`` rows as stored: rows, or its archive row once it ended."""
    rows = conn.execute(
        "SELECT deal, seat, pegging, hand, crib, heels, hand_value, hand_cards, crib_value, "
        "crib_cards FROM deal_points WHERE game_id = ? ORDER BY deal, seat",
        (game_id,),
    ).fetchall()
    archived = archived_blobs(conn, game_id)
    return decode_points(archived[0]) if archived is not None else rows


def replay_from_database(path: Path | str, game_id: int) -> tuple[Game, dict, int]:
    """(the replay of the log, the stored snapshot, the number of logged actions)."""
    conn = connect(path, read_only=True)
    try:
        players, partnerships, target, seed, first_dealer, muggins = conn.execute(
            "SELECT players, partnerships, target, seed, first_dealer, muggins FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        rows, snapshot = stored_log(conn, game_id)
        hold = snapshot is not None and json.loads(snapshot[1]).get("hold_between_deals", False)
        variant = Variant(players, bool(partnerships), target, bool(muggins))
        game = Game.new(variant, int(seed), first_dealer, hold_between_deals=hold)
        for expected, (seq, seat, action, _) in enumerate(rows, start=1):
            assert seq == expected, f"game {game_id}: seq {seq} where {expected} was expected"
            game.apply(seat, action_from_dict(action))
        assert snapshot is not None, f"game {game_id} has no snapshot"
        return game, json.loads(snapshot[1]), len(rows)
    finally:
        conn.close()


def assert_durable(path: Path, game_id: int, manager: GameSessionManager) -> None:
    """The stored snapshot equals the live game, and the replay of the log equals both."""
    replayed, snapshot, actions = replay_from_database(path, game_id)
    assert replayed.to_dict() == snapshot
    view = manager.live.view(game_id)
    if view is not None:
        assert actions == view.step


async def open_manager(path: Path, **kwargs) -> tuple[Store, GameSessionManager]:
    """A resumed manager on a store; the caller closes the store (a fixture's teardown)."""
    store = await Store.open(path)
    try:
        manager = GameSessionManager(store, **kwargs)
        await manager.resume()
    except BaseException:
        await store.close()
        raise
    return store, manager


@contextlib.asynccontextmanager
async def running(path: Path, **kwargs) -> AsyncIterator[GameSessionManager]:
    """A resumed manager whose store is closed on the way out, failures included (an open
    aiosqlite connection keeps its thread, and so the test process, alive)."""
    store, manager = await open_manager(path, **kwargs)
    try:
        yield manager
    finally:
        await store.close()


async def started_game(
    manager: GameSessionManager,
    *,
    humans: tuple[int, ...] = (HOST, BOB),
    computers: tuple[str, ...] = (),
    variant: Variant | None = None,
    channel_id: int = 500,
) -> Outcome:
    """A started game: ``humans[0]`` hosts, the others join, then the computers sit."""
    lobby = await manager.lobbies.open(
        OpenLobby(guild_id=1, channel_id=channel_id, host_id=humans[0], variant=variant)
    )
    assert not isinstance(lobby, Refusal), lobby
    for user in humans[1:]:
        assert (await manager.lobbies.join(Join(lobby.game_id, user))).ok
    for level in computers:
        assert (await manager.lobbies.add_computer(AddComputer(lobby.game_id, humans[0], level))).ok  # type: ignore[arg-type]
    outcome = await manager.lobbies.start(Start(lobby.game_id, humans[0]))
    assert isinstance(outcome, Outcome), outcome
    return outcome


async def play_one(manager: GameSessionManager, game_id: int, rng: random.Random) -> Outcome | None:
    """One random legal action by a human who must act (None when nobody human must act)."""
    view = manager.live.view(game_id)
    if view is None or not view.to_act_users:
        return None
    user = rng.choice(view.to_act_users)
    mine = manager.hands.private_view(ShowHand(game_id, user))
    assert isinstance(mine, PrivateView), mine
    outcome = await manager.play.act(
        Move(game_id, user, rng.choice(mine.legal_actions), step=mine.step)
    )
    assert isinstance(outcome, Outcome), outcome
    return outcome


async def play_to_end(manager: GameSessionManager, game_id: int, rng: random.Random) -> Outcome:
    """Random legal play by the humans until the game ends; returns the final outcome."""
    last = None
    for _ in range(5000):
        outcome = await play_one(manager, game_id, rng)
        if outcome is None:
            break
        last = outcome
        if outcome.finished is not None:
            return outcome
    raise AssertionError(f"game {game_id} did not end: {last}")


async def play_past_first_show(
    manager: GameSessionManager, game_id: int, rng: random.Random
) -> Outcome:
    """Random legal play by the humans until the second deal is dealt (a game forfeited once
    its first show is over is a forfeit, not aborted: bot/sessions/bookkeeping.py)."""
    last = None
    for _ in range(500):
        view = manager.live.view(game_id)
        if view is None or view.deal_number > 1:
            assert last is not None, "no move was needed"
            return last
        outcome = await play_one(manager, game_id, rng)
        assert outcome is not None, f"game {game_id} waits on nobody"
        last = outcome
    raise AssertionError(f"game {game_id} never got past its first show: {last}")
