"""The coach: ranked discards with their expectations, a card to lay and why, a note after the
show when a discard gave away more than half a point.

The discard advice is the exact expected-value optimum of the hand (every unseen starter,
counted with the engine's own scoring) plus the expected crib from the shipped tables, added
for our crib and subtracted for theirs.

>>> from bot.engine import parse_cards
>>> best = discard_advice(parse_cards("5H 5C JD QS 2C 3D"), dealer=True)[0]
>>> format_discard(best)
'keep 5-5-J-Q, throw 2-3: hand 12.7, crib +6.9, net 19.6'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Card, Game, Phase, rank_name
from bot.engine.pegging import MAX_COUNT

from .discard import DiscardOption, table_options
from .expert_pegging import averaged_values, near_the_end, ranked, team_chances
from .pegging import describe, distinct_by_rank, legal_cards, pile_ranks, standard_candidates
from .view import SeatKnowledge

REVIEW_THRESHOLD = 0.5


# --------------------------------------------------------------------------- the discard


def discard_advice(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    partnerships: bool = False,
    top: int | None = None,
) -> list[DiscardOption]:
    """Every discard (or the ``top`` best), best first: expected hand, expected crib, net."""
    options = table_options(hand, own=dealer, players=players, partnerships=partnerships)
    return options if top is None else options[:top]


def _cards_text(cards: Sequence[Card], with_suits: bool) -> str:
    if with_suits:
        return " ".join(str(c) for c in cards)
    return "-".join(rank_name(c.rank) for c in cards)


def format_discard(option: DiscardOption, *, with_suits: bool | None = None) -> str:
    """'keep 5-5-J-Q, throw 2-3: hand 12.7, crib +6.9, net 19.6'.

    Cards are written by rank unless that would be ambiguous (a rank both kept and thrown, or a
    choice that matters by suit: a flush, his nobs); then with suits.
    """
    if with_suits is None:
        kept_ranks = {c.rank for c in option.kept}
        with_suits = any(c.rank in kept_ranks for c in option.discard) or (
            len({c.suit for c in option.kept}) == 1
        )
    sign = "+" if option.crib_weight > 0 else "-"
    crib = f"crib {sign}{option.crib:.1f}"
    if 0 > option.crib_weight > -1:
        crib += f" (counts {abs(option.crib_weight):.2g})"
    return (
        f"keep {_cards_text(option.kept, with_suits)}, "
        f"throw {_cards_text(option.discard, with_suits)}: "
        f"hand {option.hand:.1f}, {crib}, net {option.net:.1f}"
    )


def discard_hint(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    partnerships: bool = False,
    top: int = 3,
) -> str:
    """The ``top`` discards, one per line, best first, each card with its suit (a hint names
    the very cards to lay away: "keep 5♥ 5♣ J♦ Q♠, throw 2♣ 3♦: ...")."""
    options = discard_advice(hand, dealer=dealer, players=players, partnerships=partnerships)
    whose = "your crib" if dealer else "the dealer's crib"
    lines = [f"Best discards ({whose}):"]
    for i, option in enumerate(options[:top], 1):  # with suits: the cards to pick, exactly
        lines.append(f"{i}. {format_discard(option, with_suits=True)}")
    return "\n".join(lines)


def discard_review(
    kept: Sequence[Card],
    discards: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    partnerships: bool = False,
    threshold: float = REVIEW_THRESHOLD,
) -> str | None:
    """A private note when a discard cost more than ``threshold`` points of expectation.

    ``kept`` and ``discards`` are what the player kept and laid away (``dealer``: the crib was
    theirs or their partner's). None when the discard was within ``threshold`` of the best.
    """
    hand = sorted([*kept, *discards])
    options = discard_advice(hand, dealer=dealer, players=players, partnerships=partnerships)
    chosen = next(o for o in options if set(o.discard) == set(discards))
    best = options[0]
    cost = best.net - chosen.net
    if cost <= threshold:
        return None
    with_suits = _needs_suits(best) or _needs_suits(chosen)
    return (
        f"Your discard of {_cards_text(chosen.discard, with_suits)} cost about {cost:.1f} points "
        f"of expectation. The coach would {format_discard(best, with_suits=with_suits)} "
        f"(yours: hand {chosen.hand:.1f}, crib {'+' if chosen.crib_weight > 0 else '-'}"
        f"{chosen.crib:.1f})."
    )


def _needs_suits(option: DiscardOption) -> bool:
    kept_ranks = {c.rank for c in option.kept}
    return (
        any(c.rank in kept_ranks for c in option.discard) or len({c.suit for c in option.kept}) == 1
    )


# --------------------------------------------------------------------------- the play


@dataclass(frozen=True, slots=True)
class PlayAdvice:
    card: Card
    reason: str
    runner_up: Card | None = None
    """The next best card, when the choice is not forced."""
    margin: float = 0.0
    """How many points more ``card`` is worth than ``runner_up`` over the rest of the play (the
    expert's search: its side's points minus the others'), or with ``chances`` how much more
    likely it wins the game (0 to 1)."""
    chances: bool = False
    """Near the end of a two-handed or partnership game: the expert (and so the coach) plays for
    the win."""

    def __str__(self) -> str:
        return f"lay the {self.card}: {self.reason}"

    @property
    def comparison(self) -> str:
        """How much better than the next best card, when that is worth saying."""
        if self.runner_up is None:
            return ""
        if self.chances:
            if self.margin < NOTABLE_CHANCE:
                return ""
            return f"about {100 * self.margin:.0f}% more chance to win than the {self.runner_up}"
        if self.margin < NOTABLE_MARGIN:
            return ""
        return f"about {self.margin:.1f} points better than the {self.runner_up} over the play"


NOTABLE_MARGIN = 0.2
"""Points below which the coach does not compare the card with the next best (search noise)."""
NOTABLE_CHANCE = 0.01
"""Likewise near the end of a game, in the chance to win."""


def play_advice(view: SeatKnowledge, *, seed: int | None = 0) -> PlayAdvice:
    """The card the coach would lay (the expert's choice: near the end of a two-handed game the
    best chance to win), a short reason, and by how much it beats the next best card."""
    from .players import chance_ranked, in_chances  # the players sit above the coach's search

    rng = random.Random(seed)
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return PlayAdvice(legal[0], play_reason(view, legal[0]))
    if in_chances(view) and (by_chance := chance_ranked(view, legal, rng)):
        (card, best), (runner_up, next_best) = by_chance[:2]
        return PlayAdvice(card, play_reason(view, card), runner_up, best - next_best, True)
    in_chance = team_chances(view)  # partnerships near the end: chances to win
    values = averaged_values(view, rng, legal, TEAM_CHANCE_ROUNDS if in_chance else 1)
    card, runner_up = ranked(legal, values)[:2]
    margin = values[card.rank] - values[runner_up.rank]
    if view.players == 2 and near_the_end(view):
        margin = 0.0  # the game all but decided: the search's values are wins as well as points
    return PlayAdvice(card, play_reason(view, card), runner_up, margin, in_chance)


TEAM_CHANCE_ROUNDS = 4
"""Near the end of a partnership game the coach runs the expert's play-outs this many times, each
on worlds of its own: one run's chances move by about 5 points of percentage from one set of
worlds to another (most of a card's lead), four halve that before the coach says by how much a
card is better."""


def play_reason(view: SeatKnowledge, card: Card) -> str:
    """Why ``card`` is a good lay now, in a few words."""
    candidates = {c.card.rank: c for c in standard_candidates(view)}
    cand = candidates[card.rank]
    count_after = view.count + card.value
    after = pile_ranks(view) + (card.rank,)
    if cand.points:
        go = cand.points > _made_points(after)
        names = describe(after, count_after, go=go)
        if count_after == MAX_COUNT and not go:
            names = [n for n in names if n != "thirty-one"]
            made = " and ".join(names)
            return f"thirty-one for {cand.points}" + (f" (with {made})" if made else "")
        if len(view.hand) == 1 and go and len(names) == 1:
            return "last card for 1"
        return f"makes {' and '.join(names)} for {cand.points}"
    if count_after in (5, 21):
        return f"the least risky card: it leaves the count at {count_after}"
    if view.count == 0 and card.value <= 4:
        name = rank_name(card.rank)
        article = "an" if name in ("A", "8") else "a"
        return f"safe lead: nothing makes fifteen on {article} {name}"
    if view.count == 0 and sum(1 for c in view.hand if c.rank == card.rank) >= 2:
        return "leads from a pair: if it is paired, three of a kind answers"
    if cand.reply < 0.5:
        return f"safe: leaves the count at {count_after}"
    return f"the least exposed card: leaves the count at {count_after}"


def _made_points(pile: tuple[int, ...]) -> int:
    from .pegging import peg_points

    return peg_points(pile)


# --------------------------------------------------------------------------- any moment


def hint(game: Game, seat: int, *, top: int = 3) -> str:
    """What the coach says to ``seat`` now (its view only): discards, or the card to lay."""
    view = SeatKnowledge.of(game, seat)
    if view.phase is Phase.DISCARD and seat in view.to_act:
        return discard_hint(
            view.hand,
            dealer=view.crib_is_ours,
            players=view.players,
            partnerships=view.variant.partnerships,
            top=top,
        )
    if view.phase is Phase.PLAY and seat in view.to_act:
        advice = play_advice(view)
        more = f"; {advice.comparison}" if advice.comparison else ""
        return f"Lay the {advice.card}: {advice.reason}{more}."
    if view.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER) and seat in view.to_act:
        return "Cut anywhere: no depth is better than another."
    return "Nothing to decide just now."
