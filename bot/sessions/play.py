"""Playing a game: apply an action on a copy, make it durable, swap it in; computers; endings.

Every change to a game being played goes through :meth:`GamePlay.apply`, under the game's
lock: the action is applied to a *copy* of the committed game, the action and the new
snapshot (+ per-deal points, + results for a final action) are committed in one transaction
(the store's group commit), and only then is the copy swapped in. So nothing a caller can read
was ever uncommitted, and a refused or failed request changes nothing. A write that fails
marks the session *broken*: its next request reloads it from the database first.

:meth:`GamePlay.act` (a :class:`~bot.sessions.requests.Move`) and :meth:`GamePlay.forfeit`
are the players' requests, checked by the :class:`~bot.sessions.guard.Guard`; the other parts
(lobbies, matches, timers, muggins windows, deals, the idle sweep, the loader) use
:meth:`advance`, :meth:`end` and :meth:`outcome`. A game that ends tells the ``ended``
listeners (:class:`.TableEvents`), and every outcome passes through ``follow``.

After every step, on every path, :meth:`advance` makes the moves nobody need wait for, each a
normal durable step: a computer's move; a person's Next deal when the server's pause between
deals is 0; and a person's card when they must lay one and hold only one, or have exactly one
legal card and their ``autoplay`` setting on (no forced clicks). The steps made for a
person are marked ``StepEvent.automatic``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from types import MappingProxyType

from bot.engine import (
    Action,
    Card,
    Game,
    IllegalAction,
    NextDeal,
    Phase,
    Play,
    Variant,
    muggins_rulebook,
)
from bot.engine.nextdeal import ALREADY_READY
from db import ActionWrite, Finish
from db.games import Games
from db.players import Players

from .bookkeeping import deal_points, finish_forfeit, finish_won, next_ready
from .guard import Guard
from .requests import Forfeit, Move
from .session import Session
from .settings import TableSettings
from .strategy import Strategy, simple_strategy
from .tables import Tables, over
from .views import (
    Finished,
    GameStatus,
    Outcome,
    Refusal,
    RefusalReason,
    StepEvent,
    TimedOut,
)

log = logging.getLogger("bot.sessions")
R = RefusalReason

_WAITING_ON_OTHERS = {
    Phase.CUT_FOR_DEAL: "You have already cut for the deal.",
    Phase.DISCARD: "You have already laid away your cards for this deal.",
    Phase.NEXT_DEAL: ALREADY_READY,
}


class GamePlay:
    """Acting on live games (see the module docstring).

    ``strategy(game, seat, level) -> Action`` plays the computer seats; ``seed_source()``
    gives each new game its secret seed; ``players`` holds each person's settings.
    """

    def __init__(
        self,
        games: Games,
        tables: Tables,
        settings: TableSettings,
        players: Players,
        guard: Guard,
        *,
        strategy: Strategy,
        seed_source: Callable[[], int],
    ) -> None:
        self._games = games
        self._tables = tables
        self._settings = settings
        self._players = players
        self._guard = guard
        self._strategy = strategy
        self._seed_source = seed_source

    # ------------------------------------------------------------------ requests

    async def act(self, request: Move) -> Outcome | Refusal:
        """``request.user_id`` makes ``request.action`` with a button drawn at ``request.step``.

        Refuses (a :class:`Refusal`; nothing changes, in memory or in the database) a request
        made elsewhere (:class:`~bot.sessions.guard.Guard`), an unknown or ended game, a user
        without a seat, a stale button, a user whose turn it is not, and any illegal action.
        Otherwise the action and the moves it lets the manager make are each committed (one
        transaction and one step each) before the :class:`Outcome` is returned, and a game of
        a match that ended starts the next (``outcome.next_game``). Storage failures raise
        (:class:`db.StoreError`); nothing is then acknowledged, and the game reloads its
        durable state on the next request.
        """
        if refused := self._guard.place(request):
            return refused
        s = self._tables.sessions.get(request.game_id)
        if s is None:
            return await self._tables.missing(request.game_id)
        async with s.lock:
            seat = await self.playing_seat(s, request.user_id, "The game hasn't started yet.")
            if isinstance(seat, Refusal):
                return seat
            game = s.game
            assert game is not None  # playing_seat: the game is being played
            if refused := self._guard.stale(s, seat, request.step):
                return refused
            action = request.action
            if seat not in game.to_act:
                return Refusal(R.NOT_YOUR_TURN, _not_your_turn(game, seat, action))
            events: list[StepEvent] = []
            try:
                await self.apply(s, seat, action, events)
            except IllegalAction as err:
                return Refusal(R.ILLEGAL, str(err))
            await self.advance(s, events)
            outcome = await self.outcome(s, events)
        return await self._tables.events.follow(outcome)

    async def forfeit(self, request: Forfeit) -> Outcome | Refusal:
        """``request.user_id`` concedes: their side loses, the other side(s) win (recorded as a
        forfeit; a match is conceded)."""
        if refused := self._guard.place(request):
            return refused
        s = self._tables.sessions.get(request.game_id)
        if s is None:
            return await self._tables.missing(request.game_id)
        async with s.lock:
            lobby = "The game hasn't started; leave the lobby instead."
            seat = await self.playing_seat(s, request.user_id, lobby)
            if isinstance(seat, Refusal):
                return seat
            assert s.game is not None  # playing_seat: the game is being played
            finish = finish_forfeit(s.game, seat)
            await self._games.record_result(s.id, finish, now=self._tables.touch(s))
            self.end(s, finish)
            log.info("game %d: seat %d forfeited", s.id, seat)
            outcome = await self.outcome(s, [])
        return await self._tables.events.follow(outcome)

    async def playing_seat(self, s: Session, user_id: int, in_lobby: str) -> int | Refusal:
        """Under the game's lock: this user's seat in a game being played, or why not."""
        if s.broken:
            await self.reload(s)
        if s.status is not GameStatus.ACTIVE or s.game is None:
            if s.status is GameStatus.LOBBY:
                return Refusal(R.NOT_STARTED, in_lobby)
            return over(s.status)
        return self._guard.seat(s, user_id)

    # ------------------------------------------------------------------ the commit path

    async def apply(
        self,
        s: Session,
        seat: int,
        action: Action,
        events: list[StepEvent],
        *,
        automatic: bool = False,
    ) -> None:
        """Apply on a copy, commit, then swap the copy in. Raises IllegalAction (no change).
        ``automatic``: the manager makes this step for a person (``StepEvent.automatic``)."""
        assert s.game is not None
        assert s.state is not None
        work = s.game.copy()  # a private copy: readers only ever see committed states
        to_act_before, scores_before = work.to_act, list(work.scores)
        produced = work.apply(seat, action)
        step = s.step + 1
        ready = next_ready(s.ready, to_act_before, work.to_act, seat, step)
        finish = finish_won(work) if work.is_over else None
        now = self._tables.now()
        write = ActionWrite(
            game_id=s.id,
            seq=step,
            seat=seat,
            action=action.to_dict(),
            state=work.to_dict(),
            ready=ready,
            at=now,
            deal_points=deal_points(s.game, produced, scores_before),
            finish=finish,
        )
        cancelled = await _durable(s, self._games.append_action(write))
        if work.phase is Phase.NEXT_DEAL and s.game.phase is not Phase.NEXT_DEAL:
            s.next_deal_since = now  # the pause between deals counts from here
        s.set_game(work, write.state)
        s.step, s.ready, s.updated_at, s.warned_at = step, ready, now, None
        events.extend(StepEvent(step, e, automatic) for e in produced)
        log.debug("game %d: step %d, seat %d: %s", s.id, step, seat, type(action).__name__)
        if finish is not None:
            self.end(s, finish)
        if cancelled:
            raise asyncio.CancelledError

    async def reload(self, s: Session) -> None:
        """Re-read a session whose last write ended in an error (its durable state wins)."""
        record = await self._games.load_game(s.id)
        if record is None:
            raise LookupError(f"game {s.id} vanished from the database")
        fresh = Session(record)
        s.set_game(fresh.game, fresh.state)
        s.status, s.step, s.ready = fresh.status, fresh.step, fresh.ready
        if s.next_deal_since is None or fresh.next_deal_since is None:
            s.next_deal_since = fresh.next_deal_since
        s.broken = False
        s.changed()
        if not s.status.is_open:
            self._tables.unregister(s)

    # ------------------------------------------------------------------ moves made by the manager

    def new_game(self, variant: Variant, first_dealer: int | None) -> Game:
        """A new game of ``variant`` with a fresh secret seed (``game.seed``), holding between
        deals until every seat is ready (``Phase.NEXT_DEAL``: see :mod:`.deals`)."""
        return Game.new(
            variant,
            seed=self._seed_source(),
            first_dealer=first_dealer,
            hold_between_deals=True,
        )

    def computer_to_act(self, s: Session) -> int | None:
        if s.status is not GameStatus.ACTIVE or s.game is None:
            return None
        return next((x for x in s.game.to_act if s.seats[x].is_computer), None)

    async def advance(self, s: Session, events: list[StepEvent]) -> None:
        """Make every move nobody need wait for (see the module docstring), until a person
        must act or the game ends."""
        while (due := await self.due_move(s)) is not None:
            seat, action = due
            if action is None:
                await self.apply(s, seat, await self.choose(s, seat), events)
            else:
                await self.apply(s, seat, action, events, automatic=True)

    async def due_move(self, s: Session) -> tuple[int, Action | None] | None:
        """The next move the manager makes at ``s`` by itself: a computer's (``None``: the
        strategy chooses it) or a person's automatic one; ``None`` when a person must act."""
        seat = self.computer_to_act(s)
        if seat is not None:
            return seat, None
        game = s.game
        if s.status is not GameStatus.ACTIVE or game is None or not game.to_act:
            return None
        if game.phase is Phase.NEXT_DEAL:
            if (await self._settings.server(s.guild_id)).next_deal_seconds == 0:
                return game.to_act[0], NextDeal()
            return None
        if game.phase is Phase.PLAY and game.turn is not None:
            card = await self._forced_card(s, game, game.turn)
            if card is not None:
                return game.turn, Play(card)
        return None

    async def _forced_card(self, s: Session, game: Game, seat: int) -> Card | None:
        """The card a person must lay now without a choice: their last card, or their only
        legal one when their ``autoplay`` setting is on (``None``: they choose)."""
        user_id = s.seats[seat].user_id
        hand = game.hand(seat)
        legal = [c for c in hand if game.count + c.value <= 31]
        if user_id is None or len(legal) != 1:
            return None
        if len(hand) == 1 or (await self._players.get(user_id)).autoplay:
            return legal[0]
        return None

    async def choose(self, s: Session, seat: int) -> Action:
        """The computer's move for ``seat`` (a simple legal one if the strategy fails; the
        only legal one, e.g. Next deal, without asking it)."""
        game = s.game
        assert game is not None
        level = s.seats[seat].level or "standard"
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        try:
            action = await asyncio.to_thread(self._strategy, game.copy(), seat, level)
        except Exception:
            log.exception("game %d: the computer strategy failed; playing a simple move", s.id)
            return simple_strategy(game, seat, level)
        if action not in legal:
            log.error("game %d: the computer strategy chose an illegal action; ignored", s.id)
            return simple_strategy(game, seat, level)
        return action

    # ------------------------------------------------------------------ endings and outcomes

    def end(self, s: Session, finish: Finish) -> None:
        """The game of ``s`` ended as ``finish`` says (already durable): it leaves the live
        tables, and the ``ended`` listeners hear of it."""
        game = s.game
        assert game is not None
        s.status = GameStatus(finish.status)
        winners = tuple(sorted({o.side for o in finish.seats if o.won}))
        users = tuple(
            v.user_id for v in s.seats.values() if v.user_id is not None and v.side in winners
        )
        s.finished = Finished(
            reason=finish.end_reason,
            winner_sides=winners,
            winner_users=users,
            scores=tuple(game.scores),
            skunks=tuple(game.skunks) if finish.end_reason == "won" else (0,) * len(game.scores),
            forfeit_seat=finish.forfeit_seat,
        )
        s.changed()
        self._tables.unregister(s)
        log.info("game %d: %s (winning sides %s)", s.id, finish.end_reason, winners)
        for listener in self._tables.events.ended:
            listener(s, finish)

    async def outcome(
        self, s: Session, events: Iterable[StepEvent], timeouts: Iterable[TimedOut] = ()
    ) -> Outcome:
        """What a request did at ``s``, as its caller gets it: every view the replies need."""
        view = s.view()
        people = [v.user_id for v in s.seats.values() if v.user_id is not None]
        players = {user_id: await self._players.get(user_id) for user_id in people}
        return Outcome(
            s.id,
            tuple(events),
            s.step,
            view,
            view.to_act_users,
            s.finished,
            timeouts=tuple(timeouts),
            hands=s.hands(),
            settings=await self._settings.server(s.guild_id),
            players=MappingProxyType(players),
        )


async def _durable(s: Session, fut: asyncio.Future[None]) -> bool:
    """Wait until a queued write is committed, even through a cancellation; return whether
    the caller was cancelled meanwhile (it must re-raise once its bookkeeping is done).
    A failed write raises, and marks the session for a reload from the database."""
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            if fut.cancelled():
                s.broken = True
                raise
            cancelled = True
        except BaseException:
            break
    if fut.cancelled() or fut.exception() is not None:
        s.broken = True
        fut.result()  # raises the write's error
    return cancelled


def _not_your_turn(game: Game, seat: int, action: Action) -> str:
    if game.phase is Phase.SHOW:
        return show_refusal(game, seat, action) or "It's not your turn."
    return _WAITING_ON_OTHERS.get(game.phase, "It's not your turn.")


def show_refusal(game: Game, seat: int, action: Action) -> str | None:
    """Why a seat that is not to act may not make ``action`` in a muggins show (the engine's
    words: "Only an opponent can call muggins on that count.", ...); None if it does not say."""
    try:
        muggins_rulebook.of(game).check(game, seat, action)
    except IllegalAction as err:
        return str(err)
    return None
