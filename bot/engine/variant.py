"""The game variants (docs/players/rules.md): 2, 3 or 4 players, partnerships, 121 or 61 points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TARGETS = (121, 61)


@dataclass(frozen=True, slots=True)
class Variant:
    """Who plays and to how many points.

    >>> Variant(players=4, partnerships=True).sides
    2
    >>> Variant(players=3).dealt, Variant(players=3).discards
    (5, 1)
    >>> Variant(players=4, partnerships=True).side_of(3), Variant(players=3).side_of(2)
    (1, 2)
    """

    players: int = 2
    partnerships: bool = False
    target: int = 121
    muggins: bool = False
    """Muggins (docs/players/muggins.md): players count their own hands; an opponent may take the
    points they miss."""

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"Cribbage is played by 2, 3 or 4 players, not {self.players!r}")
        if self.partnerships and self.players != 4:
            raise ValueError("Partnerships need exactly 4 players")
        if self.target not in TARGETS:
            raise ValueError(f"A game is played to 121 or 61 points, not {self.target!r}")

    @property
    def sides(self) -> int:
        """How many sides score: a seat each, or two teams in partnerships."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: its own, or its team (``seat % 2``) in partnerships.

        The one seat -> side rule of the project: partners sit opposite (seats 0 and 2 are
        side 0, seats 1 and 3 side 1).
        """
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> list[int]:
        """The seats that score for ``side``, in seat order."""
        return [s for s in range(self.players) if self.side_of(s) == side]

    @property
    def dealt(self) -> int:
        """Cards dealt to each player."""
        return 6 if self.players == 2 else 5

    @property
    def discards(self) -> int:
        """Cards each player lays away to the crib."""
        return 2 if self.players == 2 else 1

    @property
    def crib_from_pack(self) -> int:
        """Cards dealt straight to the crib (one in the three-handed game)."""
        return 1 if self.players == 3 else 0

    @property
    def skunk_line(self) -> int:
        return 91 if self.target == 121 else 31

    @property
    def double_skunk_line(self) -> int | None:
        return 61 if self.target == 121 else None

    def skunks(self, scores: Sequence[int], winner: int | None) -> list[int]:
        """Per side: 0 none, 1 skunk, 2 double skunk (zeros while there is no ``winner``)."""
        result = []
        for side, score in enumerate(scores):
            if winner is None or side == winner:
                result.append(0)
            elif self.double_skunk_line and score < self.double_skunk_line:
                result.append(2)
            elif score < self.skunk_line:
                result.append(1)
            else:
                result.append(0)
        return result

    @property
    def name(self) -> str:
        who = "4 players in partnerships" if self.partnerships else f"{self.players} players"
        return f"{who}, to {self.target}" + (", muggins" if self.muggins else "")

    def to_dict(self) -> dict[str, int | bool]:
        data: dict[str, int | bool] = {
            "players": self.players,
            "partnerships": self.partnerships,
            "target": self.target,
        }
        if self.muggins:  # absent when off: older snapshots and logs read the same
            data["muggins"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        return cls(
            data["players"], data["partnerships"], data["target"], bool(data.get("muggins", False))
        )
