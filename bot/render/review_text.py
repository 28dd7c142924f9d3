"""A player's review in words: the costliest decisions told in table talk, deal by deal totals.

>>> from bot.ai.review import Choice, Decision, DecisionKind
>>> from bot.engine import parse_cards
>>> kept, thrown = parse_cards("5H 5C JD 2S"), parse_cards("QS 3D")
>>> best_kept, best_thrown = parse_cards("5H 5C JD QS"), parse_cards("2S 3D")
>>> d = Decision(3, 14, DecisionKind.DISCARD, 0, tuple(sorted(kept + thrown)), True, 0, (),
...              Choice(tuple(thrown), tuple(kept), 17.5), Choice(tuple(best_thrown),
...              tuple(best_kept), 18.9), 15, False)
>>> decision_sentence(d)
'keeping 5♣ 5♥ J♦ Q♠ and throwing 2♠ 3♦ would have averaged 1.4 more'
>>> for part in costliest_line(d).split("; "):
...     print(part)
Deal 3, your discard to your crib: you kept 2♠ 5♣ 5♥ J♦
keeping 5♣ 5♥ J♦ Q♠ and throwing 2♠ 3♦ would have averaged 1.4 more.

Near the end of a two-handed game a decision is valued in chances to win:

>>> late = Decision(9, 80, DecisionKind.PLAY, 0, tuple(parse_cards("5H KS")), False, 10,
...                 tuple(parse_cards("10D")), Choice((parse_cards("KS")[0],), (), 0.41),
...                 Choice((parse_cards("5H")[0],), (), 0.55), 2, True, True)
>>> decision_sentence(late)
'laying the 5 instead of the K would have raised your chance to win from 41% to 55%'
>>> for part in costliest_line(late).split("; "):
...     print(part)
Deal 9, the count at 10 (after 10): you laid the K
the 5 would have raised your chance to win from 41% to 55%.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.review import Decision, DecisionKind, Review
from bot.engine import Card, rank_name

POINTS_ONLY_NOTE = (
    "Values are expected points, from what you knew at the time; near the end of a two-player "
    "game, chances to win instead (from the bot's table of self-played games). With more "
    "players they stay points, so near the end a card that gave points away may still have "
    "been right."
)
"""What the values of a review are, in any game (the name is older than the chances to win)."""
MORE_PLAYERS_NOTE = (
    "Values are expected points, from what you knew at the time, to the end of the game: so "
    "near the end a card that gave points away may still have been right."
)
"""What the values are in a review of three or four players (never chances to win)."""


def values_note(players: int) -> str:
    """The footer of a review: what its values are, for a game of ``players``."""
    return POINTS_ONLY_NOTE if players == 2 else MORE_PLAYERS_NOTE


def _suited(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards))


def _discard_words(decision: Decision) -> tuple[str, str, str, str]:
    """(best kept, best thrown, chosen kept, chosen thrown), each as the hand shows cards: with
    their suits, which a flush or his nobs may turn on (one way everywhere in the review)."""
    best, chosen = decision.best, decision.chosen
    return _suited(best.kept), _suited(best.cards), _suited(chosen.kept), _suited(chosen.cards)


def decision_sentence(decision: Decision) -> str:
    """What the expert would have done and what it was worth: 'keeping 5-5-J-Q and throwing
    2-3 would have averaged 1.4 more', 'laying the 6 instead of the 9 would have averaged 0.8
    more' (or, for the expert's own choice, 'the expert's choice too')."""
    if decision.cost <= 0.0:
        return "the expert's choice too"
    more = f"would have averaged {decision.cost:.1f} more"
    if decision.chances:
        more = f"would have raised your chance to win {_from_to(decision)}"
    if decision.kind is DecisionKind.DISCARD:
        kept, thrown, _, _ = _discard_words(decision)
        return f"keeping {kept} and throwing {thrown} {more}"
    best = rank_name(decision.best.cards[0].rank)
    chosen = rank_name(decision.chosen.cards[0].rank)
    return f"laying the {best} instead of the {chosen} {more}"


def _percent(chance: float, digits: int) -> str:
    return f"{100.0 * chance:.{digits}f}%"


def _from_to(decision: Decision) -> str:
    """'from 41% to 55%' (with a decimal when whole percentages would read the same)."""
    low, high = decision.chosen.value, decision.best.value
    digits = 0 if _percent(low, 0) != _percent(high, 0) else 1
    return f"from {_percent(low, digits)} to {_percent(high, digits)}"


