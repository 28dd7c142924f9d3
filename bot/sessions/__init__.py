"""Game sessions: the layer between the Discord cogs and the engine + store.

:class:`GameSessionManager` builds the parts that own the live games; a cog hands each click
or command, as one typed request (:mod:`.requests`, made at a :class:`Place`), to the part that
owns it, and gets back typed values (:class:`Outcome`, :class:`GameView`,
:class:`PrivateView`) or a :class:`Refusal` whose message is fit to show the user who clicked.
Every result has ``.ok``.

A cog, in outline::

    store = await Store.open(config.database)                     # setup_hook
    manager = GameSessionManager(store, strategy=play_for_computer, coach=hint)
    report = await manager.resume()          # render report.outcomes (computers moved on)

    here = Place(guild_id, channel_id)       # where the interaction was made
    lobby = await manager.lobbies.open(OpenLobby(g, c, host_id=u, variant=Variant(2)))
    if not lobby.ok:
        return await reply(lobby.message, ephemeral=True)
    await manager.records.set_message(lobby.game_id, "lobby", c, sent.id)

    mine = manager.hands.private_view(ShowHand(game_id, user, where=here))  # "Your hand"
    result = await manager.play.act(Move(game_id, user, Play(card), step=step, where=here))
    if not result.ok:
        return await reply(result.message, ephemeral=True)
    render(result.events, result.view)           # public: events and view hide no card
    update_hands(result.hands)                   # each player's own view, to that player only
    ping(result.to_act_users); if result.finished: announce(result.finished)

    outcomes = await manager.deals.start_due()   # every 2 s: deals whose pause ran out
    report = await manager.idle.sweep()          # every few minutes: warnings, abandons
    manager.shutdown(); await store.close()      # on shutdown, after the cogs stopped
"""

from db.players import PLAYER_SETTING_NAMES, PlayerSettings

from .guard import OTHER_PROCESS, STALE_MESSAGE
from .history import DealReplay, Replay, ReplayStep
from .live import LiveTables, TableView
from .manager import GameSessionManager
from .matchplay import BEST_OF, MatchView, RematchView
from .requests import (
    MAX_GAME_ID,
    AcceptRematch,
    AddComputer,
    AskCoach,
    AskRematch,
    Cancel,
    ChangeVariant,
    DeclineRematch,
    Forfeit,
    Join,
    Leave,
    Move,
    OpenLobby,
    Place,
    RemoveComputer,
    Request,
    ShowHand,
    Start,
    known_game_id,
)
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
    "OTHER_PROCESS",
    "PLAYER_SETTING_NAMES",
    "SETTING_NAMES",
    "STALE_MESSAGE",
    "SWEEP_TURNS_EVERY",
    "AcceptRematch",
    "AddComputer",
    "AskCoach",
    "AskRematch",
    "Cancel",
    "ChangeVariant",
    "DealReplay",
    "DeclineRematch",
    "Finished",
    "Forfeit",
    "GameSessionManager",
    "GameStatus",
    "GameView",
    "IdleWarning",
    "Join",
    "Leave",
    "Level",
    "LiveTables",
    "MatchView",
    "Move",
    "OpenLobby",
    "Outcome",
    "Place",
    "PlayerSettings",
    "PrivateView",
    "Refusal",
    "RefusalReason",
    "RematchView",
    "RemoveComputer",
    "Replay",
    "ReplayStep",
    "Request",
    "ResumeReport",
    "SeatView",
    "ServerSettings",
    "ShowHand",
    "Start",
    "StepEvent",
    "Strategy",
    "SweepReport",
    "TableView",
    "TimedOut",
    "Turn",
    "TurnReminder",
    "TurnReport",
    "known_game_id",
    "simple_strategy",
]
