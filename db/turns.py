"""What the turn timers must remember across a restart: the repository ``store.turns``.

A *turn* is one seat having to act, from the step at which it started to (its ``ready`` step;
see :func:`bot.sessions.bookkeeping.next_ready`). Its deadline is derived from the log: the time
that step was committed plus the server's turn time, so nothing is written while people play.
Only two facts are written, in ``turn_marks``: a reminder was sent for a turn, and a turn ran
out (the computer played it, or the seat forfeited). A turn is marked at most once for each, so
marking again after a crash changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite

from . import schema as t
from .connection import Database, Dialect

_m = t.turn_marks.c
_MARKS = (
    select(_m.seat, _m.turn_step, _m.reminded_at, _m.expired_at)
    .where(_m.game_id == bindparam("game"))
    .order_by(_m.turn_step, _m.seat)
)
_STARTED_AT = select(t.games.c.started_at).where(t.games.c.id == bindparam("game"))
_STEP_AT = select(t.actions.c.created_at).where(
    t.actions.c.game_id == bindparam("game"), t.actions.c.seq == bindparam("step")
)


def _mark(dialect_insert: Any) -> Insert:
    """A turn's mark, or the times it lacks added to the one already there (a time already
    stored is kept)."""
    statement = dialect_insert(t.turn_marks).values(
        game_id=bindparam("game"),
        seat=bindparam("seat"),
        turn_step=bindparam("turn_step"),
        reminded_at=bindparam("reminded_at"),
        expired_at=bindparam("expired_at"),
    )
    new = statement.excluded
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[_m.game_id, _m.seat, _m.turn_step],
        set_={
            "reminded_at": func.coalesce(_m.reminded_at, new.reminded_at),
            "expired_at": func.coalesce(_m.expired_at, new.expired_at),
        },
    )
    return upsert


#: :func:`_mark` per dialect (the same ``INSERT ... ON CONFLICT``, each dialect's construct).
_MARK: dict[Dialect, Insert] = {
    "sqlite": _mark(sqlite.insert),
    "postgresql": _mark(postgresql.insert),
}


@dataclass(frozen=True, slots=True)
class TurnMark:
    """A turn of ``seat`` that began at ``turn_step``: when it was reminded, when it ran out."""

    seat: int
    turn_step: int
    reminded_at: float | None = None
    expired_at: float | None = None


class TurnMarks:
    """The turn timers' marks, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def marks(self, game_id: int) -> list[TurnMark]:
        """Every reminded or expired turn of a game, in step order."""
        rows = await self._database.fetchall(_MARKS, {"game": game_id})
        return [TurnMark(*row) for row in rows]

    async def mark(
        self,
        game_id: int,
        seat: int,
        turn_step: int,
        *,
        reminded_at: float | None = None,
        expired_at: float | None = None,
    ) -> None:
        """Remember that a turn was reminded and/or ran out (a time already stored is kept)."""
        async with self._database.write() as conn:
            await conn.execute(
                _MARK[conn.dialect],
                {
                    "game": game_id,
                    "seat": seat,
                    "turn_step": turn_step,
                    "reminded_at": reminded_at,
                    "expired_at": expired_at,
                },
            )

    async def step_time(self, game_id: int, step: int) -> float | None:
        """When step ``step`` of a game was committed (step 0: when the game started)."""
        if step == 0:
            rows = await self._database.fetchall(_STARTED_AT, {"game": game_id})
        else:
            rows = await self._database.fetchall(_STEP_AT, {"game": game_id, "step": step})
        return rows[0][0] if rows else None
