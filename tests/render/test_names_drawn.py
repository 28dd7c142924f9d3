"""The pictures draw any display name: line breaks and other control characters become
spaces, invisible formatting (direction overrides, isolates) is left out, and nothing raises
(a name with a line break once made Pillow refuse the show's title, and the table stalled)."""

from __future__ import annotations

import unicodedata

import pytest

from bot.engine import parse_cards
from bot.render.board_art import board_labels, board_sides, render_board
from bot.render.cards_art import render_shows
from bot.render.drawing import fit_text, printable, wrap_text

PNG = b"\x89PNG\r\n\x1a\n"
ODD_NAMES = [
    "Ann\nLee",
    "Ann\r\nLee",
    "tab\there",
    "nul\x00byte",
    "\u202eevil",  # RIGHT-TO-LEFT OVERRIDE
    "\u2068isolated\u2069",  # as cogs.utils.names.plain_name gives a right-to-left name
    "line\u2028separator",
    "\u200bzero\u200dwidth",
]


def drawable(text: str) -> bool:
    """One line of characters that draw: no control or format characters."""
    return not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text)


@pytest.mark.parametrize("name", ODD_NAMES)
def test_the_text_functions_keep_a_name_on_one_drawable_line(name) -> None:
    assert drawable(printable(name))
    assert drawable(fit_text(name, 20, 300))
    assert all(drawable(line) for line in wrap_text(name, 20, 300))


def test_printable_spaces_line_breaks_and_drops_invisible_formatting() -> None:
    assert printable("Ann\nLee") == "Ann Lee"
    assert printable("\u2068\u202eevil\u2069") == "evil"


@pytest.mark.parametrize("name", ODD_NAMES)
def test_a_show_titled_with_any_name_is_drawn(name) -> None:
    cards = tuple(parse_cards("5H 5C JD QS"))
    [starter] = parse_cards("5D")
    png = render_shows(((f"{name}'s hand", cards, 20, "fifteens 8\npairs 2"),), starter)
    assert png.startswith(PNG)


def test_a_board_names_its_sides_drawably_and_is_drawn() -> None:
    sides = board_sides(ODD_NAMES[:4], [10, 20, 30, 40])
    assert render_board(sides, 121).startswith(PNG)
    legend = [label.text for label in board_labels(sides)]
    assert all(drawable(text) for text in legend)
    assert "Ann Lee" in legend
