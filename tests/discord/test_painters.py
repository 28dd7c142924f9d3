"""The painter processes that draw the bot's pictures (cogs/pictures.py)."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.engine import Card
from bot.render.images import HandPicture
from cogs.utils import pictures

HAND = HandPicture(tuple(Card.parse(c) for c in ("5H", "5C", "JD", "KS")), frozenset(), "Your hand")


@dataclass(frozen=True)
class DiesOnce:
    """A picture whose first drawing kills the painter drawing it (as the OOM killer would)."""

    mark: str

    def __call__(self) -> bytes:
        if not os.path.exists(self.mark):
            Path(self.mark).write_text(str(os.getpid()))
            os._exit(1)
        return HAND()


@dataclass(frozen=True)
class Where:
    """A picture that tells which process and thread draws it."""

    def __call__(self) -> bytes:
        return f"{os.getpid()} {threading.current_thread().name}".encode()


async def test_pictures_are_drawn_in_painter_processes_not_in_the_bot():
    await pictures.start_painters()
    drawn = {lane: (await pictures.draw(Where(), lane)).decode() for lane in pictures.LANES}
    pids = {int(where.split()[0]) for where in drawn.values()}
    assert os.getpid() not in pids
    assert len(pids) == 2, "the hands and the table have a painter each"
    png = await pictures.draw(HAND)
    assert png == HAND()  # the same PNG as drawn here
    assert png.startswith(b"\x89PNG")


async def test_a_painter_that_dies_is_replaced_and_the_picture_drawn_again(tmp_path, caplog):
    mark = tmp_path / "died"
    table = await pictures.draw(Where(), pictures.TABLE)
    png = await pictures.draw(DiesOnce(str(mark)), pictures.HANDS)
    assert mark.exists(), "the first painter did not die"
    assert png == HAND()
    assert "the hands painter process died" in caplog.text
    assert await pictures.draw(HAND, pictures.HANDS) == HAND()  # the new painter keeps drawing
    assert await pictures.draw(Where(), pictures.TABLE) == table  # the other lane untouched


async def test_an_unknown_lane_is_refused():
    with pytest.raises(ValueError, match="No painter lane"):
        await pictures.draw(HAND, "kitchen")


async def test_stopped_painters_start_again_when_a_picture_is_needed(shared_painters):
    await pictures.draw(HAND)
    shared_painters()  # the real stop_painters (a test run shares its painters otherwise)
    assert await pictures.draw(HAND) == HAND()
