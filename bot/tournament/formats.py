"""The formats an organiser can run, the tournament itself, and a round's pairings.

>>> t = Tournament(Format.SWISS, ("ann", "bob", "cy", "dee"), rounds=3)
>>> t.total_rounds, t.best_of
(3, 1)
>>> Tournament(Format.SINGLE_ELIMINATION, tuple("abcde"), games_to_win=2).total_rounds
3
>>> Tournament(Format.ROUND_ROBIN, tuple("abcde")).total_rounds   # a bye every round
5
>>> Tournament(Format.SWISS, ("ann", "ann"), rounds=1)
Traceback (most recent call last):
...
bot.tournament.results.TournamentError: ann is entered twice
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .results import Result, Scoring, TournamentError

TARGETS = (121, 61)
GAMES_TO_WIN = (1, 2, 3)  # a single game, best of 3, best of 5


class Format(enum.Enum):
    SWISS = "swiss"
    ROUND_ROBIN = "round robin"
    SINGLE_ELIMINATION = "single elimination"


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's fixed settings: who entered, the format, and what a pairing is.

    ``players`` is the field in seed order, best first (:func:`seeded` orders them by rating):
    elimination seeds by it, Swiss and round robin use it only to settle exact ties. ``rounds``
    is the number of Swiss rounds (the other formats' follow from the field). A pairing is one
    game to ``target`` (121 or 61) when ``games_to_win`` is 1, else a best-of-3 (2) or
    best-of-5 (3) match. ``seed`` makes the Swiss draw reproducible.
    """

    format: Format
    players: tuple[str, ...]
    rounds: int = 0
    target: int = 121
    games_to_win: int = 1
    seed: int = 0
    scoring: Scoring = field(default_factory=Scoring)

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise TournamentError("A tournament needs at least 2 players")
        seen: set[str] = set()
        for p in self.players:
            if not p:
                raise TournamentError("A player needs a name")
            if p in seen:
                raise TournamentError(f"{p} is entered twice")
            seen.add(p)
        if self.target not in TARGETS:
            raise TournamentError(f"A game is played to 121 or 61 points, not {self.target}")
        if self.games_to_win not in GAMES_TO_WIN:
            raise TournamentError(
                f"A pairing is one game, best of 3 or best of 5, not first to {self.games_to_win}"
            )
        if self.format is Format.SWISS:
            most = len(self.players) - 1 + len(self.players) % 2
            if not 1 <= self.rounds <= most:
                raise TournamentError(
                    f"A Swiss of {len(self.players)} players has 1 to {most} rounds "
                    f"(more would repeat pairings), not {self.rounds}"
                )
        elif self.rounds:
            raise TournamentError(f"The rounds of a {self.format.value} follow from the field")

    @property
    def best_of(self) -> int:
        return 2 * self.games_to_win - 1

    @property
    def total_rounds(self) -> int:
        n = len(self.players)
        if self.format is Format.SWISS:
            return self.rounds
        if self.format is Format.ROUND_ROBIN:
            return n - 1 + n % 2
        return (n - 1).bit_length()

    def check(self, result: Result) -> None:
        """Raise :class:`TournamentError` unless ``result`` can be a result of this tournament."""
        entered = set(self.players)
        for p in result.players:
            if p not in entered:
                raise TournamentError(f"{p} is not entered in this tournament")
        if result.round > self.total_rounds:
            raise TournamentError(
                f"There is no round {result.round}: the tournament has {self.total_rounds}"
            )
        if result.second is None or result.forfeited_by is not None:
            return
        for game in result.games:
            if max(game.first, game.second) != self.target:
                raise TournamentError(
                    f"{result}: a game ends when the winner reaches {self.target}"
                )
        won = result.games_won(result.winner)
        lost = len(result.games) - won
        if won != self.games_to_win or lost >= self.games_to_win:
            raise TournamentError(
                f"{result}: the winner of a best of {self.best_of} wins exactly "
                f"{self.games_to_win} game{'s' if self.games_to_win > 1 else ''}"
            )

    def check_all(self, results: Iterable[Result]) -> None:
        """Check each result, and that nobody appears twice in one round."""
        seen: set[tuple[int, str]] = set()
        for r in results:
            self.check(r)
            for p in r.players:
                if (r.round, p) in seen:
                    raise TournamentError(f"{p} has two results in round {r.round}")
                seen.add((r.round, p))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to play each other at table ``table`` (numbered from 1, top table first)."""

    table: int
    first: str
    second: str

    def __str__(self) -> str:
        return f"table {self.table}: {self.first} v {self.second}"


@dataclass(frozen=True, slots=True)
class Round:
    """The next round: the pairings to play, and what it settles without play.

    ``settled`` holds this round's byes and forfeits (a dropped player's scheduled game) as
    results: the caller records them alongside the games played.
    """

    number: int
    pairings: tuple[Pairing, ...]
    settled: tuple[Result, ...] = ()

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(r.first for r in self.settled if r.is_bye)

    def forfeit(self, player: str) -> Result:
        """The result when ``player`` drops out of this round before playing: the opponent wins.

        >>> rnd = Round(1, (Pairing(1, "ann", "bob"),))
        >>> print(rnd.forfeit("bob"))
        round 1: ann wins by forfeit against bob
        """
        for p in self.pairings:
            if player in (p.first, p.second):
                other = p.second if player == p.first else p.first
                return Result.forfeit(self.number, winner=other, loser=player)
        raise TournamentError(f"{player} has no game to forfeit in round {self.number}")


def seeded(ratings: Mapping[str, float]) -> tuple[str, ...]:
    """The players in seed order: highest rating first, equal ratings by name.

    >>> seeded({"cy": 1010, "ann": 1200, "bob": 1010})
    ('ann', 'bob', 'cy')
    """
    return tuple(sorted(ratings, key=lambda p: (-ratings[p], p)))
