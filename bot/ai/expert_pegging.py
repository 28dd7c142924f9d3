"""The expert's pegging (:func:`expert_play`): two-handed search and play-outs over sampled
worlds of the unseen cards, on the helpers of :mod:`bot.ai.pegging` and the exact solvers of
:mod:`bot.ai.pegging_solver`."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.engine import Card

from .handvalue import rank_show
from .pegging import (
    distinct_by_rank,
    legal_cards,
    pile_ranks,
    unshown_rank_counts,
)
from .pegging_solver import EndgameSolver
from .playouts import first_then_rollout, multi_rollout
from .view import SeatView

if TYPE_CHECKING:
    from .pegging_search import Ending
    from .team_ending import TeamEnding

EXPERT_SAMPLES_TWO = 64
PLAYOUT_STAGES: tuple[int, ...] = (96, 192)
"""With 3 or 4 players where the expert plays each card out (near the end of a partnership
game, or with a search switched off), the worlds dealt before it looks whether one card is
clearly best (:data:`SEARCH_CLEAR`), then more up to the next. Fewer worlds lost points; more
gained nothing to be seen (docs/research/measurements.md, "Three and four players")."""
ENDGAME_CRIB = 4.7
ENDGAME_REACH = 31
"""Points from the target within which the expert plays for the win, not the points."""
SEARCH = True
"""Two-handed and far from the end, the expert searches what it may know
(:mod:`bot.ai.pegging_search`); off: one play-out per world and card (a switch for measuring)."""
SEARCH_WORLDS = 400
"""Worlds the two-handed search deals at most (:func:`bot.ai.inference.weighted_worlds`), in the
stages of :data:`SEARCH_STAGES`. More worlds showed no gain that held up on other deals, for more
time than the decision-time goals leave room for (docs/research/measurements.md, "How many
worlds")."""
DEALER_AGAINST = 0.8
"""Two-handed and far from the end, the expert's dealer counts the pone's pegging points at this
weight against its own (the pone counts the dealer's in full). At full weight the expert dealer was
the cautious side, pegging less than it could for little given away; at 0.8 it pegs more for a
little more given back, the same strength over a pair of deals put where the dealer lacked it
(docs/research/measurements.md, "The dealer's weight"). The coach and the review value the dealer's
cards the same way."""
SEARCH_STAGES: tuple[int, ...] = (100, 200)
"""After how many worlds the two-handed search looks whether one card is clearly best."""
SEARCH_CLEAR = 0.5
"""When the best card leads the next by this many points over the first stage's worlds (less
over more: the threshold falls as one over the square root of the worlds), the search stops
there (the other worlds change the choice too rarely to be worth their time)."""
SEARCH_WORLDS_END = 200
"""Worlds the two-handed search deals near the end of a game (the chance to win)."""
SEARCH_CLEAR_CHANCE = 0.02
"""Likewise near the end of a game, in the chance to win
(:func:`bot.ai.deal_chances.play_chances`)."""


def near_the_end(view: SeatView) -> bool:
    """Either side is within :data:`ENDGAME_REACH` of the target."""
    target = view.variant.target
    return any(target - score <= ENDGAME_REACH for score in view.scores)


def expert_play(view: SeatView, rng: random.Random) -> Card:
    """Search over sampled worlds (see the module docstring)."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    return ranked(legal, expert_values(view, rng, legal))[0]


def ranked(legal: list[Card], values: dict[int, float]) -> list[Card]:
    """``legal`` best first by the expert's ``values`` (per rank); on a tie, the higher card
    (low cards are kept for goes and thirty-ones)."""
    return sorted(legal, key=lambda c: (values[c.rank], 0.01 * c.value), reverse=True)


def averaged_values(
    view: SeatView, rng: random.Random, legal: list[Card], rounds: int
) -> dict[int, float]:
    """:func:`expert_values` run ``rounds`` times, each on worlds of its own, averaged (less
    noise, for the coach and the review, which can spend the time)."""
    totals = {c.rank: 0.0 for c in legal}
    for _ in range(rounds):
        for rank, value in expert_values(view, rng, legal).items():
            totals[rank] += value
    return {rank: total / rounds for rank, total in totals.items()}


def expert_values(view: SeatView, rng: random.Random, legal: list[Card]) -> dict[int, float]:
    """Per rank of ``legal`` (one card per rank), the expert's average value of laying it: its
    side's points minus the others' (shared out) over the rest of the play."""
    if view.players == 2:
        return _expert_two_handed(view, rng, legal)
    return _expert_multi(view, rng, legal)


def _expert_two_handed(view: SeatView, rng: random.Random, legal: list[Card]) -> dict[int, float]:
    """Per rank, the expert's average value of laying it (its points minus the opponent's).

    The search over what the seat may know (:mod:`bot.ai.pegging_search`); near the end of the
    game it stops when a side reaches the target and the show (in counting order) settles the
    rest (:class:`ShowEnding`). Without :data:`SEARCH`: the average over sampled worlds of laying
    each card, then playing on as ``standard`` would (both seats, each from what it can see),
    with four cards or fewer left near the end searched exactly."""
    from .inference import sample_opponent_two_handed

    endgame = near_the_end(view)
    if SEARCH:
        if not endgame:
            return searched(view, rng, legal)
        ending = ShowEnding(
            view, lambda needs, shows, pone: EndgameSolver(needs, shows, pone, ENDGAME_CRIB)
        )
        return searched(view, rng, legal, ending, worlds=SEARCH_WORLDS_END)
    opp = 1 - view.seat
    me = tuple(sorted(c.rank for c in view.hand))
    pile = pile_ranks(view)
    needs = needs_of(view)
    worlds = sample_opponent_two_handed(view, rng, EXPERT_SAMPLES_TWO)
    base = unshown_rank_counts(view)
    unseen_me = list(base)
    for r in me:
        unseen_me[r] -= 1
    my_show = kept_show(view)
    opp_laid = [c.rank for s, c in view.played if s == opp]
    pone = 0 if view.dealer == opp else 1
    totals = {c.rank: 0.0 for c in legal}
    for world, times in Counter(worlds).items():
        unseen_opp = list(base)
        for r in world:
            unseen_opp[r] -= 1
        end = None
        if endgame:
            opp_show = rank_show(tuple(sorted(opp_laid + list(world))), _starter(view).rank)
            end = EndgameSolver(needs, (my_show, opp_show), pone, ENDGAME_CRIB)
        for card in legal:
            r = card.rank
            if end is not None and len(me) + len(world) <= 4:
                value = end.after(me, world, pile, view.count, 0, r, (0, 0))
            else:
                seen_by_opp = list(unseen_opp)
                seen_by_opp[r] -= 1
                value = first_then_rollout(
                    me, world, pile, view.count, r, unseen_me, seen_by_opp, end
                )
            totals[r] += times * value
    return {r: v / len(worlds) for r, v in totals.items()}


def searched(
    view: SeatView,
    rng: random.Random,
    legal: list[Card],
    ending: Ending | None = None,
    *,
    clear: float | None = None,
    worlds: int | None = None,
) -> dict[int, float]:
    """Per rank of ``legal``, the two-handed search's value over ``worlds`` dealt worlds
    (:func:`bot.ai.inference.weighted_worlds`; with ``ending``, near the end of the game),
    searched in stages: when the best card leads the next by ``clear`` after the first stage,
    or by ``clear`` shrunk as the worlds grow (their noise falls as one over the square root)
    after a later one, the search stops there (defaults: :data:`SEARCH_WORLDS` in the stages
    of :data:`SEARCH_STAGES`, :data:`SEARCH_CLEAR`; with ``worlds`` given, one stop at half).
    Without ``ending``, the dealer counts the pone's points at :data:`DEALER_AGAINST`."""
    from .inference import weighted_worlds
    from .pegging_search import search_values

    me = tuple(sorted(c.rank for c in view.hand))
    pile = pile_ranks(view)
    ranks = [c.rank for c in legal]
    dealing = ending is None and view.dealer == view.seat
    against = DEALER_AGAINST if dealing else 1.0
    total = SEARCH_WORLDS if worlds is None else worlds
    stops = SEARCH_STAGES if worlds is None else (total // 2,)
    stops = (*(s for s in stops if 0 < s < total), total)

    def stage(n: int) -> tuple[dict[int, float], float]:
        part, unseen = weighted_worlds(view, rng, n)
        more = search_values(me, pile, view.count, part, unseen, ranks, ending, against)
        return more, sum(w for w, _ in part)

    return in_stages(stops, SEARCH_CLEAR if clear is None else clear, stage)


def in_stages(
    stops: tuple[int, ...],
    clear: float,
    stage: Callable[[int], tuple[dict[int, float], float]],
) -> dict[int, float]:
    """Values per rank worked out in stages: ``stage(n)`` deals ``n`` more worlds and returns
    their values and total weight, until ``stops[-1]`` worlds in all or until the best rank
    leads the next by ``clear`` after the first stage, or by ``clear`` shrunk as the worlds grow
    after a later one (their noise falls as one over the square root). Each stage is weighed by
    its worlds."""
    values: dict[int, float] = {}
    weight = 0.0
    done = 0
    for stop in stops:
        more, w = stage(stop - done)
        values = {r: (values.get(r, 0.0) * weight + v * w) / (weight + w) for r, v in more.items()}
        weight += w
        done = stop
        top = sorted(values.values(), reverse=True)
        if len(top) == 1 or top[0] - top[1] >= clear * math.sqrt(stops[0] / stop):
            break
    return values


def _starter(view: SeatView) -> Card:
    """The starter: cut before the play, the only time the expert searches."""
    if view.starter is None:
        raise ValueError("The play starts after the starter is cut")
    return view.starter


def kept_show(view: SeatView) -> int:
    """The seat's own show (its four kept cards with the starter, suits and all), 0 before."""
    from bot.engine import show_points

    if len(view.kept) == 4 and view.starter is not None:
        return show_points(view.kept, view.starter)
    return 0


def needs_of(view: SeatView) -> tuple[int, int]:
    """Two-handed: the points the seat and the opponent still need to win."""
    target = view.variant.target
    return target - view.scores[view.side], target - view.scores[view.side_of(1 - view.seat)]


class ShowEnding:
    """The end of the play near the end of a two-handed game, for the search
    (:class:`~bot.ai.pegging_search.Ending`): the show settles a play that ends with nobody
    out, as ``solver`` says (made from the needs, the seat's show and the opponent's, from the
    cards it laid, and which of the two is pone: 0 the seat)."""

    def __init__(
        self,
        view: SeatView,
        solver: Callable[[tuple[int, int], tuple[int, int], int], EndgameSolver],
    ) -> None:
        self.needs = needs_of(view)
        self.my_show = kept_show(view)
        self.pone = 1 if view.dealer == view.seat else 0
        self.starter = _starter(view).rank
        self.opp_laid = tuple(c.rank for s, c in view.played if s != view.seat)
        self.solver = solver
        self.solvers: dict[tuple[int, ...], EndgameSolver] = {}

    def value(self, got: tuple[int, int], laid: tuple[int, ...]) -> float:
        hand = tuple(sorted(self.opp_laid + laid))
        end = self.solvers.get(hand)
        if end is None:
            shows = (self.my_show, rank_show(hand, self.starter))
            end = self.solvers[hand] = self.solver(self.needs, shows, self.pone)
        return end.terminal(got)


SEARCH_MULTI = True
"""Three or four players each for themselves, the expert searches what it may know
(:mod:`bot.ai.pegging_search_multi`); off: one play-out per world and card (a switch for
measuring)."""
SEARCH_PARTNERS = True
"""Likewise in partnerships, far from the end (near it the play-outs of :data:`PLAYOUT_STAGES` value
the chance to win). The search there is the same one with more worlds
(:data:`SEARCH_STAGES_PARTNERS`) and the seat's later cards chosen only where enough of them are
left (:data:`SEARCH_LEAST_PARTNERS`): with too few worlds, or a later card chosen over however few
were left, it lost to the play-outs; so it pegs more than they do (docs/research/measurements.md,
"Three and four players")."""
SEARCH_STAGES_MULTI: tuple[int, ...] = (64,)
"""The worlds the multi-player search deals (:func:`bot.ai.inference_multi.weighted_worlds_multi`)
before it looks whether one card is clearly best (:data:`SEARCH_CLEAR`), then more up to the
next. One stage: a second one on close choices gained too little for the time the decision-time
goals leave (docs/research/measurements.md, "Three and four players")."""
SEARCH_DEPTH_MULTI: int | None = 2
"""How many of its own cards the multi-player search chooses (None: all; past it, the model):
two keeps a decision within its time and the seat from "knowing" the hands deep in the tree."""
SEARCH_LEAST_MULTI = 1
"""With three or four players each for themselves, the fewest worlds at a later turn of the
seat's for the search to choose its card there (fewer: it lays as ``standard`` would)."""
SEARCH_STAGES_PARTNERS: tuple[int, ...] = (96, 192)
"""The worlds of the partnership search, as :data:`SEARCH_STAGES_MULTI`."""
SEARCH_LEAST_PARTNERS = 8
"""In partnerships, as :data:`SEARCH_LEAST_MULTI`: three other cards fall between two of the
seat's, so its second card is searched only where 8 of the worlds or more agree with all it
will have seen."""
SEARCH_PARTNERS_END = False
"""Near the end of a partnership game too, the search (valued in the chance to win: a play that
ends is worth what :meth:`bot.ai.team_ending.TeamEnding.residual` says); off: the play-outs of
:data:`PLAYOUT_STAGES`, valued the same way. Off: it won less often than the play-outs, and
the loss was in its worlds (weighted by the others' plays,
:func:`bot.ai.inference_multi.weighted_worlds_multi`), not in searching the seat's later cards
(docs/research/measurements.md, "Near the end in partnerships")."""
SHARED_MODEL_MULTI = True
"""With three or four players each for themselves the search's model of every other seat reads
the same unseen cards in every world (what no seat has been shown, its own cards not taken
out), as the two-handed search's does, and so scores its ranks once a turn for all the worlds;
off: each world's seat reads its own exact view (a model of its own per world, most of the
search's time). The worlds' weights read the others' plays from their exact views either way.
It pegs as well in less time (docs/research/measurements.md, "Three and four players")."""
SHARED_MODEL_PARTNERS = True
"""The same in partnerships: as strong as each world's own view, in less time
(docs/research/measurements.md, "Three and four players")."""


def _expert_multi(view: SeatView, rng: random.Random, legal: list[Card]) -> dict[int, float]:
    """Three or four players, per rank: the side's points minus the others' (shared out) for the
    rest of the play, averaged over the worlds.

    With :data:`SEARCH_MULTI` (:data:`SEARCH_PARTNERS` in partnerships, far from the end) the
    search over what the seat may know; else lay each card in every sampled world, then play the
    rest out with every seat laying as ``standard`` would (near the end of a partnership game,
    valued in the chance to win: :func:`team_ending`)."""
    from .inference import sample_others

    n = view.players
    sides = view.variant.sides
    weights = tuple(1.0 if view.side_of(s) == view.side else -1.0 / (sides - 1) for s in range(n))
    pile = pile_ranks(view)
    me = tuple(sorted(c.rank for c in view.hand))
    partners = view.variant.partnerships
    team = team_ending(view)
    if (SEARCH_PARTNERS if partners else SEARCH_MULTI) and (team is None or SEARCH_PARTNERS_END):
        from .inference_multi import weighted_worlds_multi
        from .pegging_search_multi import search_values_multi

        ranks = [c.rank for c in legal]
        least = SEARCH_LEAST_PARTNERS if partners else SEARCH_LEAST_MULTI
        shared = SHARED_MODEL_PARTNERS if partners else SHARED_MODEL_MULTI
        unshown = tuple(unshown_rank_counts(view)) if shared else None

        def searched_stage(k: int) -> tuple[dict[int, float], float]:
            found = weighted_worlds_multi(view, rng, k)
            more = search_values_multi(
                view.seat,
                me,
                pile,
                view.count,
                found,
                weights,
                ranks,
                SEARCH_DEPTH_MULTI,
                least,
                unshown,
                ending=team,
            )
            return more, sum(w for w, _, _ in found)

        stages = SEARCH_STAGES_PARTNERS if partners else SEARCH_STAGES_MULTI
        return in_stages(
            stages, SEARCH_CLEAR if team is None else SEARCH_CLEAR_CHANCE, searched_stage
        )
    base = unshown_rank_counts(view)

    def played_out(k: int) -> tuple[dict[int, float], float]:
        totals = {c.rank: 0.0 for c in legal}
        for world in sample_others(view, rng, k):
            hands = [me if s == view.seat else world[s] for s in range(n)]
            unseen: list[list[int]] = []
            for s in range(n):
                u = list(base)
                for r in hands[s]:
                    u[r] -= 1
                unseen.append(u)
            end = team.world(hands) if team is not None else None
            for card in legal:
                totals[card.rank] += multi_rollout(
                    hands, pile, view.count, view.seat, card.rank, unseen, weights, end
                )
        return {r: v / k for r, v in totals.items()}, float(k)

    clear = SEARCH_CLEAR if team is None else SEARCH_CLEAR_CHANCE
    return in_stages(PLAYOUT_STAGES, clear, played_out)


PARTNER_CHANCES = True
"""Near the end of a partnership game (and while it is still open: the side's chance from the
table between :data:`PARTNER_CHANCE_SPAN`) the play-outs are valued in the chance to win
(:mod:`bot.ai.team_ending`); off: points, as elsewhere (a switch for measuring)."""
PARTNER_CHANCE_SPAN = (0.01, 0.99)


def team_chances(view: SeatView) -> bool:
    """Whether the seat plays a partnership game for the chance to win: near the end, and the
    side's chance at the start of the deal (the table) within :data:`PARTNER_CHANCE_SPAN`."""
    if not (PARTNER_CHANCES and view.variant.partnerships and near_the_end(view)):
        return False
    from .deal_chances import current

    return PARTNER_CHANCE_SPAN[0] < current(view) < PARTNER_CHANCE_SPAN[1]


def team_ending(view: SeatView) -> TeamEnding | None:
    """The ending of the partnership play-outs near the end of the game, or None (points)."""
    if not team_chances(view):
        return None
    from .team_ending import TeamEnding

    return TeamEnding(view)
