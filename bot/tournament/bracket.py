"""Single elimination: the seeded bracket, its rounds, and the final placings.

The field is seeded by rating (the tournament's ``players`` order) into a bracket whose size is
the next power of two. Seeds meet in the standard order: 1 v N, then the winner against the
winner of N/2 v N/2+1, so seeds 1 and 2 sit in opposite halves and can meet only in the final
(and 1, 2, 3, 4 only in the semi-finals). The places past the field are empty, and since the
empty places are the lowest seeds, the top seeds take the byes.

>>> bracket_order(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> from .formats import Format, Tournament
>>> t = Tournament(Format.SINGLE_ELIMINATION, ("s1", "s2", "s3", "s4", "s5"))
>>> first = elimination_round(t, [], 1, frozenset())
>>> [str(p) for p in first.pairings], first.byes
(['table 1: s4 v s5'], ('s1', 's2', 's3'))

Each later round pairs the winners of neighbouring pairings. A player who dropped before
playing gives the opponent a walkover (two who dropped leave the next opponent a bye).

Placings (:func:`placings`): the winner 1st, the runner-up 2nd, the two semi-finalists who
lost share 3rd, the four quarter-finalists who lost share 5th, and so on: a player who lost in
the round with 2^k players left shares place 2^(k-1) + 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .formats import Format, Pairing, Round, Tournament
from .results import Result, TournamentError

Slot = str | None  # a place in the bracket: a player, or nobody (a bye, or both dropped)


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds (from 1) in bracket order for a bracket of ``size`` places, a power of two."""
    if size < 1 or size & (size - 1):
        raise TournamentError(f"A bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


@dataclass(frozen=True, slots=True)
class Placing:
    """Where a player finished; ``lost_in`` is the round they went out in (None: the winner)."""

    place: int
    player: str
    lost_in: int | None


def _first_slots(tournament: Tournament) -> list[Slot]:
    players = tournament.players
    size = 1 << tournament.total_rounds
    return [players[s - 1] if s <= len(players) else None for s in bracket_order(size)]


def _index(results: Sequence[Result]) -> dict[tuple[int, frozenset[str]], Result]:
    return {(r.round, frozenset(r.players)): r for r in results if r.second is not None}


def _advance(
    a: Slot,
    b: Slot,
    number: int,
    found: dict[tuple[int, frozenset[str]], Result],
    dropped: frozenset[str],
) -> tuple[Slot, Result | None]:
    """Who goes through from ``a`` v ``b`` in round ``number``, and the deciding result.

    Raises :class:`TournamentError` when both are in and no result was recorded.
    """
    if a is not None and b is not None:
        result = found.get((number, frozenset((a, b))))
        if result is not None:
            return result.winner, result
    present = [p for p in (a, b) if p is not None and p not in dropped]
    if len(present) == 2:
        raise TournamentError(f"Round {number} is not finished: {a} v {b} has no result")
    return (present[0] if present else None), None


def _walk(
    tournament: Tournament, results: Sequence[Result], rounds: int, dropped: frozenset[str]
) -> tuple[list[Slot], list[tuple[int, str]]]:
    """The slots of round ``rounds + 1`` after playing ``rounds`` rounds, and who went out in
    which round."""
    slots = _first_slots(tournament)
    found = _index(results)
    out: list[tuple[int, str]] = []
    for number in range(1, rounds + 1):
        nxt: list[Slot] = []
        for k in range(0, len(slots), 2):
            a, b = slots[k], slots[k + 1]
            winner, _ = _advance(a, b, number, found, dropped)
            nxt.extend([winner])
            out.extend((number, p) for p in (a, b) if p is not None and p != winner)
        slots = nxt
    return slots, out


def elimination_round(
    tournament: Tournament, results: Sequence[Result], number: int, dropped: frozenset[str]
) -> Round:
    """Round ``number`` of the bracket, from the winners of the rounds before it."""
    if tournament.format is not Format.SINGLE_ELIMINATION:
        raise TournamentError("This is not an elimination tournament")
    slots, _ = _walk(tournament, results, number - 1, dropped)
    pairings: list[Pairing] = []
    settled: list[Result] = []
    for k in range(0, len(slots), 2):
        a, b = slots[k], slots[k + 1]
        if a is not None and b is not None and a not in dropped and b not in dropped:
            pairings.append(Pairing(len(pairings) + 1, a, b))
        elif a is not None and b is not None and (a not in dropped or b not in dropped):
            winner, loser = (b, a) if a in dropped else (a, b)
            settled.append(Result.forfeit(number, winner=winner, loser=loser))
        else:
            present = [p for p in (a, b) if p is not None and p not in dropped]
            settled.extend(Result.bye(number, p) for p in present)
    return Round(number, tuple(pairings), tuple(settled))


def placings(
    tournament: Tournament, results: Sequence[Result], dropped: frozenset[str] = frozenset()
) -> tuple[Placing, ...]:
    """The places decided so far: every player out, and the winner once the final is played.

    >>> from .formats import Format, Tournament
    >>> t = Tournament(Format.SINGLE_ELIMINATION, ("a", "b", "c", "d"))
    >>> games = [Result.played(1, "a", "d", (121, 90)), Result.played(1, "b", "c", (80, 121)),
    ...          Result.played(2, "a", "c", (121, 115))]
    >>> [(p.place, p.player) for p in placings(t, games)]
    [(1, 'a'), (2, 'c'), (3, 'b'), (3, 'd')]
    """
    if tournament.format is not Format.SINGLE_ELIMINATION:
        raise TournamentError("Placings by round are for an elimination; see standings()")
    tournament.check_all(results)
    total = tournament.total_rounds
    played = 0
    for number in range(1, total + 1):
        try:
            _walk(tournament, results, number, dropped)
        except TournamentError:
            break
        played = number
    slots, out = _walk(tournament, results, played, dropped)
    seed = {p: i for i, p in enumerate(tournament.players)}
    lines: list[Placing] = []
    if played == total and slots[0] is not None:
        lines.append(Placing(1, slots[0], None))
    for number, player in sorted(out, key=lambda o: (-o[0], seed[o[1]])):
        lines.append(Placing((1 << (total - number)) + 1, player, number))
    return tuple(lines)
