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

from .connection import Database


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
        rows = await self._database.fetchall(
            "SELECT seat, turn_step, reminded_at, expired_at FROM turn_marks "
            "WHERE game_id = ? ORDER BY turn_step, seat",
            (game_id,),
        )
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
                "INSERT INTO turn_marks (game_id, seat, turn_step, reminded_at, expired_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, turn_step) DO UPDATE SET "
                "reminded_at = COALESCE(turn_marks.reminded_at, excluded.reminded_at), "
                "expired_at = COALESCE(turn_marks.expired_at, excluded.expired_at)",
                (game_id, seat, turn_step, reminded_at, expired_at),
            )

    async def step_time(self, game_id: int, step: int) -> float | None:
        """When step ``step`` of a game was committed (step 0: when the game started)."""
        if step == 0:
            rows = await self._database.fetchall(
                "SELECT started_at FROM games WHERE id = ?", (game_id,)
            )
        else:
            rows = await self._database.fetchall(
                "SELECT created_at FROM actions WHERE game_id = ? AND seq = ?", (game_id, step)
            )
        return rows[0][0] if rows else None
