"""Computer players: one decision for a seat, from that seat's view only.

>>> from bot.engine import Game, Variant
>>> game = Game.new(Variant(players=2), seed=3, first_dealer=0)
>>> choose_action(game, 1, level="standard", seed=1)
Discard(4♣ 7♦)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

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

from .discard import (
    LEVELS,
    DiscardOption,
    discards_count,
    easy_discard,
    removal_options,
    table_options,
)
from .expert_pegging import expert_play, near_the_end, team_chances
from .pegging import distinct_by_rank, easy_play, legal_cards, standard_play
from .position import position_adjusted
from .view import SeatView

RANDOM = "random"
"""A yardstick, not a level to offer players: any legal action, at random."""


def _rng(seed: int | None) -> random.Random:
    return random.Random(seed) if seed is not None else random.Random()


def _check_level(level: str) -> None:
    if level not in LEVELS and level != RANDOM:
        raise ValueError(f"Unknown level {level!r}: choose from {', '.join(LEVELS)}")


def choose_discard(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    level: str = "expert",
    seed: int | None = None,
    partnerships: bool = False,
) -> list[Card]:
    """The cards to lay away from ``hand``: 2 of 6 two-handed, 1 of 5 otherwise.

    ``dealer``: the crib is ours (we deal, or in partnerships our partner does).
    """
    _check_level(level)
    hand = tuple(sorted(hand))
    k = discards_count(players)
    if len(hand) != k + 4:
        raise ValueError(f"With {players} players a hand to discard from has {k + 4} cards")
    if len(set(hand)) != len(hand):
        raise ValueError("The hand holds the same card twice")
    return list(
        _discard(
            hand,
            own=dealer,
            players=players,
            partnerships=partnerships,
            level=level,
            rng=_rng(seed),
            view=None,
        )
    )


def discard_options(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    partnerships: bool = False,
    level: str = "expert",
    offset: int | None = None,
) -> list[DiscardOption]:
    """Every discard valued the way ``level`` values it, best first.

    ``expert`` also weighs the pegging prospects of the kept cards (``extra``): two-handed
    always, with 3 or 4 players when the seat's ``offset`` after the dealer is given.
    """
    if level == "expert":
        return removal_options(
            hand,
            own=dealer,
            players=players,
            partnerships=partnerships,
            pegging=True,
            offset=offset,
        )
    return table_options(hand, own=dealer, players=players, partnerships=partnerships)


def _discard(
    hand: tuple[Card, ...],
    *,
    own: bool,
    players: int,
    partnerships: bool,
    level: str,
    rng: random.Random,
    view: SeatView | None,
) -> tuple[Card, ...]:
    if level == RANDOM:
        return tuple(sorted(rng.sample(hand, discards_count(players))))
    if level == "easy":
        return easy_discard(hand, players)
    offset = None
    if view is not None and view.dealer is not None:
        offset = (view.seat - view.dealer) % players
    options = discard_options(
        hand, dealer=own, players=players, partnerships=partnerships, level=level, offset=offset
    )
    if level == "expert" and view is not None:
        options = position_adjusted(options, view)
        if in_chances(view) or (TEAM_CHANCE_DISCARD and team_chances(view)):
            return chance_discard(options, view)
    return options[0].discard


def choose_action(
    game: Game, seat: int, *, level: str = "standard", seed: int | None = None
) -> Action:
    """The action of a computer player in ``seat`` (it must be one of the seats to act).

    Decides from :class:`SeatView` only: its own cards and the public facts.
    """
    if game.phase is Phase.SHOW:
        return show_action(game, seat)
    if game.phase is Phase.NEXT_DEAL and seat in game.to_act:
        return NextDeal()  # a computer is ready for the next deal at once
    return decide(SeatView.of(game, seat), level=level, seed=seed)


def decide(view: SeatView, *, level: str = "standard", seed: int | None = None) -> Action:
    """The action for the seat whose view this is."""
    _check_level(level)
    if view.seat not in view.to_act:
        raise ValueError(f"Seat {view.seat} has nothing to do now ({view.phase.value})")
    rng = _rng(seed)
    if view.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER):
        return Cut(rng.choice(view.cut_depths))
    if view.phase is Phase.DISCARD:
        cards = _discard(
            view.hand,
            own=view.crib_is_ours,
            players=view.players,
            partnerships=view.variant.partnerships,
            level=level,
            rng=rng,
            view=view,
        )
        return Discard(cards)
    if view.phase is Phase.PLAY:
        return Play(play_card(view, level=level, rng=rng))
    raise ValueError(f"Nothing to decide in phase {view.phase.value}")


def show_action(game: Game, seat: int) -> Action:
    """Muggins: call muggins on any miss, else claim the exact count, else let the claim go.

    The miss is public knowledge in principle (the counted cards are face up and the points
    pegged are known); the window holds it ready-made.
    """
    legal = game.legal_actions(seat)
    window = game.muggins_window
    if Muggins() in legal and window is not None and window.missed > 0:
        return Muggins()
    nxt = muggins_rules.counter(game)
    if nxt is not None and Claim(0) in legal:
        return Claim(muggins_rules.breakdown_of(game, *nxt).total)
    return LetGo()


def play_card(view: SeatView, *, level: str, rng: random.Random) -> Card:
    if level == RANDOM:
        return rng.choice([c for c in view.hand if view.count + c.value <= 31])
    if level == "easy":
        return easy_play(view)
    if level == "standard":
        return standard_play(view)
    if in_chances(view):
        return chance_play(view, rng)
    return expert_play(view, rng)


# --------------------------------------------------------------------------- near the end

CHANCES = True
"""The expert plays for the chance to win near the end of a two-handed game (off: points, with
:mod:`bot.ai.position` and the endgame solver only; a switch for measuring)."""
CHANCE_SPAN = (0.01, 0.99)
"""The seat's chance to win (at the start of the deal, from the scores now) between which the
game is still open."""
CHANCE_OPTIONS = 8
"""The expert's best discards (by points and position) weighed in chances to win."""
CHANCE_PEGGING = True
"""Whether those chances move the pegging by each discard's pegging prospects (against the
others' average): half the difference more for the seat, half less for the opponent."""


