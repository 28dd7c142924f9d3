"""A thread per game, as the manager sees it: ``move_game`` moves a live table
to another channel (a thread opened for it). Stored; found there; the old channel free; the
lobby message where it was; the door takes the game's moves from the thread only."""

from __future__ import annotations

import random

from bot.engine import Variant
from bot.sessions import GameStatus, Outcome, Place, Refusal, RefusalReason
from tests.support.sessions import BOB, CAROL, HOST, play_one, running, started_game

R = RefusalReason
GUILD, CHANNEL, THREAD = 1, 500, 9_000_001
SHORT = Variant(2, False, 61)


async def test_a_started_game_moves_to_its_thread_and_frees_the_channel(databases):
    path = databases("threads")
    async with running(path) as manager:
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL)
        game_id = started.game_id
        await manager.set_message(game_id, "lobby", CHANNEL, 77)
        moved = await manager.move_game(game_id, THREAD)
        assert not isinstance(moved, Refusal), moved
        assert moved.channel_id == THREAD and moved.status is GameStatus.ACTIVE
        assert moved.messages["lobby"].channel_id == CHANNEL  # the lobby message stays put
        assert manager.game_in_channel(THREAD).game_id == game_id
        assert manager.game_in_channel(CHANNEL) is None
        other = await manager.create_lobby(guild_id=GUILD, channel_id=CHANNEL, host_id=CAROL)
        assert not isinstance(other, Refusal), other  # the channel is free for the next table
        assert (await manager.move_game(game_id, THREAD)) == manager.view(game_id)  # no-op
        busy = await manager.move_game(game_id, CHANNEL)
        assert busy.reason is R.CHANNEL_BUSY
        outcome = await play_one(manager, game_id, random.Random(1))
        assert outcome.view.channel_id == THREAD
    async with running(path) as manager:  # stored: after a restart it is still in the thread
        assert manager.game_in_channel(THREAD).game_id == game_id
        assert manager.game_in_channel(CHANNEL).game_id == other.game_id
        assert manager.view(game_id).messages["lobby"].channel_id == CHANNEL


async def test_the_door_takes_the_games_moves_from_the_thread_only(databases):
    async with running(databases("door")) as manager:
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL)
        game_id = started.game_id
        await manager.set_message(game_id, "lobby", CHANNEL, 77)
        assert (await manager.move_game(game_id, THREAD)).ok
        mine = manager.private_view(game_id, HOST)
        action = mine.legal_actions[0]
        old, thread = manager.at(Place(GUILD, CHANNEL)), manager.at(Place(GUILD, THREAD))
        for refused in (
            await old.act(game_id, HOST, action, step=mine.step),
            await old.forfeit(game_id, BOB),
            old.private_view(game_id, HOST),
        ):
            assert isinstance(refused, Refusal) and refused.reason is R.WRONG_CHANNEL
        # a late click on the lobby message gets the lobby's own answer
        late = await old.join(game_id, CAROL)
        assert late.reason is R.ALREADY_STARTED and late.message == "This game has already started."
        assert (await thread.join(game_id, CAROL)).reason is R.ALREADY_STARTED
        assert thread.private_view(game_id, HOST) == mine
        assert isinstance(await thread.act(game_id, HOST, action, step=mine.step), Outcome)
        elsewhere = await manager.at(Place(GUILD, 12345)).join(game_id, CAROL)
        assert elsewhere.reason is R.WRONG_CHANNEL


async def test_a_lobby_an_ended_game_and_an_unknown_one(databases):
    async with running(databases("ends")) as manager:
        lobby = await manager.create_lobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
        moved = await manager.move_game(lobby.game_id, THREAD)  # a lobby may move too
        assert moved.channel_id == THREAD and moved.status is GameStatus.LOBBY
        assert (await manager.move_game(10**9, THREAD + 1)).reason is R.UNKNOWN_GAME
        started = await started_game(manager, variant=SHORT, channel_id=CHANNEL + 1)
        await manager.forfeit(started.game_id, BOB)
        over = await manager.move_game(started.game_id, THREAD + 2)
        assert over.reason is R.GAME_OVER


async def test_a_matchs_next_game_follows_its_game_into_the_thread(databases):
    # best of 5: a skunk counts two games, so the first game can never end the match
    async with running(databases("match")) as manager:
        lobby = await manager.create_lobby(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, variant=SHORT, best_of=5
        )
        assert (await manager.join(lobby.game_id, BOB)).ok
        started = await manager.start(lobby.game_id, HOST)
        assert (await manager.move_game(started.game_id, THREAD)).ok
        rng = random.Random(2)
        for _ in range(3000):
            outcome = await play_one(manager, started.game_id, rng)
            if outcome.finished is not None:
                break
        following = outcome.next_game
        assert following is not None and following.view.channel_id == THREAD
        assert manager.game_in_channel(THREAD).game_id == following.game_id
        assert manager.game_in_channel(CHANNEL) is None
