"""Side colours shared by embeds and images: the Okabe–Ito palette (colour-blind friendly).

Side ``i`` of a game always gets colour ``i``: blue, vermillion, bluish green, reddish purple.
Sides are named wherever they are coloured, so the colour is never the only cue.
"""

SIDE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
)


def side_colour(index: int) -> tuple[int, int, int]:
    """RGB of side ``index`` (wraps around past four)."""
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def side_colour_int(index: int) -> int:
    """The same colour as a 0xRRGGBB integer (for ``discord.Embed(colour=...)``)."""
    r, g, b = side_colour(index)
    return (r << 16) | (g << 8) | b
