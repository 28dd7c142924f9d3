"""The pegging searches' values on a fixed set of random positions, exactly as recorded
(tests/ai/fixtures/pegging_search_values.json): 200 two-handed positions (some near the end of a
game, some valued by a dealer) and 120 with three or four players (with and without a depth, a
least number of worlds and the cards no seat was shown). The searches' inner loops are written
for speed; a change there that moved a single value, or the card chosen, shows here.

The positions are made from seeds by the engine's own go rules (:func:`after_lay`), so they
depend on nothing but this file and the rules; the worlds are hands dealt at random from the
cards the seat cannot see, with random weights, some dealt twice (worlds that merge).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.ai.pegging import fitting_ranks, peg_points, unseen_by_seat
from bot.ai.pegging_search import Got, search_values
from bot.ai.pegging_search_multi import search_values_multi
from bot.engine.pegging import after_lay

FIXTURE = Path(__file__).parent / "fixtures" / "pegging_search_values.json"
TWO_HANDED = 200
MULTI = 120


class Ending:
    """An ending that reads both the points and the ranks the opponent laid."""

    def __init__(self, needs: tuple[int, int]) -> None:
        self.needs = needs

    def value(self, got: Got, laid: tuple[int, ...]) -> float:
        return got[0] - got[1] + 0.37 * len(laid) - 0.05 * sum(laid)


def _played(
    rng: random.Random, n: int, seat: int
) -> tuple[list[tuple[int, ...]], tuple[int, ...], int, list[int]]:
    """Four cards each, then a random prefix of the play by the engine's go rules, stopped at a
    turn of ``seat``'s: (every hand, the pile, the count, the cards no seat has been shown)."""
    while True:
        deck = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        hands = [tuple(sorted(deck[4 * s : 4 * s + 4])) for s in range(n)]
        unshown = [0] + [4] * 13
        unshown[deck[4 * n]] -= 1  # the starter
        pile: tuple[int, ...] = ()
        count = 0
        turn: int | None = rng.randrange(n)
        while turn is not None:
            if turn == seat and rng.random() < 0.35:
                return hands, pile, count, unshown
            rank = rng.choice(fitting_ranks(hands[turn], count))
            hand = list(hands[turn])
            hand.remove(rank)
            hands[turn] = tuple(hand)
            unshown[rank] -= 1
            pile, count, _, turn = after_lay(hands, pile, count, turn, rank, peg_points)


def _dealt(rng: random.Random, pool: list[int], sizes: list[int]) -> list[tuple[int, ...]]:
    cards = rng.sample(pool, sum(sizes))
    out, at = [], 0
    for size in sizes:
        out.append(tuple(sorted(cards[at : at + size])))
        at += size
    return out


def _weight(rng: random.Random) -> float:
    return rng.choice((1.0, 0.5, round(rng.uniform(0.01, 3.0), 6)))


def two_handed_cases() -> Iterator[dict[str, Any]]:
    """The two-handed positions, each with the arguments of :func:`search_values`."""
    rng = random.Random(20261203)
    for i in range(TWO_HANDED):
        hands, pile, count, unshown = _played(rng, 2, 0)
        me, them = hands
        pool = [r for r in range(1, 14) for _ in range(unshown[r])]
        for r in me:
            pool.remove(r)
        deals = [_dealt(rng, pool, [len(them)])[0] for _ in range(rng.choice((1, 3, 8, 25)))]
        worlds = [(_weight(rng), rng.choice(deals)) for _ in range(rng.choice((1, 4, 12, 40)))]
        if them:
            worlds[0] = (worlds[0][0], them)
        ending = Ending((rng.randint(1, 12), rng.randint(1, 12))) if i % 4 == 1 else None
        against = 0.8 if i % 4 == 2 else 1.0
        yield {
            "me": me,
            "pile": pile,
            "count": count,
            "worlds": worlds,
            "unseen": tuple(unshown),
            "ranks": list(fitting_ranks(me, count)),
            "ending": ending,
            "against": against,
        }


def multi_cases() -> Iterator[dict[str, Any]]:
    """The positions with three or four players, each with the arguments of
    :func:`search_values_multi`."""
    rng = random.Random(4031)
    for i in range(MULTI):
        n = 3 + i % 2
        seat = rng.randrange(n)
        hands, pile, count, unshown = _played(rng, n, seat)
        me = hands[seat]
        pool = [r for r in range(1, 14) for _ in range(unshown[r])]
        for r in me:
            pool.remove(r)
        sizes = [len(h) for s, h in enumerate(hands) if s != seat]
        worlds = []
        for _ in range(rng.choice((1, 5, 20, 40))):
            others = iter(_dealt(rng, pool, sizes))
            dealt = tuple(me if s == seat else next(others) for s in range(n))
            worlds.append((_weight(rng), dealt, unseen_by_seat(unshown, dealt)))
        sides = 2 if n == 4 and i % 4 == 1 else n
        weights = tuple(1.0 if s % sides == seat % sides else -1.0 / (sides - 1) for s in range(n))
        yield {
            "seat": seat,
            "me": me,
            "pile": pile,
            "count": count,
            "worlds": worlds,
            "weights": weights,
            "ranks": list(fitting_ranks(me, count)),
            "depth": (None, 1, 2)[i % 3],
            "least": (1, 3, 6)[i % 5 % 3],
            "unshown": tuple(unshown) if i % 6 < 4 else None,
        }


def two_handed_values() -> list[list[tuple[int, float]]]:
    return [sorted(search_values(**case).items()) for case in two_handed_cases()]


def multi_values() -> list[list[tuple[int, float]]]:
    return [sorted(search_values_multi(**case).items()) for case in multi_cases()]


def _recorded(kind: str) -> list[list[tuple[int, float]]]:
    stored = json.loads(FIXTURE.read_text())[kind]
    return [[(int(r), float(v)) for r, v in values] for values in stored]


def _best(values: list[tuple[int, float]]) -> int:
    return max(values, key=lambda rv: (rv[1], rv[0]))[0]


def test_the_two_handed_search_gives_the_recorded_values_exactly():
    recorded = _recorded("two_handed")
    values = two_handed_values()
    assert len(values) == len(recorded) == TWO_HANDED
    assert [_best(v) for v in values] == [_best(v) for v in recorded]
    assert values == recorded


def test_the_multi_player_search_gives_the_recorded_values_exactly():
    recorded = _recorded("multi")
    values = multi_values()
    assert len(values) == len(recorded) == MULTI
    assert [_best(v) for v in values] == [_best(v) for v in recorded]
    assert values == recorded


def test_the_positions_cover_what_the_searches_branch_on():
    """The recorded positions reach the branches the searches take: choices between cards,
    worlds that merge, endings, a dealer's weight, depths, partnerships, both model views."""
    two = list(two_handed_cases())
    assert sum(len(c["ranks"]) > 1 for c in two) > 100
    assert sum(len(set(h for _, h in c["worlds"])) < len(c["worlds"]) for c in two) > 50
    assert sum(c["ending"] is not None for c in two) == 50
    assert sum(c["against"] != 1.0 for c in two) == 50
    assert sum(c["pile"] != () for c in two) > 50
    multi = list(multi_cases())
    assert sum(len(c["ranks"]) > 1 for c in multi) > 50
    assert {c["depth"] for c in multi} == {None, 1, 2}
    assert {c["least"] for c in multi} == {1, 3, 6}
    assert sum(c["unshown"] is None for c in multi) > 20
    assert sum(len(c["worlds"]) == 1 for c in multi) > 10
    assert sum(-1.0 in c["weights"] for c in multi) > 10
