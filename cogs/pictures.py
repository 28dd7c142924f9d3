"""Drawing pictures off the event loop.

A picture takes a few milliseconds of Pillow work (compositing, quantizing, PNG encoding); on
the event loop that time would hold up every other table's clicks. Pictures are drawn in one
worker thread instead (one, because a FreeType font is not safe to use from two threads at
once; Pillow releases the GIL while it works, so the loop runs meanwhile). Repeated pictures
come from the renderers' caches at once.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

import discord

from bot.render.images import Picture

_PAINTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="painter")


async def draw(picture: Picture) -> bytes:
    """The PNG bytes of ``picture``, drawn in the painter thread."""
    return await asyncio.get_running_loop().run_in_executor(_PAINTER, picture)


async def attachment(picture: Picture, filename: str) -> discord.File:
    """``picture`` drawn, as a file to attach (``attachment://filename`` in an embed)."""
    return discord.File(io.BytesIO(await draw(picture)), filename)
