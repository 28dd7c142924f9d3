"""Game sessions: the layer between the Discord cogs and the engine + store.

:class:`GameSessionManager` owns every live game; cogs call its small async API and get back
typed values (:class:`Outcome`, :class:`GameView`, :class:`PrivateView`) or a
:class:`Refusal` whose message is fit to show the user who clicked. Every result has ``.ok``.

A cog, in outline::

    store = await Store.open(config.database)                     # setup_hook
    manager = GameSessionManager(store, strategy=play_for_computer, coach=hint)
    report = await manager.resume()          # render report.outcomes (computers moved on)

    lobby = await manager.create_lobby(guild_id=g, channel_id=c, host_id=u, variant=Variant(2))
    if not lobby.ok:
        return await reply(lobby.message, ephemeral=True)
    await manager.set_message(lobby.game_id, "lobby", c, sent.id)

    mine = manager.private_view(game_id, user)   # "Your hand": cards, legal actions, step
    result = await manager.act(game_id, user, Play(card), step=step_from_custom_id)
    if not result.ok:
        return await reply(result.message, ephemeral=True)
    render(result.events, result.view)           # public: events and view hide no card
    update_hands(result.hands)                   # each player's own view, to that player only
    ping(result.to_act_users); if result.finished: announce(result.finished)

    outcomes = await manager.start_due_deals()   # every 2 s: deals whose pause ran out
    report = await manager.sweep_idle()          # every few minutes: warnings, abandons
    await store.close()                          # on shutdown, after the cogs stopped
"""

from db.players import PLAYER_SETTING_NAMES, PlayerSettings

from .door import MAX_GAME_ID, Door, Place, known_game_id
from .history import DealReplay, Replay, ReplayStep
from .manager import GameSessionManager
from .matchplay import BEST_OF, MatchView, RematchView
from .play import STALE_MESSAGE
from .settings import MAX_TURN_MINUTES, SETTING_NAMES, ServerSettings
from .strategy import Strategy, simple_strategy
from .timers import FORFEIT_AFTER, SWEEP_TURNS_EVERY, Turn, TurnReminder, TurnReport
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
    TimedOut,
)

__all__ = [
    "BEST_OF",
    "FORFEIT_AFTER",
    "LEVELS",
    "MAX_GAME_ID",
    "MAX_TURN_MINUTES",
    "PLAYER_SETTING_NAMES",
    "SETTING_NAMES",
    "STALE_MESSAGE",
    "SWEEP_TURNS_EVERY",
    "DealReplay",
    "Door",
    "Finished",
    "GameSessionManager",
    "GameStatus",
    "GameView",
    "IdleWarning",
    "Level",
    "MatchView",
    "Outcome",
    "Place",
    "PlayerSettings",
    "PrivateView",
    "Refusal",
    "RefusalReason",
    "RematchView",
    "Replay",
    "ReplayStep",
    "ResumeReport",
    "SeatView",
    "ServerSettings",
    "StepEvent",
    "Strategy",
    "SweepReport",
    "TimedOut",
    "Turn",
    "TurnReminder",
    "TurnReport",
    "known_game_id",
    "simple_strategy",
]
