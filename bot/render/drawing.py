"""Drawing basics shared by the pictures: supersampling, the built-in font, text that fits,
tiles, palettes and PNG encoding.

Images are drawn at ``SS`` times their size and reduced, which gives smooth edges without any
font or shape anti-aliasing of our own. Text uses only Pillow's built-in font (no font files
needed); :func:`printable` keeps to the characters that font can draw.

**Tiles.** The pictures drawn often (a hand, a board, a deal's show) are not drawn whole each
time: they are put together at their final size from :data:`Tile` s, pieces drawn supersampled
and reduced once, then cached: a card on the felt, a text, a board's empty track, a peg on its
stretch of track. A tile is drawn on exactly what lies under it in the whole picture and starts
on a whole pixel of the reduced picture (an even pixel of the supersampled one), so a picture
put together from tiles has the pixels it would have had drawn whole, as long as its tiles do
not overlap. Each tile is also kept in the colours of its kind of picture's palette
(:class:`Indexed`), so a picture needs no colour reduction of its own: it is copies, then the
PNG's compression (most of the work left).

>>> printable("Zoë — 🎉")
'Zoe - ?'
>>> printable("Ann" + chr(10) + "Lee" + chr(0x202E))
'Ann Lee'
"""

from __future__ import annotations

import io
import math
import threading
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

SS = 2  # supersampling factor: draw at 2x, then reduce
WIDTH = 800


# --------------------------------------------------------------------------- fonts and text


_THREAD_FONTS = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in font at ``size`` px (1x), with basic layout for identical output
    everywhere (no dependency on libraqm).

    Each thread loads its own: a FreeType face must not be used by two threads at once, and
    the renderers are pure functions that any thread may call."""
    fonts = getattr(_THREAD_FONTS, "fonts", None)
    if fonts is None:
        fonts = _THREAD_FONTS.fonts = {}
    loaded = fonts.get(size)
    if loaded is None:
        base = ImageFont.load_default(size=size * SS)
        if not isinstance(base, ImageFont.FreeTypeFont):
            raise RuntimeError("Pillow was built without FreeType: its built-in font won't scale")
        loaded = fonts[size] = base.font_variant(layout_engine=ImageFont.Layout.BASIC)
    return loaded


_NOT_A_GLYPH = "\ue000"  # a private-use code point: the font draws its "missing" box
_SPELLED = str.maketrans({"—": "-", "–": "-", "−": "-", "•": "·", "ß": "ss", "Ø": "O", "ø": "o"})


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    f = font(12)

    def signature(c: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((4, 4), c, font=f, fill=255)
        return image.tobytes()

    return char.isspace() or signature(char) != signature(_NOT_A_GLYPH)


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """``text`` in characters the built-in font can draw: accents dropped (Zoë → Zoe), dashes
    simplified, anything else (emoji, other scripts) shown as ``?``. Drawn on one line: a
    control character (a line break in a player's name: Pillow refuses most anchors for
    multiline text) is a space, and invisible formatting (direction overrides and isolates,
    which the basic layout does not apply) is left out."""
    text = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
        if unicodedata.category(c) != "Cf"
    )
    text = text.translate(_SPELLED)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(c if _has_glyph(c) else "?" for c in text)


PNG_LEVEL = 1  # the PNG compression of the pictures drawn often (hand, board, show): fast


def to_png(image: Image.Image, colours: int = 96, palette: Image.Image | None = None) -> bytes:
    """Reduce the supersampled image, quantize it (small files) and encode as PNG."""
    return encode_png(image.reduce(SS), colours, palette)


def encode_png(small: Image.Image, colours: int = 96, palette: Image.Image | None = None) -> bytes:
    """Quantize an image at its final size (small files) and encode it as PNG.

    With ``palette`` (see :func:`palette_of`) every pixel takes the nearest of its colours: a
    fifth of the work of choosing the colours for each picture, for pictures drawn often from
    the same few colours (hands, boards)."""
    if palette is None:
        small = small.quantize(
            colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        small = in_palette(small, palette)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def in_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` in ``P`` mode, each pixel the nearest of ``palette``'s colours (no dithering:
    a pixel's index depends on its colour alone, wherever it is)."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def palette_of(samples: Sequence[Image.Image], colours: int = 128) -> Image.Image:
    """A palette for :func:`encode_png`, chosen from ``samples`` (images at their final size
    that show every colour the pictures using it will have, with their blended edges)."""
    width = sum(sample.width for sample in samples)
    background = samples[0].convert("RGB").getpixel((0, 0))
    sheet = Image.new("RGB", (width, max(sample.height for sample in samples)), background)
    x = 0
    for sample in samples:
        sheet.paste(sample.convert("RGB"), (x, 0))
        x += sample.width
    return sheet.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def reduced(image: Image.Image) -> Image.Image:
    """A supersampled RGBA image at its final size, edges blended with premultiplied alpha
    (so transparent pixels do not darken them)."""
    return image.convert("RGBa").reduce(SS).convert("RGBA")


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` px (1x) at font ``size``."""
    f = font(size)
    text = printable(text)
    limit = width * SS
    if f.getlength(text) <= limit:
        return text
    while text and f.getlength(text + "…") > limit:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(text: str, size: int, width: float) -> list[str]:
    """Greedy word wrap to ``width`` px (1x)."""
    return list(_wrapped(text, size, width))


