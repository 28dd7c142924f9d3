"""Computer players, as the session manager sees them: ``strategy(game, seat, level) -> Action``.

The app plugs in ``bot.ai.choose_action``; :func:`simple_strategy` is the built-in fallback
(and what the manager uses when a strategy fails or answers something illegal).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from bot.engine import Action, Game

Strategy = Callable[[Game, int, str], Action]
"""``(game, seat, level) -> action``. Gets a private copy of the game; may take a while (it
runs in a worker thread); must return one of ``game.legal_actions(seat)``."""


def simple_strategy(game: Game, seat: int, level: str) -> Action:
    """A legal action picked at random, reproducibly for a given position (``level`` ignored).

    >>> from bot.engine import Variant
    >>> game = Game.new(Variant(), seed=1, first_dealer=0)
    >>> simple_strategy(game, 1, "easy") in game.legal_actions(1)
    True
    """
    actions = game.legal_actions(seat)
    if not actions:
        raise ValueError(f"Seat {seat} has nothing to do now")
    position = f"{game.seed}:{game.deal_number}:{game.phase.value}:{len(game.played)}:{seat}"
    digest = hashlib.blake2b(position.encode(), digest_size=8).digest()
    return random.Random(digest).choice(actions)
