"""Skill ratings for cribbage results, with openskill's Plackett-Luce model.

Understands 2-, 3- and 4-sided games and partnerships (a side is a team of one or two players).
The winner ranks first; the other sides rank by their final score. A skunk counts as the rules
say (docs/players/rules.md, "Skunks"): the win is worth two games against that side (three
for a double skunk), so each further game is one more head-to-head update between the winner
and that side only.

>>> alice = bob = DEFAULT_RATING
>>> (alice2,), (bob2,) = rate_game([[alice], [bob]], scores=[121, 84], winner=0, skunks=[0, 1])
>>> alice2.mu > alice.mu > bob2.mu
True

:func:`rate_result` is what the store calls for every finished game (see ``db/standings.py``):
it also rates forfeits, by these rules:

* the forfeiting side ranks last; the other sides keep their order by score;
* a forfeit is one game lost, not a skunk, unless a skunk was already on the board: the
  forfeiting side was below the skunk line (91 of 121, 31 of 61) while the leading side had
  passed it. Then it counts as a skunk (never a double: the game was not played out), so that
  conceding does not dodge a skunk.

A forfeit before the first show never reaches the rater: that game is aborted, not finished
(``bot/sessions/bookkeeping.py``).

Shown ratings (:func:`display_rating`): the store keeps openskill's ``mu`` and ``sigma`` (and
sorts on the conservative estimate mu - 3 sigma); players see ``1000 + 30 x (mu - 3 sigma)``,
rounded, never below 0. Why this scale:

* a round start: a new player (mu 25, sigma 25/3) shows exactly **1000**; two new players'
  first game leaves the winner at 1103 and the loser at 945 (the conservative estimate also
  rises as the uncertainty falls, so a loss costs less than a win earns at first);
* 30 points per point of skill reads like Elo between settled players: with openskill's
  beta = 25/6, the Plackett-Luce chance to win is logistic(d mu / (beta sqrt 2)), Elo's is
  logistic(d x ln 10 / 400); they agree when d = 29.5 d mu (so 200 points ~ 3 wins in 4);
* never negative: a rating would need mu - 3 sigma below -33 to reach the floor (about a
  hundred double-skunked losses in a row); the floor keeps even that at 0. The display is
  monotone in the stored estimate, so the order shown is the order sorted.

>>> display_rating(DEFAULT_RATING.mu, DEFAULT_RATING.sigma), display_rating(30.0, 2.0)
(1000, 1720)
>>> display_rating(-40.0, 3.0)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) x 10, as stored: the leaderboard sorts on it."""
        return (self.mu - 3 * self.sigma) * 10

    @property
    def shown(self) -> int:
        """The rating players see (:func:`display_rating`)."""
        return display_rating(self.mu, self.sigma)


DEFAULT_RATING = Rating(mu=_MODEL.mu, sigma=_MODEL.sigma)
DISPLAY_START = 1000  # what a new player shows
DISPLAY_SCALE = 30  # shown points per point of mu - 3 sigma (Elo-like: see the module's text)


