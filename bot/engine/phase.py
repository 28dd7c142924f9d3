"""The phases of a game, the error for illegal actions, and the ACC's cut rule."""

from __future__ import annotations

import enum

MIN_CUT = 4  # ACC: a cut leaves at least four cards on each side


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is fit to show the player."""


class Phase(enum.Enum):
    CUT_FOR_DEAL = "cut for deal"
    DISCARD = "discard"
    CUT_FOR_STARTER = "cut for starter"
    PLAY = "play"
    SHOW = "show"  # only with muggins: each hand's owner claims its count (bot.engine.muggins)
    NEXT_DEAL = "next deal"  # only with the hold: the seats say ready (bot.engine.nextdeal)
    GAME_OVER = "game over"
