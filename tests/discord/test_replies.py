"""Redrawing a clicked message that was deleted meanwhile (cogs/utils/replies.py): a click on a
hand the bot is replacing at that instant (a new deal) gets 10008 Unknown Message from Discord;
the person is told privately, and nothing is logged as a failure."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord

from cogs.utils.replies import GONE, redraw


class Response:
    def __init__(self, *, done: bool) -> None:
        self.done = done
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **fields: Any) -> None:
        raise gone()

    async def send_message(self, message: str, *, ephemeral: bool = False) -> None:
        self.sent.append((message, ephemeral))
        self.done = True


class Followup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    async def send(self, message: str, *, ephemeral: bool = False) -> None:
        self.sent.append((message, ephemeral))


def gone() -> discord.NotFound:
    answer = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(answer, {"code": 10008, "message": "Unknown Message"})  # type: ignore[arg-type]


class Click:
    def __init__(self, *, done: bool) -> None:
        self.response = Response(done=done)
        self.followup = Followup()

    async def edit_original_response(self, **fields: Any) -> None:
        raise gone()


async def test_a_hand_gone_before_its_answer_is_told_privately(caplog) -> None:
    click = Click(done=False)
    with caplog.at_level(logging.INFO):
        await redraw(click, content="your hand")  # type: ignore[arg-type]
    assert click.response.sent == [(GONE, True)]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_deferred_click_whose_hand_is_gone_gets_a_followup() -> None:
    click = Click(done=True)
    await redraw(click, content="your hand")  # type: ignore[arg-type]
    assert click.followup.sent == [(GONE, True)] and click.response.sent == []
