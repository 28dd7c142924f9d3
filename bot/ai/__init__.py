"""Computer players and the coach: pure functions over what one seat may know.

>>> from bot.engine import parse_cards
>>> sorted(choose_discard(parse_cards("5H 5C JD QS 2C 3D"), dealer=True, level="standard"))
[Card.parse('2C'), Card.parse('3D')]
"""

from . import coach
from .discard import LEVELS, DiscardOption
from .players import choose_action, choose_discard, decide, discard_options
from .view import SeatView

__all__ = [
    "LEVELS",
    "DiscardOption",
    "SeatView",
    "choose_action",
    "choose_discard",
    "coach",
    "decide",
    "discard_options",
]
