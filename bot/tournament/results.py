"""What a pairing produced: the games' scores, a bye, or a forfeit; and how spread is scored.

A pairing is one game (to 121 or 61) or a best-of-3/5 match between two players. Its
:class:`Result` holds the final score of each game played; a bye and a forfeit hold none.

>>> r = Result.played(1, "ann", "bob", (121, 97))
>>> r.winner, r.loser, r.spread_for("ann", Scoring()), r.spread_for("bob", Scoring())
('ann', 'bob', 24, -24)
>>> Result.forfeit(2, winner="ann", loser="cy").spread_for("ann", Scoring(forfeit_spread=31))
31
>>> GameScore(121, 121)
Traceback (most recent call last):
...
bot.tournament.results.TournamentError: A cribbage game has a winner: 121-121 is not a final score

**Spread, as the American Cribbage Congress scores it.** In ACC tournament play a game's spread
(its point differential) goes to both players: the winner is credited with the margin by which
the game was won (the winner's final score, the target, less the loser's), the loser with the
same margin as a negative. A player's spread is the sum over their games. The ACC ranks its
qualifying rounds by game points first and uses games won and then point differential to break
ties; clubs commonly cap the spread a single game can contribute, so that one lopsided game
does not outweigh several close ones. Here the organiser sets that cap (:attr:`Scoring.spread_cap`,
per game, none by default), and the fixed spreads of a bye and of a forfeit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class TournamentError(ValueError):
    """A request the tournament's rules do not allow; the message is fit to show the organiser."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """The organiser's settings for spread.

    ``spread_cap``: the most spread one game can give (None: no cap). ``bye_spread``: the spread
    a bye scores (a bye is a win). ``forfeit_spread``: the spread a forfeit scores for the side
    that was present (a win); the side that forfeited takes it as a negative (a loss).

    >>> Scoring(spread_cap=0)
    Traceback (most recent call last):
    ...
    bot.tournament.results.TournamentError: The spread cap must be at least 1 point, not 0
    """

    spread_cap: int | None = None
    bye_spread: int = 0
    forfeit_spread: int = 0

    def __post_init__(self) -> None:
        if self.spread_cap is not None and self.spread_cap < 1:
            raise TournamentError(f"The spread cap must be at least 1 point, not {self.spread_cap}")
        if self.bye_spread < 0 or self.forfeit_spread < 0:
            raise TournamentError("The spread of a bye or a forfeit cannot be negative")

    def capped(self, margin: int) -> int:
        """A game's margin (positive for the winner) after the cap, keeping its sign."""
        if self.spread_cap is None or abs(margin) <= self.spread_cap:
            return margin
        return self.spread_cap if margin > 0 else -self.spread_cap


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game's final score: ``first``'s points and ``second``'s (no draws in cribbage)."""

    first: int
    second: int

    def __post_init__(self) -> None:
        if self.first < 0 or self.second < 0:
            raise TournamentError(f"A score cannot be negative: {self.first}-{self.second}")
        if self.first == self.second:
            raise TournamentError(
                f"A cribbage game has a winner: {self.first}-{self.second} is not a final score"
            )

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one pairing in round ``round`` (numbered from 1).

    Exactly one of three kinds: ``second`` None is a bye for ``first``; ``forfeited_by`` names
    the side that did not play (the other wins by forfeit, no games); otherwise ``games`` holds
    every game played between ``first`` and ``second``, and the side that won more of them won
    the pairing. Build them with :meth:`played`, :meth:`bye` and :meth:`forfeit`.
    """

    round: int
    first: str
    second: str | None = None
    games: tuple[GameScore, ...] = ()
    forfeited_by: str | None = None

    def __post_init__(self) -> None:
        if self.round < 1:
            raise TournamentError(f"Rounds are numbered from 1, not {self.round}")
        if self.first == self.second:
            raise TournamentError(f"{self.first} cannot be paired with themselves")
        if self.second is None:
            if self.games or self.forfeited_by is not None:
                raise TournamentError(f"A bye has no games and no forfeit ({self.first})")
            return
        if self.forfeited_by is not None:
            if self.forfeited_by not in (self.first, self.second):
                raise TournamentError(
                    f"{self.forfeited_by} is not in the pairing {self.first} v {self.second}"
                )
            if self.games:
                raise TournamentError("A forfeited pairing has no games")
            return
        if not self.games:
            raise TournamentError(f"{self.first} v {self.second} has no games")
        won = sum(1 for g in self.games if g.first > g.second)
        if 2 * won == len(self.games):
            raise TournamentError(f"{self.first} v {self.second} is level: nobody won the match")

    @classmethod
    def played(
        cls, round: int, first: str, second: str, *scores: tuple[int, int]
    ) -> Result:
        """The games ``first`` and ``second`` played, each as (first's points, second's)."""
        return cls(round, first, second, tuple(GameScore(a, b) for a, b in scores))

    @classmethod
    def bye(cls, round: int, player: str) -> Result:
        return cls(round, player)

    @classmethod
    def forfeit(cls, round: int, *, winner: str, loser: str) -> Result:
        """``loser`` did not play (dropped, or absent): ``winner`` wins by forfeit."""
        return cls(round, winner, loser, forfeited_by=loser)

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def is_forfeit(self) -> bool:
        return self.forfeited_by is not None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def winner(self) -> str:
        if self.second is None:
            return self.first
        if self.forfeited_by is not None:
            return self.second if self.forfeited_by == self.first else self.first
        won = sum(1 for g in self.games if g.first > g.second)
        return self.first if 2 * won > len(self.games) else self.second

    @property
    def loser(self) -> str | None:
        """The side that lost; None for a bye."""
        if self.second is None:
            return None
        return self.second if self.winner == self.first else self.first

    def opponent(self, player: str) -> str | None:
        """The other side of the pairing (None for a bye)."""
        self._check_in(player)
        return self.second if player == self.first else self.first

    def games_won(self, player: str) -> int:
        self._check_in(player)
        first = player == self.first
        return sum(1 for g in self.games if (g.first > g.second) == first)

    def spread_for(self, player: str, scoring: Scoring) -> int:
        """``player``'s spread from this pairing: each game's margin, capped, summed."""
        self._check_in(player)
        if self.second is None:
            return scoring.bye_spread
        if self.forfeited_by is not None:
            absent = player == self.forfeited_by
            return -scoring.forfeit_spread if absent else scoring.forfeit_spread
        sign = 1 if player == self.first else -1
        return sum(scoring.capped(sign * (g.first - g.second)) for g in self.games)

    def _check_in(self, player: str) -> None:
        if player not in self.players:
            raise TournamentError(f"{player} did not play in {self}")

    def __str__(self) -> str:
        if self.second is None:
            return f"round {self.round}: {self.first} has a bye"
        if self.forfeited_by is not None:
            return f"round {self.round}: {self.winner} wins by forfeit against {self.loser}"
        scores = ", ".join(str(g) for g in self.games)
        return f"round {self.round}: {self.first} v {self.second} {scores}"


def meetings(results: Iterable[Result]) -> dict[str, dict[str, int]]:
    """How many times each pair met (forfeits count: they were paired); byes are left out."""
    met: dict[str, dict[str, int]] = {}
    for r in results:
        if r.second is None:
            continue
        met.setdefault(r.first, {})[r.second] = met.get(r.first, {}).get(r.second, 0) + 1
        met.setdefault(r.second, {})[r.first] = met.get(r.second, {}).get(r.first, 0) + 1
    return met
