"""The next round's pairings: a pure function of the tournament, the results so far and who
dropped, deterministic for the tournament's seed.

>>> from .formats import Format, Tournament
>>> t = Tournament(Format.SWISS, ("ann", "bob", "cy", "dee", "eve"), rounds=3, seed=1)
>>> first = next_round(t, [])
>>> [str(p) for p in first.pairings], first.byes
(['table 1: ann v eve', 'table 2: dee v bob'], ('cy',))

**Swiss.** Players are ranked by pairings won, then spread, then a draw by lot made once from the
seed (so the first round is a random draw). The highest-ranked unpaired player is paired first,
within their score group (the unpaired players with as many wins) by the fold: the top half of
the group meets the bottom half, the group's first against its middle player. A player left over
in a group floats down to the next. Nobody meets the same opponent twice: when a choice leaves
the rest unpairable without a repeat, the search goes back and takes the next candidate (a
depth-first search over the unpaired players, remembering the sets that failed). It looks first
for a round with the least float (the gap in wins across a pairing, summed) that the score
groups allow, so a group is re-paired before anyone floats out of it; a repeat happens only
when no pairing of the whole round avoids one, and then repeats go to the pairs that met least.
With an odd field the bye goes to the lowest-ranked player without one (if that would force a
repeat, the next lowest), or, when everyone has had one, the lowest-ranked.

**Round robin**, by the circle method: the first player stays put while the others rotate one
place a round, so in n - 1 rounds (n with an odd field, where the empty seat is a bye) every
pair meets exactly once.

**Single elimination**: see :mod:`.bracket`.

**Drops.** A dropped player is never paired again. What happens to a game already scheduled for
them (a round robin's, an elimination's) is the ``forfeit_remaining`` of the request: by default
their opponent wins by forfeit; otherwise the opponent sits the round out, with no result (an
elimination always gives the opponent the walkover). A game of the current round that a player
walks out of is :meth:`.Round.forfeit`.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from .bracket import elimination_round
from .formats import Format, Pairing, Round, Tournament
from .results import Result, TournamentError, meetings
from .standings import tally


def next_round(
    tournament: Tournament,
    results: Sequence[Result],
    *,
    dropped: Collection[str] = frozenset(),
    forfeit_remaining: bool = True,
) -> Round:
    """The round after the last one in ``results`` (the first if there are none).

    Call it once every result of the round before has been recorded, byes and forfeits too
    (:attr:`.Round.settled`).
    """
    tournament.check_all(results)
    unknown = set(dropped) - set(tournament.players)
    if unknown:
        raise TournamentError(f"{', '.join(sorted(unknown))} did not enter this tournament")
    number = max((r.round for r in results), default=0) + 1
    if number > tournament.total_rounds:
        raise TournamentError(f"The tournament is over: it had {tournament.total_rounds} rounds")
    gone = frozenset(dropped)
    if tournament.format is Format.SWISS:
        return swiss_round(tournament, results, number, gone)
    if tournament.format is Format.ROUND_ROBIN:
        return round_robin_round(tournament, number, gone, forfeit_remaining)
    return elimination_round(tournament, results, number, gone)


# ---------------------------------------------------------------------------- Swiss


def swiss_round(
    tournament: Tournament, results: Sequence[Result], number: int, dropped: frozenset[str]
) -> Round:
    """Round ``number`` of a Swiss (see the module's text for the rules)."""
    lot = list(tournament.players)
    random.Random(f"swiss:{tournament.seed}").shuffle(lot)
    drawn = {p: i for i, p in enumerate(lot)}
    tallies = tally(tournament, results)
    ranked = sorted(
        (p for p in tournament.players if p not in dropped),
        key=lambda p: (-tallies[p].wins, -tallies[p].spread, drawn[p]),
    )
    if len(ranked) < 2:
        raise TournamentError("Fewer than 2 players are left to pair")
    met = meetings(results)
    wins = [tallies[p].wins for p in ranked]
    played = [
        frozenset(i for i, q in enumerate(ranked) if q in met.get(p, {})) for p in ranked
    ]

    bye: int | None = None
    pairs: list[tuple[int, int]] | None = None
    if len(ranked) % 2:
        lowest_first = list(range(len(ranked) - 1, -1, -1))
        fresh = [i for i in lowest_first if tallies[ranked[i]].byes == 0]
        had = sorted(
            (i for i in lowest_first if tallies[ranked[i]].byes),
            key=lambda i: tallies[ranked[i]].byes,
        )
        for candidate in fresh + had:
            pairs = _pair(len(ranked), wins, played, exclude=candidate)
            if pairs is not None:
                bye = candidate
                break
        if pairs is None:
            bye = (fresh or had)[0]
    else:
        pairs = _pair(len(ranked), wins, played)
    if pairs is None:
        pairs = _pair_with_repeats(len(ranked), wins, met, ranked, exclude=bye)

    pairings = tuple(
        Pairing(table, ranked[i], ranked[j]) for table, (i, j) in enumerate(pairs, start=1)
    )
    settled = () if bye is None else (Result.bye(number, ranked[bye]),)
    return Round(number, pairings, settled)


def _preference(i: int, unpaired: list[int], wins: list[int]) -> list[int]:
    """The order in which player ``i`` (the highest-ranked unpaired) tries opponents."""
    same = [j for j in unpaired if j != i and wins[j] == wins[i]]
    lower = [j for j in unpaired if j != i and wins[j] != wins[i]]
    middle = max((len(same) + 1) // 2 - 1, 0)
    return same[middle:] + same[:middle][::-1] + lower


_NODE_LIMIT = 20_000  # search steps allowed at each float budget before relaxing it


class _TooLong(Exception):
    """The search at one float budget took more steps than it is allowed."""


def _float_bound(unpaired: list[int], wins: list[int]) -> int:
    """The least float (sum of win gaps across pairings) that pairing ``unpaired`` needs,
    ignoring who met whom: odd score groups must float, neighbouring ones to each other."""
    counts: dict[int, int] = {}
    for j in unpaired:
        counts[wins[j]] = counts.get(wins[j], 0) + 1
    odd = sorted((w for w, c in counts.items() if c % 2), reverse=True)
    return sum(odd[k] - odd[k + 1] for k in range(0, len(odd) - 1, 2))


def _pair(
    n: int, wins: list[int], played: list[frozenset[int]], exclude: int | None = None
) -> list[tuple[int, int]] | None:
    """Pair players 0..n-1 (rank order) with no repeat, or None when that is impossible.

    The float of a pairing is the gap in wins between its players. The search first looks for a
    pairing with the least float the score groups allow, then a little more, each try within a
    step limit; the last try has no float budget and no step limit, so it finds a pairing
    without a repeat whenever one exists.
    """
    full = (1 << n) - 1
    if exclude is not None:
        full &= ~(1 << exclude)
    start = _float_bound([j for j in range(n) if full >> j & 1], wins)
    for budget in (start, start + 1, start + 2):
        try:
            found = _search(n, wins, played, full, budget, _NODE_LIMIT)
        except _TooLong:
            continue
        if found is not None:
            return found
    return _search(n, wins, played, full, None, None)


def _search(
    n: int,
    wins: list[int],
    played: list[frozenset[int]],
    full: int,
    budget: int | None,
    limit: int | None,
) -> list[tuple[int, int]] | None:
    """Top-down depth-first pairing of the players in ``full`` (a bit set) with no repeat and
    a total float of at most ``budget`` (None: any)."""
    failed: dict[int, int] = {}  # a set of unpaired players -> the largest budget that failed
    steps = 0
    unbounded = n * max(wins, default=0) + 1

    def search(mask: int, left: int) -> list[tuple[int, int]] | None:
        nonlocal steps
        if mask == 0:
            return []
        if failed.get(mask, -1) >= left:
            return None
        steps += 1
        if limit is not None and steps > limit:
            raise _TooLong
        i = (mask & -mask).bit_length() - 1
        unpaired = [j for j in range(i, n) if mask >> j & 1]
        if budget is not None and _float_bound(unpaired, wins) > left:
            failed[mask] = left
            return None
        for j in _preference(i, unpaired, wins):
            cost = wins[i] - wins[j]
            if cost > left:
                break  # the candidates after j float further still
            if j in played[i]:
                continue
            rest = search(mask & ~(1 << i) & ~(1 << j), left - cost)
            if rest is not None:
                rest.append((i, j))
                return rest
        failed[mask] = left
        return None

    found = search(full, unbounded if budget is None else budget)
    return None if found is None else found[::-1]


def _pair_with_repeats(
    n: int,
    wins: list[int],
    met: dict[str, dict[str, int]],
    ranked: list[str],
    exclude: int | None,
) -> list[tuple[int, int]]:
    """Top-down pairing when every pairing of the round repeats one: fewest meetings first."""
    unpaired = [i for i in range(n) if i != exclude]
    pairs: list[tuple[int, int]] = []
    while unpaired:
        i = unpaired[0]
        times = met.get(ranked[i], {})
        j = min(_preference(i, unpaired, wins), key=lambda j: times.get(ranked[j], 0))
        pairs.append((i, j))
        unpaired = [k for k in unpaired if k not in (i, j)]
    return pairs


# ---------------------------------------------------------------------------- round robin


def round_robin_round(
    tournament: Tournament, number: int, dropped: frozenset[str], forfeit_remaining: bool
) -> Round:
    """Round ``number`` of the circle method over the whole field (dropped players included,
    so the schedule never changes; their games are forfeits or void)."""
    seats: list[str | None] = list(tournament.players)
    if len(seats) % 2:
        seats.append(None)
    m = len(seats)
    turn = (number - 1) % (m - 1)
    others = seats[1:]
    line = [seats[0], *others[m - 1 - turn :], *others[: m - 1 - turn]]
    pairings: list[Pairing] = []
    settled: list[Result] = []
    for k in range(m // 2):
        a, b = line[k], line[m - 1 - k]
        if k == 0 and number % 2 == 0:
            a, b = b, a  # the fixed player alternates between first and second
        if a is None or b is None:
            present = a if b is None else b
            if present is not None and present not in dropped:
                settled.append(Result.bye(number, present))
            continue
        if a in dropped or b in dropped:
            if forfeit_remaining and not (a in dropped and b in dropped):
                winner, loser = (b, a) if a in dropped else (a, b)
                settled.append(Result.forfeit(number, winner=winner, loser=loser))
            continue
        pairings.append(Pairing(len(pairings) + 1, a, b))
    return Round(number, tuple(pairings), tuple(settled))
