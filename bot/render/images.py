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

from bot.engine import Card, Claimed, CountSettled, Event, MugginsCalled, Phase, Shown, Variant
from bot.engine.muggins import pegged_for

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
    "ALT_LIMIT",
    "BoardSide",
    "HandPicture",
    "Picture",
    "ShowRow",
    "board_alt",
    "board_picture",
    "board_sides",
    "card_face",
    "card_words",
    "cards_words",
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
    "shows_alt",
    "shows_picture",
    "show_events",
    "show_rows",
    "shows_png",
    "suit_colour",
    "suit_mask",
]


# --------------------------------------------------------------------------- alt text

ALT_LIMIT = 1024  # characters of an attachment's ``description`` (Discord: Attachment Object)
_RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def card_words(card: Card) -> str:
    """A card as a screen reader should say it: ``'5 of hearts'``, ``'queen of spades'`` (a
    suit symbol is read as "black heart suit", or not at all)."""
    return f"{_RANK_WORDS.get(card.rank, str(card.rank))} of {card.suit.name.lower()}"


def cards_words(cards: Sequence[Card]) -> str:
    """``'5 of hearts, jack of clubs'`` (``'no cards'`` for none)."""
    return ", ".join(card_words(c) for c in cards) or "no cards"


def _alt(text: str) -> str:
    """``text`` cut to what Discord keeps of an attachment's description."""
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


def skunk_words(scores: Sequence[int], names: Sequence[str], variant: Variant) -> list[str]:
    """The sides a skunk threatens, once it matters: when a side has passed the skunk line
    (the last stretch of the board) and another is still below it (or below the double skunk
    line). ``['bob is below the skunk line (91)']``; none earlier, where it would be noise."""
    if max(scores, default=0) < variant.skunk_line:
        return []
    said = []
    double = variant.double_skunk_line
    for name, score in zip(names, scores, strict=True):
        if double is not None and score < double:
            said.append(f"{name} is below the double skunk line ({double})")
        elif score < variant.skunk_line:
            said.append(f"{name} is below the skunk line ({variant.skunk_line})")
    return said


def board_alt(
    game: PublicGame, names: Sequence[str], previous_scores: Sequence[int] | None = None
) -> str:
    """The board picture in words (public): each side's name and score (with what it pegged
    last, as the back peg shows), and the skunk line once it matters.

    ``'Cribbage board, game to 121: alice 84 (up 7 from 77), bob 62. bob is below the skunk
    line (91).'``"""
    sides = side_names(names, game.variant)
    before = previous_scores if previous_scores is not None else game.scores
    parts = []
    for name, score, old in zip(sides, game.scores, before, strict=True):
        gained = f" (up {score - old} from {old})" if score > old else ""
        parts.append(f"{name} {score}{gained}")
    text = f"Cribbage board, game to {game.variant.target}: {', '.join(parts)}."
    for line in skunk_words(game.scores, sides, game.variant):
        text += f" {line[0].upper()}{line[1:]}."
    return _alt(text)


def shows_alt(events: Sequence[Event], names: Sequence[str]) -> str:
    """The show picture in words (public: every card in it was shown): the starter, then each
    hand and the crib with its cards and what it pegged, and why."""
    shows = [e for e in events if isinstance(e, Shown)]
    if not shows:
        raise ValueError("Nothing was shown")
    parts = [f"The show. Starter: {card_words(shows[0].starter)}."]
    for title, cards, pegged, details in show_rows(events, names):
        why = details.replace("\n", ", ")
        points = "1 point" if pegged == 1 else f"{pegged} points"
        parts.append(f"{title}: {cards_words(cards)}; {points} ({why}).")
    return _alt(" ".join(parts))


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


def shows_png(events: Sequence[Event], names: Sequence[str]) -> bytes:
    """:func:`shows_picture`, drawn."""
    return shows_picture(events, names)()


SHOW_EVENTS = (Shown, Claimed, CountSettled, MugginsCalled)


def show_events(events: Sequence[Event]) -> list[Event]:
    """The events of ``events`` that :func:`shows_picture` reads (keep them for a deal's show)."""
    return [e for e in events if isinstance(e, SHOW_EVENTS)]


def shows_picture(events: Sequence[Event], names: Sequence[str]) -> Picture:
    """The show of a deal from its events (its ``Shown`` ones, in the order given, crib last;
    any other event is read only in muggins: see :func:`show_rows`)."""
    shows = [e for e in events if isinstance(e, Shown)]
    if not shows:
        raise ValueError("Nothing was shown")
    return partial(render_shows, show_rows(events, names), shows[0].starter)


