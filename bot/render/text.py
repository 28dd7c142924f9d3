"""Table talk: cards, the story of a game, the text board, the private hand, rules and help.

Everything here is a pure function from engine values to Discord-flavoured markdown strings.
Public renderers (``story_lines``, ``board_text``) never read a hand, the crib or the pack: the
story is made only from events (which carry no hidden card) and the board only from the public
parts of the game (scores, dealer, phase, whose turn, the count, the cards laid, the starter).
``hand_text`` is the one private renderer: its output belongs in an ephemeral message.

This module gathers the text renderers, which live by purpose in

* :mod:`bot.render.words`: names, sides, cards, lists, points, ``breakdown_summary``;
* :mod:`bot.render.story`: ``story_lines``, ``tell``, ``game_over_line``, ``chunk``;
* :mod:`bot.render.table_text`: ``board_text``, ``status_text``, the score lines, ``hand_text``,
  ``discard_prompt``;
* :mod:`bot.render.rules_help`: ``rules_text``, ``help_text``.

>>> from bot.engine import Card, Variant, Played, score_pegging, parse_cards
>>> hand_line(parse_cards("QS 5H JD 5C"))
'5♣ 5♥ J♦ Q♠'
>>> pile = parse_cards("7H 8D")
>>> story_lines([Played(0, pile[-1], 15, score_pegging(pile))], ["Alice", "Bob"], Variant())
['**Alice** plays 8♦ — count 15 — fifteen for two']
"""

from __future__ import annotations

from .rules_help import HELP_COMMANDS, RULES_TEXT, help_text, rules_text
from .story import MESSAGE_LIMIT, chunk, game_over_line, story_lines, tell
from .table_text import (
    BAR_CELLS,
    BAR_EMPTY,
    BAR_FULL,
    BAR_SKUNK,
    board_text,
    discard_prompt,
    hand_text,
    pile_text,
    score_bar,
    score_lines,
    skunk_text,
    status_text,
)
from .words import (
    SUIT_EMOJI,
    breakdown_summary,
    card_text,
    cards_text,
    escape,
    hand_line,
    points_text,
    side_name,
    side_names,
)

__all__ = [
    "BAR_CELLS",
    "BAR_EMPTY",
    "BAR_FULL",
    "BAR_SKUNK",
    "HELP_COMMANDS",
    "MESSAGE_LIMIT",
    "RULES_TEXT",
    "SUIT_EMOJI",
    "board_text",
    "breakdown_summary",
    "card_text",
    "cards_text",
    "chunk",
    "discard_prompt",
    "escape",
    "game_over_line",
    "hand_line",
    "hand_text",
    "help_text",
    "pile_text",
    "points_text",
    "rules_text",
    "score_bar",
    "score_lines",
    "side_name",
    "side_names",
    "skunk_text",
    "status_text",
    "story_lines",
    "tell",
]
