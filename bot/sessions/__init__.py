"""Game sessions: the layer between the Discord cogs and the engine + store.

:class:`GameSessionManager` owns every live game; cogs call its small async API and get back
typed values (:class:`Outcome`, :class:`GameView`, :class:`PrivateView`) or a
:class:`Refusal` whose message is fit to show the user who clicked.
"""

from .history import DealReplay, Replay, ReplayStep
from .manager import STALE_MESSAGE, GameSessionManager
from .strategy import Strategy, simple_strategy
from .views import (
    LEVELS,
    Finished,
    GameStatus,
    GameView,
    IdleWarning,
    Level,
    Outcome,
    PrivateView,
    Refusal,
    RefusalReason,
    ResumeReport,
    SeatView,
    StepEvent,
    SweepReport,
)

__all__ = [
    "LEVELS",
    "STALE_MESSAGE",
    "DealReplay",
    "Finished",
    "GameSessionManager",
    "GameStatus",
    "GameView",
    "IdleWarning",
    "Level",
    "Outcome",
    "PrivateView",
    "Refusal",
    "RefusalReason",
    "Replay",
    "ReplayStep",
    "ResumeReport",
    "SeatView",
    "StepEvent",
    "Strategy",
    "SweepReport",
    "simple_strategy",
]
