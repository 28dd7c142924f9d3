"""Fewer bot-token requests: a redraw of the live table that changes nothing visible is not sent
(cogs/cribbage/courier.py ``Shown`` and ``visible``, used by ``Table._draw``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.engine import Phase
from cogs.cribbage.courier import Shown, visible
from cogs.cribbage.table import Table, TableState


def payload(text: str, **extra: Any) -> dict[str, Any]:
    return {"content": None, "embed": discord.Embed(description=text), **extra}


def test_visible_compares_what_shows_and_tells_the_files_apart() -> None:
    assert visible(payload("a"))[0] == visible(payload("a"))[0]
    assert visible(payload("a"))[0] != visible(payload("b"))[0]
    assert visible(payload("a"))[1] is None  # keeps its files
    assert visible(payload("a", attachments=[]))[1] is False
    assert visible(payload("a", attachments=["file"]))[1] is True


class Recorder(Table):
    def __init__(self, payloads: list[dict[str, Any]]) -> None:  # no bot: _edit is recorded
        self.shown = Shown()
        self.payloads = payloads
        self.edits: list[dict[str, Any]] = []

    async def table_payload(self, view: Any, **_: Any) -> dict[str, Any]:
        return self.payloads.pop(0)

    async def _edit(self, channel_id: int, message_id: int, **fields: Any) -> bool:
        self.shown.forget((channel_id, message_id))
        self.edits.append(fields)
        return True


async def draw_all(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    table = Recorder(list(payloads))
    state = TableState(table=(1, 2))
    view = SimpleNamespace(phase=Phase.PLAY, game_id=7)
    for _ in payloads:
        await table._draw(view, [], True, state)  # type: ignore[arg-type]
    return table.edits


async def test_an_unchanged_redraw_sends_nothing_and_the_last_state_always_goes() -> None:
    edits = await draw_all([payload("a"), payload("a"), payload("b"), payload("b")])
    assert [e["embed"].description for e in edits] == ["a", "b"]


async def test_new_files_are_always_sent_and_removing_them_is_a_change() -> None:
    board = ["board.png"]
    edits = await draw_all(
        [
            payload("a", attachments=board),
            payload("a", attachments=board),  # a new picture: sent
            payload("a"),  # keeps it: nothing changes
            payload("a", attachments=[]),  # pictures turned off: the picture goes
            payload("a", attachments=[]),
        ]
    )
    assert [e.get("attachments") for e in edits] == [board, board, []]
