"""cribbage-bot's rules engine: pure Python, no I/O, deterministic from (variant, seed, actions).

>>> from bot.engine import Game, Variant, Card, score_show
>>> score_show([Card.parse(c) for c in ("5H", "5C", "5S", "JD")], Card.parse("5D")).total
29
"""

from .actions import (
    Action,
    Claim,
    Cut,
    Discard,
    LetGo,
    Muggins,
    NextDeal,
    Play,
    action_from_dict,
)
from .cards import FULL_PACK, Card, Suit, card_from_code, parse_cards, rank_name
from .events import (
    Claimed,
    CountReset,
    CountSettled,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    MugginsCalled,
    Played,
    ReadyForDeal,
    Scored,
    ScoreReason,
    Shown,
    StarterCut,
)
from .game import Game
from .phase import IllegalAction, Phase
from .scoring import Breakdown, ScoreItem, ScoreKind, score_pegging, score_show, show_points
from .variant import Variant

__all__ = [
    "FULL_PACK",
    "Action",
    "Breakdown",
    "Card",
    "Claim",
    "Claimed",
    "CountReset",
    "CountSettled",
    "Cut",
    "CutForDeal",
    "CutTied",
    "DealerChosen",
    "Dealt",
    "Discard",
    "Discarded",
    "Event",
    "Game",
    "GameOver",
    "Go",
    "IllegalAction",
    "LetGo",
    "Muggins",
    "MugginsCalled",
    "NextDeal",
    "Phase",
    "Play",
    "Played",
    "ReadyForDeal",
    "ScoreItem",
    "ScoreKind",
    "ScoreReason",
    "Scored",
    "Shown",
    "StarterCut",
    "Suit",
    "Variant",
    "action_from_dict",
    "card_from_code",
    "parse_cards",
    "rank_name",
    "score_pegging",
    "score_show",
    "show_points",
]
