"""Cards in pictures: suit symbols, card faces and sprites, and the pictures made of cards (a
hand, a counted show, a whole deal's show). The suit symbols are drawn as shapes because the
built-in font has no ♠♥♦♣ glyphs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine import Card, Suit
from bot.engine.cards import rank_name

from .drawing import (
    SS,
    WIDTH,
    Drawn,
    Indexed,
    Tile,
    compose,
    fit_text,
    font,
    lighten,
    palette_of,
    plain,
    reduced,
    text_tile,
    to_png,
    wrap_text,
)

# colours
CARD_FACE = (253, 252, 248)
CARD_EDGE = (150, 150, 150)
RED_SUIT = (200, 35, 45)
BLACK_SUIT = (25, 25, 30)
TABLE = (29, 92, 62)  # the felt behind cards
TABLE_INK = (236, 244, 238)

# card geometry (at 1x)
CARD_W, CARD_H = 104, 146
CARD_GAP = 12
MARGIN = 18


# --------------------------------------------------------------------------- suits


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


@lru_cache(maxsize=128)
def _small_sprite(card: Card, dim: bool) -> Image.Image:
    """:func:`card_sprite` at its final size (a hand is composed at 1x from these)."""
    return reduced(card_sprite(card, 1.0, dim))


@lru_cache(maxsize=128)
def _hand_card(card: Card, dim: bool) -> Drawn:
    """A card of a hand at its final size on the felt, its shadow blended in."""
    sprite = _small_sprite(card, dim)
    tile = Image.new("RGB", sprite.size, TABLE)
    tile.paste(sprite, (0, 0), sprite)
    return tile, 0, 0


@lru_cache(maxsize=64)
def _title_strip(title: str, width: int, height: int) -> Drawn:
    """The felt strip above a hand with its title, drawn supersampled and reduced."""
    strip = Image.new("RGB", (width * SS, height * SS), TABLE)
    text = fit_text(title, 20, width - 2 * MARGIN)
    ImageDraw.Draw(strip).text(
        (MARGIN * SS, (MARGIN + 10) * SS), text, font=font(20), fill=TABLE_INK, anchor="lm"
    )
    return strip.reduce(SS), 0, 0


@lru_cache(maxsize=512)
def render_hand(
    cards: tuple[Card, ...],
    dimmed: frozenset[Card] = frozenset(),
    title: str = "",
    starter: Card | None = None,
) -> bytes:
    """A private hand as a row of cards (1–6, in the order given) on green felt.

    ``dimmed`` cards are greyed (e.g. those that cannot be laid without passing 31);
    ``title`` is an optional line above the cards ("Your hand — lay away 2"); a ``starter``
    comes last, after a ``+`` (the cards to count in the show).

    Drawn often (every move redraws a hand), so it is put together at its final size from
    cached tiles (see :mod:`bot.render.drawing`) already in the colours of one palette for
    every hand: each card on the felt, the title strip, the ``+``.
    """
    if not 0 < len(cards) <= 6:
        raise ValueError("A hand image shows 1 to 6 cards")
    return _hand_indexed.png(*_hand_tiles(cards, dimmed, title, starter))


STARTER_GAP = 44  # room for the "+" before a starter


def _hand_tiles(
    cards: tuple[Card, ...], dimmed: frozenset[Card], title: str, starter: Card | None = None
) -> tuple[Tile, list[Tile]]:
    """A hand's background and tiles (no two overlap: a card's shadow ends before the gap)."""
    n = len(cards)
    head = 34 if title else 0
    width = 2 * MARGIN + n * CARD_W + (n - 1) * CARD_GAP
    if starter is not None:
        width += STARTER_GAP + CARD_W
    height = 2 * MARGIN + head + CARD_H + 3
    tiles: list[Tile] = []
    if title:
        tiles.append((_title_strip, (title, width, MARGIN + head), 0, 0))
    for i, card in enumerate(cards):
        x = MARGIN + i * (CARD_W + CARD_GAP)
        tiles.append((_hand_card, (card, card in dimmed), x, MARGIN + head))
    if starter is not None:
        x = MARGIN + n * (CARD_W + CARD_GAP) - CARD_GAP + STARTER_GAP
        y = MARGIN + head + CARD_H // 2 - 20
        tiles.append((_plus_sign, (), x - STARTER_GAP // 2 - 20, y))
        tiles.append((_hand_card, (starter, False), x, MARGIN + head))
    return (plain, (TABLE, width, height), 0, 0), tiles


def _hand_image(
    cards: tuple[Card, ...], dimmed: frozenset[Card], title: str, starter: Card | None = None
) -> Image.Image:
    """A hand in RGB, before its colours are reduced to the palette."""
    return compose(*_hand_tiles(cards, dimmed, title, starter))


@lru_cache(maxsize=1)
def _plus_sign() -> Drawn:
    """A "+" on felt, 40×40 (between a hand and its starter)."""
    sign = Image.new("RGB", (40 * SS, 40 * SS), TABLE)
    ImageDraw.Draw(sign).text((20 * SS, 20 * SS), "+", font=font(40), fill=TABLE_INK, anchor="mm")
    return sign.reduce(SS), 0, 0


@lru_cache(maxsize=1)
def _hand_palette() -> Image.Image:
    """Every hand's colours: the felt, the title, and faces and pips of every suit, court
    cards included, plain and dimmed."""
    title, samples = "Your hand - lay away 2", []
    for suit in "SHDC":
        cards = tuple(Card.parse(rank + suit) for rank in ("A", "5", "10", "J", "Q", "K"))
        samples.append(_hand_image(cards[:4], frozenset(), title, cards[4]))
        samples.append(_hand_image(cards, frozenset(cards[3:]), title))
    return palette_of(samples)


_hand_indexed = Indexed(_hand_palette, tiles=512, backgrounds=16)


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
    caption_lines = wrap_text(caption, 18, width - 2 * MARGIN) if caption else []
    caption_h = 12 + 24 * len(caption_lines) if caption_lines else 0
    label_h = 22
    height = MARGIN + head + CARD_H + label_h + caption_h + MARGIN
    image = Image.new("RGB", (width * SS, height * SS), TABLE)
    draw = ImageDraw.Draw(image)
    if title:
        text = fit_text(title, 24, width - 2 * MARGIN)
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
    return to_png(image)


ShowRow = tuple[str, tuple[Card, ...], int, str]
"""One counted hand on the show image: (title, cards, points, details). ``points`` is what the
hand pegged; ``details`` the smaller words under the title (lines split at ``"\\n"``)."""

SHOW_CARD_SCALE = 0.64
SHOW_TITLE, SHOW_DETAIL, SHOW_POINTS = 28, 24, 48  # font sizes: legible at half size too


@lru_cache(maxsize=128)
def render_shows(rows: tuple[ShowRow, ...], starter: Card) -> bytes:
    """The whole show of a deal in one picture: a row per hand in counting order, then the crib.

    Each row: its title (``"Alice's hand"``) over its details (``"fifteens 8 · pairs 2"``), its
    cards, ``+`` the starter, and the points it pegged in large type. Drawn ``WIDTH`` wide with
    text at least 24 px, so that every word stays readable where Discord shows the picture
    about 400 px wide.

    Put together from cached tiles (see :mod:`bot.render.drawing`) in the colours of one palette
    for every show: the felt with its rules between the rows, each card and each text.
    """
    return _shows_indexed.png(*_shows_tiles(rows, starter))


SHOW_GAP, SHOW_PLUS_W, SHOW_NUMBER_W = 6, 30, 64  # between cards, for the "+", for the points
SHOW_ROW_H = CARD_H * SHOW_CARD_SCALE + 22


def _shows_tiles(rows: tuple[ShowRow, ...], starter: Card) -> tuple[Tile, list[Tile]]:
    """A show's background and tiles. None overlap: the texts keep clear of the cards, and the
    cards' shadows end well before the gaps between them."""
    if not 1 <= len(rows) <= 5:
        raise ValueError("A show has 1 to 5 hands (four players and the crib)")
    scale = SHOW_CARD_SCALE
    cw, ch = CARD_W * scale, CARD_H * scale
    gap, plus_w = SHOW_GAP, SHOW_PLUS_W
    width = WIDTH
    height = round(MARGIN + len(rows) * SHOW_ROW_H + MARGIN - 12)
    most = max(len(row[1]) for row in rows)
    if not 1 <= most <= 5:
        raise ValueError("A hand on the show has 1 to 5 cards")
    cards_w = most * cw + (most - 1) * gap + plus_w + cw
    cards_x = width - MARGIN - SHOW_NUMBER_W - 12 - cards_w
    text_w = cards_x - MARGIN - 14
    faint = lighten(TABLE_INK, TABLE, 0.2)
    tiles: list[Tile] = []
    for i, (title, cards, points, details) in enumerate(rows):
        top = MARGIN + i * SHOW_ROW_H
        title_text = fit_text(title, SHOW_TITLE, text_w)
        tiles.append(text_tile(title_text, SHOW_TITLE, TABLE_INK, TABLE, MARGIN, top + 2, "lt"))
        lines = [w for part in details.split("\n") for w in wrap_text(part, SHOW_DETAIL, text_w)]
        if len(lines) > 2:
            lines = [lines[0], fit_text(" ".join(lines[1:]), SHOW_DETAIL, text_w)]
        for j, line in enumerate(lines):
            text = fit_text(line, SHOW_DETAIL, text_w)
            tiles.append(
                text_tile(text, SHOW_DETAIL, faint, TABLE, MARGIN, top + 36 + 27 * j, "lt")
            )
        x = cards_x + (most - len(cards)) * (cw + gap)
        for card in cards:
            tiles.append(_card_tile(card, x, top, scale))
            x += cw + gap
        mid = top + ch / 2
        tiles.append(text_tile("+", 30, TABLE_INK, TABLE, x - gap + plus_w / 2, mid, "mm"))
        tiles.append(_card_tile(starter, x - gap + plus_w, top, scale))
        points_text = str(points)
        tiles.append(
            text_tile(points_text, SHOW_POINTS, TABLE_INK, TABLE, width - MARGIN, mid, "rm")
        )
    return (_shows_felt, (width, height, len(rows)), 0, 0), tiles


