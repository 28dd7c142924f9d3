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
:mod:`.deals`       the pause between deals: each deal whose pause ran out, started
:mod:`.upkeep`      resume (checked against the logs), idle warnings and abandons
:mod:`.settings`    each server's settings (the turn time; carried by every outcome)
:mod:`.reading`     views, private views, the coach, message ids, replays (reads only)
:mod:`.rounds`      the resume and the sweeps, each joined to the matches
:mod:`.analysis`    an ended game's summary, and a player's review (in a worker process)
==================  ===============================================================

The front itself is in two halves: this class, a person's requests on the tables, and its one
base :class:`~bot.sessions.routine.Routine`: the resume, the rounds run on a clock (idle
sweep, turn timers, muggins windows, due deals) and the server's and players' settings.

Beside them, without state of their own: :mod:`.session` (one table's record and its views),
:mod:`.views` (the values handed to callers), :mod:`.bookkeeping` (button freshness, points per
deal, endings), :mod:`.history` (replaying a log), :mod:`.matchplay` (the rules of a match),
:mod:`.strategy` (the fallback computer) and :mod:`.door` (a person's requests, checked: see
:meth:`GameSessionManager.at`).

They hear of each other through :class:`~bot.sessions.tables.TableEvents`, subscribed here:
a table registered shows its match; a lobby started begins its match and ends its rematch
wait; a lobby closed cancels both; a game ended updates its match's tally. And every request
that can end a game passes its outcome through :meth:`Matches.follow
<bot.sessions.matches.Matches.follow>` (here or in :mod:`.rounds`): it starts the next game.

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

import secrets
import time
from collections.abc import Callable
from typing import Generic, Never, TypeVar, overload

from bot.ai.review import Review
from bot.engine import Action, Game, Variant
from db import MessageRef, Store

from .analysis import Analyst
from .deals import NextDeals
from .door import OTHER_PROCESS, Door, Place
from .history import Replay
from .lobby import Lobbies
from .matches import Matches
from .matchplay import BEST_OF, RematchView
from .muggins import MugginsWindows
from .play import GamePlay
from .reading import Reading
from .rematch import Rematches
from .rounds import Rounds
from .routine import Routine
from .settings import Settings
from .strategy import Strategy, simple_strategy
from .summary import GameSummary
from .tables import Owns, Tables
from .timers import FORFEIT_AFTER, TurnTimers
from .upkeep import Upkeep
from .views import GameView, Level, Outcome, PrivateView, Refusal, RefusalReason

T = TypeVar("T")
Advice = TypeVar("Advice", covariant=True)
R = RefusalReason


def _random_seed() -> int:
    return secrets.randbits(128)


class GameSessionManager(Routine, Generic[Advice]):
    """The one owner of live games: lobbies, turns, durability, computer seats, endings.

    ``strategy(game, seat, level) -> Action`` plays the computer seats (default:
    :func:`~bot.sessions.strategy.simple_strategy`); ``coach(game, seat)`` answers
    :meth:`advise` (the app passes ``bot.ai.coach.hint``). ``idle_warn_after``,
    ``idle_abandon_after`` and ``verify_sample``: see :class:`~bot.sessions.upkeep.Upkeep`;
    ``forfeit_after``: :mod:`bot.sessions.timers`. ``owns(guild_id)``: whether this process
    serves that server's games (one shard process of several: :mod:`.tables`; default: all).
    Call :meth:`resume` once, before serving.
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
        owns: Owns | None = None,
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
        owns: Owns | None = None,
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
        owns: Owns | None = None,
    ) -> None:
        self._store = store
        games = store.games
        self._tables = tables = Tables(games, clock, owns)
        self._reading = Reading(games, tables, coach)
        self._analyst = Analyst(self._reading)
        self._settings = settings = Settings(store.settings)
        self._players = store.players
        self._play = play = GamePlay(
            games,
            tables,
            settings,
            store.players,
            strategy=strategy or simple_strategy,
            seed_source=seed_source,
        )
        self._lobbies = lobbies = Lobbies(games, tables, play)
        self._matches = matches = Matches(store.matches, games, tables, play)
        self._rematches = rematches = Rematches(store.matches, games, tables, lobbies, matches)
        self._timers = timers = TurnTimers(
            store.turns, games, tables, play, settings, forfeit_after=forfeit_after
        )
        self._muggins = muggins = MugginsWindows(tables, play)
        self._deals = deals = NextDeals(tables, play, settings)
        self._upkeep = upkeep = Upkeep(
            games,
            tables,
            play,
            lobbies,
            idle_warn_after=idle_warn_after,
            idle_abandon_after=idle_abandon_after,
            verify_sample=verify_sample,
        )
        self._rounds = Rounds(tables, matches, rematches, upkeep, timers, muggins, deals)
        events = tables.events
        events.registered.append(matches.on_registered)
        events.started += [matches.on_started, rematches.on_started]
        events.lobby_closed += [rematches.on_lobby_closed, matches.on_lobby_closed]
        events.ended.append(matches.on_ended)

    def at(self, where: Place) -> Door[Advice]:
        """A person's requests, made at ``where``: checked at the door first (:mod:`.door`)."""
        return Door(self, self._tables, self._store.games, where)

    # ------------------------------------------------------------------ reading (.reading)

    def view(self, game_id: int) -> GameView | None:
        """The public view of a live lobby or game (``None`` if not live)."""
        return self._reading.view(game_id)

    def game_in_channel(self, channel_id: int) -> GameView | None:
        """The open lobby or game of a channel, if any."""
        return self._reading.game_in_channel(channel_id)

    def live_games(self) -> list[GameView]:
        """Every live lobby and game, by game id."""
        return self._reading.live_games()

    def games_of(self, user_id: int) -> list[GameView]:
        """The live lobbies and games where this user holds a seat."""
        return self._reading.games_of(user_id)

    def private_view(self, game_id: int, user_id: int) -> PrivateView | Refusal:
        """This user's hand, kept cards and legal actions, and the step to put on buttons
        (the same value as the ``hands`` of the last outcome)."""
        return self._reading.private_view(game_id, user_id)

    async def consult(
        self, game_id: int, user_id: int, advisor: Callable[[Game, int], T]
    ) -> T | Refusal:
        """Ask ``advisor(game, seat)`` about this user's position, on a copy of the game, in a
        thread (:meth:`Reading.consult <bot.sessions.reading.Reading.consult>`)."""
        return await self._reading.consult(game_id, user_id, advisor)

    async def advise(self, game_id: int, user_id: int) -> Advice | Refusal:
        """The coach's advice on this user's position (see :meth:`consult`)."""
        return await self._reading.advise(game_id, user_id)

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game (live or not), by kind."""
        return await self._reading.messages(game_id)

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the public message of ``kind`` (e.g. ``"lobby"``, ``"table"``) of a game."""
        await self._reading.set_message(game_id, kind, channel_id, message_id)

    async def replay(self, game_id: int, *, allow_active: bool = False) -> Replay | Refusal:
        """A game rebuilt from its log, deal by deal (hands as dealt included): only for games
        that have ended, unless ``allow_active`` (it reveals every hand)."""
        return await self._reading.replay(game_id, allow_active=allow_active)

    async def summary(self, game_id: int) -> GameSummary | Refusal:
        """An ended game's points by kind, best hands, biggest pegs, luck and skunk lines."""
        return await self._analyst.summary(game_id)

    async def review(self, game_id: int, user_id: int) -> Review | Refusal:
        """``user_id``'s decisions in the ended game ``game_id`` against the expert's, in a
        worker process (:mod:`.analysis`); refuses a game in progress and anyone not seated."""
        return await self._analyst.review(game_id, user_id)

    def stop_reviews(self) -> None:
        """Shut the review worker down (a new one starts with the next review)."""
        self._analyst.stop()

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

    async def move_game(self, game_id: int, channel_id: int) -> GameView | Refusal:
        """The live lobby or game ``game_id`` now lives in ``channel_id`` (a thread opened for
        it): stored, :meth:`game_in_channel` finds it there, and its old channel is free for
        another lobby. Its message ids stay: ``view.messages["lobby"]`` still points at the lobby
        message in the old channel. Through :meth:`at`, its moves are taken from the new channel
        only (:mod:`.door`). Refuses a game that is not live, or a channel with another table
        (``CHANNEL_BUSY``); moving to the channel it is in changes nothing."""
        return await self._tables.move(game_id, channel_id)

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
        if not self._tables.owns(guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
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
        """The host starts a full lobby: the seats cut for the deal (computers at once). With
        ``first_dealer`` (or the dealer a rematch lobby planned) there is no cut: that seat deals
        the first hand at once. A rematch starts by itself once everyone has accepted."""
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
