"""Expected crib values: the shipped tables (``data/crib.json``) and a card-removal model.

The tables are made by ``python -m bot.ai.tables`` (see that module for the method and how the
figures compare with the published ones). Keys: two-handed discards as ``"5-5"``, ``"10-K"``,
``"A-2s"`` (suited); one-card discards (3 and 4 players) as ``"5"``.

Tables per game: ``"2"``, ``"3"``, ``"4"`` and ``"4p"`` (partnerships); per role ``"own"`` (the
crib is ours: we deal, or in partnerships our partner does) and ``"other"``.

With 3 or 4 players, ``multi_crib_values`` values each one-card discard knowing the cards we
keep, from what each other seat's role lays away (``data/crib_multi.json``, made by
``python -m bot.ai.crib_multi``). It and the two-handed ``crib_expectation_removal`` draw from
the same cards we do not hold and count the starters alike; they stay two since the two-handed
crib gets one pair from the opponent's role (and its jacks), the other one card from each other
seat's role and three-handed one from the pack.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from operator import mul
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


def crib_weight(players: int, partnerships: bool, own: bool) -> float:
    """How much each point of the crib is worth to the player laying away."""
    if own:
        return 1.0
    if players == 2 or partnerships:
        return -1.0
    return -1.0 / (players - 1)


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


def _not_held(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
    """Per rank (index 1..13) and per suit, the cards not in ``hand``: what the crib's other
    cards and the starter are drawn from, two-handed and with 3 or 4 players alike."""
    avail = [4] * 14
    avail[0] = 0
    suit_left = [13] * 4
    for card in hand:
        avail[card.rank] -= 1
        suit_left[card.suit] -= 1
    return avail, suit_left


def crib_expectation_removal(discards: Sequence[Card], hand: Sequence[Card], *, own: bool) -> float:
    """Expected two-handed crib after laying ``discards`` from the six-card ``hand``.

    Unlike the static table, it knows which cards we hold (a kept 5 is one the crib cannot get)
    and draws the opponent's two cards from the shipped frequencies of what that role throws,
    reweighted by which of those cards are still possible; the starter from the rest.
    """
    thrower = "pone" if own else "dealer"
    avail, suit_left = _not_held(hand)
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
        s = sum(map(mul, avail, rank_row(tuple(sorted((d1, d2, a, b))))))
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


# --------------------------------------------------------------------------- 3 and 4 players

MULTI_FILE = "crib_multi.json"

OTHER_ROLES: dict[str, dict[bool, tuple[str, ...]]] = {
    "3": {True: ("other", "other"), False: ("own", "other")},
    "4": {True: ("other", "other", "other"), False: ("own", "other", "other")},
    "4p": {True: ("own", "other", "other"), False: ("own", "own", "other")},
}
"""With 3 or 4 players, the roles of the other seats that lay a card into the crib, when the crib
is ours (True) or not: ``own`` throws to its own (or its team's) crib, ``other`` to an
opponent's. Three-handed the crib's fourth card comes from the pack."""


class MultiThrows(TypedDict):
    """The shipped ``crib_multi.json`` (made by ``python -m bot.ai.crib_multi``)."""

    format: int
    method: str
    seed: int
    pool: int
    throws: dict[str, dict[str, list[float]]]
    """Per game (``"3"``, ``"4"``, ``"4p"``), per role: how often it lays away each rank A..K."""


@cache
def load_multi() -> MultiThrows:
    text = resources.files("bot.ai").joinpath("data", MULTI_FILE).read_text(encoding="utf-8")
    data: MultiThrows = json.loads(text)
    return data


def _others_distribution(
    key: str, own: bool, avail: Sequence[int], throws: dict[str, list[float]]
) -> dict[tuple[int, ...], float]:
    """The chance of each (sorted) set of ranks the other three crib cards make.

    Each other seat's card is drawn from what its role throws, reweighted by how many of each
    rank we have not seen; the pack's card (three-handed) from the unseen cards.
    """
    roles: list[str | None] = list(OTHER_ROLES[key][own])
    if key == "3":
        roles.append(None)  # the pack's card
    left = list(avail)
    out: dict[tuple[int, ...], float] = {}

    def walk(depth: int, ranks: tuple[int, ...], p: float) -> None:
        if depth == len(roles):
            k = tuple(sorted(ranks))
            out[k] = out.get(k, 0.0) + p
            return
        role = roles[depth]
        freq = throws[role] if role is not None else None
        weights = [0.0] * 14
        total = 0.0
        for r in range(1, 14):
            if left[r] > 0:
                w = left[r] * (freq[r - 1] if freq is not None else 1.0)
                weights[r] = w
                total += w
        if total <= 0.0:
            return
        for r in range(1, 14):
            w = weights[r]
            if w > 0.0:
                left[r] -= 1
                walk(depth + 1, (*ranks, r), p * w / total)
                left[r] += 1

    walk(0, (), 1.0)
    return out


def multi_crib_values(hand: Sequence[Card], *, key: str, own: bool) -> dict[Card, float]:
    """Expected crib (3 or 4 players) after laying away each card of the five-card ``hand``.

    Unlike the static one-card table it knows the four cards we keep (a 5 we hold is one the
    crib cannot get) and what each other seat tends to lay away in its role (the dealer helps
    its crib, the others balk it; in partnerships the dealer's partner helps it too), drawn
    from the shipped frequencies reweighted by which cards are still possible; three-handed
    the pack's card and the starter come from the cards we have not seen.
    """
    throws = load_multi()["throws"][key]
    avail, suit_left = _not_held(hand)
    dist = _others_distribution(key, own, avail, throws)
    unseen = 52 - len(hand)
    starters = unseen - 3
    # His nobs for the others' jacks: the starter of a jack's suit about 12 times in 47.
    other_jacks = sum(p * ranks.count(11) for ranks, p in dist.items()) * 12 / unseen
    out: dict[Card, float] = {}
    for card in hand:
        base = 0.0
        for ranks, p in dist.items():
            row = rank_row(tuple(sorted((card.rank, *ranks))))
            s = sum(map(mul, avail, row))
            for r in ranks:
                s -= row[r]
            base += p * s
        value = base / starters + other_jacks
        if card.rank == 11:
            value += suit_left[card.suit] / unseen
        # A crib flush: the other three cards and the starter all of our card's suit.
        u = suit_left[card.suit]
        value += 5 * (u / unseen) ** 3 * (u - 3) / starters
        out[card] = value
    return out
