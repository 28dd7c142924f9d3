"""A thread per game, as the manager sees it: ``move_game`` moves a live table
to another channel (a thread opened for it). Stored; found there; the old channel free; the
lobby message where it was; the door takes the game's moves from the thread only."""

from __future__ import annotations

import random

from bot.engine import Variant
from bot.sessions import (
    Forfeit,
    GameStatus,
    Join,
    Move,
    OpenLobby,
    Outcome,
    Place,
    Refusal,
    RefusalReason,
    ShowHand,
    Start,
)
from tests.support.sessions import BOB, CAROL, HOST, play_one, running, started_game

R = RefusalReason
GUILD, CHANNEL, THREAD = 1, 500, 9_000_001
SHORT = Variant(2, False, 61)


async def test_a_started_game_moves_to_its_thread_and_frees_the_channel(databases):
    path = databases("threads")
    async with running(path) as manager:
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL)
        game_id = started.game_id
        await manager.records.set_message(game_id, "lobby", CHANNEL, 77)
        moved = await manager.tables.move(game_id, THREAD)
        assert not isinstance(moved, Refusal), moved
        assert moved.channel_id == THREAD and moved.status is GameStatus.ACTIVE
        assert moved.messages["lobby"].channel_id == CHANNEL  # the lobby message stays put
        assert manager.live.in_channel(THREAD).game_id == game_id
        assert manager.live.in_channel(CHANNEL) is None
        other = await manager.lobbies.open(
            OpenLobby(guild_id=GUILD, channel_id=CHANNEL, host_id=CAROL)
        )
        assert not isinstance(other, Refusal), other  # the channel is free for the next table
        assert (await manager.tables.move(game_id, THREAD)) == manager.live.view(game_id)  # no-op
        busy = await manager.tables.move(game_id, CHANNEL)
        assert busy.reason is R.CHANNEL_BUSY
        outcome = await play_one(manager, game_id, random.Random(1))
        assert outcome.view.channel_id == THREAD
    async with running(path) as manager:  # stored: after a restart it is still in the thread
        assert manager.live.in_channel(THREAD).game_id == game_id
        assert manager.live.in_channel(CHANNEL).game_id == other.game_id
        assert manager.live.view(game_id).messages["lobby"].channel_id == CHANNEL


async def test_the_door_takes_the_games_moves_from_the_thread_only(databases):
    async with running(databases("door")) as manager:
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL)
        game_id = started.game_id
        await manager.records.set_message(game_id, "lobby", CHANNEL, 77)
        assert (await manager.tables.move(game_id, THREAD)).ok
        mine = manager.hands.private_view(ShowHand(game_id, HOST))
        action = mine.legal_actions[0]
        old, thread = Place(GUILD, CHANNEL), Place(GUILD, THREAD)
        for refused in (
            await manager.play.act(Move(game_id, HOST, action, step=mine.step, where=old)),
            await manager.play.forfeit(Forfeit(game_id, BOB, where=old)),
            manager.hands.private_view(ShowHand(game_id, HOST, where=old)),
        ):
            assert isinstance(refused, Refusal) and refused.reason is R.WRONG_CHANNEL
        # a late click on the lobby message gets the lobby's own answer
        late = await manager.lobbies.join(Join(game_id, CAROL, where=old))
        assert late.reason is R.ALREADY_STARTED and late.message == "This game has already started."
        joined = await manager.lobbies.join(Join(game_id, CAROL, where=thread))
        assert joined.reason is R.ALREADY_STARTED
        assert manager.hands.private_view(ShowHand(game_id, HOST, where=thread)) == mine
        move = Move(game_id, HOST, action, step=mine.step, where=thread)
        assert isinstance(await manager.play.act(move), Outcome)
        elsewhere = await manager.lobbies.join(Join(game_id, CAROL, where=Place(GUILD, 12345)))
        assert elsewhere.reason is R.WRONG_CHANNEL


async def test_a_lobby_an_ended_game_and_an_unknown_one(databases):
    async with running(databases("ends")) as manager:
        lobby = await manager.lobbies.open(
            OpenLobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
        )
        moved = await manager.tables.move(lobby.game_id, THREAD)  # a lobby may move too
        assert moved.channel_id == THREAD and moved.status is GameStatus.LOBBY
        assert (await manager.tables.move(10**9, THREAD + 1)).reason is R.UNKNOWN_GAME
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL + 1)
        await manager.play.forfeit(Forfeit(started.game_id, BOB))
        over = await manager.tables.move(started.game_id, THREAD + 2)
        assert over.reason is R.GAME_OVER


async def test_a_matchs_next_game_follows_its_game_into_the_thread(databases):
    # best of 5: a skunk counts two games, so the first game can never end the match
    async with running(databases("match")) as manager:
        lobby = await manager.lobbies.open(
            OpenLobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, variant=SHORT, best_of=5)
        )
        assert (await manager.lobbies.join(Join(lobby.game_id, BOB))).ok
        started = await manager.lobbies.start(Start(lobby.game_id, HOST))
        assert (await manager.tables.move(started.game_id, THREAD)).ok
        rng = random.Random(2)
        for _ in range(3000):
            outcome = await play_one(manager, started.game_id, rng)
            if outcome.finished is not None:
                break
        following = outcome.next_game
        assert following is not None and following.view.channel_id == THREAD
        assert manager.live.in_channel(THREAD).game_id == following.game_id
        assert manager.live.in_channel(CHANNEL) is None
