"""A seated person's own view of a game: their hand and legal actions, and the coach on it.

Nothing here changes a game: the private view is the one the last outcome carried
(``Outcome.hands``), and the coach (or any advisor) gets a private copy of the game, in a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.engine import Game

from .guard import Guard
from .requests import AskCoach, ShowHand
from .session import Session
from .tables import Tables
from .views import GameStatus, PrivateView, Refusal, RefusalReason

T = TypeVar("T")
Advice = TypeVar("Advice", covariant=True)
R = RefusalReason


class PlayerHands(Generic[Advice]):
    """Each person's hand, and the coach (``coach(game, seat)``), if there is one."""

    def __init__(
        self, tables: Tables, guard: Guard, coach: Callable[[Game, int], Advice] | None
    ) -> None:
        self._tables = tables
        self._guard = guard
        self._coach = coach

    def private_view(self, request: ShowHand) -> PrivateView | Refusal:
        """This user's hand, kept cards and legal actions, and the step to put on buttons
        (the same value as the ``hands`` of the last outcome)."""
        if refused := self._guard.place(request):
            return refused
        seated = self._seated(request.game_id, request.user_id)
        if isinstance(seated, Refusal):
            return seated
        s, _ = seated
        if s.game is None:
            return Refusal(R.NOT_STARTED, "The game hasn't started yet.")
        return s.hands()[request.user_id]

    async def advise(self, request: AskCoach) -> Advice | Refusal:
        """The coach's advice on this user's position (see :meth:`consult`)."""
        if refused := self._guard.place(request):
            return refused
        if self._coach is None:
            return Refusal(R.INVALID, "There's no coach at this table.")
        return await self.consult(request.game_id, request.user_id, self._coach)

    async def consult(
        self, game_id: int, user_id: int, advisor: Callable[[Game, int], T]
    ) -> T | Refusal:
        """Ask ``advisor(game, seat)`` about this user's position, in a thread.

        The advisor gets a private copy of the game and must use only what that seat may know
        (``bot.ai`` builds a seat's view from it); the live game is never touched.
        """
        seated = self._seated(game_id, user_id)
        if isinstance(seated, Refusal):
            return seated
        s, seat = seated
        if s.game is None or s.status is not GameStatus.ACTIVE:
            return Refusal(R.NOT_STARTED, "There's no hand to advise on now.")
        return await asyncio.to_thread(advisor, s.game.copy(), seat)

    def _seated(self, game_id: int, user_id: int) -> tuple[Session, int] | Refusal:
        """The live table and this user's seat at it, or why not."""
        s = self._tables.sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        seat = self._guard.seat(s, user_id)
        return seat if isinstance(seat, Refusal) else (s, seat)
