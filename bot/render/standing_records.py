"""The shapes of the records the standings embeds read (:mod:`bot.render.standings`).

Structural types: the store's leaderboard records (``db.leaderboard``: ``StandingRow``,
``LeaderboardPage``, ``PlayerStats``, ``Participant``, ``HistoryEntry``) have them, and so
would any other source; the renderers import neither the store nor the sessions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

Ranking = tuple[float, float]
"""A rating as (mu, sigma)."""


class StandingLine(Protocol):
    """A player's line on the leaderboard (a computer's ``player`` is negative)."""

    @property
    def rank(self) -> int: ...

    @property
    def player(self) -> int: ...

    @property
    def mu(self) -> float: ...

    @property
    def sigma(self) -> float: ...

    @property
    def games(self) -> int: ...

    @property
    def wins(self) -> int: ...

    @property
    def win_rate(self) -> float: ...

    @property
    def skunks_given(self) -> int: ...

    @property
    def provisional(self) -> bool: ...


class BoardPage(Protocol):
    """One page of a leaderboard (``page`` from 0), and the asking player's line (``me``)
    wherever it ranks. ``pool``: ``"people"``, ``"computers"`` or ``"all"``."""

    @property
    def pool(self) -> str: ...

    @property
    def sort(self) -> str: ...

    @property
    def page(self) -> int: ...

    @property
    def pages(self) -> int: ...

    @property
    def total(self) -> int:
        """Players ranked."""
        ...

    @property
    def rows(self) -> Sequence[StandingLine]: ...

    @property
    def me(self) -> StandingLine | None: ...


class PlayerRecord(Protocol):
    """A player's record over finished games (see the store's ``PlayerStats``)."""

    @property
    def games(self) -> int: ...

    @property
    def wins(self) -> int: ...

    @property
    def losses(self) -> int: ...

    @property
    def win_rate(self) -> float: ...

    @property
    def forfeits(self) -> int: ...

    @property
    def skunks_given(self) -> int: ...

    @property
    def skunks_taken(self) -> int: ...

    @property
    def computer_games(self) -> int: ...

    @property
    def computer_wins(self) -> int: ...

    @property
    def deals(self) -> int: ...

    @property
    def pegging(self) -> int: ...

    @property
    def hand(self) -> int: ...

    @property
    def crib(self) -> int: ...

    @property
    def heels(self) -> int: ...

    def per_deal(self, points: int) -> float: ...

    @property
    def best_hand(self) -> int | None: ...

    @property
    def best_hand_cards(self) -> str | None:
        """``"5H 5C 5S JD|5D"`` (hand | starter)."""
        ...

    @property
    def streak_won(self) -> bool | None: ...

    @property
    def streak(self) -> int: ...

    @property
    def rival(self) -> int | None: ...

    @property
    def rival_games(self) -> int: ...

    @property
    def rival_wins(self) -> int: ...

    @property
    def rating(self) -> Ranking | None: ...

    @property
    def rated_games(self) -> int: ...

    @property
    def rank(self) -> int | None: ...

    @property
    def ranked_players(self) -> int: ...


class Participant(Protocol):
    """Another seat of a game in someone's history: a person (``user_id``) or a computer."""

    @property
    def seat(self) -> int: ...

    @property
    def side(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def computer(self) -> str | None: ...

    @property
    def score(self) -> int: ...


class PastGame(Protocol):
    """One ended game, from one player's seat (see the store's ``HistoryEntry``)."""

    @property
    def game_id(self) -> int:
        """The game's id (``/cribbage replay game:`` takes it)."""
        ...

    @property
    def ended_at(self) -> float: ...

    @property
    def end_reason(self) -> str:
        """``'won'``, ``'forfeit'``, ``'abandoned'`` or ``'aborted'`` (a forfeit before the
        first show: not counted)."""
        ...

    @property
    def forfeit_seat(self) -> int | None:
        """The seat that forfeited (or left an aborted game)."""
        ...

    @property
    def seat(self) -> int: ...

    @property
    def target(self) -> int: ...

    @property
    def outcome(self) -> str:
        """``'won'``, ``'lost'``, ``'forfeited'`` or ``'abandoned'``."""
        ...

    @property
    def score(self) -> int: ...

    @property
    def skunk_given(self) -> int: ...

    @property
    def skunk_taken(self) -> int: ...

    @property
    def partners(self) -> Sequence[Participant]: ...

    @property
    def opponents(self) -> Sequence[Participant]: ...

    @property
    def rating_before(self) -> Ranking | None: ...

    @property
    def rating_after(self) -> Ranking | None: ...
