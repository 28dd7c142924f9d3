"""Expected crib values: the shipped tables (``data/crib.json``) and a card-removal model.

The tables are made by ``python -m bot.ai.tables`` (see that module for the method and how the
figures compare with the published ones). Keys: two-handed discards as ``"5-5"``, ``"10-K"``,
``"A-2s"`` (suited); one-card discards (3 and 4 players) as ``"5"``.

Tables per game: ``"2"``, ``"3"``, ``"4"`` and ``"4p"`` (partnerships); per role ``"own"`` (the
crib is ours: we deal, or in partnerships our partner does) and ``"other"``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import TypedDict

from bot.engine import Card, rank_name
from bot.engine.cards import _RANK_FROM_TEXT

from .handvalue import rank_row

DATA_FILE = "crib.json"

RoleTables = dict[str, dict[str, float]]
"""Per role (``"own"``/``"other"`` for crib values, ``"dealer"``/``"pone"`` for throws): a value
per discard key."""


class CribTables(TypedDict):
    """The shipped ``crib.json``: how it was made, and the tables per game (``"2"`` to ``"4p"``)."""

    format: int
    method: str
    seed: int
    pool: int
    samples: int
    iterations: int
    last_change: dict[str, float]
    crib: dict[str, RoleTables]
    """Per game, per role: the expected crib after each discard."""
    throws: dict[str, RoleTables]
    """Two-handed only (``"2"``): per role, how often it lays away each pair of ranks."""


def table_key(players: int, partnerships: bool = False) -> str:
    """Which family of tables applies: '2', '3', '4' or '4p'."""
    if partnerships:
        return "4p"
    if players not in (2, 3, 4):
        raise ValueError(f"Cribbage is played by 2, 3 or 4 players, not {players!r}")
    return str(players)


def discard_key(cards: Sequence[Card]) -> str:
    """The table key of a discard: '5', '5-5', '10-K' or 'A-2s' (two of one suit)."""
    if len(cards) == 1:
        return rank_name(cards[0].rank)
    a, b = sorted(cards)
    key = f"{rank_name(a.rank)}-{rank_name(b.rank)}"
    if a.rank != b.rank and a.suit == b.suit:
        key += "s"
    return key


def rank_pair_key(a: int, b: int) -> str:
    lo, hi = sorted((a, b))
    return f"{rank_name(lo)}-{rank_name(hi)}"


@cache
def load_tables() -> CribTables:
    """The shipped tables (read once)."""
    text = resources.files("bot.ai").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    tables: CribTables = json.loads(text)
    return tables


def crib_value(discards: Sequence[Card], *, key: str, own: bool) -> float:
    """The table's expected crib (total points in it) after laying away ``discards``."""
    return load_tables()["crib"][key]["own" if own else "other"][discard_key(discards)]


@cache
def _throws(key: str, thrower: str) -> tuple[tuple[int, int, float], ...]:
    """(rank a, rank b, frequency) of what a player in ``thrower``'s role lays away."""
    table = load_tables()["throws"][key][thrower]
    out = []
    for pair, freq in table.items():
        a, b = pair.split("-")
        out.append((_RANK_FROM_TEXT[a], _RANK_FROM_TEXT[b], freq))
    return tuple(out)


def crib_expectation_removal(discards: Sequence[Card], hand: Sequence[Card], *, own: bool) -> float:
    """Expected two-handed crib after laying ``discards`` from the six-card ``hand``.

    Unlike the static table, it knows which cards we hold (a kept 5 is one the crib cannot get)
    and draws the opponent's two cards from the shipped frequencies of what that role throws,
    reweighted by which of those cards are still possible; the starter from the rest.
    """
    thrower = "pone" if own else "dealer"
    avail = [4] * 14
    suit_left = [13] * 4
    for card in hand:
        avail[card.rank] -= 1
        suit_left[card.suit] -= 1
    avail[0] = 0
    d1, d2 = discards[0].rank, discards[1].rank
    rank_sum = 0.0
    weight_sum = 0.0
    for a, b, freq in _throws("2", thrower):
        # How likely this pair still is, relative to a full pack (4 of each rank).
        ways = avail[a] * (avail[a] - 1) / 12.0 if a == b else avail[a] * avail[b] / 16.0
        if ways <= 0.0:
            continue
        w = freq * ways
        avail[a] -= 1
        avail[b] -= 1
        row = rank_row(tuple(sorted((d1, d2, a, b))))
        s = 0
        for r in range(1, 14):
            s += avail[r] * row[r]
        avail[a] += 1
        avail[b] += 1
        rank_sum += w * s / 44.0
        weight_sum += w
    value = rank_sum / weight_sum
    # Suits: his nobs for a jack we lay away, and the (rare) five-card crib flush.
    unseen = 46
    for card in discards:
        if card.rank == 11:
            value += suit_left[card.suit] / unseen
    # The opponent's jacks: about one time in four the starter matches.
    value += _jack_rate("2", thrower) * 0.23
    first, second = discards
    if first.suit == second.suit:
        u = suit_left[first.suit]
        value += 5 * (u / unseen) * ((u - 1) / (unseen - 1)) * ((u - 2) / (unseen - 2)) * 0.5
    return value


@cache
def _jack_rate(key: str, thrower: str) -> float:
    """Expected number of jacks in a ``thrower``'s two discards."""
    return sum(freq * ((a == 11) + (b == 11)) for a, b, freq in _throws(key, thrower))
