"""Drawing pictures off the event loop.

A picture takes a few milliseconds of Pillow work (compositing, quantizing, PNG encoding); on
the event loop that time would hold up every other table's clicks. Pictures are drawn in two
worker threads instead (Pillow releases the GIL while it works, so the loop runs meanwhile;
each thread has its own fonts, see ``bot.render.drawing.font``), two so that a player's hand
is not queued behind a whole deal's show being drawn for another table. Repeated pictures come
from the renderers' caches at once.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

import discord

from bot.render.images import Picture

_PAINTERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="painter")


async def draw(picture: Picture) -> bytes:
    """The PNG bytes of ``picture``, drawn in a painter thread."""
    return await asyncio.get_running_loop().run_in_executor(_PAINTERS, picture)


async def attachment(picture: Picture, filename: str) -> discord.File:
    """``picture`` drawn, as a file to attach (``attachment://filename`` in an embed)."""
    return discord.File(io.BytesIO(await draw(picture)), filename)
