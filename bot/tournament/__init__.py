"""Tournament rules: formats, pairings, standings and placings. Pure Python, no I/O.

Given the tournament (format, field, settings), the results so far and who dropped, the next
round is a pure function, deterministic for the tournament's seed; so are the standings.

>>> from bot.tournament import Format, Result, Tournament, next_round, standings
>>> t = Tournament(Format.ROUND_ROBIN, ("ann", "bob", "cy", "dee"))
>>> [str(p) for p in next_round(t, []).pairings]
['table 1: ann v dee', 'table 2: bob v cy']
>>> results = [Result.played(1, "ann", "dee", (121, 99)), Result.played(1, "bob", "cy", (88, 121))]
>>> [str(p) for p in next_round(t, results).pairings]
['table 1: cy v ann', 'table 2: dee v bob']
>>> [(s.place, s.player, s.spread) for s in standings(t, results)]
[(1, 'cy', 33), (2, 'ann', 22), (3, 'dee', -22), (4, 'bob', -33)]

See docs/developers/tournaments.md for the rules each format follows.
"""

from .bracket import Placing, bracket_order, elimination_round, placings
from .formats import Format, Pairing, Round, Tournament, seeded
from .pairing import next_round, round_robin_round, swiss_round
from .results import GameScore, Result, Scoring, TournamentError, meetings
from .standings import Standing, standings

__all__ = [
    "Format",
    "GameScore",
    "Pairing",
    "Placing",
    "Result",
    "Round",
    "Scoring",
    "Standing",
    "Tournament",
    "TournamentError",
    "bracket_order",
    "elimination_round",
    "meetings",
    "next_round",
    "placings",
    "round_robin_round",
    "seeded",
    "standings",
    "swiss_round",
]
