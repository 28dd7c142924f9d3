"""Turn-timer words: the story's note when time ran out, and the half-time reminder.

They read any value of the shapes below (the session manager's ``TimedOut`` and
``TurnReminder`` have them):

>>> from types import SimpleNamespace
>>> note = SimpleNamespace(seat=0, forfeited=False, expiries=1, forfeit_after=3)
>>> timeout_lines([note], ["alice", "bob"])
['⏰ *(played for **alice**: time ran out — 1 of 3)*']
>>> note = SimpleNamespace(seat=1, forfeited=True, expiries=3, forfeit_after=3)
>>> timeout_lines([note], ["alice", "bob"])
['⏰ **bob** ran out of time 3 times and forfeits the game.']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from .text import escape


class TimeoutNote(Protocol):
    """A turn that ran out: the computer played for ``seat``, or (``forfeited``) it forfeits.
    ``expiries``: the seat's turns run out in this game so far; ``forfeit_after``: how many
    make it forfeit."""

    @property
    def seat(self) -> int: ...

    @property
    def forfeited(self) -> bool: ...

    @property
    def expiries(self) -> int: ...

    @property
    def forfeit_after(self) -> int: ...


class Reminder(Protocol):
    """A reminder for ``user_id`` that their move is due at ``deadline`` (a Unix time)."""

    @property
    def user_id(self) -> int: ...

    @property
    def deadline(self) -> float: ...

    @property
    def expiries(self) -> int: ...

    @property
    def forfeit_after(self) -> int: ...


def timeout_lines(timeouts: Iterable[TimeoutNote], names: Sequence[str]) -> list[str]:
    """One story line per turn that ran out, for the story of the deal it happened in."""
    lines = []
    for timeout in timeouts:
        name = escape(names[timeout.seat])
        if timeout.forfeited:
            lines.append(
                f"⏰ **{name}** ran out of time {timeout.expiries} times and forfeits the game."
            )
        else:
            lines.append(
                f"⏰ *(played for **{name}**: time ran out — "
                f"{timeout.expiries} of {timeout.forfeit_after})*"
            )
    return lines


def reminder_text(reminder: Reminder) -> str:
    """The channel message that reminds a player at half time (it mentions them)."""
    last_chance = reminder.expiries + 1 >= reminder.forfeit_after
    then = "you forfeit the game" if last_chance else "the computer plays for you"
    return (
        f"<@{reminder.user_id}> ⏳ your move in the cribbage game: time runs out "
        f"<t:{int(reminder.deadline)}:R>, then {then}. Click **Your hand** on the table."
    )
