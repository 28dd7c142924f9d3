"""Random results and plain brute-force checks for the tournament tests."""

from __future__ import annotations

import random
from functools import cache

from bot.tournament import Result, Round


def play(rnd: Round, rng: random.Random, games_to_win: int = 1) -> list[Result]:
    """Random results for every pairing of ``rnd``, plus its byes and forfeits."""
    results = list(rnd.settled)
    for p in rnd.pairings:
        scores: list[tuple[int, int]] = []
        won = [0, 0]
        while max(won) < games_to_win:
            loser = rng.randint(40, 120)
            if rng.random() < 0.5:
                scores.append((121, loser))
                won[0] += 1
            else:
                scores.append((loser, 121))
                won[1] += 1
        results.append(Result.played(rnd.number, p.first, p.second, *scores))
    return results


def pairs_met(results: list[Result]) -> set[frozenset[str]]:
    return {frozenset(r.players) for r in results if r.second is not None}


def can_pair_without_repeat(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether ``players`` (an even number) split into pairs none of which has met."""

    @cache
    def search(left: frozenset[str]) -> bool:
        if not left:
            return True
        p = min(left)
        return any(
            frozenset((p, q)) not in met and search(left - {p, q}) for q in left if q != p
        )

    return search(frozenset(players))


def can_pair_round(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether a round of ``players`` exists with no repeat (any one of them may take a bye)."""
    if len(players) % 2 == 0:
        return can_pair_without_repeat(players, met)
    return any(can_pair_without_repeat([q for q in players if q != p], met) for p in players)
