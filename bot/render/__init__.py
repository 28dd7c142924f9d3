"""Rendering: engine state and events in; text, embeds and PNG bytes out. No I/O.

The cogs never format cards or scores themselves; they call these pure functions. Seats are
named by ``names``: one display name per seat (``["Alice", "Computer (expert)"]``); a side is
named after its players (``"Alice & Carol"`` in partnerships). Side ``i`` always has colour
``i`` (:mod:`bot.render.palette`, colour-blind friendly).

**Plain values.** A renderer takes engine values and plain records, never the session manager
or the store: a game is anything shaped like :class:`~bot.render.shapes.PublicGame` (or, for a
hand, :class:`~bot.render.shapes.SeatGame`), which the engine's ``Game`` is, and so is a
read-only view of one with the same names; likewise the structural types of
:mod:`bot.render.matches`, :mod:`bot.render.standings`, :mod:`bot.render.settings` and
:mod:`bot.render.timers`. Seats score for sides by the engine's one rule,
:meth:`Variant.side_of <bot.engine.Variant.side_of>`.

**Privacy.** Public renderers read only events (which carry no hidden card) and the public
parts of a :class:`~bot.engine.Game` (scores, dealer, phase, whose turn, count, pile, starter).
Only :func:`hand_text`, :func:`game_hand_png` and :func:`render_hand`/:func:`hand_png` show a
hand: send their output ephemerally to that player alone.

Text (:mod:`bot.render.text`) — markdown strings::

    card_text(card, *, emoji=False) -> str                  "10♥" / "10♥️"
    cards_text(cards, *, emoji=False, sort=False) -> str    "5♥ 5♣ J♦ Q♠"
    hand_line(cards, *, emoji=False) -> str                 sorted by rank
    breakdown_summary(breakdown) -> str                     "fifteens 8 · pairs 2 · runs 6"
    side_name(side, names, variant) / side_names(names, variant)
    story_lines(events, names, variant) -> list[str]        the table talk of what happened
    chunk(lines, limit=2000) -> list[str]                   messages of at most 2000 characters
    board_text(game, names) -> str                          scores with bars, turn, the count
    status_text(game, names) -> str                         "Alice to play"
    hand_text(game, seat, names, *, emoji=False) -> str     PRIVATE: your cards, what to do now
    discard_prompt(game, seat, names) -> str                "Lay away 2 cards to Bob's crib"
    rules_text(variant=None) -> str / help_text(commands=HELP_COMMANDS) -> str

Embeds (:mod:`bot.render.embeds`) — ``discord.Embed`` within every Discord limit::

    lobby_embed(variant, seats, host, *, instructions=None)      seats: name or None (open)
    game_embed(game, names, *, story=(), board_image=None, thumbnail=False)
    show_embed(shows, names, variant, *, image=None)             shows: the deal's Shown events
    result_embed(game_over, names, variant, *, image=None)
    rules_embed(variant=None) / help_embed() / fit_embed(embed)

Images (:mod:`bot.render.images`) — PNG bytes, cached, ~800 px wide, well under 100 KB::

    render_board(sides, target=121)     sides: ((name, colour_index, score, previous), ...)
    game_board_png(game, names, previous_scores=None)
    render_hand(cards, dimmed=frozenset(), title="") / hand_png(cards, dimmed=(), title="")
    game_hand_png(game, seat)           PRIVATE: the seat's cards as its hand message shows them
    render_show(cards, starter, title="", caption="") / show_png(shown, names)
    render_shows(rows, starter) / shows_png(shows, names)    a whole deal's show, one image

Example: after ``events = game.apply(seat, action)`` a cog does::

    lines = story_lines(events, names, game.variant)
    for message in chunk(lines):
        await channel.send(message, allowed_mentions=discord.AllowedMentions.none())
    png = game_board_png(game, names, previous_scores)
    embed = game_embed(game, names, story=recent_lines, board_image="board.png")
    await game_message.edit(embed=embed, attachments=[discord.File(io.BytesIO(png), "board.png")])
    shows = [e for e in events if isinstance(e, Shown)]
    if shows:  # the deal's show: one embed, one picture
        await channel.send(embed=show_embed(shows, names, game.variant, image="show.png"),
                           file=discord.File(io.BytesIO(shows_png(shows, names)), "show.png"))
"""

from .embeds import (
    fit_embed,
    game_embed,
    help_embed,
    lobby_embed,
    result_embed,
    rules_embed,
    show_embed,
)
from .images import (
    board_sides,
    game_board_png,
    game_hand_png,
    hand_png,
    render_board,
    render_hand,
    render_show,
    render_shows,
    show_png,
    shows_png,
)
from .palette import SIDE_COLOURS, side_colour, side_colour_int
from .shapes import PublicGame, SeatGame
from .text import (
    board_text,
    breakdown_summary,
    card_text,
    cards_text,
    chunk,
    discard_prompt,
    game_over_line,
    hand_line,
    hand_text,
    help_text,
    rules_text,
    side_name,
    side_names,
    status_text,
    story_lines,
)

__all__ = [
    "SIDE_COLOURS",
    "PublicGame",
    "SeatGame",
    "board_sides",
    "board_text",
    "breakdown_summary",
    "card_text",
    "cards_text",
    "chunk",
    "discard_prompt",
    "fit_embed",
    "game_board_png",
    "game_embed",
    "game_hand_png",
    "game_over_line",
    "hand_line",
    "hand_png",
    "hand_text",
    "help_embed",
    "help_text",
    "lobby_embed",
    "render_board",
    "render_hand",
    "render_show",
    "render_shows",
    "result_embed",
    "rules_embed",
    "rules_text",
    "show_embed",
    "show_png",
    "shows_png",
    "side_colour",
    "side_colour_int",
    "side_name",
    "side_names",
    "status_text",
    "story_lines",
]
