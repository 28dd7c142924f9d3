"""Turn timers: a person who must act has the server's turn time; then the computer acts for them.

A *turn* is one seat having to act since a step (its ``ready`` step, see
:func:`~bot.sessions.bookkeeping.next_ready`): a cut, a discard or a card to lay. During the
cut for the deal and the discard several people owe an action at once, each on their own clock.
Computer seats are never timed, nor is the pause between deals (``Phase.NEXT_DEAL``: the deal
starts by itself when it runs out, :mod:`.deals`). The server's turn time (``/cribbage
settings``; default five minutes, or off) gives each turn its deadline, counted from the moment
its step was committed, so deadlines come from the log and survive a restart by themselves.
At half time the player is
reminded once; at the deadline the computer makes the move for them (a normal, logged action,
so the log still replays) and the turn counts as run out. The ``forfeit_after``-th turn of a
player to run out in a game makes them forfeit instead (recorded as a forfeit).

Reminders sent and turns run out are kept in the store (:class:`db.turns.TurnMarks`), each at
most once, before the manager acts on them: after a crash the same turn is not reminded twice,
and a turn that ran out but whose move was not made yet runs out again without counting twice.

:meth:`TurnTimers.sweep` does all of it (``manager.timers.sweep()``); call it every few
seconds (the cog does, every :data:`SWEEP_TURNS_EVERY` seconds) and send what it reports. The
turn time comes from the server's settings (:mod:`.settings`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.engine import Phase
from db.games import Games
from db.turns import TurnMarks

from .bookkeeping import finish_forfeit
from .play import GamePlay
from .session import Session
from .settings import TableSettings
from .tables import Tables
from .views import GameStatus, Outcome, StepEvent, TimedOut

log = logging.getLogger("bot.sessions")

#: How many of a player's turns may run out in a game; the next one forfeits it.
FORFEIT_AFTER = 3
#: How often the cog sweeps the turns, in seconds (a deadline is met within this).
SWEEP_TURNS_EVERY = 15.0


@dataclass(frozen=True, slots=True)
class Turn:
    """A person who must act in a timed game: since when, and until when."""

    game_id: int
    seat: int
    user_id: int
    turn_step: int  # the step since which this seat has had to act
    started: float
    deadline: float

    @property
    def half_time(self) -> float:
        return self.started + (self.deadline - self.started) / 2


@dataclass(frozen=True, slots=True)
class TurnReminder:
    """Remind ``user_id`` in ``channel_id`` that their move is due at ``deadline``.

    ``expiries``: how many of their turns have already run out in this game; at
    ``forfeit_after`` they forfeit.
    """

    game_id: int
    channel_id: int
    seat: int
    user_id: int
    turn_step: int
    deadline: float
    expiries: int
    forfeit_after: int


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What :meth:`TurnTimers.sweep` did: reminders to send, moves made for absent players
    (``expired``), games ended because a player ran out of time once too often (``forfeits``).
    Publish every outcome; each carries its :class:`~bot.sessions.TimedOut` notices."""

    reminders: tuple[TurnReminder, ...] = ()
    expired: tuple[Outcome, ...] = ()
    forfeits: tuple[Outcome, ...] = ()


@dataclass(slots=True)
class _TimerBook:
    """What the timers know of one game (internal). Keys are ``(seat, turn_step)``."""

    started: dict[tuple[int, int], float] = field(default_factory=dict)
    reminded: set[tuple[int, int]] = field(default_factory=set)
    expired: set[tuple[int, int]] = field(default_factory=set)

    def expiries(self, seat: int) -> int:
        return sum(1 for s, _ in self.expired if s == seat)


