"""Match play: best of 3 or 5 games with the same seats, scored in games (pure, no I/O).

How a match is scored (docs/players/matches.md, "the win counts as two games"):

* a plain win is worth **1 game** to the winning side;
* a win that skunks a loser is worth **2 games**, a double skunk **3** (with more than two
  sides, the worst-skunked loser decides: the same rule as ``skunk_given`` in the results);
* the first side to hold a majority of the games (:func:`games_needed`: 2 of 3, 3 of 5) wins
  the match, so a skunk can end a best of 3 at 2–0 after one game, and a double skunk ends
  any match at once;
* a forfeit concedes the whole match (status ``"conceded"``; the other side wins it when there
  are two sides), and an abandoned game abandons the match, as does an aborted one (a forfeit
  before its first show: nobody won it);
* each later game is dealt first by the loser of the game before (with more than two players,
  by the player to the left of the previous game's first dealer): ``Game.next_first_dealer``.

>>> tally(3, 2, [GameResult("won", 0, 0), GameResult("won", 1, 1)])
Tally(wins=(1, 2), status='won', winner_side=1)
>>> tally(5, 2, [GameResult("won", 0, 0)])
Tally(wins=(1, 0), status='playing', winner_side=None)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

MatchStatus = Literal["forming", "playing", "won", "conceded", "abandoned", "cancelled"]
MATCH_STATUSES: tuple[MatchStatus, ...] = (
    "forming",
    "playing",
    "won",
    "conceded",
    "abandoned",
    "cancelled",
)
BEST_OF: tuple[int, ...] = (1, 3, 5)
"""The match lengths offered; 1 is a single game (no match is recorded)."""


def match_status(text: str) -> MatchStatus:
    """A match's status as the store keeps it (text); ``ValueError`` for anything else.

    >>> match_status("playing")
    'playing'
    """
    for status in MATCH_STATUSES:
        if text == status:
            return status
    raise ValueError(f"No match status {text!r}")


def games_needed(best_of: int) -> int:
    """Games a side needs to win a match of ``best_of``: a majority.

    >>> games_needed(3), games_needed(5)
    (2, 3)
    """
    return best_of // 2 + 1


def game_points(skunks: Sequence[int]) -> int:
    """Games a win is worth in a match: 1, 2 with a skunk, 3 with a double skunk.

    ``skunks``: per side, 0, 1 or 2 (``Game.skunks``); the winner's own entry is 0.

    >>> game_points([0, 0]), game_points([0, 1]), game_points([2, 0, 1])
    (1, 2, 3)
    """
    return 1 + max(skunks, default=0)


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game of a match ended: ``'won'``, ``'forfeit'``, ``'abandoned'`` or ``'aborted'``
    (stored as abandoned), the winning
    side (``None`` when nobody or several sides won) and the worst skunk the winner gave."""

    end_reason: str
    winner_side: int | None
    skunk: int = 0


@dataclass(frozen=True, slots=True)
class Tally:
    wins: tuple[int, ...]
    status: MatchStatus
    winner_side: int | None


def tally(best_of: int, sides: int, results: Iterable[GameResult]) -> Tally:
    """The match after ``results`` (in the order played); results after the end are ignored."""
    wins = [0] * sides
    needed = games_needed(best_of)
    for result in results:
        if result.end_reason == "forfeit":
            return Tally(tuple(wins), "conceded", result.winner_side)
        if result.end_reason != "won" or result.winner_side is None:
            return Tally(tuple(wins), "abandoned", None)
        wins[result.winner_side] += 1 + result.skunk
        if wins[result.winner_side] >= needed:
            return Tally(tuple(wins), "won", result.winner_side)
    return Tally(tuple(wins), "playing", None)


@dataclass(frozen=True, slots=True)
class MatchView:
    """A match as the players see it: its length, the games each side holds, which game this
    is, and how it stands (``status``: forming, playing, won, conceded, abandoned, cancelled)."""

    match_id: int
    best_of: int
    wins: tuple[int, ...]
    game_number: int
    status: MatchStatus
    winner_side: int | None = None
    ok: ClassVar[bool] = True

    @property
    def needed(self) -> int:
        return games_needed(self.best_of)

    @property
    def over(self) -> bool:
        """The match is decided (or ended without a winner): no further game follows."""
        return self.status not in ("forming", "playing")


@dataclass(frozen=True, slots=True)
class RematchView:
    """A rematch lobby waiting for the players of ``of_game`` to accept.

    It holds the same seats as that game; it starts by itself once every person seated has
    accepted, with ``first_dealer`` dealing (``None``: the seats cut for the deal)."""

    game_id: int
    of_game: int
    first_dealer: int | None
    accepted: tuple[int, ...]
    waiting: tuple[int, ...]
    ok: ClassVar[bool] = True
