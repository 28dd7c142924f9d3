"""The cribbage board picture: the track of holes, a lane per side, the pegs and the legend.

**Drawn for where Discord shows it.** Discord shows an embed's image at most about 400 px wide
and 300 px high (narrower on a phone); the board is drawn ``WIDTH`` = 800 px wide (sharp when
opened, or on a high-density screen) and never taller than 3/4 of its width, so it is shown
at 400 px wide, scale 1/2. The rule, checked by ``tests/render/test_board_legible.py``: every
text on the board is set at a font size of at least ``MIN_TEXT_PX`` = 12 px once scaled to
``DISPLAY_WIDTH`` = 400 px, i.e. ``size * DISPLAY_WIDTH / WIDTH >= 12`` (``size >= MIN_FONT``
= 24 at 1x), which puts its capitals and digits at 8.9 px or more; and every peg is at least
10 px across once scaled (its lane tall enough for it), pegs of neighbouring lanes apart.

So the board carries few labels, all big: each side's name and score (the one place the
scores are shown when pictures are on: the game message's text leaves them out), the last hole
of each row (30, 60, 90), the game hole (121 or 61) and the skunk lines, in red, with their
captions (91 and 61 in a game to 121; 31 in a game to 61, which has no double skunk). What a
side just pegged shows as the gap between its back peg (a ring) and its front peg (solid);
the story says it in words.

>>> hole_index(1), hole_index(30), hole_index(31), hole_index(121)
((0, 0), (0, 29), (1, 0), (4, 0))
>>> all(label.size >= MIN_FONT for label in board_labels((("Alice", 0, 84, 77),), 121))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from bot.engine import Variant

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
    text_tile,
)
from .palette import side_colour

BoardSide = tuple[str, int, int, int]
"""One side on the board: (name, colour index, score, previous score)."""

# where Discord shows it (an embed image: about 400 px wide at most, 300 px high)
DISPLAY_WIDTH = 400
DISPLAY_HEIGHT = 300
MIN_TEXT_PX = 12
MIN_FONT = math.ceil(MIN_TEXT_PX * WIDTH / DISPLAY_WIDTH)  # at 1x: 24 px
MAX_HEIGHT = WIDTH * DISPLAY_HEIGHT // DISPLAY_WIDTH  # taller would be shown narrower

# colours
WOOD = (238, 216, 172)
TRACK = (222, 193, 142)
HOLE = (101, 70, 42)
INK = (45, 32, 22)
MUTED = (92, 68, 46)  # 6:1 on the wood
SKUNK = (165, 24, 24)

# type (1x px; shown at half that)
NAME_FONT = 30
SCORE_FONT = 40
MARK_FONT = 26

# board geometry (at 1x)
HOLES_PER_ROW = 30
HOLE_DX = 21
GROUP_GAP = 10
TRACK_LEFT = 76
HOLE_R = 3.2
# A peg's radius is PEG_R / LANE_DY of its lane's height, so pegs of neighbouring lanes keep
# wood between them. Four sides get lanes as tall as three (a thinner band padding pays for
# them, the board no taller) so their pegs are 10 px across or more once shown 400 px wide;
# fewer sides get taller lanes, bigger pegs.
LANE_DY = 21
PEG_R = 9.5
LANES_DY = {1: 26, 2: 26, 3: 23, 4: 23}
FINISH_R = 13.0
START_HOLES = (TRACK_LEFT - 50, TRACK_LEFT - 27)  # x of the back peg's and the front peg's
LEGEND_ROW = 46
BAND_PAD = 8  # the track's band above its first lane and below its last
BAND_PADS = {1: BAND_PAD, 2: BAND_PAD, 3: BAND_PAD, 4: 4}
ROW_GAP = 12
CAPTION_GAP = 36  # above a row that starts at a skunk line: room for its caption
BAND_LEFT = 12
BAND_RIGHT = TRACK_LEFT + (HOLES_PER_ROW - 1) * HOLE_DX + 5 * GROUP_GAP + 12
MARGIN_X = (BAND_RIGHT + WIDTH) / 2  # the right margin's middle: row ends, the game hole


# --------------------------------------------------------------------------- the labels


@dataclass(frozen=True, slots=True)
class Label:
    """One text on the board: ``size`` is its font size at 1x, (``x``, ``y``) where it is
    anchored (Pillow's anchors: ``"lm"`` = left, middle)."""

    text: str
    size: int
    x: float
    y: float
    anchor: str
    fill: tuple[int, int, int]

    def box(self) -> tuple[float, float, float, float]:
        """The ink's box at 1x: (left, top, right, bottom)."""
        left, top, right, bottom = font(self.size).getbbox(self.text, anchor=self.anchor)
        return (
            self.x + left / SS,
            self.y + top / SS,
            self.x + right / SS,
            self.y + bottom / SS,
        )

    def draw(self, draw: ImageDraw.ImageDraw) -> None:
        draw.text(
            (self.x * SS, self.y * SS),
            self.text,
            font=font(self.size),
            fill=self.fill,
            anchor=self.anchor,
        )


# --------------------------------------------------------------------------- the layout


def hole_index(score: int) -> tuple[int, int]:
    """(row, column) of the hole for ``score`` (1..): rows of 30, left to right."""
    return (score - 1) // HOLES_PER_ROW, (score - 1) % HOLES_PER_ROW


def _hole_x(column: int) -> float:
    return TRACK_LEFT + column * HOLE_DX + (column // 5) * GROUP_GAP


def skunk_lines(target: int) -> dict[int, str]:
    """The skunk lines of a game to ``target`` (docs/players/rules.md, "Skunks"): first hole
    above it -> caption."""
    variant = Variant(target=target)
    lines = {variant.skunk_line: f"skunk line {variant.skunk_line}"}
    if variant.double_skunk_line:
        lines[variant.double_skunk_line] = f"double skunk line {variant.double_skunk_line}"
    return lines


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
        return 8 + (1 if self.lanes <= 2 else 2) * LEGEND_ROW

    @property
    def lane_dy(self) -> float:
        return LANES_DY[self.lanes]

    @property
    def peg_r(self) -> float:
        return PEG_R * self.lane_dy / LANE_DY

    @property
    def band_pad(self) -> float:
        return BAND_PADS[self.lanes]

    @property
    def band_h(self) -> float:
        return 2 * self.band_pad + self.lanes * self.lane_dy

    @cached_property
    def skunks(self) -> dict[int, str]:
        return skunk_lines(self.target)

    def gap_above(self, row: int) -> float:
        if row * HOLES_PER_ROW + 1 in self.skunks:
            return CAPTION_GAP
        return ROW_GAP if row else 6

    def band_top(self, row: int) -> float:
        above = sum(self.gap_above(r) for r in range(row + 1))
        return self.legend_h + above + row * self.band_h

    def band_bottom(self, row: int) -> float:
        return self.band_top(row) + self.band_h

    @property
    def height(self) -> int:
        return math.ceil(self.band_bottom(self.rows - 1) + 8)

    def lane_y(self, row: int, lane: int) -> float:
        return self.band_top(row) + self.band_pad + (lane + 0.5) * self.lane_dy

    @property
    def finish(self) -> tuple[float, float]:
        """The game hole, in the right margin of the last row."""
        return MARGIN_X, self.band_top(self.rows - 1) + self.band_pad + FINISH_R

    def peg(self, lane: int, score: int, back: bool) -> tuple[float, float, float]:
        """(x, y, radius) of a peg: start holes at 0, the game hole at the target."""
        if score >= self.target:
            return (*self.finish, FINISH_R - 1.5)
        if score <= 0:
            return START_HOLES[0 if back else 1], self.lane_y(0, lane), self.peg_r
        row, column = hole_index(score)
        return _hole_x(column), self.lane_y(row, lane), self.peg_r

    def track_labels(self) -> list[Label]:
        """The milestones: each row's last hole, the game hole, the skunk lines' captions."""
        labels = []
        for row in range(self.rows - 1):
            middle = self.band_top(row) + self.band_h / 2
            last = (row + 1) * HOLES_PER_ROW
            labels.append(Label(str(last), MARK_FONT, MARGIN_X, middle, "mm", MUTED))
        fx, fy = self.finish
        labels.append(Label(str(self.target), MARK_FONT, fx, fy + FINISH_R + 4, "mt", INK))
        for row in range(self.rows):
            caption = self.skunks.get(row * HOLES_PER_ROW + 1)
            if caption:
                x = self.skunk_x + 8
                labels.append(Label(caption, MARK_FONT, x, self.band_top(row) - 7, "ls", SKUNK))
        return labels

    skunk_x = TRACK_LEFT - 15  # the line runs just before the row's first hole

    def legend_labels(self, sides: Sequence[BoardSide]) -> list[Label]:
        """Each side's name and score, two sides to a row."""
        return [label for pair in self.legend(sides) for label in pair]

    def legend(self, sides: Sequence[BoardSide]) -> list[tuple[Label, Label]]:
        """Each side's (name, score) in the legend."""
        labels = []
        column_w = WIDTH / 2
        for i, (name, _, score, _) in enumerate(sides):
            lx, cy = self.legend_spot(i)
            score_text = str(min(score, self.target))
            right = lx + column_w - 32
            score_w = font(SCORE_FONT).getlength(score_text) / SS
            name_w = right - (lx + 34) - score_w - 16
            name_text = fit_text(name, NAME_FONT, name_w)
            labels.append(
                (
                    Label(name_text, NAME_FONT, lx + 34, cy, "lm", INK),
                    Label(score_text, SCORE_FONT, right, cy, "rm", INK),
                )
            )
        return labels

    @staticmethod
    def legend_spot(i: int) -> tuple[float, float]:
        """(left, middle) of side ``i``'s entry in the legend."""
        return 16 + (i % 2) * WIDTH / 2, 8 + (i // 2) * LEGEND_ROW + LEGEND_ROW / 2


def board_labels(sides: Sequence[BoardSide], target: int = 121) -> list[Label]:
    """Every text drawn on the board of ``sides`` (see :func:`render_board`), for checks."""
    layout = _BoardLayout(len(sides), target)
    return layout.track_labels() + layout.legend_labels(sides)


def board_size(lanes: int, target: int = 121) -> tuple[int, int]:
    """(width, height) of a board of ``lanes`` sides to ``target`` (1x)."""
    return WIDTH, _BoardLayout(lanes, target).height


# --------------------------------------------------------------------------- the board


@lru_cache(maxsize=32)
def _board_track(colours: tuple[int, ...], target: int) -> Image.Image:
    """The empty board (supersampled): lanes tinted per side, holes, milestones, skunk lines.

    Cached: it changes only with the sides' colours and the target, never with the score."""
    layout = _BoardLayout(len(colours), target)
    image = Image.new("RGB", (WIDTH * SS, layout.height * SS), WOOD)
    draw = ImageDraw.Draw(image)

    def px(v: float) -> float:
        return v * SS

    def hole(x: float, y: float) -> None:
        draw.ellipse((px(x - HOLE_R), px(y - HOLE_R), px(x + HOLE_R), px(y + HOLE_R)), fill=HOLE)

    tints = [lighten(side_colour(c), (250, 244, 230), 0.68) for c in colours]
    half = layout.lane_dy / 2 - 1.5  # a lane's half height
    for row in range(layout.rows):
        top, bottom = layout.band_top(row), layout.band_bottom(row)
        draw.rounded_rectangle(
            (px(BAND_LEFT), px(top), px(BAND_RIGHT), px(bottom)), radius=px(9), fill=TRACK
        )
        for lane, tint in enumerate(tints):
            y = layout.lane_y(row, lane)
            draw.rounded_rectangle(
                (px(TRACK_LEFT - 10), px(y - half), px(BAND_RIGHT - 4), px(y + half)),
                radius=px(half),
                fill=tint,
            )
            for column in range(HOLES_PER_ROW):
                hole(_hole_x(column), y)
            if row == 0:  # the two start holes
                for x in START_HOLES:
                    hole(x, y)
        if row * HOLES_PER_ROW + 1 in layout.skunks:
            x = layout.skunk_x
            draw.line(
                (px(x), px(top - CAPTION_GAP + 6), px(x), px(bottom + 3)),
                fill=SKUNK,
                width=round(px(3)),
            )
    fx, fy = layout.finish
    draw.ellipse(
        (px(fx - FINISH_R), px(fy - FINISH_R), px(fx + FINISH_R), px(fy + FINISH_R)),
        fill=TRACK,
        outline=HOLE,
        width=round(px(2)),
    )
    for label in layout.track_labels():
        label.draw(draw)
    return image


@lru_cache(maxsize=256)
def render_board(sides: tuple[BoardSide, ...], target: int = 121) -> bytes:
    """The board as PNG bytes: a 121-hole track (61 for a short game), one lane per side.

    ``sides`` holds ``(name, colour_index, score, previous_score)`` for 2–4 sides. Each side
    has a front peg (its score, a solid peg) and a back peg (its previous score, a ring);
    both stand in the start holes at 0 and the front peg goes to the game hole at the target.
    The skunk line (91, or 31 to 61) and the double skunk line (61) are marked.

    Put together from cached tiles (see :mod:`bot.render.drawing`) in the colours of one
    palette for every board: the board with its legend's pegs and names (the same all game
    long), each score, and each peg (or pegs close enough to touch) on its stretch of track.
    """
    if not 1 <= len(sides) <= 4:
        raise ValueError("A board has 1 to 4 sides")
    if target not in (121, 61):
        raise ValueError("A game is played to 121 or 61")
    return _board_indexed.png(*_board_tiles(sides, target))


Peg = tuple[int, int, bool]
"""A peg on the board: (lane, score, back)."""

Box = tuple[int, int, int, int]
"""Whole pixels (1x): left, top, right, bottom."""


def _board_tiles(sides: tuple[BoardSide, ...], target: int) -> tuple[Tile, list[Tile]]:
    """A board's background (the track, each side's legend peg and name) and its tiles: the
    scores (on plain wood) and the pegs, drawn in lanes' order, each lane's back peg before
    its front peg; pegs whose patches would overlap share one."""
    layout = _BoardLayout(len(sides), target)
    colours = tuple(colour for _, colour, _, _ in sides)
    legend = layout.legend(sides)
    names = tuple(name for name, _ in legend)
    tiles = [text_tile(s.text, s.size, s.fill, WOOD, s.x, s.y, s.anchor) for _, s in legend]
    pegs: list[Peg] = []
    for lane, (_, _, score, previous) in enumerate(sides):
        if previous != score or score == 0:
            pegs.append((lane, previous, True))
        pegs.append((lane, score, False))
    for group in _touching(layout, pegs):
        tiles.append((_pegs_patch, (colours, target, group), 0, 0))
    return (_board_base, (colours, target, names), 0, 0), tiles


def _peg_box(layout: _BoardLayout, peg: Peg) -> Box:
    """The whole pixels (1x) around a peg, a pixel of track to spare on each side."""
    x, y, r = layout.peg(*peg)
    return math.floor(x - r) - 1, math.floor(y - r) - 1, math.ceil(x + r) + 1, math.ceil(y + r) + 1


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touching(layout: _BoardLayout, pegs: list[Peg]) -> list[tuple[Peg, ...]]:
    """``pegs`` in groups whose boxes do not overlap (each group in ``pegs``' order)."""
    groups: list[tuple[list[int], Box]] = []
    for i, peg in enumerate(pegs):
        members, box = [i], _peg_box(layout, peg)
        while touched := [g for g in groups if _overlap(box, g[1])]:  # a grown box may reach more
            for group in touched:
                groups.remove(group)
                members, box = sorted(members + group[0]), _union(box, group[1])
        groups.append((members, box))
    return [tuple(pegs[k] for k in members) for members, _ in groups]


@lru_cache(maxsize=16)
def _board_base(colours: tuple[int, ...], target: int, names: tuple[Label, ...]) -> Drawn:
    """The board without its scores and pegs: the track, and in the legend each side's peg
    and name."""
    layout = _BoardLayout(len(colours), target)
    image = _board_track(colours, target).copy()
    draw = ImageDraw.Draw(image)
    for i, colour in enumerate(colours):
        lx, cy = layout.legend_spot(i)
        draw.ellipse(
            (lx * SS, (cy - 12) * SS, (lx + 24) * SS, (cy + 12) * SS),
            fill=side_colour(colour),
            outline=INK,
            width=SS * 2,
        )
    for label in names:
        label.draw(draw)
    return image.reduce(SS), 0, 0


@lru_cache(maxsize=2048)
def _pegs_patch(colours: tuple[int, ...], target: int, pegs: tuple[Peg, ...]) -> Drawn:
    """``pegs`` (of one lane or touching lanes) on their stretch of the empty track."""
    layout = _BoardLayout(len(colours), target)
    box = _peg_box(layout, pegs[0])
    for peg in pegs[1:]:
        box = _union(box, _peg_box(layout, peg))
    left, top, right, bottom = box
    patch = _board_track(colours, target).crop((left * SS, top * SS, right * SS, bottom * SS))
    draw = ImageDraw.Draw(patch)

    def px(v: float) -> float:
        return v * SS

    for lane, score, back in pegs:
        rgb = side_colour(colours[lane])
        x, y, r = layout.peg(lane, score, back)
        x, y = x - left, y - top
        if back:  # a ring
            draw.ellipse(
                (px(x - r + 1), px(y - r + 1), px(x + r - 1), px(y + r - 1)),
                fill=lighten(rgb, (255, 255, 255), 0.6),
                outline=rgb,
                width=round(px(3)),
            )
        else:  # solid
            draw.ellipse(
                (px(x - r), px(y - r), px(x + r), px(y + r)),
                fill=rgb,
                outline=INK,
                width=round(px(2)),
            )
    return patch.reduce(SS), left, top


def _board_image(sides: tuple[BoardSide, ...], target: int) -> Image.Image:
    """The board in RGB, before its colours are reduced to the palette."""
    return compose(*_board_tiles(sides, target))


@lru_cache(maxsize=1)
def _board_palette() -> Image.Image:
    """Every board's colours: the wood, the track, the four sides' lanes and pegs (front and
    back), names and scores, the milestones, the skunk lines and the game hole."""
    boards = [
        (("Alice", 0, 120, 100), ("Bob", 1, 88, 80), ("Carol", 2, 61, 40), ("Dan", 3, 0, 0)),
        (("Alice and Carol", 0, 121, 117), ("Bob and Dan", 1, 31, 25)),
    ]
    return palette_of([_board_image(sides, 121) for sides in boards])


_board_indexed = Indexed(_board_palette, tiles=4096, backgrounds=32)


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
