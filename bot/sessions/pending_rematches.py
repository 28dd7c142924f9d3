"""The rematch lobbies waiting for their players: which ended game each repeats, who accepted.

Kept apart from :mod:`.rematch` (which asks for and accepts rematches) because the lobbies
read it too: a rematch lobby starts only once everyone has accepted, and leaving one declines
it. A rematch lobby that starts or closes is forgotten (``started`` and ``lobby_closed``
listeners of :class:`~bot.sessions.tables.TableEvents`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from db.matches import Matches as MatchRows

from .session import Session


@dataclass(slots=True)
class PendingRematch:
    """A rematch lobby of the ended game ``of_game``: the people who have accepted so far."""

    of_game: int
    accepted: set[int] = field(default_factory=set)

    def waiting(self, s: Session) -> list[int]:
        """The people seated at the rematch lobby ``s`` who have not accepted yet."""
        people = [v.user_id for v in s.seats.values() if v.user_id is not None]
        return [u for u in people if u not in self.accepted]


class PendingRematches(dict[int, PendingRematch]):
    """The open rematch lobbies, by game id."""

    def waits(self, s: Session) -> bool:
        """``s`` is a rematch lobby still waiting for someone to accept."""
        pending = self.get(s.id)
        return pending is not None and bool(pending.waiting(s))

    async def on_started(self, s: Session) -> None:
        self.pop(s.id, None)

    async def on_lobby_closed(self, s: Session) -> None:
        self.pop(s.id, None)

    async def load(self, rows: MatchRows) -> None:
        """Load the open rematch lobbies (before the tables)."""
        for pending in await rows.pending_rematches():
            self[pending.game_id] = PendingRematch(pending.of_game, set(pending.accepted))
