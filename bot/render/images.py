"""Pictures with Pillow: the cribbage board, a hand of cards, a counted show. PNG bytes out.

Every renderer is pure and cached (``functools.lru_cache``) on hashable inputs, so re-drawing
an unchanged board costs a dictionary lookup. Images are drawn at twice their size and reduced,
which gives smooth edges without any font or shape anti-aliasing of our own. Text uses only
Pillow's built-in font (no font files needed); the suit symbols are drawn as shapes because
that font has no ♠♥♦♣ glyphs.

>>> png = render_board((("Alice", 0, 84, 77), ("Bob", 1, 62, 62)), 121)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine import Card, Game, Phase, Shown, Suit
from bot.engine.cards import rank_name

from .palette import side_colour
from .text import breakdown_summary, side_names

SS = 2  # supersampling factor: draw at 2x, then reduce
WIDTH = 800

BoardSide = tuple[str, int, int, int]
"""One side on the board: (name, colour index, score, previous score)."""

# colours
WOOD = (238, 216, 172)
TRACK = (222, 193, 142)
HOLE = (101, 70, 42)
INK = (45, 32, 22)
MUTED = (120, 96, 70)
SKUNK = (170, 30, 30)
CARD_FACE = (253, 252, 248)
CARD_EDGE = (150, 150, 150)
RED_SUIT = (200, 35, 45)
BLACK_SUIT = (25, 25, 30)
TABLE = (29, 92, 62)  # the felt behind cards
TABLE_INK = (236, 244, 238)

# board geometry (at 1x)
HOLES_PER_ROW = 30
HOLE_DX = 21
GROUP_GAP = 10
TRACK_LEFT = 70
LANE_DY = 20
HOLE_R = 3.2
PEG_R = 8.0
FINISH_R = 11.0

# card geometry (at 1x)
CARD_W, CARD_H = 104, 146
CARD_GAP = 12
MARGIN = 18


# --------------------------------------------------------------------------- fonts and shapes


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in font at ``size`` px (1x), with basic layout for identical output
    everywhere (no dependency on libraqm)."""
    base = ImageFont.load_default(size=size * SS)
    return base.font_variant(layout_engine=ImageFont.Layout.BASIC)


_NOT_A_GLYPH = "\ue000"  # a private-use code point: the font draws its "missing" box
_SPELLED = str.maketrans({"—": "-", "–": "-", "−": "-", "•": "·", "ß": "ss", "Ø": "O", "ø": "o"})


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    f = font(12)

    def signature(c: str) -> tuple:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((4, 4), c, font=f, fill=255)
        return image.tobytes()

    return char.isspace() or signature(char) != signature(_NOT_A_GLYPH)


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """``text`` in characters the built-in font can draw: accents dropped (Zoë → Zoe), dashes
    simplified, anything else (emoji, other scripts) shown as ``?``."""
    text = text.translate(_SPELLED)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(c if _has_glyph(c) else "?" for c in text)


def _unit_suit(draw: ImageDraw.ImageDraw, suit: Suit, s: float) -> None:
    """Draw a suit symbol filling an s×s box at the origin (white on black mask)."""

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse((s * (cx - r), s * (cy - r), s * (cx + r), s * (cy + r)), fill=255)

    def poly(*points: tuple[float, float]) -> None:
        draw.polygon([(s * x, s * y) for x, y in points], fill=255)

    if suit is Suit.DIAMONDS:
        poly((0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5))
    elif suit is Suit.HEARTS:
        circle(0.285, 0.31, 0.245)
        circle(0.715, 0.31, 0.245)
        poly((0.055, 0.40), (0.5, 0.97), (0.945, 0.40), (0.5, 0.25))
    elif suit is Suit.SPADES:
        circle(0.29, 0.56, 0.225)
        circle(0.71, 0.56, 0.225)
        poly((0.075, 0.50), (0.5, 0.0), (0.925, 0.50), (0.5, 0.70))
        poly((0.5, 0.55), (0.30, 1.0), (0.70, 1.0))
    else:  # clubs
        circle(0.5, 0.26, 0.225)
        circle(0.255, 0.60, 0.225)
        circle(0.745, 0.60, 0.225)
        circle(0.5, 0.55, 0.12)
        poly((0.5, 0.45), (0.31, 1.0), (0.69, 1.0))


