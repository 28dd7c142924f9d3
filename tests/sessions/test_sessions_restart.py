"""Restarts and history: resume from snapshots checked against the log, repairs, replays."""

from __future__ import annotations

import itertools
import logging
import random
import re

import pytest

from bot.engine import Cut, Phase, Variant
from bot.sessions import AddComputer, Move, OpenLobby, RefusalReason, Replay, ShowHand, Start
from db import Conflict
from tests.support.postgres import connect
from tests.support.sessions import (
    HOST,
    assert_durable,
    dump_database,
    play_one,
    play_to_end,
    running,
    started_game,
)

R = RefusalReason


async def test_a_finished_game_replays_deal_by_deal(setup):
    manager, _ = setup
    game_id = (await started_game(manager, variant=Variant(target=61))).game_id
    refusal = await manager.records.replay(game_id)
    assert refusal.reason is R.HIDDEN
    final = await play_to_end(manager, game_id, random.Random(6))
    replay = await manager.records.replay(game_id)
    assert isinstance(replay, Replay)
    assert replay.scores == final.finished.scores and len(replay.steps) == final.step
    assert replay.opening and all(len(h) == 6 for d in replay.deals for h in d.hands)
    assert [d.number for d in replay.deals] == list(range(1, len(replay.deals) + 1))
    assert replay.deals[-1].scores_after == replay.scores
    assert all(d.dealer != n.dealer for d, n in itertools.pairwise(replay.deals))
    assert replay.seats[0].user_id == HOST
    assert (await manager.records.replay(4242)).reason is R.UNKNOWN_GAME


async def test_a_game_resumes_after_a_restart_and_a_bad_snapshot_is_repaired(databases):
    path = databases("resume")
    async with running(path) as manager:
        game_id = (await started_game(manager)).game_id
        rng = random.Random(7)
        for _ in range(25):
            await play_one(manager, game_id, rng)
        before = manager.live.view(game_id)
        hand = manager.hands.private_view(ShowHand(game_id, HOST))

    async with running(path) as manager:
        assert (
            manager.live.view(game_id) == before
            and manager.hands.private_view(ShowHand(game_id, HOST)) == hand
        )

    conn = connect(path)  # corrupt the snapshot: the log must win
    state = conn.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
    conn.execute(
        "UPDATE snapshots SET state = ? WHERE game_id = ?",
        (state[0].replace('"count":', '"count":1'), game_id),
    )
    conn.commit()
    conn.close()
    async with running(path, verify_sample=0) as manager:
        assert manager.live.view(game_id) != before  # not checked: the bad snapshot was loaded
        assert await manager.loader.verify(game_id) == "repaired"
        assert manager.live.view(game_id) == before
        assert await manager.loader.verify_all() == {game_id: "ok"}
        for _ in range(10):
            await play_one(manager, game_id, rng)
        assert_durable(path, game_id, manager)


async def test_a_game_in_its_first_pause_between_deals_is_rebuilt_to_that_pause(databases):
    # No Next deal is logged yet: the log alone must not deal the second deal.
    path = databases("pause")
    async with running(path) as manager:
        game_id = (await started_game(manager)).game_id
        rng = random.Random(5)
        while manager.live.view(game_id).phase is not Phase.NEXT_DEAL:
            await play_one(manager, game_id, rng)
        before = manager.live.view(game_id)
        assert before.deal_number == 1
    conn = connect(path)
    conn.execute("UPDATE snapshots SET state = '{\"version\": 99}' WHERE game_id = ?", (game_id,))
    conn.commit()
    conn.close()
    async with running(path) as manager:
        assert manager.live.view(game_id) == before
        await play_one(manager, game_id, rng)  # a Next deal, and the game goes on
        assert_durable(path, game_id, manager)


async def test_a_snapshot_this_version_cannot_read_is_rebuilt_from_the_log(databases):
    path = databases("version")
    async with running(path) as manager:
        game_id = (await started_game(manager)).game_id
        rng = random.Random(17)
        for _ in range(12):
            await play_one(manager, game_id, rng)
        before = manager.live.view(game_id)
    conn = connect(path)
    conn.execute("UPDATE snapshots SET state = '{\"version\": 99}' WHERE game_id = ?", (game_id,))
    conn.commit()
    conn.close()
    async with running(path) as manager:
        assert manager.live.view(game_id) == before
        for _ in range(5):
            await play_one(manager, game_id, rng)
        assert_durable(path, game_id, manager)
    with pytest.raises(RuntimeError, match="once"):
        async with running(path) as manager:
            await manager.resume()


class Crash(BaseException):
    """The process dying while a computer thinks (not an Exception: nothing may catch it)."""


async def test_a_computer_that_was_about_to_move_moves_on_resume(databases):
    path = databases("computer")

    def dies(game, seat, level):
        raise Crash

    async with running(path, strategy=dies) as manager:
        lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=5, host_id=HOST))
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
        with pytest.raises(Crash):
            await manager.lobbies.start(
                Start(lobby.game_id, HOST)
            )  # the computer cuts first: crash

    async with running(path) as manager:
        view = manager.live.view(lobby.game_id)
        assert view.step == 1 and view.to_act_users == (HOST,)  # the computer has cut
    async with running(path) as manager:
        assert manager.live.view(lobby.game_id) == view


async def test_a_failed_write_changes_nothing_and_the_game_reloads(setup):
    manager, path = setup
    game_id = (await started_game(manager)).game_id
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    conn = connect(path)
    conn.execute("UPDATE snapshots SET seq = 99 WHERE game_id = ?", (game_id,))
    conn.commit()
    before_db, before_view = dump_database(path), manager.live.view(game_id)
    with pytest.raises(Conflict):
        await manager.play.act(Move(game_id, HOST, Cut(4), step=mine.step))
    assert dump_database(path) == before_db and manager.live.view(game_id) == before_view
    conn.execute("UPDATE snapshots SET seq = 0 WHERE game_id = ?", (game_id,))
    conn.commit()
    conn.close()
    assert (await manager.play.act(Move(game_id, HOST, Cut(4), step=mine.step))).ok
    assert_durable(path, game_id, manager)


async def test_hidden_cards_are_never_logged_at_info(databases, caplog):
    caplog.set_level(logging.DEBUG)
    async with running(databases("logs")) as manager:
        game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
        await play_to_end(manager, game_id, random.Random(9))
    card = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b|[♣♦♥♠]")
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert loud and not [m for m in loud if card.search(m)]
    assert not [r for r in caplog.records if "Discard(" in r.getMessage()]
