"""The manager's door: game ids SQLite cannot hold, and requests made
in another channel or server than the game's.

* every public method that takes a game id answers an id outside ``1 .. 2**63 - 1`` as an
  unknown game (a :class:`Refusal`, or ``None`` / nothing for the reading methods), where it
  raised ``OverflowError`` from SQLite;
* ``manager.at(Place(guild, channel))`` makes a person's requests: a game of another channel or
  server is refused ("That button belongs to a game in another channel."), and nothing changes;
* the cogs make every such request through the door (a check of their source).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.engine import Cut, Variant
from bot.sessions import (
    MAX_GAME_ID,
    Door,
    GameSessionManager,
    Outcome,
    Place,
    Refusal,
    RefusalReason,
)
from tests.support.sessions import BOB, HOST, dump_database, open_manager

R = RefusalReason
GUILD, CHANNEL = 1, 500
HOME = Place(GUILD, CHANNEL)
ROOT = Path(__file__).resolve().parents[2]
BAD_IDS = (0, -1, MAX_GAME_ID + 1, 2**64, 10**40)


@pytest.fixture
async def setup(databases):
    path = databases("door")
    store, manager = await open_manager(path, seed_source=lambda: 20241124, coach=lambda g, s: "x")
    yield manager, path
    await store.close()


async def started_game(manager: GameSessionManager) -> int:
    lobby = await manager.create_lobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
    await manager.join(lobby.game_id, BOB)
    started = await manager.start(lobby.game_id, HOST)
    assert isinstance(started, Outcome)
    return lobby.game_id


# ------------------------------------------------------------------------------ ids (8)


async def test_every_method_taking_a_game_id_answers_an_impossible_one_as_unknown(setup):
    manager, path = setup
    await started_game(manager)  # something in the database to leave alone
    before = dump_database(path)
    requests = {
        "act": lambda g: manager.act(g, HOST, Cut(1), step=1),
        "forfeit": lambda g: manager.forfeit(g, HOST),
        "join": lambda g: manager.join(g, BOB),
        "add_computer": lambda g: manager.add_computer(g, HOST),
        "leave": lambda g: manager.leave(g, HOST),
        "remove_computer": lambda g: manager.remove_computer(g, HOST, 1),
        "set_variant": lambda g: manager.set_variant(g, HOST, Variant()),
        "cancel": lambda g: manager.cancel(g, HOST),
        "start": lambda g: manager.start(g, HOST),
        "rematch": lambda g: manager.rematch(g, HOST),
        "accept_rematch": lambda g: manager.accept_rematch(g, HOST),
        "decline_rematch": lambda g: manager.decline_rematch(g, HOST),
        "advise": lambda g: manager.advise(g, HOST),
        "replay": lambda g: manager.replay(g),
    }
    door = manager.at(HOME)
    for bad in BAD_IDS:
        for name, request in requests.items():
            answer = await request(bad)
            assert isinstance(answer, Refusal), (name, bad)
            assert answer.reason in (R.UNKNOWN_GAME, R.INVALID), (name, bad, answer)
            through_door = getattr(door, name, None)
            if through_door is not None and name not in ("act", "replay"):
                args = (bad, HOST, 1) if name == "remove_computer" else (bad, HOST)
                if name == "set_variant":
                    args = (bad, HOST, Variant())
                refused = await through_door(*args)
                assert isinstance(refused, Refusal) and refused.reason is R.UNKNOWN_GAME
        assert (await door.act(bad, HOST, Cut(1), step=1)).reason is R.UNKNOWN_GAME
        assert door.private_view(bad, HOST).reason is R.UNKNOWN_GAME
        assert manager.private_view(bad, HOST).reason is R.UNKNOWN_GAME
        assert manager.view(bad) is None and manager.rematch_view(bad) is None
        assert await manager.messages(bad) == {}
        await manager.set_message(bad, "table", CHANNEL, 1)  # nothing to remember it for
        assert await manager.turns(bad) == ()
        assert manager.muggins_window_closes_at(bad) is None
        assert manager.next_deal_at(bad) is None
        assert (await manager.move_game(bad, CHANNEL + 1)).reason is R.UNKNOWN_GAME
    assert dump_database(path) == before


async def test_the_largest_id_sqlite_holds_is_an_ordinary_unknown_game(setup):
    manager, _ = setup
    for request in (manager.act(MAX_GAME_ID, HOST, Cut(1), step=1), manager.join(MAX_GAME_ID, BOB)):
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
    mine = manager.private_view(game_id, HOST)
    action = mine.legal_actions[0]
    lobby = await manager.create_lobby(guild_id=GUILD, channel_id=CHANNEL + 7, host_id=HOST)
    lobby_here = Place(GUILD, CHANNEL + 7)
    before = dump_database(path), manager.view(game_id), manager.view(lobby.game_id)
    door = manager.at(where)
    answers = [
        await door.act(game_id, HOST, action, step=mine.step),
        await door.forfeit(game_id, BOB),
        door.private_view(game_id, HOST),
        await door.advise(game_id, HOST),
    ]
    answers += [
        await door.join(lobby.game_id, BOB),
        await door.add_computer(lobby.game_id, HOST),
        await door.leave(lobby.game_id, HOST),
        await door.cancel(lobby.game_id, HOST),
        await door.start(lobby.game_id, HOST),
        await door.remove_computer(lobby.game_id, HOST, 1),
        await door.set_variant(lobby.game_id, HOST, Variant(3)),
        await door.accept_rematch(lobby.game_id, HOST),
        await door.decline_rematch(lobby.game_id, HOST),
    ]
    for answer in answers:
        assert isinstance(answer, Refusal) and answer.reason is R.WRONG_CHANNEL, answer
        assert answer.message == "That button belongs to a game in another channel."
    assert (dump_database(path), manager.view(game_id), manager.view(lobby.game_id)) == before
    # at home the same requests are served
    assert (await manager.at(HOME).act(game_id, HOST, action, step=mine.step)).ok
    assert (await manager.at(lobby_here).join(lobby.game_id, BOB)).ok


@pytest.mark.sqlite_only
async def test_a_rematch_is_refused_from_another_channel_of_the_ended_game(setup):
    manager, path = setup
    game_id = await started_game(manager)
    await manager.forfeit(game_id, BOB)
    before = dump_database(path)
    refused = await manager.at(Place(GUILD, CHANNEL + 1)).rematch(game_id, HOST)
    assert isinstance(refused, Refusal) and refused.reason is R.WRONG_CHANNEL
    assert dump_database(path) == before and manager.live_games() == []
    asked = await manager.at(HOME).rematch(game_id, HOST)
    assert asked.ok and manager.game_in_channel(CHANNEL) is not None


# ------------------------------------------------------------------- the cogs use the door


ACTING = {
    "act",
    "forfeit",
    "join",
    "add_computer",
    "leave",
    "remove_computer",
    "set_variant",
    "cancel",
    "start",
    "rematch",
    "accept_rematch",
    "decline_rematch",
    "private_view",
    "advise",
    "consult",
}


def test_the_cogs_make_every_request_on_a_game_through_the_door():
    """``manager.act(...)`` in a cog would skip the channel check: every call of a request
    method on something named ``manager`` must be ``manager.at(place).method(...)``."""
    direct = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            named = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if node.func.attr in ACTING and named == "manager":
                direct.append(f"{path.relative_to(ROOT)}:{node.lineno} manager.{node.func.attr}")
    assert not direct, "requests made without the door:\n" + "\n".join(direct)
    door = {name for name, _ in inspect.getmembers(Door, inspect.isfunction)}
    assert ACTING - {"consult", "remove_computer", "set_variant"} <= door


@pytest.mark.sqlite_only
async def test_a_user_id_beyond_sqlite_is_refused_at_the_door(setup):
    manager, path = setup
    lobby = await manager.create_lobby(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
    before = dump_database(path)
    for user in (MAX_GAME_ID + 1, 2**64 - 1, 0):
        refused = await manager.at(HOME).join(lobby.game_id, user)
        assert isinstance(refused, Refusal) and refused.reason is R.NOT_SEATED
    assert dump_database(path) == before
    assert (await manager.at(HOME).join(lobby.game_id, MAX_GAME_ID)).ok  # the largest works
