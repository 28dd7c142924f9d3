"""The SQLite store of cribbage-bot: schema, migrations and every SQL statement of the project.

Callers use :class:`Store`'s intent-named async methods, never SQL or cursors.
"""

from .errors import Conflict, DatabaseTooNew, NotACribbageDatabase, StoreError
from .migrations import APPLICATION_ID, LATEST_VERSION, MIGRATIONS, Migration
from .records import (
    ActionRecord,
    ActionWrite,
    DealPoints,
    Finish,
    GameRecord,
    MessageRef,
    ResultRecord,
    SeatOutcome,
    SeatRecord,
)
from .store import Store

__all__ = [
    "APPLICATION_ID",
    "LATEST_VERSION",
    "MIGRATIONS",
    "ActionRecord",
    "ActionWrite",
    "Conflict",
    "DatabaseTooNew",
    "DealPoints",
    "Finish",
    "GameRecord",
    "MessageRef",
    "Migration",
    "NotACribbageDatabase",
    "ResultRecord",
    "SeatOutcome",
    "SeatRecord",
    "Store",
    "StoreError",
]
