"""The path of one Play click through the code, as docs/developers/architecture.md tells it.

The page names the files a Play click is handed through on its way to the database. The test
follows the real call, through the emulator, with a profiler: when the click's move reaches the
store (the first call into ``db/`` made on the click's behalf), it reads the chain of calls
still waiting on it, from the item's guard down, across the task that ``in_time`` runs the move
in. Those are the modules the click passes through; a function called on the way that returned
before (the witness learning the clicker's name, the guard's checks, ``place_of``) was asked,
not passed through, and is listed apart.

The cogs and the session manager (``cogs/``, ``bot/sessions/``) hand it through four files; the
store through two more: the write's chain when its first statement runs (the group commit's
writer, the games' write, the statement runner) is ``db/connection.py`` and ``db/games.py``.

The hand's items are drawn in ``cogs/cribbage/hand.py`` and read back by their items in
``cogs/cribbage/hand_clicks.py``: the second part of this file holds every drawn id to its item.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from bot.engine import Phase, card_from_code
from cogs.cribbage import hand, hand_clicks
from tests.support.discord_players import Driver, Seat, open_club

ROOT = Path(__file__).resolve().parents[2]
OURS = ("cogs/", "bot/sessions/")  # the part the assertion is about
MAX_FILES = 4  # cogs 2 (the item with its answer, the items' guard), replies' in_time, play


@pytest.fixture
async def club(tmp_path):
    # no privacy watch: it looks at the game around every click, and would be traced here
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False) as driver:
        yield driver


def module_of(frame: FrameType) -> str | None:
    """The file of the project ``frame`` runs in (``cogs/…``, ``bot/…``, ``db/…``), or None."""
    path = Path(frame.f_code.co_filename)
    if not path.is_relative_to(ROOT) or "site-packages" in path.parts:
        return None
    return path.relative_to(ROOT).as_posix()


def awaiting(task: asyncio.Task[Any]) -> list[FrameType]:
    """The frames of ``task``'s coroutines, outermost first, down to what it awaits now."""
    frames: list[FrameType] = []
    coro: Any = task.get_coro()
    while coro is not None and getattr(coro, "cr_frame", None) is not None:
        frames.append(coro.cr_frame)
        coro = coro.cr_await
    return frames


def waiting_on(task: asyncio.Task[Any]) -> asyncio.Task[Any] | None:
    """The task one of whose frames holds ``task`` (``in_time`` keeps the task it runs the work
    in, and waits on it), or None."""
    for other in asyncio.all_tasks():
        if other is not task and any(
            value is task for frame in awaiting(other) for value in frame.f_locals.values()
        ):
            return other
    return None


def call_chain(frame: FrameType) -> list[str]:
    """The modules of the calls waiting on ``frame``, outermost first, across the tasks that
    wait on the current one."""
    frames: list[FrameType] = []
    here: FrameType | None = frame
    while here is not None:
        frames.append(here)
        here = here.f_back
    frames.reverse()
    task = asyncio.current_task()
    while task is not None and (task := waiting_on(task)) is not None:
        frames = awaiting(task) + frames
    modules = [m for f in frames if (m := module_of(f)) is not None]
    return [m for i, m in enumerate(modules) if i == 0 or modules[i - 1] != m]


async def play_click(club: Driver) -> tuple[list[str], list[str], list[str], list[str]]:
    """Play a card by a click on its hand; return the chain of modules the click is handed
    through when it reaches the store, every module of ``OURS`` whose code ran before, the
    modules of the store that ran for the click (the writer's too), and the chain of the
    write's first statement."""
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    for _ in range(20):  # cut for the deal, discards, the starter: up to the first card played
        view = club.bot.manager.live.view(club.game_id())
        if view is not None and view.phase is Phase.PLAY:
            break
        for user_id in club.whose_move():
            if await club.move(seats[user_id]) == "wait":
                await club.move(seats[user_id])
    mover = seats[club.whose_move()[0]]
    hand_message = (await club.click(mover.user, club.table_message(), "Your hand")).message
    card = next(
        b
        for row in hand_message.components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    )

    chain: list[str] = []
    ran: list[str] = []
    store: list[str] = []
    written: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or (module := module_of(frame)) is None:
            return
        if module.startswith("db/"):
            if chain and not written and frame.f_code.co_name == "executemany":
                written.extend(call_chain(frame))  # the write's first statement
            if not chain:
                found = call_chain(frame)
                if "cogs/utils/items.py" in found:  # on the click's behalf (not a loop's)
                    chain.extend(found)
            if chain and module not in store:
                store.append(module)
        elif not chain and module.startswith(OURS) and module not in ran:
            ran.append(module)

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        await club.click(mover.user, hand_message, custom_id=card.custom_id)
    finally:
        sys.setprofile(before)
    view = club.bot.manager.live.view(club.game_id())
    assert view is not None and card_from_code(card.custom_id.split(":")[-1]) in view.pile
    return chain, ran, store, written


