"""The board as Discord shows it: about 400 px wide.

Discord shows an embed's image at most about 400 px wide and 300 px high. Here every board is
scaled to 400 px wide, as it is seen, and checked:

* the rule (``bot.render.board_art``): every text is set at a font size of at least 12 px once
  scaled, ``size * 400 / WIDTH >= 12``; and measured: each text drawn alone and scaled to 400 px
  is at least 8.4 px tall in ink (the capitals and digits of a 12 px font);
* no two texts overlap, every text lies inside the picture, the picture is never taller than
  3/4 of its width (so Discord shows it 400 px wide, not narrower);
* every peg at least ``MIN_PEG_PX`` = 10 px across once scaled (its radius in the picture's
  pixels x 400 / the picture's width, from the drawing's geometry), pegs of neighbouring lanes
  apart, and no peg over a text or outside its row's band;
* golden images at the displayed size: fixed positions compared with ``golden/board400_*.png``
  (small tolerance). After an intended change of look, regenerate them with::

      UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_board_legible.py -q

  and look at them before committing.
"""

from __future__ import annotations

import io
import itertools
import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.render.board_art import (
    DISPLAY_HEIGHT,
    DISPLAY_WIDTH,
    MIN_TEXT_PX,
    BoardSide,
    _BoardLayout,
    board_labels,
    board_size,
    render_board,
)
from bot.render.drawing import SS, WIDTH

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SCALE = DISPLAY_WIDTH / WIDTH
CAP_HEIGHT = 0.7  # capitals and digits of the board's font are 0.74 of its size
MIN_PEG_PX = 10  # a peg's diameter at 400 px wide
PEG_GAP = 1.0  # at least this much wood (1x px) between pegs of neighbouring lanes

Position = tuple[tuple[BoardSide, ...], int]
POSITIONS: dict[str, Position] = {
    "two_early": ((("Alice", 0, 9, 4), ("Bob", 1, 6, 0)), 121),
    "two_mid": ((("Alice", 0, 84, 77), ("Bob", 1, 62, 50)), 121),  # past the double skunk line
    "two_near_end": ((("Alice", 0, 117, 109), ("Bob", 1, 93, 88)), 121),  # past the skunk line
    "three_start": ((("Alice", 0, 0, 0), ("Bob", 1, 0, 0), ("Carol", 2, 0, 0)), 121),
    "three_near_end": (
        (("Alice", 0, 112, 104), ("Bob", 1, 95, 88), ("Computer (expert)", 2, 58, 58)),
        121,
    ),
    "partners_mid": ((("Alice & Carol", 0, 66, 58), ("Bob & Dave", 1, 47, 47)), 121),
    "partners_61_near_end": ((("Alice & Carol", 0, 56, 49), ("Bob & Dave", 1, 35, 29)), 61),
    "four_finish": (
        (
            ("Alice", 0, 121, 113),
            ("Bob", 1, 90, 84),
            ("Carol", 2, 60, 60),
            ("Computer (expert)", 3, 31, 0),
        ),
        121,
    ),
}


def as_displayed(png: bytes) -> Image.Image:
    """The picture scaled to 400 px wide, as Discord shows it (colours reduced, for small
    golden files)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * DISPLAY_WIDTH / image.width)
    small = image.resize((DISPLAY_WIDTH, height), Image.Resampling.LANCZOS)
    return small.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).convert(
        "RGB"
    )


def differing_fraction(a: Image.Image, b: Image.Image, threshold: int = 24) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > threshold else 0)
    return diff.histogram()[255] / (a.width * a.height)


# --------------------------------------------------------------------------- legible


@pytest.mark.parametrize("name", POSITIONS)
def test_every_text_is_at_least_12_px_at_400_px_wide(name):
    sides, target = POSITIONS[name]
    labels = board_labels(sides, target)
    assert {label.text for label in labels} >= {str(score) for _, _, score, _ in sides}
    for label in labels:
        assert label.size * SCALE >= MIN_TEXT_PX, f"{label.text!r}: {label.size * SCALE} px"


@pytest.mark.parametrize("name", ["two_mid", "three_near_end", "partners_61_near_end"])
def test_each_text_measures_12_px_type_after_scaling(name):
    """Each text drawn alone (white on black), scaled as the board is scaled to 400 px wide,
    then the height of its ink measured."""
    sides, target = POSITIONS[name]
    for label in board_labels(sides, target):
        left, top, right, bottom = (round(v) for v in label.box())
        left, top = left - 4, top - 4  # a margin around the ink (1x)
        size = (right + 4 - left, bottom + 4 - top)
        canvas = Image.new("RGB", (size[0] * SS, size[1] * SS))
        alone = replace(label, x=label.x - left, y=label.y - top, fill=(255, 255, 255))
        alone.draw(ImageDraw.Draw(canvas))
        shown = (round(size[0] * SCALE), round(size[1] * SCALE))
        small = canvas.convert("L").resize(shown, Image.Resampling.LANCZOS)
        ink = small.point(lambda v: 255 if v >= 128 else 0).getbbox()
        assert ink is not None, f"{label.text!r} vanished at {DISPLAY_WIDTH} px"
        tall = ink[3] - ink[1]
        assert tall >= CAP_HEIGHT * MIN_TEXT_PX, f"{label.text!r} is {tall} px tall at 400 px"


@pytest.mark.parametrize("name", POSITIONS)
def test_texts_do_not_overlap_and_stay_inside(name):
    sides, target = POSITIONS[name]
    width, height = board_size(len(sides), target)
    boxes = [(label.text, label.box()) for label in board_labels(sides, target)]
    for text, (left, top, right, bottom) in boxes:
        assert min(left, top) >= 0 and right <= width and bottom <= height, text
    for (a, (al, at, ar, ab)), (b, (bl, bt, br, bb)) in itertools.combinations(boxes, 2):
        assert ar <= bl or br <= al or ab <= bt or bb <= at, f"{a!r} overlaps {b!r}"


@pytest.mark.parametrize("lanes", [1, 2, 3, 4])
@pytest.mark.parametrize("target", [121, 61])
def test_the_board_is_shown_400_px_wide_never_narrower(lanes, target):
    """Taller than 3/4 of its width, Discord's 400 x 300 box would shrink it below 400 px."""
    width, height = board_size(lanes, target)
    assert height * DISPLAY_WIDTH / width <= DISPLAY_HEIGHT


