"""Drawing basics shared by the pictures: supersampling, the built-in font, text that fits.

Images are drawn at ``SS`` times their size and reduced, which gives smooth edges without any
font or shape anti-aliasing of our own. Text uses only Pillow's built-in font (no font files
needed); :func:`printable` keeps to the characters that font can draw.

>>> printable("Zoë — 🎉")
'Zoe - ?'
>>> printable("Ann" + chr(10) + "Lee" + chr(0x202E))
'Ann Lee'
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections.abc import Sequence
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
        small = small.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=3)
    return out.getvalue()


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
    return lines


def lighten(
    rgb: tuple[int, int, int], towards: tuple[int, int, int], t: float
) -> tuple[int, int, int]:
    (r, g, b), (to_r, to_g, to_b) = rgb, towards
    return round(r + (to_r - r) * t), round(g + (to_g - g) * t), round(b + (to_b - b) * t)
