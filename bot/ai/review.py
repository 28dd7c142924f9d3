"""The analysis of a finished game: each decision of one seat, against the expert's choice.

:func:`review` walks a game's replay (the engine's own events, deal by deal) and, at each of the
seat's decisions, rebuilds what that seat knew at that moment (a
:class:`~bot.ai.view.SeatKnowledge`: its own cards and discards, the starter once cut, the cards
laid so far, the scores; never another hand, the crib or the pack) and values every choice it
had:

- **A discard**: the coach's evaluator (:func:`bot.ai.discard.table_options`, the numbers the
  hint shows): the exact expected hand over every starter the seat had not seen, plus the
  expected crib from the shipped tables (what a discard is worth with what the others tend to
  throw, over every starter), added for the seat's side's crib and subtracted for another's.
- **A card laid**: the expert's pegging search (:mod:`bot.ai.expert_pegging`): the seat's side's
  points minus the others' for the rest of this play, averaged over sampled worlds of the unseen
  cards consistent with what the seat saw (the same worlds for every card, so the differences
  are sharper than the values). Cards of one rank are one choice: suits do not count in the play.

Near the end of a two-handed game (``Decision.near_end``, while the seat's chance to win is
neither about 0 nor about 1: between :data:`CHANCE_SPAN`) the choices are valued in **chances
to win** instead (``Decision.chances``, :mod:`bot.ai.deal_chances`), from the shipped table of
:mod:`bot.ai.chance_tables`:

- a discard: the chance to win over the deal (:func:`bot.ai.deal_chances.discard_chance`: the kept
  hand's points over every unseen starter, the crib moved to the table's value of the discard,
  the pegging and the other hand as measured in self-play, each stage counted in order);
- a card laid: the same search as for points, but reaching the target wins at once and the end
  of the play is valued by the show (in counting order) and the table's chance for the next
  deal (:func:`bot.ai.deal_chances.play_chances`).

Elsewhere (and with three or four players: no table) values are points; :attr:`Review.points_only`
says whether every decision was. A choice with a single option (one rank that fits) is kept,
with cost 0 and ``forced``; :meth:`Review.costliest` never returns it.

Deterministic: each search is seeded by the game, the deal and the step. Only :mod:`bot.engine`
and :mod:`bot.ai` are imported; the replay is read through :class:`ReplayLike` (what
:class:`bot.sessions.history.Replay` is).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.engine import (
    Action,
    Card,
    CountReset,
    Discard,
    Event,
    Phase,
    Play,
    Played,
    Scored,
    StarterCut,
    Variant,
)

from .chance_tables import current
from .deal_chances import discard_chance, play_chances
from .discard import DiscardOption, table_options
from .expert_pegging import averaged_values, near_the_end
from .pegging import distinct_by_rank, legal_cards
from .view import SeatKnowledge

COSTLY = 0.1
"""Below this many points a decision is not worth telling (search noise, rounding)."""
COSTLY_CHANCE = 0.01
"""Below this chance to win (one percentage point) a decision valued in chances is not told."""
CHANCE_POINTS = 40.0
"""Points worth a whole chance to win, to rank chance decisions among point ones: around the
middle of a 121 game one point is worth about 2.5 percentage points (the table's slope)."""
CHANCE_SPAN = (0.01, 0.99)
"""Near the end, decisions are valued in chances while the chance to win at the deal's start
lies strictly inside this span (outside it the points still tell something, the chances not)."""
ROUNDS_TWO = 4
ROUNDS_MULTI = 2
"""How many times the expert's valuation of a card laid is run, each on worlds of its own
(two-handed: 4 searches of 100 to 400 worlds, or near the end one search of 4 x 200; more players:
twice): four times the expert's sample halves the noise of a cost, and a whole game's review
still fits in its time (docs/research/measurements.md, "The review")."""


# --------------------------------------------------------------------------- what is read


class StepLike(Protocol):
    @property
    def step(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def action(self) -> Action: ...
    @property
    def events(self) -> tuple[Event, ...]: ...


class DealLike(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def steps(self) -> Sequence[StepLike]: ...


class ReplayLike(Protocol):
    @property
    def game_id(self) -> int: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def opening(self) -> Sequence[StepLike]: ...
    @property
    def deals(self) -> Sequence[DealLike]: ...


# --------------------------------------------------------------------------- what is said


class DecisionKind(enum.Enum):
    DISCARD = "discard"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice: the cards laid away (and kept), or the one card laid; its expected points."""

    cards: tuple[Card, ...]
    kept: tuple[Card, ...]
    value: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat, with what it held, the expert's choice and its values.

    Discard values: expected hand + crib weight x expected crib. Play values: the side's points
    minus the others' for the rest of the play. With ``chances`` both are the chance to win
    instead (0 to 1). A forced choice is not searched (values 0.0).
    """

    deal: int
    step: int
    kind: DecisionKind
    seat: int
    hand: tuple[Card, ...]
    own_crib: bool
    count: int
    pile: tuple[Card, ...]
    chosen: Choice
    best: Choice
    options: int
    near_end: bool
    chances: bool = False

    @property
    def cost(self) -> float:
        """The expected points given up (with ``chances``: the chance to win given up, 0 to 1;
        0 when the choice was the expert's, or as good)."""
        return max(0.0, self.best.value - self.chosen.value)

    @property
    def points_cost(self) -> float:
        """The cost in points (a chance counted at :data:`CHANCE_POINTS`), to rank decisions."""
        return self.cost * CHANCE_POINTS if self.chances else self.cost

    @property
    def costly(self) -> bool:
        return self.cost > (COSTLY_CHANCE if self.chances else COSTLY)

    @property
    def forced(self) -> bool:
        return self.options == 1


@dataclass(frozen=True, slots=True)
class DealReview:
    number: int
    dealer: int
    decisions: tuple[Decision, ...]

    @property
    def given_away(self) -> float:
        """The points given away (decisions valued in points)."""
        return sum(d.cost for d in self.decisions if not d.chances)

    @property
    def chance_given_away(self) -> float:
        """The chance to win given away (decisions valued in chances), 0 to 1 summed."""
        return sum(d.cost for d in self.decisions if d.chances)


@dataclass(frozen=True, slots=True)
class Review:
    """One seat's decisions in a finished game, deal by deal.

    ``points_only``: every decision was valued in points (none in chances to win).
    """

    game_id: int
    variant: Variant
    seat: int
    deals: tuple[DealReview, ...]
    points_only: bool = True

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(d for deal in self.deals for d in deal.decisions)

    @property
    def given_away(self) -> float:
        return sum(deal.given_away for deal in self.deals)

    @property
    def chance_given_away(self) -> float:
        return sum(deal.chance_given_away for deal in self.deals)

    def costliest(self, n: int = 3) -> tuple[Decision, ...]:
        """The ``n`` decisions that gave away the most (more than :data:`COSTLY` points, or
        :data:`COSTLY_CHANCE`, each; ranked with a chance at :data:`CHANCE_POINTS` points)."""
        costly = [d for d in self.decisions if d.costly]
        costly.sort(key=lambda d: (-d.points_cost, d.step))
        return tuple(costly[:n])


# --------------------------------------------------------------------------- the analysis


def review(replay: ReplayLike, seat: int) -> Review:
    """Every discard and card laid by ``seat`` in ``replay``, valued (see the module doc)."""
    variant = replay.variant
    if seat not in range(variant.players):
        raise ValueError(f"There is no seat {seat!r} in this game")
    scores = [0] * variant.sides
    for step in replay.opening:
        _score(scores, step.events)
    deals = []
    for deal in replay.deals:
        deals.append(_review_deal(replay.game_id, variant, deal, seat, scores))
    chances = any(d.chances for deal in deals for d in deal.decisions)
    return Review(replay.game_id, variant, seat, tuple(deals), points_only=not chances)


def _score(scores: list[int], events: Sequence[Event]) -> None:
    for event in events:
        if isinstance(event, Scored):
            scores[event.side] = event.score


@dataclass(slots=True)
class _Table:
    """What ``seat`` has seen of one deal so far (public facts and its own cards)."""

    hand: list[Card]
    kept: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    starter: Card | None = None
    played: list[tuple[int, Card]] = field(default_factory=list)
    pile: list[Card] = field(default_factory=list)
    count: int = 0


def _review_deal(
    game_id: int, variant: Variant, deal: DealLike, seat: int, scores: list[int]
) -> DealReview:
    seen = _Table(list(deal.hands[seat]))
    decisions: list[Decision] = []
    for step in deal.steps:
        action = step.action
        if step.seat == seat and isinstance(action, Discard | Play):
            view = SeatKnowledge(
                seat=seat,
                variant=variant,
                phase=Phase.DISCARD if isinstance(action, Discard) else Phase.PLAY,
                dealer=deal.dealer,
                scores=tuple(scores),
                hand=tuple(seen.hand),
                kept=seen.kept,
                discards=seen.discards,
                starter=seen.starter,
                played=tuple(seen.played),
                pile=tuple(seen.pile),
                count=seen.count,
                to_act=(seat,),
            )
            where = (deal.number, step.step)
            if isinstance(action, Discard):
                decisions.append(_discard(view, action, where))
            else:
                decisions.append(_play(game_id, view, action, where))
        if step.seat == seat and isinstance(action, Discard):
            seen.discards = action.cards
            seen.hand = [c for c in seen.hand if c not in action.cards]
            seen.kept = tuple(seen.hand)
        for event in step.events:
            if isinstance(event, StarterCut):
                seen.starter = event.card
            elif isinstance(event, Played):
                seen.played.append((event.seat, event.card))
                seen.pile.append(event.card)
                seen.count = event.count
                if event.seat == seat:
                    seen.hand.remove(event.card)
            elif isinstance(event, CountReset):
                seen.pile.clear()
                seen.count = 0
        _score(scores, step.events)
    return DealReview(deal.number, deal.dealer, tuple(decisions))


def _in_chances(view: SeatKnowledge) -> bool:
    """Value this decision in chances to win: two-handed, near the end, the game still open."""
    if view.players != 2 or not near_the_end(view):
        return False
    return CHANCE_SPAN[0] < current(view) < CHANCE_SPAN[1]


def _discard(view: SeatKnowledge, action: Discard, where: tuple[int, int]) -> Decision:
    variant = view.variant
    options = table_options(
        view.hand, own=view.crib_is_ours, players=variant.players, partnerships=variant.partnerships
    )
    chosen = next(o for o in options if set(o.discard) == set(action.cards))
    best = options[0]
    if _in_chances(view):
        values = {o.discard: discard_chance(view, o.discard, o.kept) for o in options}
        top = max(options, key=lambda o: values[o.discard])
        if values[top.discard] - values[chosen.discard] < 1e-9:
            top = chosen
        return _discard_decision(view, where, options, chosen, top, values)
    if abs(best.net - chosen.net) < 1e-9:
        best = chosen
    return _discard_decision(view, where, options, chosen, best, None)


def _discard_decision(
    view: SeatKnowledge,
    where: tuple[int, int],
    options: list[DiscardOption],
    chosen: DiscardOption,
    best: DiscardOption,
    chances: dict[tuple[Card, ...], float] | None,
) -> Decision:
    def choice(option: DiscardOption) -> Choice:
        value = option.net if chances is None else chances[option.discard]
        return Choice(tuple(option.discard), tuple(option.kept), value)

    return Decision(
        deal=where[0],
        step=where[1],
        kind=DecisionKind.DISCARD,
        seat=view.seat,
        hand=tuple(sorted(view.hand)),
        own_crib=view.crib_is_ours,
        count=0,
        pile=(),
        chosen=choice(chosen),
        best=choice(best),
        options=len(options),
        near_end=near_the_end(view),
        chances=chances is not None,
    )


def _play(game_id: int, view: SeatKnowledge, action: Play, where: tuple[int, int]) -> Decision:
    card = action.card
    legal = distinct_by_rank(legal_cards(view))
    values = {c.rank: 0.0 for c in legal}
    chances = len(legal) > 1 and _in_chances(view)
    rng = random.Random(f"review:{game_id}:{where[0]}:{where[1]}")
    if chances:
        values = play_chances(view, legal, rng, ROUNDS_TWO)
    elif len(legal) > 1:
        values = play_values(view, legal, rng)
    best_rank = max(values, key=lambda r: (values[r], -r))
    if values[best_rank] - values[card.rank] < 1e-9:
        best_rank, best_card = card.rank, card
    else:
        best_card = next(c for c in legal if c.rank == best_rank)
    return Decision(
        deal=where[0],
        step=where[1],
        kind=DecisionKind.PLAY,
        seat=view.seat,
        hand=tuple(sorted(view.hand)),
        own_crib=view.crib_is_ours,
        count=view.count,
        pile=view.pile,
        chosen=Choice((card,), (), values[card.rank]),
        best=Choice((best_card,), (), values[best_rank]),
        options=len(legal),
        near_end=near_the_end(view),
        chances=chances,
    )


def play_values(view: SeatKnowledge, legal: list[Card], rng: random.Random) -> dict[int, float]:
    """Per rank of ``legal`` (one card per rank), the expert's average value of laying it: the
    side's points minus the others' for the rest of the play (two-handed, the dealer counts the
    pone's at the expert's ``dealer_against``), over sampled worlds (the expert's
    search, run :data:`ROUNDS_TWO` or :data:`ROUNDS_MULTI` times).

    The scores are left out of the view searched (all 0), so the expert values points even near
    the end of a game, where it would otherwise play for the win (the chances to win are
    :func:`bot.ai.deal_chances.play_chances`).
    """
    blind = replace(view, scores=tuple(0 for _ in view.scores))
    rounds = ROUNDS_TWO if view.players == 2 else ROUNDS_MULTI
    return averaged_values(blind, rng, legal, rounds)
