"""Turn-timer words: the story's note when time ran out, and the half-time reminder.

>>> from bot.sessions import TimedOut
>>> timeout_lines([TimedOut(0, 11, 7, 1, 3)], ["alice", "bob"])
['⏰ *(played for **alice**: time ran out — 1 of 3)*']
>>> timeout_lines([TimedOut(1, 12, None, 3, 3)], ["alice", "bob"])
['⏰ **bob** ran out of time 3 times and forfeits the game.']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.sessions import TimedOut, TurnReminder

from .text import escape


def timeout_lines(timeouts: Iterable[TimedOut], names: Sequence[str]) -> list[str]:
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


def reminder_text(reminder: TurnReminder) -> str:
    """The channel message that reminds a player at half time (it mentions them)."""
    last_chance = reminder.expiries + 1 >= reminder.forfeit_after
    then = "you forfeit the game" if last_chance else "the computer plays for you"
    return (
        f"<@{reminder.user_id}> ⏳ your move in the cribbage game: time runs out "
        f"<t:{int(reminder.deadline)}:R>, then {then}. Click **Your hand** on the table."
    )
