"""The cribbage board picture: the track of holes, a lane per side, the pegs and the legend.

>>> hole_index(1), hole_index(30), hole_index(31), hole_index(121)
((0, 0), (0, 29), (1, 0), (4, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from .drawing import SS, WIDTH, fit_text, font, lighten, palette_of, to_png
from .palette import side_colour

BoardSide = tuple[str, int, int, int]
"""One side on the board: (name, colour index, score, previous score)."""

# colours
WOOD = (238, 216, 172)
TRACK = (222, 193, 142)
HOLE = (101, 70, 42)
INK = (45, 32, 22)
MUTED = (120, 96, 70)
SKUNK = (170, 30, 30)

# board geometry (at 1x)
HOLES_PER_ROW = 30
HOLE_DX = 21
GROUP_GAP = 10
TRACK_LEFT = 70
LANE_DY = 20
HOLE_R = 3.2
PEG_R = 8.0
FINISH_R = 11.0


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

    tints = [lighten(side_colour(c), (250, 244, 230), 0.68) for c in colours]
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
    return to_png(_board_image(sides, target), palette=_board_palette())


def _board_image(sides: tuple[BoardSide, ...], target: int) -> Image.Image:
    """The board, supersampled."""
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
            (px(lx + 30), px(cy)), fit_text(name, 21, name_w), font=font(21), fill=INK, anchor="lm"
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
                fill=lighten(rgb, (255, 255, 255), 0.55),
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
    return image


@lru_cache(maxsize=1)
def _board_palette() -> Image.Image:
    """Every board's colours: the wood, the track, the four sides' lanes and pegs (front and
    back), names, scores and what was pegged, the skunk lines and the game hole."""
    boards = [
        (("Alice", 0, 120, 100), ("Bob", 1, 88, 80), ("Carol", 2, 61, 40), ("Dan", 3, 0, 0)),
        (("Alice and Carol", 0, 121, 117), ("Bob and Dan", 1, 31, 25)),
    ]
    return palette_of([_board_image(sides, 121).reduce(SS) for sides in boards])


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