@lru_cache(maxsize=16)
def _shows_felt(width: int, height: int, rows: int) -> Drawn:
    """A show's felt with a rule between each two rows."""
    image = Image.new("RGB", (width * SS, height * SS), TABLE)
    draw = ImageDraw.Draw(image)
    for i in range(1, rows):
        y = (MARGIN + i * SHOW_ROW_H - 11) * SS
        rule = lighten(TABLE, TABLE_INK, 0.25)
        draw.line((MARGIN * SS, y, (width - MARGIN) * SS, y), fill=rule, width=SS)
    return image.reduce(SS), 0, 0


def _card_tile(card: Card, x: float, y: float, scale: float, dim: bool = False) -> Tile:
    """A card with its top-left corner at (x, y) (1x), as :func:`_draw_card` draws it."""
    sx, sy = round(x * SS), round(y * SS)
    return (_card_on_felt, (card, scale, dim, sx % SS, sy % SS), sx // SS, sy // SS)


@lru_cache(maxsize=512)
def _card_on_felt(card: Card, scale: float, dim: bool, sx: int, sy: int) -> Drawn:
    """A card's sprite on felt, its corner (``sx``, ``sy``) supersampled px into the tile."""
    sprite = card_sprite(card, scale, dim)
    width, height = math.ceil((sx + sprite.width) / SS), math.ceil((sy + sprite.height) / SS)
    canvas = Image.new("RGB", (width * SS, height * SS), TABLE)
    canvas.paste(sprite, (sx, sy), sprite)
    return canvas.reduce(SS), 0, 0


def _shows_image(rows: tuple[ShowRow, ...], starter: Card) -> Image.Image:
    """A show in RGB, before its colours are reduced to the palette."""
    return compose(*_shows_tiles(rows, starter))


@lru_cache(maxsize=1)
def _shows_palette() -> Image.Image:
    """Every show's colours: the felt, the rules, titles, details and points, and faces and
    pips of every suit, court cards included, at the show's size."""
    samples = []
    for suit in "SHDC":
        cards = tuple(Card.parse(rank + suit) for rank in ("A", "5", "10", "J", "Q", "K"))
        rows: tuple[ShowRow, ...] = (
            ("Alice's hand", cards[:4], 12, "fifteens 8 · runs 4"),
            ("Bob's hand", cards[1:5], 29, "claimed 12 · worth 10\nover by 2: Alice took 2"),
            ("Carol's crib", cards[2:], 0, "nineteen"),
        )
        samples.append(_shows_image(rows, cards[0]))
    return palette_of(samples)


_shows_indexed = Indexed(_shows_palette, tiles=2048, backgrounds=8)


def hand_png(cards: Iterable[Card], dimmed: Iterable[Card] = (), title: str = "") -> bytes:
    """``render_hand`` for any iterables: sorts nothing, just freezes the arguments."""
    return render_hand(tuple(cards), frozenset(dimmed), title)