async def test_a_play_click_is_handed_through_four_files_of_the_cogs_and_sessions(club):
    chain, ran, store, written = await play_click(club)
    ours = [m for m in chain if m.startswith(OURS)]
    print("the click's chain at the store:", " -> ".join(chain))
    print("our modules whose code ran before it:", ", ".join(ran))
    print("the store's modules that ran for it:", ", ".join(store))
    assert chain, "the click never reached the store"
    # it starts at the items' guard and the item discord.py rebuilt, which answers it there too
    assert ours[:2] == ["cogs/utils/items.py", "cogs/cribbage/hand_clicks.py"], ours
    assert ours[-1] == "bot/sessions/play.py", ours  # the part that commits a move
    assert len(set(ours)) <= MAX_FILES, ours
    assert chain[-1].startswith("db/")
    # the store: the group commit's writer runs the games' write, which runs its statements
    print("the write's chain at its first statement:", " -> ".join(written))
    assert set(written) == {"db/connection.py", "db/games.py"}, written
    assert len(set(ours) | set(written)) <= 6


# ---------------------------------------------------------------- drawn ids and their items

CARD = card_from_code("10H")
DRAWN = [  # a hand's item as drawn, its item, and what the item reads back from the id
    (hand.play_button(12, 3, CARD), hand_clicks.PlayButton, {"step": 3, "card": CARD}),
    (hand.pick_button(12, 3, 0b101, 5, CARD), hand_clicks.PickButton, {"mask": 5, "index": 5}),
    (
        hand.discard_button(12, 3, 0b11, label="Lay away", ready=True),
        hand_clicks.DiscardButton,
        {"mask": 3},
    ),
    (
        hand.discard_menu(12, 3, [CARD], 1, chosen=(), crib="the crib"),
        hand_clicks.DiscardMenu,
        {"step": 3},
    ),
    (hand.cut_button(12, 3), hand_clicks.CutButton, {"step": 3}),
    (hand.hint_button(12, 3), hand_clicks.HintButton, {"step": 3}),
]


@pytest.mark.parametrize(
    ("drawn", "item", "fields"), DRAWN, ids=lambda v: getattr(v, "__name__", "")
)
async def test_every_item_a_hand_draws_is_read_back_by_its_item(drawn, item, fields):
    """Each id written in hand.py matches its item's template in hand_clicks.py, and no
    other item's; rebuilt as discord.py rebuilds it, the item reads back what was drawn."""
    from cogs.cribbage.cog import ITEMS

    # (by name: unloading the extension drops its modules, so ITEMS may be of a newer import)
    matching = [
        f"{i.__module__}.{i.__name__}"
        for i in ITEMS
        if i.__discord_ui_compiled_template__.fullmatch(drawn.custom_id)
    ]
    assert matching == [f"{item.__module__}.{item.__name__}"]
    match = item.__discord_ui_compiled_template__.fullmatch(drawn.custom_id)
    rebuilt = await item.from_custom_id(None, drawn, match)
    assert rebuilt.item is drawn and rebuilt.custom_id == drawn.custom_id  # it keeps its look
    assert rebuilt.game_id == 12
    for name, value in fields.items():
        assert getattr(rebuilt, name) == value, name


def test_an_older_cut_id_still_cuts():
    """Older hands carry three cut buttons (top, middle, bottom): their ids still cut."""
    template = hand_clicks.CutButton.__discord_ui_compiled_template__
    assert template.fullmatch("crib:c:12:3:t") and template.fullmatch("crib:c:12:3")
    assert not template.fullmatch("crib:c:12:3:x")
