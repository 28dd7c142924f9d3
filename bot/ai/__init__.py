"""Computer players and the coach: pure functions over what one seat may know.

Public API::

    choose_discard(hand, *, dealer, players=2, level="expert", seed=None) -> list[Card]
    choose_action(game, seat, *, level="standard", seed=None) -> Action   # any phase
    decide(view, *, level="standard", seed=None) -> Action                # from a SeatKnowledge
    Player(level, config).decide(view, seed=None) / .choose_action(game, seat, seed=None)
    discard_options(hand, *, dealer, players=2, partnerships=False, level="expert")
    coach.discard_advice / format_discard / discard_hint / discard_review
    coach.play_advice / play_reason / hint(game, seat)

Levels (:class:`Level`, the names stored with games): ``easy`` keeps the best-looking four
cards and lays its first safe card; ``standard`` discards by the exact expected hand plus or
minus the expected crib (shipped tables) and pegs greedily with simple defence; ``expert`` adds
a card-removal crib model, the kept cards' pegging prospects and the board position to its
discards, and pegs by sampling the unseen cards (consistent with what the others laid, their goes
and their discards) and searching the rest of the play over them, tuned by an
:class:`ExpertConfig` (:data:`EXPERT`). Every decision is made from a :class:`SeatKnowledge`
(never another hand, the crib or the pack) and is deterministic given ``seed``.

>>> from bot.engine import parse_cards
>>> sorted(choose_discard(parse_cards("5H 5C JD QS 2C 3D"), dealer=True, level="standard"))
[Card.parse('2C'), Card.parse('3D')]
"""

from . import coach
from .config import EXPERT, LEVELS, ExpertConfig, Level
from .discard import DiscardOption
from .players import Player, choose_action, choose_discard, decide, discard_options
from .view import SeatKnowledge

__all__ = [
    "EXPERT",
    "LEVELS",
    "DiscardOption",
    "ExpertConfig",
    "Level",
    "Player",
    "SeatKnowledge",
    "choose_action",
    "choose_discard",
    "coach",
    "decide",
    "discard_options",
]