TEAM_CHANCE_DISCARD = True
"""Near the end of a partnership game the expert lays away for the chance to win too
(:func:`bot.ai.expert_pegging.team_chances` says when; off: points, a switch for measuring)."""


def in_chances(view: SeatView) -> bool:
    """Decide by the chance to win: two-handed, either side near the end
    (:func:`~bot.ai.expert_pegging.near_the_end`), and the game still open
    (:data:`CHANCE_SPAN`)."""
    if not CHANCES or view.players != 2:
        return False
    if not near_the_end(view):
        return False
    from .deal_chances import current  # the table sits above the players (it self-plays them)

    return CHANCE_SPAN[0] < current(view) < CHANCE_SPAN[1]


def chance_discard(options: list[DiscardOption], view: SeatView) -> tuple[Card, ...]:
    """Of the expert's :data:`CHANCE_OPTIONS` best discards, the one with the best chance to win
    over the deal (:func:`bot.ai.deal_chances.discard_chance`; in partnerships
    :func:`bot.ai.team_discard.team_discard_chance`; ties: the expert's order)."""
    from .deal_chances import discard_chance
    from .team_discard import team_discard_chance

    candidates = options[:CHANCE_OPTIONS]
    base = sum(o.extra for o in candidates) / len(candidates) if CHANCE_PEGGING else 0.0

    def chance(option: DiscardOption) -> float:
        shift = option.extra - base if CHANCE_PEGGING else 0.0
        if view.variant.partnerships:
            return team_discard_chance(view, option.kept, option.crib, peg_shift=shift)
        return discard_chance(view, option.discard, option.kept, peg_shift=shift)

    best = max(enumerate(candidates), key=lambda io: (round(chance(io[1]), 9), -io[0]))
    return best[1].discard


def chance_play(view: SeatView, rng: random.Random) -> Card:
    """The card with the best chance to win (:func:`chance_ranked`); when every card is as good,
    the expert's points."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    ranked = chance_ranked(view, legal, rng)
    return ranked[0][0] if ranked else expert_play(view, rng)


def chance_ranked(
    view: SeatView, legal: list[Card], rng: random.Random
) -> list[tuple[Card, float]] | None:
    """``legal`` (one card per rank) best first by the chance to win after laying each: the
    expert's search with reaching the target winning at once and the end of the play valued by
    the show and the table (:func:`bot.ai.deal_chances.play_chances`); None when every card is as
    good (the chances then say nothing: the points decide)."""
    from .deal_chances import play_chances

    chances = play_chances(view, legal, rng, 1)
    if max(chances.values()) - min(chances.values()) < 1e-6:
        return None
    order = sorted(legal, key=lambda c: (round(chances[c.rank], 9), 0.01 * c.value), reverse=True)
    return [(c, chances[c.rank]) for c in order]
