"""GameSessionManager: owns every live game, decides who may act, makes each action durable.

Every request on a game runs under that game's :class:`asyncio.Lock`: it checks the user and the
step, applies the action to a *copy* of the game, commits action + snapshot (+ per-deal points,
+ results for a final action) in one transaction, and only then swaps the copy in and answers.
So nothing a caller can read (views, private views, outcomes) was ever uncommitted, and a
refused or failed request changes nothing.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     manager = GameSessionManager(store)
...     await manager.resume()
...     lobby = await manager.create_lobby(guild_id=1, channel_id=10, host_id=111)
...     await manager.add_computer(lobby.game_id, 111, "easy")
...     started = await manager.start(lobby.game_id, 111)
...     mine = manager.private_view(lobby.game_id, 111)
...     outcome = await manager.act(lobby.game_id, 111, mine.legal_actions[0], step=mine.step)
...     await store.close()
...     return started.view.status.value, outcome.ok, outcome.step > mine.step
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
('active', True, True)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar

from bot.engine import Action, Game, IllegalAction, Phase, Variant
from db import MessageRef

from .bookkeeping import finish_forfeit
from .history import Replay, build_replay, rebuild
from .lobby import LobbyOperations
from .muggins import MugginsWindows, counting_fields, show_refusal
from .rematch import RematchOperations
from .session import Session
from .timers import TurnTimers
from .upkeep import Upkeep
from .views import (
    GameStatus,
    GameView,
    Outcome,
    PrivateView,
    Refusal,
    RefusalReason,
    SeatView,
    StepEvent,
)

log = logging.getLogger("bot.sessions")
T = TypeVar("T")

R = RefusalReason
STALE_MESSAGE = (
    "That button is out of date: the game has moved on since it was shown. "
    "Open your hand again for fresh buttons."
)
_WAITING_ON_OTHERS = {
    Phase.CUT_FOR_DEAL: "You have already cut for the deal.",
    Phase.DISCARD: "You have already laid away your cards for this deal.",
}


class GameSessionManager(RematchOperations, LobbyOperations, Upkeep, TurnTimers, MugginsWindows):
    """The one owner of live games: lobbies, turns, durability, computer seats, endings.

    ``strategy(game, seat, level) -> Action`` plays the computer seats (default:
    :func:`~bot.sessions.strategy.simple_strategy`). A game untouched for ``idle_warn_after``
    seconds gets a warning from :meth:`sweep_idle`; one untouched for ``idle_abandon_after``
    (and warned at least ``idle_abandon_after - idle_warn_after`` before) is abandoned.
    People's turns are timed by :meth:`sweep_turns` (``forfeit_after``: see
    :class:`~bot.sessions.timers.TurnTimers`).
    Matches and rematches: :mod:`bot.sessions.matches`, :mod:`bot.sessions.rematch`.
    Call :meth:`resume` once after construction, before serving requests.
    """

    # ------------------------------------------------------------------ reading

    def view(self, game_id: int) -> GameView | None:
        """The public view of a live lobby or game (``None`` if not live)."""
        s = self._sessions.get(game_id)
        return None if s is None else s.view()

    def game_in_channel(self, channel_id: int) -> GameView | None:
        """The open lobby or game of a channel, if any."""
        game_id = self._by_channel.get(channel_id)
        return None if game_id is None else self.view(game_id)

    def live_games(self) -> list[GameView]:
        """Every live lobby and game, by game id."""
        return [self._sessions[game_id].view() for game_id in sorted(self._sessions)]

    def games_of(self, user_id: int) -> list[GameView]:
        """The live lobbies and games where this user holds a seat."""
        return [s.view() for s in self._sessions.values() if s.seat_of(user_id) is not None]

    def private_view(self, game_id: int, user_id: int) -> PrivateView | Refusal:
        """This user's hand, kept cards and legal actions, and the step to put on buttons."""
        s = self._sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        seat = s.seat_of(user_id)
        if seat is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        game = s.game
        if game is None:
            return Refusal(R.NOT_STARTED, "The game hasn't started yet.")
        return PrivateView(
            game_id=s.id,
            seat=seat,
            step=s.step,
            phase=game.phase,
            hand=tuple(game.hand(seat)),
            kept=tuple(game.kept(seat)),
            legal_actions=tuple(game.legal_actions(seat)),
            must_act=seat in game.to_act,
            **counting_fields(game, seat),
        )

    async def consult(
        self, game_id: int, user_id: int, advisor: Callable[[Game, int], T]
    ) -> T | Refusal:
        """Ask ``advisor(game, seat)`` about this user's position (the coach), in a thread.

        The advisor gets a private copy of the game and must use only what that seat may know
        (``bot.ai`` builds a seat's view from it); the live game is never touched.
        """
        s = self._sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        seat = s.seat_of(user_id)
        if seat is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        if s.game is None or s.status is not GameStatus.ACTIVE:
            return Refusal(R.NOT_STARTED, "There's no hand to advise on now.")
        return await asyncio.to_thread(advisor, s.game.copy(), seat)

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game (live or not), by kind."""
        s = self._sessions.get(game_id)
        if s is not None:
            return dict(s.messages)
        return await self._store.messages(game_id)

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the public message of ``kind`` (e.g. ``"lobby"``, ``"table"``) of a game."""
        ref = MessageRef(channel_id, message_id)
        await self._store.set_message(game_id, kind, ref)
        s = self._sessions.get(game_id)
        if s is not None:
            s.messages[kind] = ref
            s.changed()

    async def replay(self, game_id: int, *, allow_active: bool = False) -> Replay | Refusal:
        """A game rebuilt from its log, deal by deal (hands as dealt included).

        Only for games that have ended, unless ``allow_active`` (it reveals every hand).
        """
        record = await self._store.load_game(game_id)
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if record.seed is None:
            return Refusal(R.NOT_STARTED, "That game never started, so there is nothing to replay.")
        if record.status == "active" and not allow_active:
            return Refusal(R.HIDDEN, "That game is still being played; replay it when it ends.")
        variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        rebuilt = rebuild(
            variant, record.seed, record.first_dealer, await self._store.load_actions(game_id)
        )
        side = (lambda seat: seat % 2) if variant.partnerships else (lambda seat: seat)
        seats = tuple(SeatView(r.seat, r.user_id, r.computer, side(r.seat)) for r in record.seats)  # type: ignore[arg-type]
        return build_replay(game_id, seats, rebuilt)

    # ------------------------------------------------------------------ playing

    async def act(
        self, game_id: int, user_id: int, action: Action, *, step: int
    ) -> Outcome | Refusal:
        """``user_id`` plays ``action`` with a button drawn at ``step``.

        ``step`` is the game's step when the button was drawn (``PrivateView.step``). A button
        stays current until that player's own situation changes: their turn begins, or they act.
        So a discard (or cut for the deal) button still works after another player has laid
        away (or cut), while any button from before the player's last action or turn is stale.

        Refuses (a :class:`Refusal`; nothing changes, in memory or in the database) an unknown
        or ended game, a user without a seat, a stale button, a user whose turn it is not, and
        any illegal action. Otherwise the action and the computer moves it triggers are each
        committed (one transaction and one step each) before the :class:`Outcome` is returned.
        Storage failures raise (:class:`db.StoreError` or ``sqlite3.Error``); nothing is then
        acknowledged, and the game reloads its durable state on the next request.
        """
        s = self._sessions.get(game_id)
        if s is None:
            return await self._missing(game_id)
        async with s.lock:
            seat = await self._playing_seat(s, user_id, "The game hasn't started yet.")
            if isinstance(seat, Refusal):
                return seat
            if not isinstance(step, int) or not s.ready[seat] <= step <= s.step:
                return Refusal(R.STALE, STALE_MESSAGE)
            game = s.game
            if seat not in game.to_act:
                return Refusal(R.NOT_YOUR_TURN, self._not_your_turn(s, seat, action))
            events: list[StepEvent] = []
            try:
                await self._apply(s, seat, action, events)
            except IllegalAction as err:
                return Refusal(R.ILLEGAL, str(err))
            await self._run_computers(s, events)
            return await self._next_in_match(self._outcome(s, events))

    async def _playing_seat(self, s: Session, user_id: int, in_lobby: str) -> int | Refusal:
        """Under the game's lock: this user's seat in a game being played, or why not."""
        if s.broken:
            await self._reload(s)
        if s.status is not GameStatus.ACTIVE or s.game is None:
            if s.status is GameStatus.LOBBY:
                return Refusal(R.NOT_STARTED, in_lobby)
            return self._over(s.status)
        seat = s.seat_of(user_id)
        if seat is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        return seat

    def _not_your_turn(self, s: Session, seat: int, action: Action | None = None) -> str:
        game = s.game
        assert game is not None
        if game.phase is Phase.SHOW and action is not None:
            return show_refusal(game, seat, action) or "It's not your turn."
        if game.phase in _WAITING_ON_OTHERS:
            return _WAITING_ON_OTHERS[game.phase]
        return "It's not your turn."

    async def forfeit(self, game_id: int, user_id: int) -> Outcome | Refusal:
        """``user_id`` concedes: their side loses, the other side(s) win. Recorded as a forfeit."""
        s = self._sessions.get(game_id)
        if s is None:
            return await self._missing(game_id)
        async with s.lock:
            lobby = "The game hasn't started; leave the lobby instead."
            seat = await self._playing_seat(s, user_id, lobby)
            if isinstance(seat, Refusal):
                return seat
            finish = finish_forfeit(s.game, seat)
            await self._store.record_result(s.id, finish, now=self._touch(s))
            self._end(s, finish)
            log.info("game %d: seat %d forfeited", s.id, seat)
            return await self._next_in_match(self._outcome(s, []))
