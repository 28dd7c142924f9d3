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

>>> png = render_board((("Alice", 0, 84, 77), ("Bob", 1, 62, 62)), 121)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Game, Phase, Shown

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
    "ShowRow",
    "board_sides",
    "card_face",
    "card_sprite",
    "font",
    "game_board_png",
    "game_hand_png",
    "hand_png",
    "hole_index",
    "printable",
    "render_board",
    "render_hand",
    "render_show",
    "render_shows",
    "show_png",
    "shows_png",
    "suit_colour",
    "suit_mask",
]


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