@lru_cache(maxsize=64)
def suit_mask(suit: Suit, size: int) -> Image.Image:
    """An anti-aliased ``size``×``size`` mask of a suit symbol (drawn 4x larger, reduced)."""
    big = Image.new("L", (size * 4, size * 4), 0)
    _unit_suit(ImageDraw.Draw(big), suit, size * 4)
    return big.reduce(4)


def suit_colour(suit: Suit) -> tuple[int, int, int]:
    return RED_SUIT if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK_SUIT


def _to_png(image: Image.Image, colours: int = 96) -> bytes:
    """Reduce the supersampled image, quantize it (small files) and encode as PNG."""
    small = image.reduce(SS)
    small = small.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=0)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _fit(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` px (1x) at font ``size``."""
    f = font(size)
    text = printable(text)
    limit = width * SS
    if f.getlength(text) <= limit:
        return text
    while text and f.getlength(text + "…") > limit:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrap(text: str, size: int, width: float) -> list[str]:
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


def _lighten(rgb: tuple[int, int, int], towards: tuple[int, int, int], t: float) -> tuple:
    return tuple(round(a + (b - a) * t) for a, b in zip(rgb, towards, strict=True))


# --------------------------------------------------------------------------- the board


def hole_index(score: int) -> tuple[int, int]:
    """(row, column) of the hole for ``score`` (1..): rows of 30, left to right."""
    return (score - 1) // HOLES_PER_ROW, (score - 1) % HOLES_PER_ROW


def _hole_x(column: int) -> float:
    return TRACK_LEFT + column * HOLE_DX + (column // 5) * GROUP_GAP


@dataclass(frozen=True)
class _BoardLayout:
    """Where everything sits on a board of ``lanes`` sides to ``target`` (1x units)."""

    lanes: int
    target: int

    @property
    def rows(self) -> int:
        return (self.target - 1) // HOLES_PER_ROW

    @property
    def legend_h(self) -> float:
        return 14 + (1 if self.lanes <= 2 else 2) * 40

    @property
    def band_h(self) -> float:
        return 12 + self.lanes * LANE_DY + 18  # the lanes, then the hole numbers

    band_gap = 20
    band_left = TRACK_LEFT - 52
    band_right = TRACK_LEFT + (HOLES_PER_ROW - 1) * HOLE_DX + 5 * GROUP_GAP + 12

    @property
    def height(self) -> int:
        return round(self.legend_h + self.rows * (self.band_h + self.band_gap) + 6)

    def band_top(self, row: int) -> float:
        return self.legend_h + row * (self.band_h + self.band_gap) + self.band_gap / 2

    def lane_y(self, row: int, lane: int) -> float:
        return self.band_top(row) + 8 + lane * LANE_DY + LANE_DY / 2

    @property
    def finish(self) -> tuple[float, float]:
        """The game hole, right of the last row."""
        x = self.band_right + (WIDTH - self.band_right) / 2
        return x, self.band_top(self.rows - 1) + (self.band_h - 16) / 2

    def peg(self, lane: int, score: int, back: bool) -> tuple[float, float, float]:
        """(x, y, radius) of a peg: start holes at 0, the game hole at the target."""
        if score >= self.target:
            return (*self.finish, FINISH_R - 1)
        if score <= 0:
            return TRACK_LEFT - (44 if back else 28), self.lane_y(0, lane), PEG_R
        row, column = hole_index(score)
        return _hole_x(column), self.lane_y(row, lane), PEG_R


@lru_cache(maxsize=32)
def _board_track(colours: tuple[int, ...], target: int) -> Image.Image:
    """The empty board (supersampled): lanes tinted per side, holes, numbers, skunk lines.

    Cached: it changes only with the sides' colours and the target, never with the score."""
    layout = _BoardLayout(len(colours), target)
    image = Image.new("RGB", (WIDTH * SS, layout.height * SS), WOOD)
    draw = ImageDraw.Draw(image)

    def px(v: float) -> float:
        return v * SS

    def hole(x: float, y: float) -> None:
        draw.ellipse((px(x - HOLE_R), px(y - HOLE_R), px(x + HOLE_R), px(y + HOLE_R)), fill=HOLE)

    tints = [_lighten(side_colour(c), (250, 244, 230), 0.68) for c in colours]
    skunk_rows = {(91 if target == 121 else 31): "skunk line"}
    if target == 121:
        skunk_rows[61] = "double skunk line"
    right = layout.band_right
    for row in range(layout.rows):
        top = layout.band_top(row)
        bottom = top + layout.band_h - 16
        draw.rounded_rectangle(
            (px(layout.band_left), px(top), px(right), px(bottom)), radius=px(8), fill=TRACK
        )
        first = row * HOLES_PER_ROW + 1
        for lane, tint in enumerate(tints):
            y = layout.lane_y(row, lane)
            draw.rounded_rectangle(
                (px(TRACK_LEFT - 9), px(y - 8.5), px(right - 4), px(y + 8.5)),
                radius=px(8.5),
                fill=tint,
            )
            for column in range(HOLES_PER_ROW):
                hole(_hole_x(column), y)
            if row == 0:  # the two start holes
                hole(TRACK_LEFT - 44, y)
                hole(TRACK_LEFT - 28, y)
        number_y = top + layout.band_h - 9  # numbers under every fifth hole
        for column in range(4, HOLES_PER_ROW, 5):
            x = px(_hole_x(column))
            draw.text(
                (x, px(number_y)), str(first + column), font=font(12), fill=MUTED, anchor="mm"
            )
        if row == 0:
            draw.text(
                (px(TRACK_LEFT - 36), px(number_y)), "start", font=font(12), fill=MUTED, anchor="mm"
            )
        label = skunk_rows.get(first)
        if label:  # the line runs just before this row's first hole
            x = _hole_x(0) - 10
            draw.line((px(x), px(top - 6), px(x), px(bottom + 2)), fill=SKUNK, width=round(px(3)))
            middle = px(top + (layout.band_h - 16) / 2)
            draw.text((px(x - 6), middle), str(first), font=font(14), fill=SKUNK, anchor="rm")
            draw.text(
                (px(x + 4), px(top - 3)),
                f"{label} ({first})",
                font=font(12),
                fill=SKUNK,
                anchor="lb",
            )
    fx, fy = layout.finish
    draw.ellipse(
        (px(fx - FINISH_R), px(fy - FINISH_R), px(fx + FINISH_R), px(fy + FINISH_R)),
        fill=TRACK,
        outline=HOLE,
        width=round(px(2)),
    )
    draw.text((px(fx), px(fy + FINISH_R + 9)), str(target), font=font(13), fill=INK, anchor="mm")
    return image


@lru_cache(maxsize=256)
def render_board(sides: tuple[BoardSide, ...], target: int = 121) -> bytes:
    """The board as PNG bytes: a 121-hole track (61 for a short game), one lane per side.

    ``sides`` holds ``(name, colour_index, score, previous_score)`` for 2–4 sides. Each side
    has a front peg (its score, a solid peg) and a back peg (its previous score, a ring);
    both stand in the start holes at 0 and the front peg goes to the game hole at the target.
    The skunk line (91, or 31 to 61) and the double skunk line (61) are marked.
    """
    if not 1 <= len(sides) <= 4:
        raise ValueError("A board has 1 to 4 sides")
    if target not in (121, 61):
        raise ValueError("A game is played to 121 or 61")
    layout = _BoardLayout(len(sides), target)
    image = _board_track(tuple(colour for _, colour, _, _ in sides), target).copy()
    draw = ImageDraw.Draw(image)

    def px(v: float) -> float:
        return v * SS

    # the legend: a peg, the name, the score and what it just pegged
    column_w = WIDTH / 2
    for i, (name, colour, score, previous) in enumerate(sides):
        lx = 16 + (i % 2) * column_w
        cy = 28 + (i // 2) * 40
        rgb = side_colour(colour)
        draw.ellipse(
            (px(lx), px(cy - 10), px(lx + 20), px(cy + 10)), fill=rgb, outline=INK, width=SS * 2
        )
        score_text = str(min(score, target))
        gained = score - previous
        delta = f"+{gained}" if gained > 0 else ""
        score_w = font(26).getlength(score_text) / SS
        delta_w = font(16).getlength(delta) / SS if delta else 0
        right = lx + column_w - 32
        name_w = right - (lx + 30) - score_w - delta_w - 16
        draw.text(
            (px(lx + 30), px(cy)), _fit(name, 21, name_w), font=font(21), fill=INK, anchor="lm"
        )
        draw.text(
            (px(right - delta_w - 6), px(cy)), score_text, font=font(26), fill=INK, anchor="rm"
        )
        if delta:
            draw.text((px(right), px(cy + 3)), delta, font=font(16), fill=MUTED, anchor="rm")

    # the pegs: the back one (a ring) first, the front one (solid) over it
    for lane, (_, colour, score, previous) in enumerate(sides):
        rgb = side_colour(colour)
        if previous != score or score == 0:
            x, y, r = layout.peg(lane, previous, back=True)
            draw.ellipse(
                (px(x - r + 1), px(y - r + 1), px(x + r - 1), px(y + r - 1)),
                fill=_lighten(rgb, (255, 255, 255), 0.55),
                outline=rgb,
                width=round(px(2.5)),
            )
        x, y, r = layout.peg(lane, score, back=False)
        draw.ellipse(
            (px(x - r), px(y - r), px(x + r), px(y + r)),
            fill=rgb,
            outline=INK,
            width=round(px(1.5)),
        )
    return _to_png(image)


def board_sides(
    names: Sequence[str], scores: Sequence[int], previous_scores: Sequence[int] | None = None
) -> tuple[BoardSide, ...]:
    """Build ``render_board``'s argument: side ``i`` gets colour ``i``. ``names`` are the
    sides' names (see ``text.side_names``); without ``previous_scores`` the back pegs sit with
    the front ones."""
    previous = scores if previous_scores is None else previous_scores
    return tuple(
        (name, i, int(score), int(before))
        for i, (name, score, before) in enumerate(zip(names, scores, previous, strict=True))
    )


# --------------------------------------------------------------------------- cards


@lru_cache(maxsize=256)
def card_face(card: Card, scale: float = 1.0) -> Image.Image:
    """A card's face as an RGBA image at supersampled size (``CARD_W``×``CARD_H`` × scale)."""
    k = SS * scale
    w, h = round(CARD_W * k), round(CARD_H * k)
    face = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=9 * k, fill=CARD_FACE, outline=CARD_EDGE, width=max(1, SS)
    )
    colour = suit_colour(card.suit)
    rank = rank_name(card.rank)
    # corner index: rank over a small suit, top-left and (upside down) bottom-right
    corner = Image.new("RGBA", (round(34 * k), round(56 * k)), (0, 0, 0, 0))
    ImageDraw.Draw(corner).text(
        (17 * k, 15 * k), rank, font=font(round(26 * scale)), fill=colour, anchor="mm"
    )
    corner.paste(colour, (round(8.5 * k), round(31 * k)), suit_mask(card.suit, round(17 * k)))
    face.alpha_composite(corner, (round(3 * k), round(4 * k)))
    flipped = corner.rotate(180)
    face.alpha_composite(flipped, (w - round(37 * k), h - round(60 * k)))
    # the middle: one big suit, or the court letter framed under a small suit
    cx, cy = w / 2, h / 2
    if card.rank > 10:
        frame = (28 * k, 32 * k, w - 28 * k, h - 32 * k)
        draw.rounded_rectangle(frame, radius=5 * k, outline=colour, width=max(1, round(2 * k)))
        draw.text((cx, cy + 10 * k), rank, font=font(round(38 * scale)), fill=colour, anchor="mm")
        size = round(18 * k)
        face.paste(colour, (round(cx - size / 2), round(cy - 34 * k)), suit_mask(card.suit, size))
    else:  # the rank large over the suit: readable even when the card is drawn small
        draw.text((cx, cy - 17 * k), rank, font=font(round(36 * scale)), fill=colour, anchor="mm")
        size = round(34 * k)
        mask = suit_mask(card.suit, size)
        face.paste(colour, (round(cx - size / 2), round(cy + 2 * k)), mask)
    return face


@lru_cache(maxsize=8)
def _card_shape(scale: float, fill: int) -> Image.Image:
    """A card-shaped mask (for the shadow and the veil over dimmed cards)."""
    k = SS * scale
    mask = Image.new("L", (round(CARD_W * k), round(CARD_H * k)), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, mask.width - 1, mask.height - 1), radius=9 * k, fill=fill
    )
    return mask


@lru_cache(maxsize=512)
def card_sprite(card: Card, scale: float = 1.0, dim: bool = False) -> Image.Image:
    """The card with its shadow (and, dimmed, a veil of felt) as one RGBA image to paste."""
    k = SS * scale
    face = card_face(card, scale)
    dx, dy = round(2 * k), round(3 * k)
    sprite = Image.new("RGBA", (face.width + dx, face.height + dy), (0, 0, 0, 0))
    shadow = (20, 60, 40, 255) if dim else (0, 0, 0, 255)
    sprite.paste(shadow, (dx, dy), _card_shape(scale, 255))
    sprite.alpha_composite(face)
    if dim:
        veil = Image.new("RGBA", face.size, (*TABLE, 0))
        veil.putalpha(_card_shape(scale, 120))
        sprite.alpha_composite(veil)
    return sprite


def _draw_card(
    image: Image.Image, card: Card, x: float, y: float, dim: bool = False, scale: float = 1.0
) -> None:
    """A card with its top-left corner at (x, y) (1x units), with a soft shadow."""
    sprite = card_sprite(card, scale, dim)
    image.paste(sprite, (round(x * SS), round(y * SS)), sprite)


@lru_cache(maxsize=512)
def render_hand(
    cards: tuple[Card, ...], dimmed: frozenset[Card] = frozenset(), title: str = ""
) -> bytes:
    """A private hand as a row of cards (1–6, in the order given) on green felt.

    ``dimmed`` cards are greyed (e.g. those that cannot be laid without passing 31);
    ``title`` is an optional line above the cards ("Your hand — lay away 2").
    """
    if not 0 < len(cards) <= 6:
        raise ValueError("A hand image shows 1 to 6 cards")
    n = len(cards)
    head = 34 if title else 0
    width = 2 * MARGIN + n * CARD_W + (n - 1) * CARD_GAP
    height = 2 * MARGIN + head + CARD_H + 3
    image = Image.new("RGB", (width * SS, height * SS), TABLE)
    if title:
        draw = ImageDraw.Draw(image)
        text = _fit(title, 20, width - 2 * MARGIN)
        draw.text(
            (MARGIN * SS, (MARGIN + 10) * SS), text, font=font(20), fill=TABLE_INK, anchor="lm"
        )
    for i, card in enumerate(cards):
        _draw_card(image, card, MARGIN + i * (CARD_W + CARD_GAP), MARGIN + head, card in dimmed)
    return _to_png(image)


@lru_cache(maxsize=256)
def render_show(
    cards: tuple[Card, ...], starter: Card, title: str = "", caption: str = ""
) -> bytes:
    """A counted hand or crib: the four cards, the starter set apart, the count below.

    ``title`` e.g. ``"Alice's hand — 12"``; ``caption`` the table talk
    (``"fifteen two, fifteen four, …"``), wrapped to the image width.
    """
    if not 1 <= len(cards) <= 6:
        raise ValueError("A show has 1 to 6 cards")
    n = len(cards)
    starter_gap = 34
    cards_w = (n + 1) * CARD_W + (n - 1) * CARD_GAP + starter_gap
    width = max(cards_w + 2 * MARGIN, 560)
    head = 40 if title else 6
    caption_lines = _wrap(caption, 18, width - 2 * MARGIN) if caption else []
    caption_h = 12 + 24 * len(caption_lines) if caption_lines else 0
    label_h = 22
    height = MARGIN + head + CARD_H + label_h + caption_h + MARGIN
    image = Image.new("RGB", (width * SS, height * SS), TABLE)
    draw = ImageDraw.Draw(image)
    if title:
        text = _fit(title, 24, width - 2 * MARGIN)
        draw.text(
            (MARGIN * SS, (MARGIN + 12) * SS), text, font=font(24), fill=TABLE_INK, anchor="lm"
        )
    left = (width - cards_w) / 2
    top = MARGIN + head
    for i, card in enumerate(cards):
        _draw_card(image, card, left + i * (CARD_W + CARD_GAP), top)
    sx = left + n * (CARD_W + CARD_GAP) - CARD_GAP + starter_gap
    _draw_card(image, starter, sx, top)
    label_y = top + CARD_H + 14
    draw.text(
        ((sx + CARD_W / 2) * SS, label_y * SS),
        "starter",
        font=font(15),
        fill=TABLE_INK,
        anchor="mm",
    )
    y = top + CARD_H + label_h + 12
    for line in caption_lines:
        draw.text((MARGIN * SS, (y + 10) * SS), line, font=font(18), fill=TABLE_INK, anchor="lm")
        y += 24
    return _to_png(image)


ShowRow = tuple[str, tuple[Card, ...], int, str]
"""One counted hand on the show image: (title, cards, total, summary)."""


@lru_cache(maxsize=128)
def render_shows(rows: tuple[ShowRow, ...], starter: Card) -> bytes:
    """The whole show of a deal in one picture: a row per hand in counting order, then the crib.

    Each row: its title (``"Alice's hand"``) and summary (``"fifteens 8 · pairs 2"``), its
    cards, ``+`` the starter, and the total in large type.
    """
    if not 1 <= len(rows) <= 5:
        raise ValueError("A show has 1 to 5 hands (four players and the crib)")
    scale = 0.62
    cw, ch = CARD_W * scale, CARD_H * scale
    row_h = ch + 22
    width = WIDTH
    height = round(MARGIN + len(rows) * row_h + MARGIN - 8)
    image = Image.new("RGB", (width * SS, height * SS), TABLE)
    draw = ImageDraw.Draw(image)
    text_w = 250
    for i, (title, cards, total, summary) in enumerate(rows):
        top = MARGIN + i * row_h
        mid = top + ch / 2
        if i:
            draw.line(
                (MARGIN * SS, (top - 11) * SS, (width - MARGIN) * SS, (top - 11) * SS),
                fill=_lighten(TABLE, TABLE_INK, 0.25),
                width=SS,
            )
        draw.text(
            (MARGIN * SS, (mid - 12) * SS),
            _fit(title, 21, text_w),
            font=font(21),
            fill=TABLE_INK,
            anchor="lm",
        )
        draw.text(
            (MARGIN * SS, (mid + 14) * SS),
            _fit(summary, 15, text_w),
            font=font(15),
            fill=_lighten(TABLE_INK, TABLE, 0.3),
            anchor="lm",
        )
        x = MARGIN + text_w + 14
        for card in cards[:5]:
            _draw_card(image, card, x, top, scale=scale)
            x += cw + 7
        draw.text(((x + 9) * SS, mid * SS), "+", font=font(26), fill=TABLE_INK, anchor="mm")
        _draw_card(image, starter, x + 20, top, scale=scale)
        draw.text(
            ((width - MARGIN) * SS, mid * SS),
            str(total),
            font=font(40),
            fill=TABLE_INK,
            anchor="rm",
        )
    return _to_png(image)


def hand_png(cards: Iterable[Card], dimmed: Iterable[Card] = (), title: str = "") -> bytes:
    """``render_hand`` for any iterables: sorts nothing, just freezes the arguments."""
    return render_hand(tuple(cards), frozenset(dimmed), title)


# --------------------------------------------------------------------------- from engine values


def game_board_png(
    game: Game, names: Sequence[str], previous_scores: Sequence[int] | None = None
) -> bytes:
    """The board of ``game`` (``names`` per seat; sides named and coloured by side index).

    ``previous_scores`` places the back pegs: keep the scores from before the last peg."""
    sides = board_sides(side_names(names, game.variant), game.scores, previous_scores)
    return render_board(sides, game.variant.target)


def show_png(shown: Shown, names: Sequence[str]) -> bytes:
    """One hand or crib of the show, from its ``Shown`` event (public by then)."""
    whose = "crib" if shown.crib else "hand"
    title = f"{names[shown.seat]}'s {whose} - {shown.breakdown.total}"
    return render_show(tuple(sorted(shown.cards)), shown.starter, title, shown.breakdown.announce())


def shows_png(shows: Sequence[Shown], names: Sequence[str]) -> bytes:
    """The show of a deal from its ``Shown`` events (in the order given, crib last)."""
    if not shows:
        raise ValueError("Nothing was shown")
    rows = tuple(
        (
            f"{names[s.seat]}'s {'crib' if s.crib else 'hand'}",
            tuple(sorted(s.cards)),
            s.breakdown.total,
            breakdown_summary(s.breakdown),
        )
        for s in shows
    )
    return render_shows(rows, shows[0].starter)


def game_hand_png(game: Game, seat: int) -> bytes:
    """PRIVATE: ``seat``'s cards as a picture for its ephemeral message.

    While laying away: the cards dealt. In the play: the cards still held, with those that
    would pass 31 dimmed when it is the seat's turn (all laid: the kept cards, dimmed).
    Otherwise: the kept hand.
    """
    held = tuple(game.hand(seat))
    if game.phase is Phase.PLAY:
        if not held:
            kept = tuple(game.kept(seat))
            return render_hand(kept, frozenset(kept), "All your cards are laid")
        dimmed = frozenset()
        if seat in game.to_act:
            dimmed = frozenset(c for c in held if game.count + c.value > 31)
            return render_hand(held, dimmed, f"Your turn - the count is {game.count}")
        return render_hand(held, dimmed, "Your hand")
    if game.phase is Phase.DISCARD and seat in game.to_act:
        n = game.variant.discards
        return render_hand(held, frozenset(), f"Your hand - lay away {n}")
    kept = tuple(game.kept(seat)) or held
    if not kept:
        raise ValueError("This seat holds no cards yet")
    return render_hand(kept, frozenset(), "You kept")