def display_rating(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): 1000 for a new player, 30 a point of mu - 3 sigma,
    never below 0."""
    return max(0, round(DISPLAY_START + DISPLAY_SCALE * (mu - 3 * sigma)))


def display_change(before: tuple[float, float], after: tuple[float, float]) -> int:
    """How much a game moved the rating shown."""
    return display_rating(*after) - display_rating(*before)


def _ranks(scores: Sequence[int], winner: int) -> list[float]:
    """Rank 0 for the winner; the others by score (higher is better, equal scores tie)."""
    order = sorted({s for i, s in enumerate(scores) if i != winner}, reverse=True)
    return [0 if i == winner else 1 + order.index(s) for i, s in enumerate(scores)]


def rate_game(
    sides: Sequence[Sequence[Rating]],
    *,
    scores: Sequence[int],
    winner: int,
    skunks: Sequence[int],
    ranks: Sequence[float] | None = None,
) -> list[list[Rating]]:
    """New ratings for every player of every side after one finished game.

    ``sides[i]`` holds the ratings of side i's players; ``skunks[i]`` is 0, 1 (skunk) or 2
    (double skunk) for each losing side. ``ranks`` (0 best, ties allowed) replaces the usual
    order (the winner, then the others by score), e.g. for a forfeit.
    """
    if not len(sides) == len(scores) == len(skunks) or len(sides) < 2:
        raise ValueError("One score and one skunk figure per side, and at least two sides")
    if not 0 <= winner < len(sides):
        raise ValueError(f"No side {winner} to win")
    if ranks is not None and len(ranks) != len(sides):
        raise ValueError("One rank per side")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    teams = _MODEL.rate(teams, ranks=list(ranks) if ranks is not None else _ranks(scores, winner))
    for loser, skunk in enumerate(skunks):
        if loser == winner:
            continue
        for _ in range(skunk):  # a skunk is one more game won; a double skunk two more
            pair = _MODEL.rate([teams[winner], teams[loser]], ranks=[0, 1])
            teams[winner], teams[loser] = pair[0], pair[1]
    return [[Rating(p.mu, p.sigma) for p in team] for team in teams]


class SideResult(Protocol):
    """How a side ended a game, as the store reads it (``db.standings.RatedSide``)."""

    @property
    def ratings(self) -> Sequence[tuple[float, float] | None]: ...  # (mu, sigma); None: new

    @property
    def score(self) -> int: ...

    @property
    def won(self) -> bool: ...

    @property
    def forfeited(self) -> bool: ...

    @property
    def skunk_taken(self) -> int: ...


def skunk_line(target: int) -> int:
    """Below this a loser is skunked: 91 in a game to 121, 31 in a game to 61."""
    return target - 30


def rate_result(sides: Sequence[SideResult], *, target: int) -> list[list[Rating]]:
    """New ratings after a finished game (won or forfeited), by the rules of this module.

    >>> from types import SimpleNamespace as Side
    >>> won = Side(ratings=[None], score=121, won=True, forfeited=False, skunk_taken=0)
    >>> lost = Side(ratings=[(25.0, 8.0)], score=80, won=False, forfeited=False, skunk_taken=1)
    >>> (winner,), (loser,) = rate_result([won, lost], target=121)
    >>> winner.mu > DEFAULT_RATING.mu and loser.mu < 25.0
    True
    """
    ratings = [[DEFAULT_RATING if r is None else Rating(*r) for r in s.ratings] for s in sides]
    scores = [s.score for s in sides]
    forfeits = [i for i, s in enumerate(sides) if s.forfeited]
    if not forfeits:
        winners = [i for i, s in enumerate(sides) if s.won]
        if len(winners) != 1:
            raise ValueError(f"A game that was not forfeited has one winner, not {len(winners)}")
        skunks = [s.skunk_taken for s in sides]
        return rate_game(ratings, scores=scores, winner=winners[0], skunks=skunks)
    playing = [i for i in range(len(sides)) if i not in forfeits]
    if not playing:
        raise ValueError("Every side forfeited")
    leader = max(playing, key=lambda i: scores[i])
    order = sorted({scores[i] for i in playing}, reverse=True)
    ranks = [len(order) if i in forfeits else order.index(scores[i]) for i in range(len(sides))]
    line = skunk_line(target)
    skunks = [
        1 if i in forfeits and scores[i] < line <= scores[leader] else 0 for i in range(len(sides))
    ]
    return rate_game(ratings, scores=scores, winner=leader, skunks=skunks, ranks=ranks)


class OpenSkillRater:
    """:func:`rate_result` as the store's rater (``db.standings.Rater``): the store calls it
    inside the transaction that ends a game, with every side's current ratings."""

    default = (DEFAULT_RATING.mu, DEFAULT_RATING.sigma)

    def __call__(self, sides: Sequence[SideResult], *, target: int) -> list[list[Rating]]:
        return rate_result(sides, target=target)


RATER = OpenSkillRater()