@lru_cache(maxsize=2048)
def _wrapped(text: str, size: int, width: float) -> tuple[str, ...]:
    f = font(size)
    lines: list[str] = []
    current = ""
    for word in printable(text).split():
        trial = f"{current} {word}".strip()
        if current and f.getlength(trial) > width * SS:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return tuple(lines)


def lighten(
    rgb: tuple[int, int, int], towards: tuple[int, int, int], t: float
) -> tuple[int, int, int]:
    (r, g, b), (to_r, to_g, to_b) = rgb, towards
    return round(r + (to_r - r) * t), round(g + (to_g - g) * t), round(b + (to_b - b) * t)


# --------------------------------------------------------------------------- tiles

Drawn = tuple[Image.Image, int, int]
"""A tile drawn: its RGB image at the final size and where its top-left corner goes (px, 1x)
relative to the spot it was drawn for."""

TileMaker = Callable[..., Drawn]
"""Draws a tile from hashable arguments (cached: ``functools.lru_cache``)."""

Tile = tuple[TileMaker, tuple[Hashable, ...], int, int]
"""A tile in a picture: its maker, the maker's arguments, and the spot (px, 1x) it was drawn
for (the maker's offset is added to it)."""


def compose(background: Tile, tiles: Iterable[Tile]) -> Image.Image:
    """A picture put together in RGB from its ``background`` and ``tiles`` (pasted in order),
    as drawn: to choose a palette from, or to look at (:meth:`Indexed.png` draws the PNG)."""
    make, args, _, _ = background
    image = make(*args)[0].copy()
    for make, args, x, y in tiles:
        tile, dx, dy = make(*args)
        image.paste(tile, (x + dx, y + dy))
    return image


class Indexed:
    """Pictures put together from tiles already in one palette's colours (``palette()`` is
    called on first use), and encoded as PNG with no colour reduction of their own.

    Tiles and backgrounds are cached apart: backgrounds are whole pictures, big and few;
    tiles are small and many."""

    def __init__(self, palette: Callable[[], Image.Image], tiles: int, backgrounds: int) -> None:
        self.palette = palette
        self.tile: Callable[[TileMaker, tuple[Hashable, ...]], Drawn] = lru_cache(tiles)(
            self._indexed
        )
        self.background: Callable[[TileMaker, tuple[Hashable, ...]], Image.Image] = lru_cache(
            backgrounds
        )(self._background)

    def _indexed(self, make: TileMaker, args: tuple[Hashable, ...]) -> Drawn:
        tile, dx, dy = make(*args)
        return in_palette(tile, self.palette()), dx, dy

    def _background(self, make: TileMaker, args: tuple[Hashable, ...]) -> Image.Image:
        return in_palette(make(*args)[0], self.palette())

    def png(self, background: Tile, tiles: Iterable[Tile]) -> bytes:
        """The PNG of the picture :func:`compose` would put together, in the palette."""
        make, args, _, _ = background
        image = self.background(make, args).copy()
        for make, args, x, y in tiles:
            tile, dx, dy = self.tile(make, args)
            image.paste(tile, (x + dx, y + dy))
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=PNG_LEVEL)
        return out.getvalue()


@lru_cache(maxsize=64)
def plain(colour: tuple[int, int, int], width: int, height: int) -> Drawn:
    """A background of one colour."""
    return Image.new("RGB", (width, height), colour), 0, 0


TEXT_PAD = 2  # px (1x) of background around a text's ink box in its tile


def text_tile(
    text: str,
    size: int,
    fill: tuple[int, int, int],
    background: tuple[int, int, int],
    x: float,
    y: float,
    anchor: str,
) -> Tile:
    """``text`` at font ``size`` anchored at (``x``, ``y``) (1x) on a plain ``background``, as
    it would be drawn supersampled there: the tile keeps the position's fraction of a pixel."""
    sx, sy = x * SS, y * SS
    left, top = math.floor(sx / SS), math.floor(sy / SS)
    args = (text, size, fill, background, anchor, sx - left * SS, sy - top * SS)
    return (_text_tile, args, left, top)


@lru_cache(maxsize=2048)
def _text_tile(
    text: str,
    size: int,
    fill: tuple[int, int, int],
    background: tuple[int, int, int],
    anchor: str,
    sx: float,
    sy: float,
) -> Drawn:
    """``text`` drawn at (``sx``, ``sy``) (supersampled px from a 1x pixel's corner)."""
    f = font(size)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    x0 = math.floor((sx + left) / SS) - TEXT_PAD
    y0 = math.floor((sy + top) / SS) - TEXT_PAD
    x1 = math.ceil((sx + right) / SS) + TEXT_PAD
    y1 = math.ceil((sy + bottom) / SS) + TEXT_PAD
    canvas = Image.new("RGB", ((x1 - x0) * SS, (y1 - y0) * SS), background)
    ImageDraw.Draw(canvas).text(
        (sx - x0 * SS, sy - y0 * SS), text, font=f, fill=fill, anchor=anchor
    )
    return canvas.reduce(SS), x0, y0
