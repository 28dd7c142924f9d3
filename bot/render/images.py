"""Pictures with Pillow: the cribbage board, a hand of cards, a counted show. PNG bytes out.

Every renderer is pure and cached (``functools.lru_cache``) on hashable inputs, so re-drawing
an unchanged board costs a dictionary lookup. Images are drawn at twice their size and reduced,
which gives smooth edges without any font or shape anti-aliasing of our own. Text uses only
Pillow's built-in font (no font files needed); the suit symbols are drawn as shapes because
that font has no ♠♥♦♣ glyphs.

This module is the entry point: it turns engine values (a game, ``Shown`` events) into
pictures, and re-exports the drawing done elsewhere —

* :mod:`bot.render.drawing`: supersampling, the font, ``printable``, PNG encoding;
* :mod:`bot.render.board_art`: the board track and pegs (``render_board``, ``board_sides``);
* :mod:`bot.render.cards_art`: suits, card faces and sprites, and the pictures made of cards
  (``render_hand``, ``hand_png``, ``render_show``, ``render_shows``).

The pictures made from a game come drawn (``game_board_png``...) or as a :data:`Picture` to draw
later (``board_picture``, ``hand_picture``, ``shows_picture``): the bot reads the game on its
event loop and draws in a painter process (``cogs/pictures.py``), so one table's drawing never
holds up another's click.

>>> png = render_board((("Alice", 0, 84, 77), ("Bob", 1, 62, 62)), 121)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from bot.engine import Card, Phase, Shown

from .board_art import (
    FINISH_R,
    GROUP_GAP,
    HOLE,
    HOLE_DX,
    HOLE_R,
    HOLES_PER_ROW,
    INK,
    LANE_DY,
    MUTED,
    PEG_R,
    SKUNK,
    TRACK,
    TRACK_LEFT,
    WOOD,
    BoardSide,
    board_sides,
    hole_index,
    render_board,
)
from .cards_art import (
    BLACK_SUIT,
    CARD_EDGE,
    CARD_FACE,
    CARD_GAP,
    CARD_H,
    CARD_W,
    MARGIN,
    RED_SUIT,
    TABLE,
    TABLE_INK,
    ShowRow,
    card_face,
    card_sprite,
    hand_png,
    render_hand,
    render_show,
    render_shows,
    suit_colour,
    suit_mask,
)
from .drawing import SS, WIDTH, font, printable
from .shapes import PublicGame, SeatGame
from .text import breakdown_summary, side_names

__all__ = [
    "BLACK_SUIT",
    "CARD_EDGE",
    "CARD_FACE",
    "CARD_GAP",
    "CARD_H",
    "CARD_W",
    "FINISH_R",
    "GROUP_GAP",
    "HOLE",
    "HOLES_PER_ROW",
    "HOLE_DX",
    "HOLE_R",
    "INK",
    "LANE_DY",
    "MARGIN",
    "MUTED",
    "PEG_R",
    "RED_SUIT",
    "SKUNK",
    "SS",
    "TABLE",
    "TABLE_INK",
    "TRACK",
    "TRACK_LEFT",
    "WIDTH",
    "WOOD",
    "BoardSide",
    "HandPicture",
    "Picture",
    "ShowRow",
    "board_picture",
    "board_sides",
    "card_face",
    "card_sprite",
    "font",
    "game_board_png",
    "game_hand_png",
    "hand_picture",
    "hand_png",
    "hole_index",
    "printable",
    "render_board",
    "render_hand",
    "render_show",
    "render_shows",
    "show_png",
    "shows_picture",
    "shows_png",
    "suit_colour",
    "suit_mask",
]


# --------------------------------------------------------------------------- from engine values


Picture = Callable[[], bytes]
"""A picture to draw: every input already read from the game, so calling it (in any thread)
touches nothing but its own frozen arguments and the renderers' caches."""


