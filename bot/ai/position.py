"""Board position: near the end of a game, points matter less than getting there first.

For now a placeholder that keeps the expected-value order (extended below when measured).
"""

from __future__ import annotations

from .discard import DiscardOption
from .view import SeatView


def position_adjusted(options: list[DiscardOption], view: SeatView) -> list[DiscardOption]:
    return options
