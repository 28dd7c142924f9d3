"""What the tournament parts (:mod:`.tournaments` and the parts it builds) hand their callers,
and the store's rows read as :mod:`bot.tournament`'s values.

Everything here is a frozen value. A tournament's players are Discord user ids; the rules'
library names them by text (``str(user_id)``), so :class:`TournamentView`'s ``standings`` and
``placings`` name players as text too (``int(standing.player)`` is the user id of the place).
A *place* keeps the id of the person who entered; when the organiser replaces them, the place's
results stay under that id and ``EntrantView.plays`` says who plays it now.

>>> from db.tournaments import PairingRecord
>>> print(result_of(PairingRecord(1, 1, 101, 102, "decided", games=((7, 61, 40),),
...                               decided_by="played"), 61))
round 1: 101 v 102 61-40
>>> print(result_of(PairingRecord(2, 1, 101, 102, "decided", games=((8, 50, 38),),
...                               decided_by="deadline"), 61))
round 2: 101 v 102 61-49
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from bot.tournament import Format, Placing, Result, Scoring, Standing, Tournament
from db.tournaments import (
    DecidedBy,
    EntrantRecord,
    EntrantStatus,
    PairingRecord,
    PairingState,
    TournamentRecord,
    TournamentSettings,
    TournamentStatus,
)

from .views import Outcome


def result_of(p: PairingRecord, target: int) -> Result | None:
    """The rules' :class:`~bot.tournament.Result` of a decided pairing (``None`` until then).

    A game the deadline stopped with the score as it stood counts with the margin it stood at:
    the side ahead is given the ``target`` and the other side the same lead below it."""
    if p.state != "decided":
        return None
    if p.second is None:
        return Result.bye(p.round, str(p.first))
    if p.forfeited_by is not None:
        winner = p.second if p.forfeited_by == p.first else p.first
        return Result.forfeit(p.round, winner=str(winner), loser=str(p.forfeited_by))
    return Result.played(
        p.round, str(p.first), str(p.second), *(final_score(a, b, target) for _, a, b in p.games)
    )


def final_score(first: int, second: int, target: int) -> tuple[int, int]:
    """A game's score as the standings count it: as it ended, or, for a game stopped before
    either side reached ``target``, the lead it stood at, below the target.

    >>> final_score(121, 98, 121), final_score(90, 70, 121), final_score(30, 44, 61)
    ((121, 98), (121, 101), (47, 61))
    """
    first, second = min(first, target), min(second, target)
    if max(first, second) == target:
        return first, second
    lead = abs(first - second)
    return (target, target - lead) if first > second else (target - lead, target)


def wins_of(p: PairingRecord) -> tuple[int, int]:
    """The games each side of a pairing has won so far (first's, second's)."""
    first = sum(1 for _, a, b in p.games if a > b)
    return first, len(p.games) - first


@dataclass(frozen=True, slots=True)
class EntrantView:
    """A place in the tournament: ``user_id`` entered it, ``plays`` plays it now (another
    person when the organiser replaced them); ``seed`` and ``rating`` once it started;
    ``status``: ``entered``, ``dropped`` or ``withdrew``."""

    user_id: int
    plays: int
    seed: int | None
    rating: float | None
    status: EntrantStatus


@dataclass(frozen=True, slots=True)
class PairingView:
    """One pairing: the places ``first`` and ``second`` (``None``: a bye), the people who play
    them (``first_player``, ``second_player``), its thread and current game, its deadline, and
    once decided, its ``result`` and how (``decided_by``: ``played``, ``bye``, ``deadline``,
    ``organiser``, ``withdrawal`` or ``drop``)."""

    round: int
    table: int
    first: int
    second: int | None
    first_player: int
    second_player: int | None
    state: PairingState
    thread_id: int | None
    game_id: int | None
    deadline_at: float | None
    games: tuple[tuple[int, int, int], ...]
    result: Result | None
    decided_by: DecidedBy | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        """The people who play this pairing now."""
        return (
            (self.first_player,)
            if self.second_player is None
            else (
                self.first_player,
                self.second_player,
            )
        )


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as it stands: its settings, where it is announced, its places, every
    pairing so far, and the standings (Swiss, round robin) or placings (elimination) of the
    results so far. ``round``: the round being played (0 during sign-up); ``total_rounds``
    once it started."""

    tournament_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    settings: TournamentSettings
    status: TournamentStatus
    round: int
    total_rounds: int
    entrants: tuple[EntrantView, ...]
    pairings: tuple[PairingView, ...]
    standings: tuple[Standing, ...]
    placings: tuple[Placing, ...]
    created_at: float
    started_at: float | None
    ended_at: float | None
    ok: ClassVar[bool] = True

    @property
    def best_of(self) -> int:
        return 2 * self.settings.games_to_win - 1

    @property
    def current(self) -> tuple[PairingView, ...]:
        """The pairings of the round being played."""
        return tuple(p for p in self.pairings if p.round == self.round)

    @property
    def players(self) -> tuple[int, ...]:
        """The people who play the places still in the tournament."""
        return tuple(e.plays for e in self.entrants if e.status == "entered")

    def pairing_of_game(self, game_id: int) -> PairingView | None:
        """The pairing whose game (current or finished) is ``game_id``."""
        for p in self.pairings:
            if p.game_id == game_id or any(g == game_id for g, _, _ in p.games):
                return p
        return None


@dataclass(frozen=True, slots=True)
class TournamentOutcome:
    """What a tournament request (or a game's end, a deadline) did, once it is durable.

    ``what`` names it: ``created``, ``joined``, ``left``, ``started``, ``paused``, ``resumed``,
    ``extended``, ``dropped``, ``replaced``, ``withdrew``, ``cancelled``, ``result`` (a pairing
    decided by its games), ``next game`` (a pairing's next game started), ``deadline``
    (pairings decided by the round's deadline), ``round`` (a new round paired) or
    ``finished``; ``decided``: the pairings decided now; ``opened``: the new round's pairings
    to open a thread for (byes and walkovers are already decided and are not among them);
    ``playing``: the pairings whose next game (of a best of 3 or 5) started now; ``ping``: who
    to ping about it (the players of ``opened``); ``finished``: the last round was decided now
    (``view`` holds the final standings or placings); ``games``: the outcomes of the games
    this ended or started (a forfeit at the deadline, the next game of a match), to render
    like any other."""

    view: TournamentView
    what: str
    decided: tuple[PairingView, ...] = ()
    opened: tuple[PairingView, ...] = ()
    playing: tuple[PairingView, ...] = ()
    ping: tuple[int, ...] = ()
    finished: bool = False
    games: tuple[Outcome, ...] = field(default=(), repr=False)
    ok: ClassVar[bool] = True


def rules_of(record: TournamentRecord, entrants: Mapping[int, EntrantRecord]) -> Tournament | None:
    """The rules' :class:`~bot.tournament.Tournament` of a started tournament (its field in
    seed order); ``None`` during sign-up."""
    if record.status == "signup" or record.round == 0:
        return None
    field_ = sorted((e for e in entrants.values() if e.seed is not None), key=lambda e: e.seed or 0)
    s = record.settings
    fmt = Format(s.format)
    return Tournament(
        fmt,
        tuple(str(e.user_id) for e in field_),
        rounds=s.rounds if fmt is Format.SWISS else 0,
        target=s.target,
        games_to_win=s.games_to_win,
        seed=record.seed,
        scoring=Scoring(s.spread_cap, s.bye_spread, s.forfeit_spread),
    )
