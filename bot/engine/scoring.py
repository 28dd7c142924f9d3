"""Scoring: the show (a hand or the crib with the starter) and pegging (each card laid).

Both return a :class:`Breakdown`: the itemized points in the order a player announces them.

>>> from bot.engine.cards import parse_cards, Card
>>> b = score_show(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
>>> b.total
29
>>> score_show(parse_cards("3C 4D 4H 5S"), Card.parse("AD")).announce()
'a pair is two, a run of three is five, and another run of three is eight'
>>> score_pegging(parse_cards("7H 8C")).announce()
'fifteen for two'
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from .cards import Card


class ScoreKind(enum.Enum):
    """What an item of a breakdown scores for."""

    FIFTEEN = "fifteen"
    THIRTY_ONE = "thirty-one"
    PAIR = "pair"
    PAIR_ROYAL = "pair royal"
    DOUBLE_PAIR_ROYAL = "double pair royal"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "his nobs"


_SET_KIND = {2: ScoreKind.PAIR, 3: ScoreKind.PAIR_ROYAL, 4: ScoreKind.DOUBLE_PAIR_ROYAL}
_SET_POINTS = {2: 2, 3: 6, 4: 12}
_NUMBER_WORDS = [
    "nothing",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def number_words(n: int) -> str:
    """Table-talk numbers: 'two', 'twenty-four'."""
    if n <= 20:
        return _NUMBER_WORDS[n]
    tens = {2: "twenty", 3: "thirty"}.get(n // 10)
    if tens is None:
        return str(n)
    return tens if n % 10 == 0 else f"{tens}-{_NUMBER_WORDS[n % 10]}"


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, its points."""

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"{self.label} ({cards}): {self.points}"

    @property
    def label(self) -> str:
        kind = self.kind
        if kind is ScoreKind.RUN:
            return f"run of {number_words(len(self.cards))}"
        if kind is ScoreKind.FLUSH:
            return f"{number_words(len(self.cards))}-card flush"
        return self.kind.value  # read off the field: mypy types .value of a narrowed kind Any


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Itemized points. ``pegging`` says which table talk fits (pegging vs the show)."""

    items: tuple[ScoreItem, ...] = ()
    pegging: bool = False

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __str__(self) -> str:
        return self.announce()

    def announce(self) -> str:
        """The table talk for these points.

        The show counts aloud with running totals ("fifteen two, fifteen four, a pair is six");
        pegging names what the card made and its points ("fifteen and a pair for four").
        """
        if self.pegging:
            return self._announce_pegging()
        if not self.items:
            return "nineteen (nothing to count)"
        phrases: list[str] = []
        running = 0
        seen_runs: set[int] = set()
        for item in self.items:
            running += item.points
            phrases.append(self._show_phrase(item, running, seen_runs))
        if len(phrases) > 1:
            phrases[-1] = "and " + phrases[-1]
        return ", ".join(phrases)

    @staticmethod
    def _show_phrase(item: ScoreItem, running: int, seen_runs: set[int]) -> str:
        total = number_words(running)
        match item.kind:
            case ScoreKind.FIFTEEN:
                return f"fifteen {total}"
            case ScoreKind.PAIR:
                return f"a pair is {total}"
            case ScoreKind.PAIR_ROYAL:
                return f"a pair royal is {total}"
            case ScoreKind.DOUBLE_PAIR_ROYAL:
                return f"a double pair royal is {total}"
            case ScoreKind.RUN:
                length = len(item.cards)
                article = "another" if length in seen_runs else "a"
                seen_runs.add(length)
                return f"{article} run of {number_words(length)} is {total}"
            case ScoreKind.FLUSH:
                return f"a flush is {total}"
            case _:
                return f"his nobs is {total}"

    def _announce_pegging(self) -> str:
        if not self.items:
            return ""
        names = []
        for item in self.items:
            if item.kind in (ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL):
                names.append(f"a {item.kind.value}")
            elif item.kind is ScoreKind.RUN:
                names.append(f"a run of {number_words(len(item.cards))}")
            else:
                names.append(item.kind.value)
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{joined} for {number_words(self.total)}"


# --------------------------------------------------------------------------- the show


def _check_show(hand: Sequence[Card], starter: Card) -> None:
    if len(hand) != 4:
        raise ValueError(f"A hand to count has 4 cards, not {len(hand)}")
    if len(set(hand) | {starter}) != 5:
        raise ValueError("The hand and the starter must be five different cards")


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Breakdown:
    """Count a 4-card hand (or the crib, with ``crib=True``) with the starter.

    Fifteens (2 each), pairs (2; pair royal 6; double pair royal 12), every distinct run (1 per
    card), flush (hand: 4 in the hand, 5 with the starter; crib: only all five) and his nobs.
    """
    hand = list(hand)
    _check_show(hand, starter)
    cards = sorted([*hand, starter])
    items: list[ScoreItem] = []

    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                items.append(ScoreItem(ScoreKind.FIFTEEN, combo, 2))

    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 2:
            kind = _SET_KIND[len(group)]
            items.append(ScoreItem(kind, tuple(group), _SET_POINTS[len(group)]))

    items.extend(_show_runs(by_rank))

    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(sorted(hand)) + (starter,), 5))
        elif not crib:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(sorted(hand)), 4))

    for card in hand:
        if card.rank == 11 and card.suit == starter.suit:
            items.append(ScoreItem(ScoreKind.NOBS, (card,), 1))

    return Breakdown(tuple(items))


def _show_runs(by_rank: dict[int, list[Card]]) -> list[ScoreItem]:
    """Every distinct longest run: one item per way of choosing one card of each rank."""
    items: list[ScoreItem] = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        length = end - rank + 1
        if length >= 3:
            groups = [by_rank[r] for r in range(rank, end + 1)]
            for run in _choose_one_each(groups):
                items.append(ScoreItem(ScoreKind.RUN, run, length))
        rank = end + 1
    return items


def _choose_one_each(groups: list[list[Card]]) -> list[tuple[Card, ...]]:
    runs: list[tuple[Card, ...]] = [()]
    for group in groups:
        runs = [run + (card,) for run in runs for card in group]
    return runs


# --------------------------------------------------------------------------- pegging


def score_pegging(cards: Sequence[Card]) -> Breakdown:
    """The points made by the LAST card of ``cards``, the cards laid since the count was reset.

    Fifteen and thirty-one (2), a pair with the card just before (2; three in a row 6; four
    12), and the longest run formed by the last N cards (N >= 3), in any order.
    Go and last card are awarded by the game, not here.
    """
    cards = list(cards)
    if not cards:
        raise ValueError("Pegging scores the last card laid; no card was given")
    count = sum(c.value for c in cards)
    if count > 31:
        raise ValueError(f"The count can never pass 31 (these cards make {count})")
    if len(set(cards)) != len(cards):
        raise ValueError("The same card cannot be laid twice")
    last = cards[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(ScoreKind.FIFTEEN, tuple(cards), 2))
    elif count == 31:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, tuple(cards), 2))

    same = 1
    while same < len(cards) and cards[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(_SET_KIND[same], tuple(cards[-same:]), _SET_POINTS[same]))

    for length in range(len(cards), 2, -1):
        ranks = sorted(c.rank for c in cards[-length:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            items.append(ScoreItem(ScoreKind.RUN, tuple(cards[-length:]), length))
            break
    return Breakdown(tuple(items), pegging=True)


# --------------------------------------------------------------------------- fast counting


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs of five sorted ranks (the part of a show that ignores suits)."""
    values = [min(r, 10) for r in ranks]
    points = 0
    for size in range(2, 6):
        for combo in combinations(values, size):
            if sum(combo) == 15:
                points += 2
    counts = Counter(ranks)
    points += sum(n * (n - 1) for n in counts.values())  # 2 per pair of equal ranks
    distinct = sorted(counts)
    best = 0
    run_start = 0
    for i in range(1, len(distinct) + 1):
        if i == len(distinct) or distinct[i] != distinct[i - 1] + 1:
            length = i - run_start
            if length >= 3:
                ways = 1
                for r in distinct[run_start:i]:
                    ways *= counts[r]
                best += length * ways
            run_start = i
    return points + best


def show_points(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The same total as ``score_show(...).total``, computed fast (no breakdown, no checks)."""
    points = rank_points(tuple(sorted([c.rank for c in hand] + [starter.rank])))
    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    for card in hand:
        if card.rank == 11 and card.suit == starter.suit:
            points += 1
    return points
