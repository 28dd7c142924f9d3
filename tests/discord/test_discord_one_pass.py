"""One click, one pass: a Play click renders from the manager's outcome.

The clicker's hand, the live table, the other player's open hand and a spectators' view are all
redrawn by one click; the cog finds in the :class:`~bot.sessions.Outcome` everything they need,
so the public view, the private views, the server's settings, the seat names and the legal
actions are each looked up at most once.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import Game, Phase
from bot.sessions import GameView
from tests.support.discord_players import Driver, Seat, open_club


@pytest.fixture
async def club(tmp_path):
    # no privacy watch: it looks at the game around every click, and would be counted here
    async with open_club(tmp_path, names=("alice", "bob", "carol"), privacy=False) as driver:
        yield driver


def counting(counts: Counter[str], name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return original(*args, **kwargs)

    return counted


def public_view(driver: Driver) -> GameView:
    view = driver.bot.manager.live.view(driver.game_id())
    assert view is not None
    return view


async def test_a_play_click_looks_each_thing_up_at_most_once(club, monkeypatch):
    alice, bob, carol = club.users[:3]
    await club.start_game(alice, [bob])
    seats = {alice.id: Seat(alice), bob.id: Seat(bob)}
    for _ in range(20):  # cut for the deal, discards, the starter: up to the first card played
        if public_view(club).phase is Phase.PLAY:
            break
        for user_id in club.whose_move():
            if await club.move(seats[user_id]) == "wait":
                await club.move(seats[user_id])
    view = public_view(club)
    assert view.phase is Phase.PLAY and not view.played  # the first card of the pegging
    # everything a click may redraw is open: both hands and a spectators' view
    await club.slash(carol, "cribbage watch")
    hands = {}
    for user in (alice, bob):
        hands[user.id] = (await club.click(user, club.table_message(), "Your hand")).message
    mover = club.whose_move()[0]
    card = next(
        b
        for row in hands[mover].components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    )

    counts: Counter[str] = Counter()
    manager = club.bot.manager
    for part, method, name in (
        (manager.live, "view", "view"),
        (manager.hands, "private_view", "private_view"),
        (manager.settings, "server", "server_settings"),
    ):
        monkeypatch.setattr(part, method, counting(counts, name, getattr(part, method)))
    cog = club.bot.get_cog("Cribbage")
    names = cog.names
    monkeypatch.setattr(names, "seat_names", counting(counts, "seat_names", names.seat_names))
    extension = sys.modules[type(cog).__module__]  # the stale-click listener's component walk
    monkeypatch.setattr(extension, "_shows", counting(counts, "walks", extension._shows))
    monkeypatch.setattr(
        Game, "legal_actions", counting(counts, "legal_actions", Game.legal_actions)
    )

    await club.click(seats[mover].user, hands[mover], custom_id=card.custom_id)
    monkeypatch.undo()

    assert public_view(club).step > view.step  # the card was played
    other = next(uid for uid in hands if uid != mover)
    assert "Waiting for" not in club.emu.message(hands[other].id).text  # their turn, redrawn
    print("lookups during one Play click:", dict(sorted(counts.items())))
    for name in ("view", "private_view", "server_settings", "seat_names", "legal_actions"):
        assert counts[name] <= 1, f"{name} looked up {counts[name]} times in one click"
    assert counts["walks"] == 0  # the button's own item took the click: nothing to look for
