"""The standings of a Swiss or round robin, and the final placings of an elimination.

Players rank as the American Cribbage Congress ranks a field (see :mod:`.results` for spread):

1. pairings won (a game's win, or a match's when pairings are best-of-3/5); a bye and a forfeit
   by the opponent count as wins, with the organiser's fixed spread;
2. spread: the sum of each game's margin, capped per game at the organiser's cap;
3. head-to-head: among the players still tied on both, the pairings each won against the others
   of that tie.

Players equal on all three share a place (competition ranking: 1, 2, 2, 4), listed in seed
order.

>>> from .formats import Format, Tournament
>>> t = Tournament(Format.ROUND_ROBIN, ("ann", "bob", "cy"))
>>> results = [
...     Result.played(1, "ann", "bob", (121, 100)),   # ann +21
...     Result.played(2, "bob", "cy", (121, 110)),    # bob +11
...     Result.played(3, "cy", "ann", (121, 111)),    # cy +10
... ]
>>> for s in standings(t, results):
...     print(s.place, s.player, s.wins, s.losses, s.spread)
1 ann 1 1 11
2 cy 1 1 -1
3 bob 1 1 -10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .formats import Tournament
from .results import Result


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``games_won``/``games_lost`` count games actually played."""

    place: int
    player: str
    wins: int
    losses: int
    spread: int
    games_won: int
    games_lost: int
    byes: int


@dataclass(slots=True)
class _Tally:
    wins: int = 0
    losses: int = 0
    spread: int = 0
    games_won: int = 0
    games_lost: int = 0
    byes: int = 0


def tally(tournament: Tournament, results: Iterable[Result]) -> dict[str, _Tally]:
    """Each entrant's wins, losses, spread, games and byes from ``results``."""
    scoring = tournament.scoring
    tallies = {p: _Tally() for p in tournament.players}
    for r in results:
        winner = r.winner
        for p in r.players:
            t = tallies[p]
            if p == winner:
                t.wins += 1
            else:
                t.losses += 1
            t.spread += r.spread_for(p, scoring)
            if r.second is None:
                t.byes += 1
            elif r.games:
                won = r.games_won(p)
                t.games_won += won
                t.games_lost += len(r.games) - won
    return tallies


def standings(tournament: Tournament, results: Sequence[Result]) -> tuple[Standing, ...]:
    """Every entrant's place (dropped players too, with the results they have)."""
    tournament.check_all(results)
    tallies = tally(tournament, results)
    seed = {p: i for i, p in enumerate(tournament.players)}
    groups: dict[tuple[int, int], list[str]] = {}
    for p in tournament.players:
        groups.setdefault((tallies[p].wins, tallies[p].spread), []).append(p)

    # head-to-head inside each tie on (wins, spread)
    group_of = {p: key for key, members in groups.items() for p in members}
    h2h = dict.fromkeys(tournament.players, 0)
    for r in results:
        loser = r.loser
        if loser is not None and group_of[r.winner] == group_of[loser]:
            h2h[r.winner] += 1

    order = sorted(
        tournament.players,
        key=lambda p: (-tallies[p].wins, -tallies[p].spread, -h2h[p], seed[p]),
    )
    lines: list[Standing] = []
    place = 0
    previous: tuple[int, int, int] | None = None
    for i, p in enumerate(order):
        t = tallies[p]
        key = (t.wins, t.spread, h2h[p])
        if key != previous:
            place = i + 1
            previous = key
        lines.append(
            Standing(place, p, t.wins, t.losses, t.spread, t.games_won, t.games_lost, t.byes)
        )
    return tuple(lines)