def show_rows(events: Sequence[Event], names: Sequence[str]) -> tuple[ShowRow, ...]:
    """One row per ``Shown`` in ``events``: whose cards, which, what they pegged, and details.

    Counted by the bot, a hand pegs its count and the details are the points by kind. In a
    muggins show a hand pegs what its owner's claim earned (``pegged_for``) and the details
    say what was claimed and, once its window has closed (``CountSettled``), what the cards
    were worth and what became of any points missed: taken by muggins (and by whom), or
    lost. Until then the true count stays off the picture.
    """
    rows: list[ShowRow] = []
    claims: dict[tuple[int, bool], int] = {}
    settled: dict[tuple[int, bool], CountSettled] = {}
    takers: dict[tuple[int, bool], MugginsCalled] = {}
    caller: MugginsCalled | None = None
    for event in events:
        if isinstance(event, Claimed):
            claims[event.seat, event.crib] = event.points
        elif isinstance(event, MugginsCalled):
            caller = event
        elif isinstance(event, CountSettled):
            settled[event.seat, event.crib] = event
            if caller is not None:
                takers[event.seat, event.crib] = caller
            caller = None
    for shown in (e for e in events if isinstance(e, Shown)):
        key = (shown.seat, shown.crib)
        title = f"{names[shown.seat]}'s {'crib' if shown.crib else 'hand'}"
        cards = tuple(sorted(shown.cards))
        total = shown.breakdown.total
        if key not in claims:  # counted by the bot
            rows.append((title, cards, total, breakdown_summary(shown.breakdown)))
            continue
        claim = claims[key]
        pegged = pegged_for(claim, total)
        if key not in settled:  # its window is open: the claim is all that is known
            rows.append((title, cards, pegged, f"claimed {claim}\nopen to muggins"))
            continue
        missed = settled[key].missed
        taker = takers.get(key)
        took = f"{names[taker.seat]} took {missed}" if taker is not None and missed else ""
        if claim == total:
            verdict = "counted right"
        elif claim > total:
            verdict = f"over by {claim - total}: " + (took or f"{missed} off")
        else:
            verdict = f"muggins: {took}" if took else f"{missed} missed"
        rows.append((title, cards, pegged, f"claimed {claim} · worth {total}\n{verdict}"))
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A hand to draw (see :func:`render_hand`): its cards, those greyed out, the starter.
    Equal pictures draw the same PNG, so a message already showing this one needs no new upload.

    ``title`` says what the cards are ("Your hand - lay away 2"); the hand message's text says
    it, so it is neither drawn nor in the alt text or the file name: a hand whose heading
    changes while its cards do not keeps the picture it has (no new upload, no flicker)."""

    cards: tuple[Card, ...]
    dimmed: frozenset[Card] = frozenset()
    title: str = ""
    starter: Card | None = None  # drawn after the cards (in the show)

    def __call__(self) -> bytes:
        return render_hand(self.cards, self.dimmed, "", self.starter)

    @property
    def alt(self) -> str:
        """PRIVATE: the picture in words (it names the cards: its owner's message only).
        ``'Cards: 5 of hearts, jack of clubs. Greyed out (past 31): king of spades.'``"""
        text = f"Cards: {cards_words(self.cards)}."
        if self.starter is not None:
            text += f" Starter: {card_words(self.starter)}."
        dimmed = [c for c in self.cards if c in self.dimmed]
        if dimmed and len(dimmed) == len(self.cards):
            text += " All greyed out: all laid."
        elif dimmed:
            text += f" Greyed out (past 31): {cards_words(dimmed)}."
        return _alt(text)

    @property
    def filename(self) -> str:
        """An attachment name that tells which picture a message shows ("hand-1a2b3c4d5e6f.png")."""
        key = (
            " ".join(c.code for c in self.cards)
            + "|"
            + " ".join(sorted(c.code for c in self.dimmed))
            + ("" if self.starter is None else "|+" + self.starter.code)
        )
        digest = hashlib.blake2s(key.encode(), digest_size=6).hexdigest()
        return f"hand-{digest}.png"


def hand_picture(
    game: SeatGame, seat: int, *, counting: Sequence[Card] = (), crib: bool = False
) -> HandPicture:
    """PRIVATE: ``seat``'s cards as a picture for its ephemeral message.

    While laying away: the cards dealt. Then the kept hand, and from the cut to the show the
    kept hand with the starter: the hand the seat will count. The play does not change it (the
    message's text and its buttons say which cards are still held, which would pass 31, whose
    turn it is and the count), so the picture a player looks at stays put through the play
    and needs no new upload until the next deal. In a muggins show, while the seat must count
    (``counting``: its hand, or with ``crib`` the crib, as its
    :class:`~bot.sessions.PrivateView` gives them): those cards and the starter.
    """
    starter = game.starter
    if counting and game.phase is Phase.SHOW:
        whose = "crib" if crib else "hand"
        return HandPicture(
            tuple(counting), frozenset(), f"Count your {whose} + the starter", starter
        )
    held = tuple(game.hand(seat))
    if game.phase is Phase.DISCARD and seat in game.to_act:
        n = game.variant.discards
        return HandPicture(held, frozenset(), f"Your hand - lay away {n}")
    kept = tuple(game.kept(seat)) or held
    if not kept:
        raise ValueError("This seat holds no cards yet")
    if starter is not None and len(kept) < 6:
        return HandPicture(kept, frozenset(), "You kept + the starter", starter)
    return HandPicture(kept, frozenset(), "You kept")


def game_hand_png(game: SeatGame, seat: int) -> bytes:
    """:func:`hand_picture`, drawn."""
    return hand_picture(game, seat)()


def warm_up() -> None:
    """Load what every picture needs (fonts, card sprites, the board's wood, each kind's
    palette) by drawing a hand, a board and a show once: a fresh painter's first real picture
    then costs what any other does."""
    cards = tuple(Card.parse(code) for code in ("AS", "5H", "10D", "JC", "KS", "7H"))
    HandPicture(cards, frozenset(cards[:1]), "Your hand")()
    render_board(board_sides(("Alice", "Bob"), (0, 0), None), 121)
    render_shows((("Alice's hand", cards[:4], 12, "fifteens 8 · runs 4"),), cards[4])
