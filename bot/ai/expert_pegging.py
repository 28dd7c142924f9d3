"""The expert's pegging (:func:`expert_play`): two-handed search and play-outs over sampled
worlds of the unseen cards, on the helpers of :mod:`bot.ai.pegging` and the exact solvers of
:mod:`bot.ai.pegging_solver`."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.engine import Card

from .chance_tables import current
from .config import EXPERT, ExpertConfig
from .handvalue import rank_show
from .pegging import (
    distinct_by_rank,
    legal_cards,
    pile_ranks,
    unseen_by_seat,
    unshown_rank_counts,
)
from .pegging_solver import EndgameSolver
from .playouts import multi_rollout
from .team_ending import TeamEnding
from .view import SeatKnowledge, kept_show

if TYPE_CHECKING:
    from .pegging_search import Ending

ENDGAME_CRIB = 4.7
"""The crib's expected points for the exact endgame solver (:class:`EndgameSolver`)."""


def near_the_end(view: SeatKnowledge, config: ExpertConfig = EXPERT) -> bool:
    """Either side is within :attr:`~bot.ai.config.ExpertConfig.endgame_reach` of the target."""
    target = view.variant.target
    return any(target - score <= config.endgame_reach for score in view.scores)


def expert_play(view: SeatKnowledge, rng: random.Random, config: ExpertConfig = EXPERT) -> Card:
    """Search over sampled worlds (see the module docstring)."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    return ranked(legal, expert_values(view, rng, legal, config))[0]


def ranked(legal: list[Card], values: dict[int, float]) -> list[Card]:
    """``legal`` best first by the expert's ``values`` (per rank); on a tie, the higher card
    (low cards are kept for goes and thirty-ones)."""
    return sorted(legal, key=lambda c: (values[c.rank], 0.01 * c.value), reverse=True)


def averaged_values(
    view: SeatKnowledge,
    rng: random.Random,
    legal: list[Card],
    rounds: int,
    config: ExpertConfig = EXPERT,
) -> dict[int, float]:
    """:func:`expert_values` run ``rounds`` times, each on worlds of its own, averaged (less
    noise, for the coach and the review, which can spend the time)."""
    totals = {c.rank: 0.0 for c in legal}
    for _ in range(rounds):
        for rank, value in expert_values(view, rng, legal, config).items():
            totals[rank] += value
    return {rank: total / rounds for rank, total in totals.items()}


def expert_values(
    view: SeatKnowledge, rng: random.Random, legal: list[Card], config: ExpertConfig = EXPERT
) -> dict[int, float]:
    """Per rank of ``legal`` (one card per rank), the expert's average value of laying it: its
    side's points minus the others' (shared out) over the rest of the play."""
    if view.players == 2:
        return _expert_two_handed(view, rng, legal, config)
    return _expert_multi(view, rng, legal, config)


def _expert_two_handed(
    view: SeatKnowledge, rng: random.Random, legal: list[Card], config: ExpertConfig
) -> dict[int, float]:
    """Per rank, the expert's average value of laying it (its points minus the opponent's): the
    search over what the seat may know (:mod:`bot.ai.pegging_search`); near the end of the game
    it stops when a side reaches the target and the show (in counting order) settles the rest
    (:class:`ShowEnding`)."""
    if not near_the_end(view, config):
        return searched(view, rng, legal, config=config)
    ending = ShowEnding(
        view, lambda needs, shows, pone: EndgameSolver(needs, shows, pone, ENDGAME_CRIB)
    )
    return searched(view, rng, legal, ending, worlds=config.search_worlds_end, config=config)


def searched(
    view: SeatKnowledge,
    rng: random.Random,
    legal: list[Card],
    ending: Ending | None = None,
    *,
    clear: float | None = None,
    worlds: int | None = None,
    config: ExpertConfig = EXPERT,
) -> dict[int, float]:
    """Per rank of ``legal``, the two-handed search's value over ``worlds`` dealt worlds
    (:func:`bot.ai.inference.weighted_worlds`; with ``ending``, near the end of the game),
    searched in stages: when the best card leads the next by ``clear`` after the first stage,
    or by ``clear`` shrunk as the worlds grow (their noise falls as one over the square root)
    after a later one, the search stops there (defaults: ``config``'s ``search_worlds`` in the
    stages of its ``search_stages``, its ``search_clear``; with ``worlds`` given, one stop at
    half). Without ``ending``, the dealer counts the pone's points at its ``dealer_against``."""
    from .inference import weighted_worlds
    from .pegging_search import search_values

    me = tuple(sorted(c.rank for c in view.hand))
    pile = pile_ranks(view)
    ranks = [c.rank for c in legal]
    dealing = ending is None and view.dealer == view.seat
    against = config.dealer_against if dealing else 1.0
    total = config.search_worlds if worlds is None else worlds
    stops = config.search_stages if worlds is None else (total // 2,)
    stops = (*(s for s in stops if 0 < s < total), total)

    def stage(n: int) -> tuple[dict[int, float], float]:
        part, unseen = weighted_worlds(view, rng, n)
        more = search_values(me, pile, view.count, part, unseen, ranks, ending, against)
        return more, sum(w for w, _ in part)

    return in_stages(stops, config.search_clear if clear is None else clear, stage)


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


def _starter(view: SeatKnowledge) -> Card:
    """The starter: cut before the play, the only time the expert searches."""
    if view.starter is None:
        raise ValueError("The play starts after the starter is cut")
    return view.starter


def needs_of(view: SeatKnowledge) -> tuple[int, int]:
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
        view: SeatKnowledge,
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


def _expert_multi(
    view: SeatKnowledge, rng: random.Random, legal: list[Card], config: ExpertConfig
) -> dict[int, float]:
    """Three or four players, per rank: the side's points minus the others' (shared out) for the
    rest of the play, averaged over the worlds.

    The search over what the seat may know (:mod:`bot.ai.pegging_search_multi`), every other
    seat's model reading the unseen cards no seat has been shown, the same in every world (as
    the two-handed search's does: it scores its ranks once a turn for all the worlds, and pegged
    as well as each world's own view in less time; "Three and four players"). Near the end of a
    partnership game (:func:`team_ending`): lay each card in every sampled world, then play the
    rest out with every seat laying as ``standard`` would, valued in the chance to win (the
    search there lost to these play-outs: "Near the end in partnerships")."""
    from .inference import sample_others

    n = view.players
    sides = view.variant.sides
    weights = tuple(1.0 if view.side_of(s) == view.side else -1.0 / (sides - 1) for s in range(n))
    pile = pile_ranks(view)
    me = tuple(sorted(c.rank for c in view.hand))
    partners = view.variant.partnerships
    team = team_ending(view, config)
    if team is None:
        from .inference_multi import weighted_worlds_multi
        from .pegging_search_multi import search_values_multi

        ranks = [c.rank for c in legal]
        least = config.search_least_partners if partners else config.search_least_multi
        unshown = tuple(unshown_rank_counts(view))

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
                config.search_depth_multi,
                least,
                unshown,
            )
            return more, sum(w for w, _, _ in found)

        stages = config.search_stages_partners if partners else config.search_stages_multi
        return in_stages(stages, config.search_clear, searched_stage)
    base = unshown_rank_counts(view)

    def played_out(k: int) -> tuple[dict[int, float], float]:
        totals = {c.rank: 0.0 for c in legal}
        for world in sample_others(view, rng, k):
            hands = [me if s == view.seat else world[s] for s in range(n)]
            unseen = unseen_by_seat(base, hands)
            end = team.world(hands)
            for card in legal:
                totals[card.rank] += multi_rollout(
                    hands, pile, view.count, view.seat, card.rank, unseen, weights, end
                )
        return {r: v / k for r, v in totals.items()}, float(k)

    return in_stages(config.playout_stages, config.search_clear_chance, played_out)


def team_chances(view: SeatKnowledge, config: ExpertConfig = EXPERT) -> bool:
    """Whether the seat plays a partnership game for the chance to win: near the end, and the
    side's chance at the start of the deal (the table) within ``config``'s
    ``partner_chance_span``."""
    if not (view.variant.partnerships and near_the_end(view, config)):
        return False
    low, high = config.partner_chance_span
    return low < current(view) < high


def team_ending(view: SeatKnowledge, config: ExpertConfig = EXPERT) -> TeamEnding | None:
    """The ending of the partnership play-outs near the end of the game, or None (points)."""
    if not team_chances(view, config):
        return None
    return TeamEnding(view)
