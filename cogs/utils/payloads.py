"""The render's embeds as discord.py's: the one place a :class:`bot.render.embeds.Embed` (the
render's own frozen description of an embed, free of discord.py) becomes a ``discord.Embed``.

Every message the cogs send or edit with a rendered embed passes it through :func:`to_discord`;
the ``discord.Embed`` it makes sends the same JSON as one built field by field and brought
inside Discord's limits (its ``fields`` list always there, empty when there are none).

>>> embed = to_discord(Embed(title="Cribbage", colour=0x1D5C3E, footer="ready"))
>>> embed.title, embed.colour.value == 0x1D5C3E, embed.footer.text, embed.image.url
('Cribbage', True, 'ready', None)
"""

from __future__ import annotations

import discord

from bot.render.embeds import Embed


def to_discord(embed: Embed) -> discord.Embed:
    """``embed`` as a ``discord.Embed``: what it leaves out (``None``) is left out of the JSON."""
    made = discord.Embed(title=embed.title, description=embed.description, colour=embed.colour)
    made.clear_fields()  # the list is always sent, empty when there are no fields
    for field in embed.fields:
        made.add_field(name=field.name, value=field.value, inline=field.inline)
    if embed.footer is not None:
        made.set_footer(text=embed.footer)
    if embed.image is not None:
        made.set_image(url=embed.image)
    if embed.thumbnail is not None:
        made.set_thumbnail(url=embed.thumbnail)
    return made