def test_the_old_tiny_labels_are_gone():
    """Every-5 hole numbers, "+N" and "start" could not be read at 400 px: they are gone."""
    sides, target = POSITIONS["two_mid"]
    texts = {label.text for label in board_labels(sides, target)}
    assert texts == {"Alice", "Bob", "84", "62", "30", "60", "90", "121"} | {
        "double skunk line 61",
        "skunk line 91",
    }
    sides61, _ = POSITIONS["partners_61_near_end"]
    texts61 = {label.text for label in board_labels(sides61, 61)}
    assert {"skunk line 31", "30", "61"} <= texts61
    assert not any("double" in text for text in texts61)  # no double skunk in a game to 61


# --------------------------------------------------------------------------- pegs


def every_peg(layout: _BoardLayout) -> list[tuple[int, int, float, float, float]]:
    """(lane, score, x, y, radius) of every spot a peg can take: front and back pegs in every
    lane at every score from the start holes to the game hole."""
    spots = []
    for lane in range(layout.lanes):
        for score in range(layout.target + 1):
            for back in (False, True):
                spots.append((lane, score, *layout.peg(lane, score, back)))
    return spots


@pytest.mark.parametrize("name", POSITIONS)
def test_pegs_are_at_least_10_px_across_at_400_px_wide(name):
    sides, target = POSITIONS[name]
    width, _ = board_size(len(sides), target)
    for lane, score, _, _, radius in every_peg(_BoardLayout(len(sides), target)):
        across = 2 * radius * DISPLAY_WIDTH / width
        assert across >= MIN_PEG_PX, f"lane {lane} at {score}: {across:.1f} px at 400 px"


@pytest.mark.parametrize("target", [121, 61])
def test_fewer_sides_never_get_smaller_pegs(target):
    """The four-sided board's pegs grew to 10 px; the two- and three-sided boards keep pegs at
    least that big."""
    radii = [_BoardLayout(lanes, target).peg_r for lanes in (1, 2, 3, 4)]
    assert radii == sorted(radii, reverse=True)
    assert radii[-1] * 2 * SCALE >= MIN_PEG_PX


@pytest.mark.parametrize("lanes", [2, 3, 4])
@pytest.mark.parametrize("target", [121, 61])
def test_pegs_of_neighbouring_lanes_do_not_overlap(lanes, target):
    """Pegs at the same hole of neighbouring lanes (the closest two pegs of different sides
    come) keep wood between them, and each stays inside its row's band."""
    layout = _BoardLayout(lanes, target)
    for score in range(target):
        for back in (False, True):
            spots = [layout.peg(lane, score, back) for lane in range(lanes)]
            for (xa, ya, ra), (xb, yb, rb) in itertools.pairwise(spots):
                assert xa == xb
                assert yb - ya >= ra + rb + PEG_GAP, f"{score}: lanes {ya} and {yb} overlap"
            row = max(score - 1, 0) // 30
            for _, y, r in spots:
                assert layout.band_top(row) <= y - r and y + r <= layout.band_bottom(row), score


@pytest.mark.parametrize("name", POSITIONS)
def test_no_peg_covers_a_text(name):
    sides, target = POSITIONS[name]
    layout = _BoardLayout(len(sides), target)
    boxes = [(label.text, label.box()) for label in board_labels(sides, target)]
    for lane, score, x, y, r in every_peg(layout):
        for text, (left, top, right, bottom) in boxes:
            clear = x + r <= left or right <= x - r or y + r <= top or bottom <= y - r
            assert clear, f"the peg of lane {lane} at {score} covers {text!r}"


# --------------------------------------------------------------------------- golden


@pytest.mark.parametrize("name", POSITIONS)
def test_golden_board_at_400_px(name, tmp_path):
    sides, target = POSITIONS[name]
    actual = as_displayed(render_board(sides, target))
    assert actual.width == DISPLAY_WIDTH and actual.height <= DISPLAY_HEIGHT
    path = GOLDEN / f"board400_{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(f"No golden image {path.name}: run with UPDATE_GOLDEN=1 to create it")
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size} != {expected.size}"
    fraction = differing_fraction(actual, expected)
    if fraction > 0.003:
        actual.save(tmp_path / f"{name}.png")
        pytest.fail(
            f"{name} at 400 px differs from its golden image in {fraction:.2%} of its pixels; "
            f"see {tmp_path / name}.png (UPDATE_GOLDEN=1 to accept)"
        )
