"""The store of cribbage-bot (SQLite or PostgreSQL): schema, migrations and every SQL statement
of the project.

Callers use the intent-named async methods of :class:`Store`'s repositories (``store.games``,
``store.lobbies``, ``store.standings``, ``store.matches``, ``store.settings``, ``store.players``,
``store.turns``, ``store.meta``),
never SQL or cursors; what goes wrong comes out as :mod:`db.errors`' classes, never a
driver's exception.
"""

from .errors import (
    CannotOpenDatabase,
    Conflict,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseNotWritable,
    DatabaseTooNew,
    DatabaseUnavailable,
    NotACribbageDatabase,
    StoreError,
)
from .migrations import APPLICATION_ID, LATEST_VERSION, MIGRATIONS, Migration
from .players import PLAYER_SETTING_NAMES, PlayerSettings
from .records import (
    ActionRecord,
    ActionWrite,
    DealPoints,
    Finish,
    GameRecord,
    MessageRef,
    NewGame,
    ResultRecord,
    SeatOutcome,
    SeatRecord,
)
from .store import Store

__all__ = [
    "APPLICATION_ID",
    "LATEST_VERSION",
    "MIGRATIONS",
    "PLAYER_SETTING_NAMES",
    "ActionRecord",
    "ActionWrite",
    "CannotOpenDatabase",
    "Conflict",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DatabaseFull",
    "DatabaseNotWritable",
    "DatabaseTooNew",
    "DatabaseUnavailable",
    "DealPoints",
    "Finish",
    "GameRecord",
    "MessageRef",
    "Migration",
    "NewGame",
    "NotACribbageDatabase",
    "PlayerSettings",
    "ResultRecord",
    "SeatOutcome",
    "SeatRecord",
    "Store",
    "StoreError",
]