def board_picture(
    game: PublicGame, names: Sequence[str], previous_scores: Sequence[int] | None = None
) -> Picture:
    """The board of ``game`` (``names`` per seat; sides named and coloured by side index).

    ``previous_scores`` places the back pegs: keep the scores from before the last peg."""
    sides = board_sides(side_names(names, game.variant), game.scores, previous_scores)
    return partial(render_board, sides, game.variant.target)


def game_board_png(
    game: PublicGame, names: Sequence[str], previous_scores: Sequence[int] | None = None
) -> bytes:
    """:func:`board_picture`, drawn."""
    return board_picture(game, names, previous_scores)()


def show_png(shown: Shown, names: Sequence[str]) -> bytes:
    """One hand or crib of the show, from its ``Shown`` event (public by then)."""
    whose = "crib" if shown.crib else "hand"
    title = f"{names[shown.seat]}'s {whose} - {shown.breakdown.total}"
    return render_show(tuple(sorted(shown.cards)), shown.starter, title, shown.breakdown.announce())


def shows_png(shows: Sequence[Shown], names: Sequence[str]) -> bytes:
    """:func:`shows_picture`, drawn."""
    return shows_picture(shows, names)()


def shows_picture(shows: Sequence[Shown], names: Sequence[str]) -> Picture:
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
    return partial(render_shows, rows, shows[0].starter)


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A hand to draw (see :func:`render_hand`); equal pictures draw the same PNG, so a message
    already showing this one needs no new upload."""

    cards: tuple[Card, ...]
    dimmed: frozenset[Card] = frozenset()
    title: str = ""

    def __call__(self) -> bytes:
        return render_hand(self.cards, self.dimmed, self.title)

    @property
    def filename(self) -> str:
        """An attachment name that tells which picture a message shows ("hand-1a2b3c4d5e6f.png")."""
        key = (
            " ".join(c.code for c in self.cards)
            + "|"
            + " ".join(sorted(c.code for c in self.dimmed))
        )
        digest = hashlib.blake2s(f"{key}|{self.title}".encode(), digest_size=6).hexdigest()
        return f"hand-{digest}.png"


def hand_picture(game: SeatGame, seat: int) -> HandPicture:
    """PRIVATE: ``seat``'s cards as a picture for its ephemeral message.

    While laying away: the cards dealt. In the play: the cards still held, with those that
    would pass 31 dimmed when it is the seat's turn (all laid: the kept cards, dimmed); the
    message's text says whose turn it is and the count, so the picture only changes when the
    cards or the dimming do (and the hand redrawn when the turn comes needs no new upload).
    Otherwise: the kept hand.
    """
    held = tuple(game.hand(seat))
    if game.phase is Phase.PLAY:
        if not held:
            kept = tuple(game.kept(seat))
            return HandPicture(kept, frozenset(kept), "All your cards are laid")
        dimmed: frozenset[Card] = frozenset()
        if seat in game.to_act:
            dimmed = frozenset(c for c in held if game.count + c.value > 31)
        return HandPicture(held, dimmed, "Your hand")
    if game.phase is Phase.DISCARD and seat in game.to_act:
        n = game.variant.discards
        return HandPicture(held, frozenset(), f"Your hand - lay away {n}")
    kept = tuple(game.kept(seat)) or held
    if not kept:
        raise ValueError("This seat holds no cards yet")
    return HandPicture(kept, frozenset(), "You kept")


def game_hand_png(game: SeatGame, seat: int) -> bytes:
    """:func:`hand_picture`, drawn."""
    return hand_picture(game, seat)()


def warm_up() -> None:
    """Load what every picture needs (fonts, card sprites, the board's wood) by drawing a hand
    and a board once: a fresh worker's first real picture then takes its usual few ms."""
    cards = tuple(Card.parse(code) for code in ("AS", "5H", "10D", "JC", "KS", "7H"))
    HandPicture(cards, frozenset(cards[:1]), "Your hand")()
    render_board(board_sides(("Alice", "Bob"), (0, 0), None), 121)
