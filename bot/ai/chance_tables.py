"""The shipped chance-to-win tables of a two-sided game, read: :func:`chance` answers P(win | my
score, their score, whether I deal) at the start of a deal, for games to 121 and to 61;
:func:`measured` and :func:`pegging` are the measured distributions of each stage of a deal
(pegging, hands, crib) that value a decision near the end (:mod:`bot.ai.deal_chances`,
:mod:`bot.ai.team_discard`, :mod:`bot.ai.team_ending`).

``data/winchance.json`` is the table for two players, ``data/winchance_partners.json`` for four
in partnerships (two sides too; the side that deals is the "dealer" and the other the "pone"
side). How they are made: :mod:`bot.ai.winchance` (``python -m bot.ai.winchance``), which
self-plays the computer players; so the reading sits here, below the players that consult it.
"""

from __future__ import annotations

import base64
import json
import zlib
from array import array
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .view import SeatKnowledge

DATA_FILE = "winchance.json"
DATA_FILES = {"2p": DATA_FILE, "partners": "winchance_partners.json"}
"""The table of each kind of two-sided game."""
MAX_NEED = 121
SCALE = 65535


@cache
def _data(kind: str = "2p") -> dict[str, Any]:
    name = DATA_FILES[kind]
    text = resources.files("bot.ai").joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _table(kind: str = "2p") -> tuple[float, ...]:
    packed = _data(kind)["dealer_wins"]
    values = array("H")
    values.frombytes(zlib.decompress(base64.b64decode(packed)))
    return tuple(v / SCALE for v in values)


def dealer_chance(dealer_needs: int, pone_needs: int, kind: str = "2p") -> float:
    """The dealer's chance to win at the start of a deal (needs of at least 1, at most 121)."""
    if dealer_needs <= 0 or pone_needs <= 0:
        return 1.0 if dealer_needs <= 0 else 0.0
    x, y = min(dealer_needs, MAX_NEED), min(pone_needs, MAX_NEED)
    return _table(kind)[(x - 1) * MAX_NEED + (y - 1)]


def chance(me: float, them: float, deal: bool, target: int = 121, kind: str = "2p") -> float:
    """My chance to win at the start of a deal with these scores (``deal``: I deal next; in
    partnerships, ``kind="partners"``, my side and the other).

    Fractional scores (expected points) are read between the four nearest whole scores."""
    if me >= target:
        return 1.0
    if them >= target:
        return 0.0
    a, b = int(me), int(them)
    fa, fb = me - a, them - b
    grid = _grid(target, deal, kind)
    low, high = grid[a], grid[a + 1]
    return (1.0 - fa) * ((1.0 - fb) * low[b] + fb * low[b + 1]) + fa * (
        (1.0 - fb) * high[b] + fb * high[b + 1]
    )


@cache
def _grid(target: int, deal: bool, kind: str = "2p") -> tuple[tuple[float, ...], ...]:
    """``[me][them]`` for whole scores 0..target (reaching it: 1 for me, else 0 for them)."""

    def at(mine: int, theirs: int) -> float:  # the needs
        if deal:
            return dealer_chance(mine, theirs, kind)
        return 1.0 - dealer_chance(theirs, mine, kind)

    return tuple(
        tuple(at(target - a, target - b) for b in range(target + 1)) for a in range(target + 1)
    )


@dataclass(frozen=True, slots=True)
class Dist:
    """A distribution of whole points: ``probs[v]`` for ``v`` points, shifted by ``shift``."""

    probs: tuple[float, ...]
    shift: float = 0.0

    def mean(self) -> float:
        return sum(v * p for v, p in enumerate(self.probs)) / sum(self.probs) + self.shift

    def plus(self, other: Dist) -> Dist:
        """The distribution of the sum (independent)."""
        probs = [0.0] * (len(self.probs) + len(other.probs) - 1)
        for i, p in enumerate(self.probs):
            if p:
                for j, q in enumerate(other.probs):
                    probs[i + j] += p * q
        return Dist(tuple(probs), self.shift + other.shift)

    def split(self, need: float) -> tuple[float, float]:
        """(P(points >= need), the mean points when fewer)."""
        low = [
            (v + self.shift, p) for v, p in enumerate(self.probs) if v + self.shift < need - 1e-9
        ]
        weight = sum(p for _, p in low)
        below = sum(v * p for v, p in low) / weight if weight else 0.0
        return 1.0 - weight / sum(self.probs), below


def measured(name: str, shift_to: float | None = None, kind: str = "2p") -> Dist:
    """A shipped distribution: ``pone_hand``, ``dealer_hand`` or ``crib`` (moved to the mean
    ``shift_to`` if given); in partnerships those are each side's two hands together, and
    ``pone_side_hand``, ``dealer_side_hand`` one hand of a player of that side."""
    probs = tuple(float(p) for p in _data(kind)[name])
    dist = Dist(probs)
    return dist if shift_to is None else Dist(probs, shift_to - dist.mean())


@cache
def pegging(floor: float = 0.0005, kind: str = "2p") -> tuple[tuple[int, int, float], ...]:
    """(pone's pegging, dealer's pegging with his heels, probability), the rare ones dropped
    (in partnerships, each side's)."""
    cells = [(int(p), int(d), float(c)) for p, d, c in _data(kind)["pegging"] if c >= floor]
    total = sum(c for _, _, c in cells)
    return tuple((p, d, c / total) for p, d, c in cells)


def current(view: SeatKnowledge) -> float:
    """The seat's (its side's) chance to win at the start of this deal: its scores now, before
    anything of the deal is scored (two-handed, or in partnerships from their own table)."""
    me, them = view.scores[view.side], view.scores[1 - view.side]
    kind = "partners" if view.variant.partnerships else "2p"
    return chance(me, them, view.crib_is_ours, view.variant.target, kind)


def forget() -> None:
    """Read the tables again when next asked (after :mod:`bot.ai.winchance` rewrote one)."""
    _data.cache_clear()
    _table.cache_clear()
    _grid.cache_clear()