class TurnTimers:
    """The turn timers of the live games (see the module docstring).

    ``forfeit_after``: how many turns of one player may run out in a game before the next one
    makes them forfeit (default :data:`FORFEIT_AFTER`).
    """

    def __init__(
        self,
        marks: TurnMarks,
        games: Games,
        tables: Tables,
        play: GamePlay,
        settings: TableSettings,
        *,
        forfeit_after: int = FORFEIT_AFTER,
    ) -> None:
        if forfeit_after < 1:
            raise ValueError("forfeit_after must be at least 1")
        self.forfeit_after = forfeit_after
        self._marks = marks
        self._games = games
        self._tables = tables
        self._play = play
        self._settings = settings
        self._books: dict[int, _TimerBook] = {}

    async def turns(self, game_id: int) -> tuple[Turn, ...]:
        """The timed turns running in a game now (none when it is untimed or not running)."""
        s = self._tables.sessions.get(game_id)
        if s is None or s.status is not GameStatus.ACTIVE or s.game is None:
            return ()
        turn_time = await self._settings.turn_time(s.guild_id)
        if turn_time is None:
            return ()
        return tuple(await self._open_turns(s, turn_time))

    async def sweep(self, now: float | None = None) -> TurnReport:
        """Remind the players at half time, act for those out of time, forfeit repeat cases;
        a match's next game starts after a game that ended so (``now``: the manager's clock).

        A game busy with a request is skipped (its turn changes anyway; the next sweep sees it).
        """
        now = self._tables.now() if now is None else now
        reminders: list[TurnReminder] = []
        expired: list[Outcome] = []
        forfeits: list[Outcome] = []
        for s in list(self._tables.sessions.values()):
            if s.status is not GameStatus.ACTIVE or s.game is None:
                continue
            turn_time = await self._settings.turn_time(s.guild_id)
            if turn_time is None or s.lock.locked():
                continue
            async with s.lock:
                if s.broken or s.status is not GameStatus.ACTIVE or s.game is None:
                    continue
                turns = await self._open_turns(s, turn_time)
                due = [t for t in turns if now >= t.deadline]
                if due:
                    outcome = await self._run_out(s, due)
                    if outcome is not None:
                        ended = any(t.forfeited for t in outcome.timeouts)
                        (forfeits if ended else expired).append(outcome)
                    continue  # turns begun by the moves made are reminded in a later sweep
                reminders += await self._remind(s, turns, now)
        for game_id in set(self._books) - set(self._tables.sessions):
            del self._books[game_id]
        follow_all = self._tables.events.follow_all
        return TurnReport(
            tuple(reminders), tuple(await follow_all(expired)), tuple(await follow_all(forfeits))
        )

    # ------------------------------------------------------------------ internals

    async def _book(self, s: Session) -> _TimerBook:
        """The game's timer book, loaded from the store the first time the game is seen."""
        book = self._books.get(s.id)
        if book is None:
            book = _TimerBook()
            for mark in await self._marks.marks(s.id):
                key = (mark.seat, mark.turn_step)
                if mark.reminded_at is not None:
                    book.reminded.add(key)
                if mark.expired_at is not None:
                    book.expired.add(key)
            self._books[s.id] = book
        return book

    async def _open_turns(self, s: Session, turn_time: float) -> list[Turn]:
        """The people who must act now, each with their turn's start and deadline. The pause
        between deals is not a turn: it has its own clock (:mod:`.deals`)."""
        assert s.game is not None
        if s.game.phase is Phase.NEXT_DEAL:
            return []
        waiting = [  # read at once: the game may move on during the awaits below
            (seat, user_id, s.ready[seat])
            for seat in s.game.to_act
            if (user_id := s.seats[seat].user_id) is not None  # computers are never timed
        ]
        book = await self._book(s)
        turns = []
        for seat, user_id, turn_step in waiting:
            started = book.started.get((seat, turn_step))
            if started is None:
                started = await self._step_time(s, turn_step)
            turns.append(Turn(s.id, seat, user_id, turn_step, started, started + turn_time))
        book.started = {(t.seat, t.turn_step): t.started for t in turns}
        return turns

    async def _step_time(self, s: Session, step: int) -> float:
        """When a step of a live game was committed."""
        if step == s.step:
            return s.updated_at  # the time of the latest action (or of the start)
        at = await self._marks.step_time(s.id, step)
        return s.updated_at if at is None else at

    async def _remind(self, s: Session, turns: list[Turn], now: float) -> list[TurnReminder]:
        book = await self._book(s)
        reminders = []
        for turn in turns:
            key = (turn.seat, turn.turn_step)
            if now < turn.half_time or key in book.reminded:
                continue
            await self._marks.mark(s.id, turn.seat, turn.turn_step, reminded_at=now)
            book.reminded.add(key)
            reminders.append(
                TurnReminder(
                    game_id=s.id,
                    channel_id=s.channel_id,
                    seat=turn.seat,
                    user_id=turn.user_id,
                    turn_step=turn.turn_step,
                    deadline=turn.deadline,
                    expiries=book.expiries(turn.seat),
                    forfeit_after=self.forfeit_after,
                )
            )
        return reminders

    async def _run_out(self, s: Session, due: list[Turn]) -> Outcome | None:
        """The turns in ``due`` ran out: make their moves (or forfeit); one outcome for all."""
        book = await self._book(s)
        events: list[StepEvent] = []
        timeouts: list[TimedOut] = []
        for turn in due:
            game = s.game
            if (
                s.status is not GameStatus.ACTIVE
                or game is None
                or turn.seat not in game.to_act
                or s.ready[turn.seat] != turn.turn_step
            ):
                continue  # an earlier move made here ended the game or changed this turn
            key = (turn.seat, turn.turn_step)
            await self._marks.mark(s.id, turn.seat, turn.turn_step, expired_at=self._tables.now())
            book.expired.add(key)
            count = book.expiries(turn.seat)
            if count >= self.forfeit_after:
                finish = finish_forfeit(game, turn.seat)
                await self._games.record_result(s.id, finish, now=self._tables.touch(s))
                self._play.end(s, finish)
                timeouts.append(TimedOut(turn.seat, turn.user_id, None, count, self.forfeit_after))
                log.info("game %d: seat %d ran out of time: forfeit", s.id, turn.seat)
                break
            action = await self._play.choose(s, turn.seat)
            await self._play.apply(s, turn.seat, action, events)
            timeouts.append(TimedOut(turn.seat, turn.user_id, s.step, count, self.forfeit_after))
            log.info("game %d: seat %d ran out of time (%d); played for it", s.id, turn.seat, count)
            await self._play.advance(s, events)
        if not timeouts:
            return None
        return await self._play.outcome(s, events, timeouts)
