"""GameSessionManager: the one front the cogs call, over parts that each own one concern.

Every request on a game runs under that game's :class:`asyncio.Lock`: it checks the user and the
step, applies the action to a *copy* of the game, commits action + snapshot (+ per-deal points,
+ results for a final action) in one transaction, and only then swaps the copy in and answers.
So nothing a caller can read (views, private views, outcomes) was ever uncommitted, and a
refused or failed request changes nothing.

The parts (one module each; plain objects handed what they use, no part inherits another):

==================  ===============================================================
:mod:`.tables`      the live tables by id and by channel, held channels, the clock,
                    the table events and who listens to them
:mod:`.play`        acting on a game: apply on a copy, commit, swap in; reload;
                    computer moves; a game's end; outcomes; ``act`` and ``forfeit``
:mod:`.lobby`       lobbies: open, seat, leave, variant, cancel, start
:mod:`.matches`     best of 3 or 5: the tally, and each next game started at once
:mod:`.rematch`     rematches: the same seats again once everyone has accepted
:mod:`.timers`      turn timers: reminders, moves made for absent players, forfeits
:mod:`.muggins`     muggins windows nobody answered, let go
:mod:`.upkeep`      resume (checked against the logs), idle warnings and abandons
:mod:`.settings`    each server's settings (the turn time; carried by every outcome)
==================  ===============================================================

Beside them, without state of their own: :mod:`.session` (one table's record, and its public
and private views built in one place each), :mod:`.views` (the values handed to callers),
:mod:`.bookkeeping` (button freshness, points per deal, endings), :mod:`.history` (replaying a
log), :mod:`.matchplay` (the rules of a match) and :mod:`.strategy` (the fallback computer).

They hear of each other through :class:`~bot.sessions.tables.TableEvents`, subscribed here:
a table registered shows its match; a lobby started begins its match and ends its rematch
wait; a lobby closed cancels both; a game ended updates its match's tally. And every request
that can end a game passes its outcome through :meth:`Matches.follow
<bot.sessions.matches.Matches.follow>` here, which starts the match's next game.

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
import dataclasses
import secrets
import time
from collections.abc import Callable
from typing import Any, Generic, Never, TypeVar, overload

from bot.engine import Action, Game, Variant
from db import MessageRef, Store
from db.settings import ServerSettings

from .history import Replay, build_replay, rebuild
from .lobby import Lobbies
from .matches import Matches
from .matchplay import BEST_OF, RematchView
from .muggins import MugginsWindows
from .play import GamePlay
from .rematch import Rematches
from .session import seat_view
from .settings import Settings
from .strategy import Strategy, simple_strategy
from .tables import Tables
from .timers import FORFEIT_AFTER, Turn, TurnReport, TurnTimers
from .upkeep import Check, Upkeep
from .views import (
    GameStatus,
    GameView,
    Level,
    Outcome,
    PrivateView,
    Refusal,
    RefusalReason,
    ResumeReport,
    SweepReport,
    level_of,
)

T = TypeVar("T")
Advice = TypeVar("Advice", covariant=True)
R = RefusalReason


def _random_seed() -> int:
    return secrets.randbits(128)


class GameSessionManager(Generic[Advice]):
    """The one owner of live games: lobbies, turns, durability, computer seats, endings.

    ``strategy(game, seat, level) -> Action`` plays the computer seats (default:
    :func:`~bot.sessions.strategy.simple_strategy`); ``coach(game, seat)`` answers
    :meth:`advise` (the app passes ``bot.ai.coach.hint``). A game untouched for
    ``idle_warn_after`` seconds gets a warning from :meth:`sweep_idle`; one untouched for
    ``idle_abandon_after`` (and warned at least ``idle_abandon_after - idle_warn_after`` before)
    is abandoned. People's turns are timed by :meth:`sweep_turns` (``forfeit_after``: see
    :mod:`bot.sessions.timers`). Call :meth:`resume` once after construction, before serving
    requests.
    """

    @overload
    def __init__(
        self: GameSessionManager[Never],
        store: Store,
        *,
        strategy: Strategy | None = None,
        coach: None = None,
        idle_warn_after: float = 23 * 3600,
        idle_abandon_after: float = 24 * 3600,
        verify_sample: int = 8,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = _random_seed,
        forfeit_after: int = FORFEIT_AFTER,
    ) -> None: ...

    @overload
    def __init__(
        self,
        store: Store,
        *,
        strategy: Strategy | None = None,
        coach: Callable[[Game, int], Advice],
        idle_warn_after: float = 23 * 3600,
        idle_abandon_after: float = 24 * 3600,
        verify_sample: int = 8,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = _random_seed,
        forfeit_after: int = FORFEIT_AFTER,
    ) -> None: ...

    def __init__(
        self,
        store: Store,
        *,
        strategy: Strategy | None = None,
        coach: Callable[[Game, int], Advice] | None = None,
        idle_warn_after: float = 23 * 3600,
        idle_abandon_after: float = 24 * 3600,
        verify_sample: int = 8,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = _random_seed,
        forfeit_after: int = FORFEIT_AFTER,
    ) -> None:
        self._store = store
        self._coach = coach
        self._resumed = False
        games = store.games
        self._tables = tables = Tables(games, clock)
        self._settings = settings = Settings(store.settings)
        self._play = play = GamePlay(
            games,
            tables,
            settings,
            strategy=strategy or simple_strategy,
            seed_source=seed_source,
        )
        self._lobbies = lobbies = Lobbies(games, tables, play)
        self._matches = matches = Matches(store.matches, games, tables, play)
        self._rematches = rematches = Rematches(store.matches, games, tables, lobbies, matches)
        self._timers = TurnTimers(
            store.turns, games, tables, play, settings, forfeit_after=forfeit_after
        )
        self._muggins = MugginsWindows(tables, play)
        self._upkeep = Upkeep(
            games,
            tables,
            play,
            lobbies,
            idle_warn_after=idle_warn_after,
            idle_abandon_after=idle_abandon_after,
            verify_sample=verify_sample,
        )
        events = tables.events
        events.registered.append(matches.on_registered)
        events.started += [matches.on_started, rematches.on_started]
        events.lobby_closed += [rematches.on_lobby_closed, matches.on_lobby_closed]
        events.ended.append(matches.on_ended)

    # ------------------------------------------------------------------ options

    @property
    def idle_warn_after(self) -> float:
        return self._upkeep.idle_warn_after

    @property
    def idle_abandon_after(self) -> float:
        return self._upkeep.idle_abandon_after

    @property
    def verify_sample(self) -> int:
        return self._upkeep.verify_sample

    @property
    def forfeit_after(self) -> int:
        """How many turns of one player may run out in a game; the next one forfeits it."""
        return self._timers.forfeit_after

    @property
    def muggins_window(self) -> float:
        """Seconds an opponent has to call muggins on a claim before it is let go."""
        return self._muggins.window

    # ------------------------------------------------------------------ reading

    def view(self, game_id: int) -> GameView | None:
        """The public view of a live lobby or game (``None`` if not live)."""
        s = self._tables.sessions.get(game_id)
        return None if s is None else s.view()

    def game_in_channel(self, channel_id: int) -> GameView | None:
        """The open lobby or game of a channel, if any."""
        game_id = self._tables.by_channel.get(channel_id)
        return None if game_id is None else self.view(game_id)

    def live_games(self) -> list[GameView]:
        """Every live lobby and game, by game id."""
        sessions = self._tables.sessions
        return [sessions[game_id].view() for game_id in sorted(sessions)]

    def games_of(self, user_id: int) -> list[GameView]:
        """The live lobbies and games where this user holds a seat."""
        sessions = self._tables.sessions.values()
        return [s.view() for s in sessions if s.seat_of(user_id) is not None]

    def private_view(self, game_id: int, user_id: int) -> PrivateView | Refusal:
        """This user's hand, kept cards and legal actions, and the step to put on buttons
        (the same value as the ``hands`` of the last outcome)."""
        s = self._tables.sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        if s.seat_of(user_id) is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        if s.game is None:
            return Refusal(R.NOT_STARTED, "The game hasn't started yet.")
        return s.hands()[user_id]

    async def consult(
        self, game_id: int, user_id: int, advisor: Callable[[Game, int], T]
    ) -> T | Refusal:
        """Ask ``advisor(game, seat)`` about this user's position (the coach), in a thread.

        The advisor gets a private copy of the game and must use only what that seat may know
        (``bot.ai`` builds a seat's view from it); the live game is never touched.
        """
        s = self._tables.sessions.get(game_id)
        if s is None:
            return Refusal(R.UNKNOWN_GAME, "This game is not running any more.")
        seat = s.seat_of(user_id)
        if seat is None:
            return Refusal(R.NOT_SEATED, "You're not playing in this game.")
        if s.game is None or s.status is not GameStatus.ACTIVE:
            return Refusal(R.NOT_STARTED, "There's no hand to advise on now.")
        return await asyncio.to_thread(advisor, s.game.copy(), seat)

    async def advise(self, game_id: int, user_id: int) -> Advice | Refusal:
        """The coach's advice on this user's position (see :meth:`consult`)."""
        if self._coach is None:
            return Refusal(R.INVALID, "There's no coach at this table.")
        return await self.consult(game_id, user_id, self._coach)

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game (live or not), by kind."""
        s = self._tables.sessions.get(game_id)
        if s is not None:
            return dict(s.messages)
        return await self._store.games.messages(game_id)

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the public message of ``kind`` (e.g. ``"lobby"``, ``"table"``) of a game."""
        ref = MessageRef(channel_id, message_id)
        await self._store.games.set_message(game_id, kind, ref)
        s = self._tables.sessions.get(game_id)
        if s is not None:
            s.messages[kind] = ref
            s.changed()

    async def replay(self, game_id: int, *, allow_active: bool = False) -> Replay | Refusal:
        """A game rebuilt from its log, deal by deal (hands as dealt included).

        Only for games that have ended, unless ``allow_active`` (it reveals every hand).
        """
        games = self._store.games
        record = await games.load_game(game_id)
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if record.seed is None:
            return Refusal(R.NOT_STARTED, "That game never started, so there is nothing to replay.")
        if record.status == "active" and not allow_active:
            return Refusal(R.HIDDEN, "That game is still being played; replay it when it ends.")
        variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        actions = await games.load_actions(game_id)
        rebuilt = rebuild(variant, record.seed, record.first_dealer, actions)
        seats = tuple(
            seat_view(variant, r.seat, r.user_id, level_of(r.computer)) for r in record.seats
        )
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
        return await self._follow(await self._play.act(game_id, user_id, action, step=step))

    async def forfeit(self, game_id: int, user_id: int) -> Outcome | Refusal:
        """``user_id`` concedes: their side loses, the other side(s) win. Recorded as a forfeit."""
        return await self._follow(await self._play.forfeit(game_id, user_id))

    async def _follow(self, result: Outcome | Refusal) -> Outcome | Refusal:
        return result if isinstance(result, Refusal) else await self._matches.follow(result)

    async def _follow_all(self, outcomes: tuple[Outcome, ...] | list[Outcome]) -> list[Outcome]:
        """Every outcome after :meth:`Matches.follow` (a match's next game started), in order."""
        return [await self._matches.follow(o) for o in outcomes]

    # ------------------------------------------------------------------ lobbies

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        variant: Variant | None = None,
        best_of: int = 1,
    ) -> GameView | Refusal:
        """Open a lobby in a channel, the host in seat 0. One open lobby or game per channel.
        With ``best_of`` 3 or 5 it is the first game of a match."""
        if best_of not in BEST_OF:
            return Refusal(R.INVALID, "A match is played over 1, 3 or 5 games.")
        s = await self._lobbies.create(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, variant=variant or Variant()
        )
        if isinstance(s, Refusal):
            return s
        if best_of == 1:
            return s.view()
        return await self._matches.open(s, best_of)

    async def join(
        self, game_id: int, user_id: int, *, seat: int | None = None
    ) -> GameView | Refusal:
        """Take a free seat (the lowest, or ``seat``) in a lobby."""
        return await self._lobbies.join(game_id, user_id, seat=seat)

    async def add_computer(
        self, game_id: int, user_id: int, level: Level = "standard", *, seat: int | None = None
    ) -> GameView | Refusal:
        """The host seats a computer player of ``level`` ("easy", "standard" or "expert")."""
        return await self._lobbies.add_computer(game_id, user_id, level, seat=seat)

    async def leave(self, game_id: int, user_id: int) -> GameView | Refusal:
        """Leave a lobby. A leaving host hands over to the next player, or closes the lobby.
        Leaving a rematch lobby declines the rematch."""
        if self._rematches.is_rematch(game_id):
            return await self._rematches.decline(game_id, user_id)
        return await self._lobbies.leave(game_id, user_id)

    async def remove_computer(self, game_id: int, user_id: int, seat: int) -> GameView | Refusal:
        """The host frees a computer's seat."""
        return await self._lobbies.remove_computer(game_id, user_id, seat)

    async def set_variant(self, game_id: int, user_id: int, variant: Variant) -> GameView | Refusal:
        """The host picks the variant (2–4 players, partnerships, 121 or 61 points)."""
        return await self._lobbies.set_variant(game_id, user_id, variant)

    async def cancel(self, game_id: int, user_id: int) -> GameView | Refusal:
        """The host closes a lobby that has not started (a started game is forfeited instead)."""
        return await self._lobbies.cancel(game_id, user_id)

    async def start(
        self, game_id: int, user_id: int, *, first_dealer: int | None = None
    ) -> Outcome | Refusal:
        """The host starts a full lobby: the seats cut for the deal (computers at once).

        With ``first_dealer`` (or the dealer a rematch lobby planned) there is no cut: that seat
        deals the first hand at once. A rematch starts by itself once everyone has accepted.
        """
        waiting = self._rematches.refuse_start(game_id)
        if waiting is not None:
            return waiting
        return await self._lobbies.start(game_id, user_id, first_dealer=first_dealer)

    # ------------------------------------------------------------------ rematches

    async def rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        """``user_id`` asks for a rematch of the ended game ``game_id`` (:mod:`.rematch`).

        Returns the started game's :class:`Outcome` when nobody else has to accept, else the
        rematch lobby (see :meth:`rematch_view`), or a :class:`Refusal`.
        """
        return await self._rematches.ask(game_id, user_id)

    async def accept_rematch(self, game_id: int, user_id: int) -> Outcome | GameView | Refusal:
        """A player accepts the rematch; the last one to accept starts the game (its outcome)."""
        return await self._rematches.accept(game_id, user_id)

    async def decline_rematch(self, game_id: int, user_id: int) -> GameView | Refusal:
        """A player turns the rematch down: it is called off."""
        return await self._rematches.decline(game_id, user_id)

    def rematch_view(self, game_id: int) -> RematchView | None:
        """Who has accepted the rematch lobby ``game_id`` and who it waits for (or ``None``)."""
        return self._rematches.view(game_id)

    # ------------------------------------------------------------------ upkeep

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """Load every lobby and active game, check a sample against its log, and resume.

        ``verify``: how many active games to replay from their log (default
        ``verify_sample``; pass a large number for all). Games whose snapshot is not at the end
        of their log are always replayed. Computer seats that were about to move, move now, and
        a match whose game ended just before a restart starts its next game; the outcomes are
        in the report so the cogs can update the channels.
        """
        if self._resumed:
            raise RuntimeError("resume() runs once, before the manager serves requests")
        self._resumed = True
        await self._rematches.load()
        await self._matches.load()
        report = await self._upkeep.resume(verify=verify)
        outcomes = await self._follow_all(report.outcomes)
        await self._matches.begin_started()
        outcomes += await self._matches.continue_due()
        return dataclasses.replace(report, outcomes=tuple(outcomes))

    async def verify(self, game_id: int) -> Check:
        """Replay one live game's log and compare it with its state: ``'ok'``, ``'repaired'``
        (the log won) or ``'unreplayable'``."""
        return await self._upkeep.verify(game_id)

    async def verify_all(self) -> dict[int, Check]:
        """Check every live game against its log (see :meth:`verify`); game id -> result."""
        return await self._upkeep.verify_all()

    async def sweep_idle(self, now: float | None = None) -> SweepReport:
        """Warn about idle games, abandon those idle too long, unstick waiting computers, and
        start the next game of any match left waiting.

        Call it periodically (e.g. every few minutes) and send the warnings to the channels.
        """
        report = await self._upkeep.sweep_idle(self._tables.now() if now is None else now)
        abandoned = await self._follow_all(report.abandoned)
        resumed = await self._follow_all(report.resumed)
        resumed += await self._matches.continue_due()
        return dataclasses.replace(report, abandoned=tuple(abandoned), resumed=tuple(resumed))

    # ------------------------------------------------------------------ turn timers

    async def turns(self, game_id: int) -> tuple[Turn, ...]:
        """The timed turns running in a game now (none when it is untimed or not running)."""
        return await self._timers.turns(game_id)

    async def sweep_turns(self, now: float | None = None) -> TurnReport:
        """Remind the players at half time, act for those out of time, forfeit repeat cases
        (:mod:`.timers`); a match's next game starts after a game that ended so."""
        report = await self._timers.sweep(self._tables.now() if now is None else now)
        expired = await self._follow_all(report.expired)
        forfeits = await self._follow_all(report.forfeits)
        return dataclasses.replace(report, expired=tuple(expired), forfeits=tuple(forfeits))

    # ------------------------------------------------------------------ muggins windows

    def muggins_window_closes_at(self, game_id: int) -> float | None:
        """When the open muggins window of a game will be let go (None: no window is open)."""
        return self._muggins.closes_at(game_id)

    async def close_muggins_windows(self, now: float | None = None) -> list[Outcome]:
        """Let go every muggins window open for :attr:`muggins_window` seconds (:mod:`.muggins`);
        one outcome per game. The show goes on and may end a game (and start a match's next)."""
        outcomes = await self._muggins.close_due(self._tables.now() if now is None else now)
        return await self._follow_all(outcomes)

    # ------------------------------------------------------------------ server settings

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (``/cribbage settings``); the defaults outside a server."""
        return await self._settings.of(guild_id)

    async def update_settings(
        self, guild_id: int, *, by: int | None = None, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings (see :data:`db.settings.SETTING_NAMES`); a new
        turn time applies at once, to the turns running too. ``ValueError`` if out of range."""
        return await self._settings.update(guild_id, by=by, now=self._tables.now(), **changes)

    async def turn_time(self, guild_id: int | None) -> float | None:
        """A server's turn time in seconds (``None``: its turns are not timed)."""
        return await self._settings.turn_time(guild_id)
