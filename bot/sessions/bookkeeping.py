"""Pure helpers of the session manager: button freshness, per-deal points, game endings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine import Dealt, Event, Game, Scored, ScoreReason, Shown
from db import DealPoints, Finish, SeatOutcome

_POINT_FIELD = {
    ScoreReason.HEELS: "heels",
    ScoreReason.PLAY: "pegging",
    ScoreReason.GO: "pegging",
    ScoreReason.LAST_CARD: "pegging",
    ScoreReason.HAND: "hand",
    ScoreReason.CRIB: "crib",
    ScoreReason.MUGGINS: "pegging",  # taken from an opponent's miss: no column of its own
}


def next_ready(
    ready: Sequence[int],
    to_act_before: Iterable[int],
    to_act_after: Iterable[int],
    actor: int,
    step: int,
) -> tuple[int, ...]:
    """Per seat, the step since which that seat's buttons are current, after action ``step``.

    A seat's buttons go stale when its situation changes: when it acts, or when it starts
    having to act. A seat that was already waiting on itself (another player laid away their
    discards, another player cut for the deal) keeps its buttons.

    >>> next_ready((0, 0), [0, 1], [1], actor=0, step=1)   # seat 0 discarded: seat 1 unchanged
    (1, 0)
    >>> next_ready((1, 0), [1], [0], actor=1, step=2)      # the turn passes to seat 0
    (2, 2)
    """
    before = set(to_act_before)
    after = set(to_act_after)
    return tuple(
        step if seat == actor or (seat in after and seat not in before) else since
        for seat, since in enumerate(ready)
    )


def deal_points(
    game_before: Game, events: Iterable[Event], scores_before: Sequence[int]
) -> tuple[DealPoints, ...]:
    """Points actually pegged (capped at the target) and shows, per (deal, seat), from events.

    ``game_before`` is the game as it was before the action (for the deal number and sides).
    """
    deal = game_before.deal_number
    running = list(scores_before)
    rows: dict[tuple[int, int], _Made] = {}
    for event in events:
        if isinstance(event, Dealt):
            deal = event.number
        elif isinstance(event, Scored):
            pegged = event.score - running[event.side]
            running[event.side] = event.score
            points = rows.setdefault((deal, event.seat), _Made()).points
            name = _POINT_FIELD[event.reason]
            points[name] = points.get(name, 0) + pegged
        elif isinstance(event, Shown):
            cards = " ".join(c.code for c in event.cards) + "|" + event.starter.code
            shown = rows.setdefault((deal, event.seat), _Made()).shown
            shown[event.crib] = (event.breakdown.total, cards)
    return tuple(made.record(d, s) for (d, s), made in rows.items())


@dataclass(slots=True)
class _Made:
    """What one seat made in one deal, while the events are read."""

    points: dict[str, int] = field(default_factory=dict)  # by column: pegging, hand, crib, heels
    shown: dict[bool, tuple[int, str]] = field(default_factory=dict)  # crib? -> (value, cards)

    def record(self, deal: int, seat: int) -> DealPoints:
        hand, crib = self.shown.get(False), self.shown.get(True)
        return DealPoints(
            deal=deal,
            seat=seat,
            pegging=self.points.get("pegging", 0),
            hand=self.points.get("hand", 0),
            crib=self.points.get("crib", 0),
            heels=self.points.get("heels", 0),
            hand_value=None if hand is None else hand[0],
            hand_cards=None if hand is None else hand[1],
            crib_value=None if crib is None else crib[0],
            crib_cards=None if crib is None else crib[1],
        )


def finish_won(game: Game) -> Finish:
    """The ending of a game the engine finished (a side reached the target)."""
    winner = game.winner
    assert winner is not None
    skunks = game.skunks
    worst = max(skunks, default=0)
    seats = tuple(
        SeatOutcome(
            seat=seat,
            side=game.side_of(seat),
            outcome="won" if game.side_of(seat) == winner else "lost",
            final_score=game.scores[game.side_of(seat)],
            skunk_given=worst if game.side_of(seat) == winner else 0,
            skunk_taken=skunks[game.side_of(seat)],
        )
        for seat in range(game.players)
    )
    return Finish("finished", "won", winner, seats)


def finish_forfeit(game: Game, seat: int) -> Finish:
    """``seat`` conceded: its side loses, every other side wins (no skunks)."""
    loser = game.side_of(seat)
    winners = [side for side in range(game.variant.sides) if side != loser]
    seats = tuple(
        SeatOutcome(
            seat=s,
            side=game.side_of(s),
            outcome="forfeited" if game.side_of(s) == loser else "won",
            final_score=game.scores[game.side_of(s)],
        )
        for s in range(game.players)
    )
    return Finish(
        "finished", "forfeit", winners[0] if len(winners) == 1 else None, seats, forfeit_seat=seat
    )


def finish_abandoned(game: Game) -> Finish:
    """Nobody played for too long: no winner."""
    seats = tuple(
        SeatOutcome(
            seat=s,
            side=game.side_of(s),
            outcome="abandoned",
            final_score=game.scores[game.side_of(s)],
        )
        for s in range(game.players)
    )
    return Finish("abandoned", "abandoned", None, seats)
