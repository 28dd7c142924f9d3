"""Computer players: one decision for a seat, from that seat's view only.

>>> from bot.engine import Game, Variant
>>> game = Game.new(Variant(players=2), seed=3, first_dealer=0)
>>> choose_action(game, 1, level="standard", seed=1)
Discard(4♣ 7♦)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import (
    Action,
    Card,
    Claim,
    Cut,
    Discard,
    Game,
    LetGo,
    Muggins,
    NextDeal,
    Phase,
    Play,
)
from bot.engine import muggins as muggins_rules

from .chance_tables import current
from .config import EXPERT, LEVELS, ExpertConfig, Level
from .discard import (
    DiscardOption,
    discards_count,
    easy_discard,
    removal_options,
    table_options,
)
from .expert_pegging import expert_play, near_the_end, team_chances
from .pegging import distinct_by_rank, easy_play, legal_cards, standard_play
from .position import position_adjusted
from .view import SeatKnowledge

RANDOM = "random"
"""A yardstick, not a level to offer players: any legal action, at random."""


def _rng(seed: int | None) -> random.Random:
    return random.Random(seed) if seed is not None else random.Random()


@dataclass(frozen=True, slots=True)
class Player:
    """A computer player: its ``level`` (a :class:`~bot.ai.config.Level`, or :data:`RANDOM`) and,
    for the expert, its tuning (``config``). Every decision is made from one seat's view and is
    deterministic given the seed.

    >>> from bot.engine import Game, Variant
    >>> game = Game.new(Variant(players=2), seed=3, first_dealer=0)
    >>> Player(Level.STANDARD).choose_action(game, 1, seed=1)
    Discard(4♣ 7♦)
    """

    level: str = Level.STANDARD
    config: ExpertConfig = EXPERT

    def __post_init__(self) -> None:
        if self.level not in LEVELS and self.level != RANDOM:
            raise ValueError(f"Unknown level {self.level!r}: choose from {', '.join(LEVELS)}")

    def choose_action(self, game: Game, seat: int, *, seed: int | None = None) -> Action:
        """The action of this player in ``seat`` (it must be one of the seats to act), decided
        from :class:`SeatKnowledge` only: its own cards and the public facts."""
        if game.phase is Phase.SHOW:
            return show_action(game, seat)
        if game.phase is Phase.NEXT_DEAL and seat in game.to_act:
            return NextDeal()  # a computer is ready for the next deal at once
        return self.decide(SeatKnowledge.of(game, seat), seed=seed)

    def decide(self, view: SeatKnowledge, *, seed: int | None = None) -> Action:
        """The action for the seat whose view this is."""
        if view.seat not in view.to_act:
            raise ValueError(f"Seat {view.seat} has nothing to do now ({view.phase.value})")
        rng = _rng(seed)
        if view.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER):
            return Cut(rng.choice(view.cut_depths))
        if view.phase is Phase.DISCARD:
            return Discard(
                self.discard(
                    view.hand,
                    own=view.crib_is_ours,
                    players=view.players,
                    partnerships=view.variant.partnerships,
                    rng=rng,
                    view=view,
                )
            )
        if view.phase is Phase.PLAY:
            return Play(self.play(view, rng))
        raise ValueError(f"Nothing to decide in phase {view.phase.value}")

    def discard_options(
        self,
        hand: Sequence[Card],
        *,
        own: bool,
        players: int = 2,
        partnerships: bool = False,
        offset: int | None = None,
    ) -> list[DiscardOption]:
        """Every discard valued the way this level values it, best first (the expert also
        weighs the kept cards' pegging prospects: two-handed always, with 3 or 4 players when
        the seat's ``offset`` after the dealer is given)."""
        if self.level == Level.EXPERT:
            return removal_options(
                hand,
                own=own,
                players=players,
                partnerships=partnerships,
                pegging=True,
                offset=offset,
                config=self.config,
            )
        return table_options(hand, own=own, players=players, partnerships=partnerships)

    def discard(
        self,
        hand: tuple[Card, ...],
        *,
        own: bool,
        players: int,
        partnerships: bool,
        rng: random.Random,
        view: SeatKnowledge | None,
    ) -> tuple[Card, ...]:
        """The cards to lay away from ``hand`` (with ``view``, the expert weighs the board
        position and, near the end, the chance to win)."""
        if self.level == RANDOM:
            return tuple(sorted(rng.sample(hand, discards_count(players))))
        if self.level == Level.EASY:
            return easy_discard(hand, players)
        offset = None
        if view is not None and view.dealer is not None:
            offset = (view.seat - view.dealer) % players
        options = self.discard_options(
            hand, own=own, players=players, partnerships=partnerships, offset=offset
        )
        if self.level == Level.EXPERT and view is not None:
            options = position_adjusted(options, view)
            if in_chances(view, self.config) or team_chances(view, self.config):
                return chance_discard(options, view, self.config)
        return options[0].discard

    def play(self, view: SeatKnowledge, rng: random.Random) -> Card:
        """The card to lay."""
        if self.level == RANDOM:
            return rng.choice([c for c in view.hand if view.count + c.value <= 31])
        if self.level == Level.EASY:
            return easy_play(view)
        if self.level == Level.STANDARD:
            return standard_play(view)
        if in_chances(view, self.config):
            return chance_play(view, rng, self.config)
        return expert_play(view, rng, self.config)


def choose_discard(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    level: str = Level.EXPERT,
    seed: int | None = None,
    partnerships: bool = False,
) -> list[Card]:
    """The cards ``level`` lays away from ``hand``: 2 of 6 two-handed, 1 of 5 otherwise.

    ``dealer``: the crib is ours (we deal, or in partnerships our partner does).
    """
    player = Player(level)
    hand = tuple(sorted(hand))
    k = discards_count(players)
    if len(hand) != k + 4:
        raise ValueError(f"With {players} players a hand to discard from has {k + 4} cards")
    if len(set(hand)) != len(hand):
        raise ValueError("The hand holds the same card twice")
    return list(
        player.discard(
            hand, own=dealer, players=players, partnerships=partnerships, rng=_rng(seed), view=None
        )
    )


def discard_options(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    partnerships: bool = False,
    level: str = Level.EXPERT,
    offset: int | None = None,
) -> list[DiscardOption]:
    """Every discard valued the way ``level`` values it, best first (:meth:`Player.
    discard_options`)."""
    return Player(level).discard_options(
        hand, own=dealer, players=players, partnerships=partnerships, offset=offset
    )


def choose_action(
    game: Game, seat: int, *, level: str = Level.STANDARD, seed: int | None = None
) -> Action:
    """The action of a ``level`` computer player in ``seat`` (:meth:`Player.choose_action`)."""
    return Player(level).choose_action(game, seat, seed=seed)


def decide(view: SeatKnowledge, *, level: str = Level.STANDARD, seed: int | None = None) -> Action:
    """The action of a ``level`` computer player for the seat whose view this is."""
    return Player(level).decide(view, seed=seed)


def show_action(game: Game, seat: int) -> Action:
    """Muggins: call muggins on any miss, else claim the exact count, else let the claim go.

    The miss is public knowledge in principle (the counted cards are face up and the points
    pegged are known); each window open to the seat holds it ready-made.
    """
    legal = game.legal_actions(seat)
    if Muggins() in legal and any(w.missed > 0 for w in muggins_rules.answerable(game, seat)):
        return Muggins()
    nxt = muggins_rules.counter(game)
    if nxt is not None and Claim(0) in legal:
        return Claim(muggins_rules.breakdown_of(game, *nxt).total)
    return LetGo()


# --------------------------------------------------------------------------- near the end


def in_chances(view: SeatKnowledge, config: ExpertConfig = EXPERT) -> bool:
    """Decide by the chance to win: two-handed, either side near the end
    (:func:`~bot.ai.expert_pegging.near_the_end`), and the game still open (``config``'s
    ``chance_span``)."""
    if view.players != 2:
        return False
    if not near_the_end(view, config):
        return False
    low, high = config.chance_span
    return low < current(view) < high


def chance_discard(
    options: list[DiscardOption], view: SeatKnowledge, config: ExpertConfig = EXPERT
) -> tuple[Card, ...]:
    """Of the expert's best discards (``config``'s ``chance_options``), the one with the best
    chance to win over the deal (:func:`bot.ai.deal_chances.discard_chance`; in partnerships
    :func:`bot.ai.team_discard.team_discard_chance`; ties: the expert's order). The chances move
    the pegging by each discard's pegging prospects against the others' average: half the
    difference more for the seat, half less for the opponent."""
    from .deal_chances import discard_chance
    from .team_discard import team_discard_chance

    candidates = options[: config.chance_options]
    base = sum(o.extra for o in candidates) / len(candidates)

    def chance(option: DiscardOption) -> float:
        shift = option.extra - base
        if view.variant.partnerships:
            return team_discard_chance(view, option.kept, option.crib, peg_shift=shift)
        return discard_chance(view, option.discard, option.kept, peg_shift=shift)

    best = max(enumerate(candidates), key=lambda io: (round(chance(io[1]), 9), -io[0]))
    return best[1].discard


def chance_play(view: SeatKnowledge, rng: random.Random, config: ExpertConfig = EXPERT) -> Card:
    """The card with the best chance to win (:func:`chance_ranked`); when every card is as good,
    the expert's points."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    ranked = chance_ranked(view, legal, rng, config)
    return ranked[0][0] if ranked else expert_play(view, rng, config)


def chance_ranked(
    view: SeatKnowledge, legal: list[Card], rng: random.Random, config: ExpertConfig = EXPERT
) -> list[tuple[Card, float]] | None:
    """``legal`` (one card per rank) best first by the chance to win after laying each: the
    expert's search with reaching the target winning at once and the end of the play valued by
    the show and the table (:func:`bot.ai.deal_chances.play_chances`); None when every card is as
    good (the chances then say nothing: the points decide)."""
    from .deal_chances import play_chances

    chances = play_chances(view, legal, rng, 1, config)
    if max(chances.values()) - min(chances.values()) < 1e-6:
        return None
    order = sorted(legal, key=lambda c: (round(chances[c.rank], 9), 0.01 * c.value), reverse=True)
    return [(c, chances[c.rank]) for c in order]
