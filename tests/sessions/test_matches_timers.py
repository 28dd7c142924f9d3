"""Matches and turn timers: a player whose time runs out for good concedes the match."""

from __future__ import annotations

import random

from bot.engine import Variant
from bot.sessions import AddComputer, OpenLobby, Outcome, Start
from tests.support.sessions import HOST, open_manager, play_past_first_show


async def test_running_out_of_time_for_good_concedes_the_match(databases):
    now = [1000.0]
    store, manager = await open_manager(databases("timed"), clock=lambda: now[0], forfeit_after=1)
    try:
        lobby = await manager.lobbies.open(
            OpenLobby(
                guild_id=1, channel_id=500, host_id=HOST, variant=Variant(2, False, 61), best_of=3
            )
        )
        await manager.lobbies.add_computer(AddComputer(lobby.game_id, HOST, "easy"))
        started = await manager.lobbies.start(Start(lobby.game_id, HOST))
        assert isinstance(started, Outcome)
        # past the first show: before it a forfeit aborts the game (and abandons the match)
        await play_past_first_show(manager, started.game_id, random.Random(1))
        now[0] += 24 * 3600
        report = await manager.timers.sweep()
        (forfeit,) = report.forfeits
        assert forfeit.next_game is None
        assert forfeit.view.match.status == "conceded" and forfeit.view.match.winner_side == 1
        assert manager.live.in_channel(500) is None
        row = await store.matches.match_of_game(started.game_id)
        assert row.status == "conceded"
    finally:
        await store.close()