def _moment(decision: Decision) -> str:
    """When, and what the player did: 'Deal 3, your discard to your crib: you kept 2♠ 5♣ 5♥
    J♦', 'Deal 5, the count at 11 (after 5-6): you laid the 9', 'Deal 2, leading: you led
    the 4'."""
    if decision.kind is DecisionKind.DISCARD:
        crib = "your crib" if decision.own_crib else "the other crib"
        _, _, kept, _ = _discard_words(decision)
        return f"Deal {decision.deal}, your discard to {crib}: you kept {kept}"
    laid = rank_name(decision.chosen.cards[0].rank)
    if decision.count == 0:
        return f"Deal {decision.deal}, leading: you led the {laid}"
    pile = "-".join(rank_name(c.rank) for c in decision.pile)
    count = f"the count at {decision.count} (after {pile})"
    return f"Deal {decision.deal}, {count}: you laid the {laid}"


def _better(decision: Decision) -> str:
    """What the expert's choice was worth beside the player's: 'the 5 would have averaged 0.8
    points more' (a card), or the discard sentence (:func:`decision_sentence`)."""
    if decision.kind is DecisionKind.DISCARD or decision.cost <= 0.0:
        return decision_sentence(decision)
    best = rank_name(decision.best.cards[0].rank)
    if decision.chances:
        return f"the {best} would have raised your chance to win {_from_to(decision)}"
    return f"the {best} would have averaged {decision.cost:.1f} points more"


def costliest_line(decision: Decision, players: int = 2) -> str:
    """One costly decision, told in full. Near the end of a two-player game, where most
    decisions are valued in chances to win, one valued in points says so (with more players
    every value is points: nothing to say)."""
    points_near_end = players == 2 and decision.near_end and not decision.chances
    end = " (near the end: valued in points, not chances to win)" if points_near_end else ""
    return f"{_moment(decision)}; {_better(decision)}{end}."


def costliest_lines(review: Review, n: int = 3) -> list[str]:
    """The ``n`` costliest decisions, one sentence each (none when nothing cost anything)."""
    players = review.variant.players
    return [costliest_line(d, players) for d in review.costliest(n)]


def deal_lines(review: Review, names: Sequence[str] | None = None) -> list[str]:
    """'Deal 3 (you dealt): 1.2 given away' for every deal."""
    lines = []
    for deal in review.deals:
        if deal.dealer == review.seat:
            who = "you dealt"
        elif names is not None and deal.dealer < len(names):
            who = f"{names[deal.dealer]} dealt"
        else:
            who = f"seat {deal.dealer + 1} dealt"
        line = f"Deal {deal.number} ({who}): {deal.given_away:.1f} given away"
        if any(d.chances for d in deal.decisions):
            line += f", and {100.0 * deal.chance_given_away:.1f} percentage points of chance to win"
        lines.append(line)
    return lines


def _decision_line(decision: Decision) -> str:
    if decision.kind is DecisionKind.DISCARD:
        _, _, kept, thrown = _discard_words(decision)
        value = decision.chosen.value
        worth = f"chance to win {_percent(value, 0)}" if decision.chances else f"net {value:.1f}"
        what = f"kept {kept}, threw {thrown} ({worth})"
    else:
        card = decision.chosen.cards[0]
        at = "led" if decision.count == 0 else f"at {decision.count}"
        what = f"{at}: laid {card}"
        if decision.forced:
            return f"  {what} (the only card)"
    return f"  {what}: {decision_sentence(decision)}"


def review_text(review: Review, names: Sequence[str] | None = None) -> str:
    """The whole review in words: totals, the costliest three, then every decision by deal."""
    who = names[review.seat] if names is not None else f"seat {review.seat + 1}"
    decisions = review.decisions
    deals = len(review.deals)
    forced = sum(d.forced for d in decisions)
    per_deal = review.given_away / deals if deals else 0.0
    lines = [
        f"Review of game {review.game_id} for {who}, against the expert",
        f"Points given away: {review.given_away:.1f} over {deals} deals ({per_deal:.1f} a deal), "
        f"in {len(decisions)} decisions ({forced} forced).",
    ]
    if not review.points_only:
        near = sum(d.chances for d in decisions)
        lines.append(
            f"Chance to win given away near the end: {100.0 * review.chance_given_away:.1f} "
            f"percentage points, in {near} decisions valued in chances."
        )
    costly = costliest_lines(review)
    if costly:
        lines.append("The costliest:")
        lines += [f"{i}. {line}" for i, line in enumerate(costly, 1)]
    else:
        lines.append("Nothing cost anything: every decision was the expert's, or as good.")
    for deal, summary in zip(review.deals, deal_lines(review, names), strict=True):
        lines.append(summary)
        lines += [_decision_line(d) for d in deal.decisions]
    lines.append(values_note(review.variant.players))
    return "\n".join(lines)
