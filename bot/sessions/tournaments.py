"""Tournaments (``manager.tournaments``): the director that puts the tournament parts together,
reads the tournaments being run, and reloads them at a restart.

The rules (formats, pairing, byes, standings, placings) are :mod:`bot.tournament`'s; the parts
keep a tournament going: each stores every step (:mod:`db.tournaments`) before it answers, and
hands back a :class:`~.tournament_views.TournamentOutcome` (what changed, the new round's
pairings to open a thread for, who to ping) or a :class:`~.views.Refusal` whose message is fit
for the person who asked. A caller reaches the part that does the work:

=======================  ===================================================================
``signup``               :mod:`.tournament_signup`: ``create``, ``set_message``, ``join``,
                         ``leave``, ``start``
``games``                :mod:`.tournament_games`: ``open_pairing``; each pairing's games
                         started, their ends recorded, a pairing decided
``deadlines``            :mod:`.tournament_deadlines`: ``sweep`` (start times, deadlines)
``controls``             :mod:`.tournament_controls`: ``pause``, ``resume``, ``extend``,
                         ``cancel``, ``drop``, ``replace``, ``withdraw``
(the director)           ``view``, ``running``, ``in_channel``, ``of_game``,
                         ``is_pairing_game``, ``listeners``, ``load`` and ``resumed``
=======================  ===================================================================

Beneath them: :mod:`.tournament_state` (the tournaments being run, each with its lock, shared
by every part), :mod:`.tournament_rounds` (seeding, each next round, the end) and
:mod:`.tournament_views` (the values handed to callers).

The course of a tournament:

1. **Sign-up**: one tournament at a time per channel; no one twice; at most its cap.
2. **Start** (by the organiser, or by the sweep once its start time has come: fewer than 2
   players then cancels it): the field is seeded by rating and round 1 is paired.
3. **Rounds**: the cog opens a thread for each pairing and asks for its game there; a
   pairing's games count by games won. When the round's last result is in, the next round
   pairs itself, and after the last round the tournament is finished.
4. **Deadlines**: each pairing has until the round's deadline; then the sweep decides it by the
   organiser's rule.
5. **The organiser** may pause, resume, extend the round's deadline, drop or replace a player,
   and cancel; a player may withdraw.

Restarts: :meth:`~TournamentDirector.load` (from ``manager.resume``, after the games are loaded)
reloads every tournament not over; their games resume as all games do; a pairing whose game
ended while the bot was down is recorded then, a pairing decided while its game was still being
played (a deadline, a drop) has that game forfeited then, a round completed meanwhile opens the
next, and the deadlines are the stored ones, which the sweeps keep checking.
"""

from __future__ import annotations

from collections.abc import Callable

from db.games import Games
from db.tournaments import Tournaments

from .play import GamePlay
from .tables import Tables
from .tournament_controls import Controls
from .tournament_deadlines import Deadlines
from .tournament_games import PairingGames
from .tournament_rounds import Rounds
from .tournament_signup import SignUp
from .tournament_state import Listener, Running, RunningTournaments
from .tournament_views import TournamentOutcome, TournamentView
from .views import Outcome


class TournamentDirector:
    """The tournaments of this process (see the module docstring).

    ``listeners``: called with every :class:`TournamentOutcome` a game's end brings about (a
    result, a round, the end). ``resumed``: what :meth:`load` did at start-up, for the cog to
    announce. Made after the manager set its ``follow``: the pairings' games record a game's end
    after it.
    """

    def __init__(
        self,
        rows: Tournaments,
        games: Games,
        tables: Tables,
        play: GamePlay,
        *,
        seed_source: Callable[[], int],
    ) -> None:
        self._running = running = RunningTournaments(rows, tables)
        self._tables = tables
        rounds = Rounds(running, rows, tables)
        self.games = PairingGames(running, rows, games, tables, play, rounds)
        self.signup = SignUp(running, rows, tables, rounds, seed_source=seed_source)
        self.deadlines = Deadlines(running, rows, tables, rounds, self.games)
        self.controls = Controls(running, rows, tables, rounds, self.games)
        self._rounds = rounds
        self._rows = rows
        self.listeners: list[Listener] = running.listeners
        self.resumed: tuple[TournamentOutcome, ...] = ()

    # ------------------------------------------------------------------ reading

    def view(self, tournament_id: int) -> TournamentView | None:
        """A tournament not over, as it stands (``None``: none such in this process)."""
        live = self._running.open.get(tournament_id)
        return None if live is None else live.view()

    def running(self) -> tuple[TournamentView, ...]:
        """Every tournament not over in this process, as it stands."""
        return tuple(live.view() for live in self._running.open.values())

    def in_channel(self, channel_id: int) -> TournamentView | None:
        """The tournament not over announced in ``channel_id``, or played in one of its
        pairings' threads."""
        for live in self._running.open.values():
            if live.record.channel_id == channel_id or any(
                p.thread_id == channel_id for p in live.current()
            ):
                return live.view()
        return None

    def of_game(self, game_id: int) -> TournamentView | None:
        """The tournament whose pairing's game ``game_id`` is."""
        key = self._running.pairing_of.get(game_id)
        live = None if key is None else self._running.open.get(key[0])
        return None if live is None else live.view()

    def is_pairing_game(self, game_id: int) -> bool:
        """Whether ``game_id`` was a game of a tournament's pairing: one not over, or one that
        ended in this process (the last game of a tournament ends it before its result is
        shown)."""
        return game_id in self._running.pairing_of or game_id in self._running.closed_games

    # ------------------------------------------------------------------ resume

    async def load(self) -> tuple[TournamentOutcome, ...]:
        """Reload the tournaments not over (after the games are loaded); record what ended
        while the bot was down and open the rounds completed meanwhile (kept in
        :attr:`resumed` too)."""
        running = self._running
        for stored in await self._rows.load_open():
            if not self._tables.owns(stored.record.guild_id):
                continue  # another process's
            live = running.open[stored.record.id] = Running.of(stored)
            for p in stored.pairings:
                if p.game_id is not None and p.state == "playing":
                    running.pairing_of[p.game_id] = (live.id, p.round, p.table)
        news: list[TournamentOutcome] = []
        for game_id in list(running.pairing_of):
            if game_id in self._tables.sessions:
                continue
            finish = await self.games.finish_of(game_id)
            if finish is not None:
                running.ended[game_id] = finish
        heard: list[TournamentOutcome] = []
        self.listeners.append(_collect(heard))
        try:
            await self.games.record_ended()
        finally:
            self.listeners.pop()
        news += heard
        for live in list(running.open.values()):
            async with live.lock:
                games: list[Outcome] = []
                for p in live.current():  # decided, but stopped before its game was ended
                    if p.state == "decided" and p.game_id is not None:
                        stopped = await self.games.end_game(p, p.forfeited_by)
                        games += [] if stopped is None else [stopped]
                later = await self._rounds.advance(live)
                if later.opened or later.finished or games:
                    news.append(
                        live.outcome(
                            "finished" if later.finished else "round" if later.opened else "result",
                            opened=later.opened,
                            finished=later.finished,
                            games=games,
                        )
                    )
        self.resumed = tuple(news)
        return self.resumed


def _collect(into: list[TournamentOutcome]) -> Listener:
    async def keep(news: TournamentOutcome) -> None:
        into.append(news)

    return keep
