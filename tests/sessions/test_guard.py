"""The guard: game ids SQLite cannot hold, and requests made in another channel or server than
the game's.

* every public method that takes a game id answers an id outside ``1 .. 2**63 - 1`` as an
  unknown game (a :class:`Refusal`, or ``None`` / nothing for the reading methods), where it
  raised ``OverflowError`` from SQLite;
* a request made at a :class:`Place` (``where=``) for a game of another channel or server is
  refused ("That button belongs to a game in another channel."), and nothing changes;
* the cogs say where every request they make was made (a check of their source).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import bot.sessions
from bot.engine import Cut, Variant
from bot.sessions import (
    MAX_GAME_ID,
    AcceptRematch,
    AddComputer,
    AskCoach,
    AskRematch,
    Cancel,
    ChangeVariant,
    DeclineRematch,
    Forfeit,
    GameSessionManager,
    Join,
    Leave,
    Move,
    OpenLobby,
    Outcome,
    Place,
    Refusal,
    RefusalReason,
    RemoveComputer,
    Request,
    ShowHand,
    Start,
)
from tests.support.sessions import BOB, HOST, dump_database, open_manager

R = RefusalReason
GUILD, CHANNEL = 1, 500
HOME = Place(GUILD, CHANNEL)
ROOT = Path(__file__).resolve().parents[2]
BAD_IDS = (0, -1, MAX_GAME_ID + 1, 2**64, 10**40)


@pytest.fixture
async def setup(databases):
    path = databases("guard")
    store, manager = await open_manager(path, seed_source=lambda: 20241124, coach=lambda g, s: "x")
    yield manager, path
    await store.close()


async def started_game(manager: GameSessionManager) -> int:
    lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST))
    await manager.lobbies.join(Join(lobby.game_id, BOB))
    started = await manager.lobbies.start(Start(lobby.game_id, HOST))
    assert isinstance(started, Outcome)
    return lobby.game_id


# ------------------------------------------------------------------------------ ids (8)


async def test_every_method_taking_a_game_id_answers_an_impossible_one_as_unknown(setup):
    manager, path = setup
    await started_game(manager)  # something in the database to leave alone
    before = dump_database(path)
    requests = {
        "act": lambda g, at: manager.play.act(Move(g, HOST, Cut(1), step=1, where=at)),
        "forfeit": lambda g, at: manager.play.forfeit(Forfeit(g, HOST, where=at)),
        "join": lambda g, at: manager.lobbies.join(Join(g, BOB, where=at)),
        "add_computer": lambda g, at: manager.lobbies.add_computer(AddComputer(g, HOST, where=at)),
        "leave": lambda g, at: manager.lobbies.leave(Leave(g, HOST, where=at)),
        "remove_computer": lambda g, at: manager.lobbies.remove_computer(
            RemoveComputer(g, HOST, 1, where=at)
        ),
        "set_variant": lambda g, at: manager.lobbies.set_variant(
            ChangeVariant(g, HOST, Variant(), where=at)
        ),
        "cancel": lambda g, at: manager.lobbies.cancel(Cancel(g, HOST, where=at)),
        "start": lambda g, at: manager.lobbies.start(Start(g, HOST, where=at)),
        "rematch": lambda g, at: manager.rematches.ask(AskRematch(g, HOST, where=at)),
        "accept_rematch": lambda g, at: manager.rematches.accept(AcceptRematch(g, HOST, where=at)),
        "decline_rematch": lambda g, at: manager.rematches.decline(
            DeclineRematch(g, HOST, where=at)
        ),
        "advise": lambda g, at: manager.hands.advise(AskCoach(g, HOST, where=at)),
    }
    for bad in BAD_IDS:
        for name, request in requests.items():
            answer = await request(bad, None)  # a trusted caller: the part's own answer
            assert isinstance(answer, Refusal), (name, bad)
            assert answer.reason in (R.UNKNOWN_GAME, R.INVALID), (name, bad, answer)
            refused = await request(bad, HOME)  # a person's request: the guard's answer
            assert isinstance(refused, Refusal) and refused.reason is R.UNKNOWN_GAME, name
        assert (await manager.records.replay(bad)).reason is R.UNKNOWN_GAME
        assert manager.hands.private_view(ShowHand(bad, HOST, where=HOME)).reason is R.UNKNOWN_GAME
        assert manager.hands.private_view(ShowHand(bad, HOST)).reason is R.UNKNOWN_GAME
        assert manager.live.view(bad) is None and manager.rematches.view(bad) is None
        assert bad not in manager.live and manager.live.get(bad) is None
        assert await manager.records.messages(bad) == {}
        await manager.records.set_message(bad, "table", CHANNEL, 1)  # nothing to remember it for
        assert await manager.timers.turns(bad) == ()
        assert manager.muggins.closes_at(bad) is None
        assert manager.deals.due_at(bad) is None
        assert (await manager.tables.move(bad, CHANNEL + 1)).reason is R.UNKNOWN_GAME
    assert dump_database(path) == before


async def test_the_largest_id_sqlite_holds_is_an_ordinary_unknown_game(setup):
    manager, _ = setup
    for request in (
        manager.play.act(Move(MAX_GAME_ID, HOST, Cut(1), step=1)),
        manager.lobbies.join(Join(MAX_GAME_ID, BOB)),
    ):
        answer = await request
        assert isinstance(answer, Refusal) and answer.reason is R.UNKNOWN_GAME


# ------------------------------------------------------------------- another place (9)


@pytest.mark.parametrize(
    "where",
    [
        Place(GUILD, CHANNEL + 1),
        Place(GUILD + 1, CHANNEL),
        Place(GUILD + 1, 999),
        Place(None, CHANNEL),
    ],
    ids=["other channel", "other server, same channel id", "other server", "a DM"],
)
@pytest.mark.sqlite_only
async def test_a_request_from_another_place_is_refused_and_changes_nothing(setup, where):
    manager, path = setup
    game_id = await started_game(manager)
    mine = manager.hands.private_view(ShowHand(game_id, HOST))
    action = mine.legal_actions[0]
    lobby = await manager.lobbies.open(
        OpenLobby(guild_id=GUILD, channel_id=CHANNEL + 7, host_id=HOST)
    )
    lobby_here = Place(GUILD, CHANNEL + 7)
    before = dump_database(path), manager.live.view(game_id), manager.live.view(lobby.game_id)
    at, lobby_id = where, lobby.game_id
    answers = [
        await manager.play.act(Move(game_id, HOST, action, step=mine.step, where=at)),
        await manager.play.forfeit(Forfeit(game_id, BOB, where=at)),
        manager.hands.private_view(ShowHand(game_id, HOST, where=at)),
        await manager.hands.advise(AskCoach(game_id, HOST, where=at)),
    ]
    answers += [
        await manager.lobbies.join(Join(lobby_id, BOB, where=at)),
        await manager.lobbies.add_computer(AddComputer(lobby_id, HOST, where=at)),
        await manager.lobbies.leave(Leave(lobby_id, HOST, where=at)),
        await manager.lobbies.cancel(Cancel(lobby_id, HOST, where=at)),
        await manager.lobbies.start(Start(lobby_id, HOST, where=at)),
        await manager.lobbies.remove_computer(RemoveComputer(lobby_id, HOST, 1, where=at)),
        await manager.lobbies.set_variant(ChangeVariant(lobby_id, HOST, Variant(3), where=at)),
        await manager.rematches.accept(AcceptRematch(lobby_id, HOST, where=at)),
        await manager.rematches.decline(DeclineRematch(lobby_id, HOST, where=at)),
    ]
    for answer in answers:
        assert isinstance(answer, Refusal) and answer.reason is R.WRONG_CHANNEL, answer
        assert answer.message == "That button belongs to a game in another channel."
    assert (
        dump_database(path),
        manager.live.view(game_id),
        manager.live.view(lobby.game_id),
    ) == before
    # at home the same requests are served
    assert (await manager.play.act(Move(game_id, HOST, action, step=mine.step, where=HOME))).ok
    assert (await manager.lobbies.join(Join(lobby.game_id, BOB, where=lobby_here))).ok


@pytest.mark.sqlite_only
async def test_a_rematch_is_refused_from_another_channel_of_the_ended_game(setup):
    manager, path = setup
    game_id = await started_game(manager)
    await manager.play.forfeit(Forfeit(game_id, BOB))
    before = dump_database(path)
    refused = await manager.rematches.ask(
        AskRematch(game_id, HOST, where=Place(GUILD, CHANNEL + 1))
    )
    assert isinstance(refused, Refusal) and refused.reason is R.WRONG_CHANNEL
    assert dump_database(path) == before and manager.live.games() == []
    asked = await manager.rematches.ask(AskRematch(game_id, HOST, where=HOME))
    assert asked.ok and manager.live.in_channel(CHANNEL) is not None


# ------------------------------------------------------------- the cogs say where they are


def _request_classes() -> set[str]:
    return {
        name
        for name in bot.sessions.__all__
        if isinstance(cls := getattr(bot.sessions, name), type) and issubclass(cls, Request)
    }


def test_the_cogs_say_where_every_request_on_a_game_was_made():
    """A request without ``where`` skips the guard's check of the place: every request a cog
    builds says where it was made, and no cog asks the coach's part without one."""
    requests = _request_classes()
    assert {"Move", "Forfeit", "Join", "ShowHand", "AskRematch"} <= requests
    for name in requests:  # each has a place to say
        assert "where" in {f.name for f in dataclasses.fields(getattr(bot.sessions, name))}
    unplaced, built = [], set()
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if name in requests:
                built.add(name)
                if "where" not in {k.arg for k in node.keywords}:
                    unplaced.append(f"{where} {name}(...)")
            elif name == "consult":
                unplaced.append(f"{where} consult(...) (no place to check)")
    assert not unplaced, "requests made without saying where:\n" + "\n".join(unplaced)
    assert {"Move", "Forfeit", "Join", "Start", "ShowHand", "AskRematch"} <= built


@pytest.mark.sqlite_only
async def test_a_user_id_beyond_sqlite_is_refused_by_the_guard(setup):
    manager, path = setup
    lobby = await manager.lobbies.open(OpenLobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST))
    before = dump_database(path)
    for user in (MAX_GAME_ID + 1, 2**64 - 1, 0):
        refused = await manager.lobbies.join(Join(lobby.game_id, user, where=HOME))
        assert isinstance(refused, Refusal) and refused.reason is R.NOT_SEATED
    assert dump_database(path) == before
    largest = Join(lobby.game_id, MAX_GAME_ID, where=HOME)
    assert (await manager.lobbies.join(largest)).ok  # the largest works
