"""The ``/cribbage settings`` embed: a server's settings, the changed ones marked.

It reads any value of the :class:`Settings` shape (the store's ``ServerSettings`` has it):

>>> from types import SimpleNamespace
>>> settings = SimpleNamespace(
...     target=121, images=True, turn_minutes=None, muggins=False, computer_games_count=False,
...     next_deal_seconds=20, threads=True,
... )
>>> embed = settings_embed(settings, changed={"turn_minutes"})
>>> [(f.name, f.value) for f in embed.fields][2]
('Turn time ✏️', 'off: nobody is hurried')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from .embeds import Embed

SETTINGS_GREEN = 0x1F8B4C  # Discord's own dark green (discord.Colour.dark_green)


class Settings(Protocol):
    """One server's settings, as the embed shows them."""

    @property
    def target(self) -> int:
        """The game a new table plays to unless its host says otherwise."""
        ...

    @property
    def images(self) -> bool:
        """Draw the board, the show and hands as pictures."""
        ...

    @property
    def turn_minutes(self) -> int | None:
        """How long a player has for a move (``None``: no turn timer)."""
        ...

    @property
    def muggins(self) -> bool:
        """The muggins rule, for new tables."""
        ...

    @property
    def computer_games_count(self) -> bool:
        """Games with a computer seat count on the server's leaderboard."""
        ...

    @property
    def next_deal_seconds(self) -> int:
        """After a show, how long before the next deal starts by itself (0: at once)."""
        ...

    @property
    def threads(self) -> bool:
        """Each game is played in a thread of its own."""
        ...


def turn_time_text(minutes: int | None) -> str:
    """``'5 minutes'``, ``'1 minute'`` or ``'off'``."""
    if minutes is None:
        return "off"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def next_deal_text(seconds: int) -> str:
    """How the next deal starts, for a pause of ``seconds``."""
    if seconds == 0:
        return "at once, without waiting for Next deal"
    unit = "second" if seconds == 1 else "seconds"
    return f"when everyone clicked Next deal, or after {seconds} {unit}"


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def settings_embed(
    settings: Settings, *, changed: Collection[str] = (), forfeit_after: int = 3
) -> Embed:
    """Every setting with a word on what it does; ``changed`` (setting names) are marked.
    ``forfeit_after``: how many turns run out make a player forfeit."""
    minutes = settings.turn_minutes
    rows = [
        ("target", "Game to", f"{settings.target} points, unless a table's host picks"),
        ("images", "Pictures", f"{_on_off(settings.images)}: board, show and hands as images"),
        (
            "turn_minutes",
            "Turn time",
            "off: nobody is hurried"
            if minutes is None
            else f"{turn_time_text(minutes)}; then the computer plays for the absent player "
            f"({forfeit_after} times and they forfeit)",
        ),
        ("muggins", "Muggins", f"{_on_off(settings.muggins)} for new tables"),
        (
            "computer_games_count",
            "Games with a computer",
            "count on the leaderboard" if settings.computer_games_count else "not counted",
        ),
        ("next_deal_seconds", "Next deal", next_deal_text(settings.next_deal_seconds)),
        (
            "threads",
            "A thread per game",
            "on: each game gets a thread, the channel one line per game"
            if settings.threads
            else "off: games play in the channel",
        ),
    ]
    embed = Embed(
        title="Cribbage settings for this server" if not changed else "Cribbage settings saved",
        description="Change them with `/cribbage settings` and its options."
        if not changed
        else "✏️ marks what you changed. A new turn time applies at once, to games in play too.",
        colour=SETTINGS_GREEN,
    )
    for key, name, value in rows:
        embed = embed.with_field(f"{name} ✏️" if key in changed else name, value, inline=False)
    return embed
