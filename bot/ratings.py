"""Skill ratings for cribbage results, with openskill's Plackett-Luce model.

Understands 2-, 3- and 4-sided games and partnerships (a side is a team of one or two players).
The winner ranks first; the other sides rank by their final score. A skunk counts as RULES.md
says: the win is worth two games against that side (three for a double skunk), so each further
game is one more head-to-head update between the winner and that side only.

>>> alice = bob = DEFAULT_RATING
>>> (alice2,), (bob2,) = rate_game([[alice], [bob]], scores=[121, 84], winner=0, skunks=[0, 1])
>>> alice2.mu > alice.mu > bob2.mu
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative figure shown on the leaderboard: mu - 3 sigma (x 10, rounded)."""
        return round((self.mu - 3 * self.sigma) * 10, 1)


DEFAULT_RATING = Rating(mu=_MODEL.mu, sigma=_MODEL.sigma)


def _ranks(scores: Sequence[int], winner: int) -> list[int]:
    """Rank 0 for the winner; the others by score (higher is better, equal scores tie)."""
    order = sorted({s for i, s in enumerate(scores) if i != winner}, reverse=True)
    return [0 if i == winner else 1 + order.index(s) for i, s in enumerate(scores)]


def rate_game(
    sides: Sequence[Sequence[Rating]],
    *,
    scores: Sequence[int],
    winner: int,
    skunks: Sequence[int],
) -> list[list[Rating]]:
    """New ratings for every player of every side after one finished game.

    ``sides[i]`` holds the ratings of side i's players; ``skunks[i]`` is 0, 1 (skunk) or 2
    (double skunk) for each losing side.
    """
    if not len(sides) == len(scores) == len(skunks) or len(sides) < 2:
        raise ValueError("One score and one skunk figure per side, and at least two sides")
    if not 0 <= winner < len(sides):
        raise ValueError(f"No side {winner} to win")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    teams = _MODEL.rate(teams, ranks=_ranks(scores, winner))
    for loser, skunk in enumerate(skunks):
        if loser == winner:
            continue
        for _ in range(skunk):  # a skunk is one more game won; a double skunk two more
            pair = _MODEL.rate([teams[winner], teams[loser]], ranks=[0, 1])
            teams[winner], teams[loser] = pair[0], pair[1]
    return [[Rating(p.mu, p.sigma) for p in team] for team in teams]
