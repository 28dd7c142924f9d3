"""Drawing pictures off the event loop, in painter processes.

A picture takes a few milliseconds of Pillow work (compositing, quantizing, PNG encoding). On the
event loop that time would hold up every other table's click; in a thread it still would, for
much of Pillow's drawing holds the GIL and the loop then waits up to the interpreter's switch
interval (5 ms) each time it wants the GIL back, several times a click. So pictures are drawn in
painter processes: a picture is a small frozen value (see ``bot.render.images.Picture``), pickled
there, and its PNG comes back.

Two lanes, one painter each: ``HANDS`` draws players' hands (the answer to a click waits for
one), ``TABLE`` the boards and shows posted in the channels, so a hand is never queued behind a
deal's show being drawn for another table. The painters are started from a clean ``forkserver``
(never forked from the bot and its threads) with the renderers already imported. If a painter
dies (killed, out of memory), its lane gets a new one and the picture is drawn again once.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import discord

from bot.render.images import Picture, warm_up

log = logging.getLogger(__name__)

HANDS = "hands"
TABLE = "table"
LANES = (HANDS, TABLE)

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["bot.render.images"])
_painters: dict[str, ProcessPoolExecutor] = {}


def _painter(lane: str) -> ProcessPoolExecutor:
    """``lane``'s painter, made on first use (each new painter process draws once, ``warm_up``,
    before its first picture)."""
    if lane not in LANES:
        raise ValueError(f"No painter lane {lane!r}")
    if lane not in _painters:
        _painters[lane] = ProcessPoolExecutor(1, mp_context=_context, initializer=warm_up)
    return _painters[lane]


async def draw(picture: Picture, lane: str = TABLE) -> bytes:
    """The PNG bytes of ``picture``, drawn by ``lane``'s painter."""
    loop = asyncio.get_running_loop()
    painter = _painter(lane)
    try:
        return await loop.run_in_executor(painter, picture)
    except BrokenProcessPool:
        log.warning("the %s painter process died; starting a new one", lane)
        if _painters.get(lane) is painter:
            del _painters[lane]
            painter.shutdown(wait=False, cancel_futures=True)
        return await loop.run_in_executor(_painter(lane), picture)


async def start_painters() -> None:
    """Start the painters now, so the first game's pictures do not wait for a process to
    start and warm up (a painter starts at its first task, after its initializer)."""
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(_painter(lane), os.getpid) for lane in LANES))


def stop_painters() -> None:
    """Let the painters finish what they were given and exit (without waiting for them; new
    ones start if a picture is drawn again)."""
    while _painters:
        _painters.popitem()[1].shutdown(wait=False)


async def attachment(
    picture: Picture, filename: str, lane: str = TABLE, *, description: str
) -> discord.File:
    """``picture`` drawn, as a file to attach (``attachment://filename`` in an embed), with
    ``description`` as its alt text: what it shows, in words, for those who cannot see it
    (Discord keeps 1024 characters of it; a public picture's must name no hidden card)."""
    if not description.strip():
        raise ValueError(f"{filename}: a picture needs its alt text")
    fp = io.BytesIO(await draw(picture, lane))
    return discord.File(fp, filename, description=description[:1024])
