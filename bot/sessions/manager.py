"""GameSessionManager: builds the parts that own the live games, wires them, resumes, shuts down.

Every request on a game runs under that game's :class:`asyncio.Lock`: it checks the user and the
step, applies the action to a *copy* of the game, commits action + snapshot (+ per-deal points,
+ results for a final action) in one transaction, and only then swaps the copy in and answers.
So nothing a caller can read (views, private views, outcomes) was ever uncommitted, and a
refused or failed request changes nothing.

A person's click or command is one typed request (:mod:`.requests`: ``Move``, ``Join``, ...,
each with the :class:`~.requests.Place` it was made at), which the cog hands to the part that
owns it; that part asks the one :class:`~.guard.Guard` first. The parts, each a public
attribute of the manager (one module each; plain objects handed what they use):

====================  ==============================================================
``live``              :mod:`.live`: the live tables, read-only (views by game, by
                      channel, by user; a frozen :class:`~.live.TableView` by id)
``tables``            :mod:`.tables`: the live tables' registry, the clock, a table
                      moved to a thread (``tables.move``), the table events
``play``              :mod:`.play`: ``act`` (a ``Move``) and ``forfeit``; the commit
                      path, computer moves and endings the other parts use
``lobbies``           :mod:`.lobby`: ``open``, ``join``, ``add_computer``, ``leave``,
                      ``remove_computer``, ``set_variant``, ``cancel``, ``start``
``rematches``         :mod:`.rematch`: ``ask``, ``accept``, ``decline``, ``view``
``matches``           :mod:`.matches`: best of 3 or 5; each next game started at once
``hands``             :mod:`.hands`: ``private_view``, ``advise`` (the coach), ``consult``
``records``           :mod:`.records`: message ids (``messages``, ``set_message``),
                      ``replay``
``analysis``          :mod:`.analysis`: an ended game's ``summary``; a player's
                      ``review`` (in a worker process)
``timers``            :mod:`.timers`: turn timers (``turns``, ``sweep``)
``muggins``           :mod:`.muggins`: muggins windows (``closes_at``, ``close_due``)
``deals``             :mod:`.deals`: the pause between deals (``due_at``, ``start_due``)
``idle``              :mod:`.idle`: idle warnings and abandons (``sweep``)
``loader``            :mod:`.loading`: the tables loaded and checked against their logs
                      (``verify``, ``verify_all``)
``settings``          :mod:`.settings`: each server's and each person's settings
``guard``             :mod:`.guard`: the check of every request
``tournaments``       :mod:`.tournaments`: the director (reading, restart) and its parts
                      ``signup`` (``create``, ``join``, ``start``), ``games``
                      (``open_pairing``), ``deadlines`` (``sweep``), ``controls``
====================  ==============================================================

Beside them, without state of their own: :mod:`.session` (one table's record and its views),
:mod:`.views` (the values handed to callers), :mod:`.bookkeeping` (button freshness, points per
deal, endings), :mod:`.history` (replaying a log), :mod:`.matchplay` (the rules of a match),
:mod:`.strategy` (the fallback computer), :mod:`.pending_rematches` (the rematch lobbies
waiting for their players).

The parts hear of each other through :class:`~.tables.TableEvents`, subscribed here: a table
registered shows its match; a lobby started begins its match and ends its rematch wait; a lobby
closed cancels both; a game ended updates its match's tally; and every outcome a part hands
back passes through :meth:`OpenMatches.follow <.matches.OpenMatches.follow>` (``follow``),
which starts a match's next game.

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> from bot.sessions import AddComputer, Move, OpenLobby, ShowHand, Start
>>> async def demo(path):
...     store = await Store.open(path)
...     manager = GameSessionManager(store)
...     await manager.resume()
...     lobby = await manager.lobbies.open(OpenLobby(guild_id=1, channel_id=10, host_id=111))
...     await manager.lobbies.add_computer(AddComputer(lobby.game_id, 111, "easy"))
...     started = await manager.lobbies.start(Start(lobby.game_id, 111))
...     mine = manager.hands.private_view(ShowHand(lobby.game_id, 111))
...     move = Move(lobby.game_id, 111, mine.legal_actions[0], step=mine.step)
...     outcome = await manager.play.act(move)
...     await store.close()
...     return started.view.status.value, outcome.ok, outcome.step > mine.step
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
('active', True, True)
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.engine import Game
from db import Store

from .analysis import Analyst
from .deals import NextDeals
from .guard import Guard
from .hands import PlayerHands
from .idle import IdleSweep
from .live import LiveTables
from .loading import TableLoader
from .lobby import Lobbies
from .matches import OpenMatches
from .muggins import MugginsWindows
from .pending_rematches import PendingRematches
from .play import GamePlay
from .records import GameRecords
from .rematch import RematchLobbies
from .settings import TableSettings
from .strategy import Strategy, simple_strategy
from .tables import Clock, Owns, Tables
from .timers import FORFEIT_AFTER, TurnTimers
from .tournaments import TournamentDirector
from .views import ResumeReport

Advice = TypeVar("Advice", covariant=True)


def _random_seed() -> int:
    return secrets.randbits(128)


class GameSessionManager(Generic[Advice]):
    """The owner of live games: builds its parts (see the module docstring) and wires them.

    ``strategy(game, seat, level) -> Action`` plays the computer seats (default:
    :func:`~bot.sessions.strategy.simple_strategy`); ``coach(game, seat)`` answers
    ``hands.advise`` (the app passes ``bot.ai.coach.hint``; without one, advice is refused).
    ``idle_warn_after``, ``idle_abandon_after``: :mod:`.idle`; ``verify_sample``:
    :mod:`.loading`; ``forfeit_after``: :mod:`.timers`. ``owns(guild_id)``: whether this process
    serves that server's games (one shard process of several: :mod:`.tables`; default: all).
    Call :meth:`resume` once, before serving.
    """

    def __init__(
        self,
        store: Store,
        *,
        strategy: Strategy | None = None,
        coach: Callable[[Game, int], Advice] | None = None,
        idle_warn_after: float = 23 * 3600,
        idle_abandon_after: float = 24 * 3600,
        verify_sample: int = 8,
        clock: Clock = time.time,
        seed_source: Callable[[], int] = _random_seed,
        forfeit_after: int = FORFEIT_AFTER,
        owns: Owns | None = None,
    ) -> None:
        self._store = store
        games, rows = store.games, store.matches
        self.tables = tables = Tables(games, clock, owns)
        self.live = LiveTables(tables)
        self.guard = guard = Guard(tables, games)
        self.settings = settings = TableSettings(store.settings, store.players, tables.now)
        self.play = play = GamePlay(
            games,
            tables,
            settings,
            store.players,
            guard,
            strategy=strategy or simple_strategy,
            seed_source=seed_source,
        )
        self.matches = matches = OpenMatches(rows, games, tables, play)
        self._pending = pending = PendingRematches()
        self.lobbies = lobbies = Lobbies(store.lobbies, tables, play, guard, matches, pending)
        self.rematches = RematchLobbies(rows, games, tables, guard, lobbies, matches, pending)
        self.hands: PlayerHands[Advice] = PlayerHands(tables, guard, coach)
        self.records = records = GameRecords(games, tables)
        self.analysis = Analyst(records)
        self.timers = TurnTimers(
            store.turns, games, tables, play, settings, forfeit_after=forfeit_after
        )
        self.muggins = MugginsWindows(tables, play)
        self.deals = NextDeals(tables, play, settings)
        self.idle = IdleSweep(
            games,
            tables,
            play,
            lobbies,
            matches,
            warn_after=idle_warn_after,
            abandon_after=idle_abandon_after,
        )
        self.loader = TableLoader(games, tables, play, verify_sample=verify_sample)
        self._rows = rows
        self._resumed = False
        events = tables.events
        events.registered.append(matches.on_registered)
        events.started += [matches.on_started, pending.on_started]
        events.lobby_closed += [pending.on_lobby_closed, matches.on_lobby_closed]
        events.ended.append(matches.on_ended)
        events.follow = matches.follow
        self.tournaments = TournamentDirector(  # after matches: its follow runs theirs first
            store.tournaments, games, tables, play, seed_source=seed_source
        )

    def set_clock(self, clock: Clock) -> None:
        """Read the time from ``clock`` from now on (every part reads the manager's clock)."""
        self.tables.clock = clock

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """Load every lobby and active game, check a sample against its log, and resume.

        ``verify``: how many active games to replay from their log (default
        ``verify_sample``; pass a large number for all). Games whose snapshot is not at the end
        of their log are always replayed. Computer seats that were about to move, move now (and
        a person's last or only card is laid), and a match whose game ended just before a
        restart starts its next game; the outcomes are in the report so the cogs can update the
        channels. Runs once, before the manager serves requests.
        """
        if self._resumed:
            raise RuntimeError("resume() runs once, before the manager serves requests")
        self._resumed = True
        await self._pending.load(self._rows)
        await self.matches.load()
        report = await self.loader.load(verify=verify)
        outcomes = await self.tables.events.follow_all(report.outcomes)
        await self.matches.begin_started()
        outcomes += await self.matches.continue_due()
        await self.tournaments.load()  # its news: manager.tournaments.resumed
        return dataclasses.replace(report, outcomes=tuple(outcomes))

    def shutdown(self) -> None:
        """Stop the review worker (a new one starts with the next review); the store is closed
        by its owner, after the cogs stopped."""
        self.analysis.stop()
