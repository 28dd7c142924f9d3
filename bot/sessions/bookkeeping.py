"""Pure helpers of the session manager: button freshness, per-deal points, game endings.

Game endings: a game the engine finished is won (:func:`finish_won`); a seat that concedes
(or runs out of time too often) forfeits (:func:`finish_forfeit`), and a forfeit before the first
show, when no hand has been counted, *aborts* the game: nobody wins, nothing is rated or counted.
It is stored like an abandoned game (status ``abandoned``: every standings query reads finished
games only) with ``forfeit_seat`` naming who left; the session's ``Finished.reason`` is
``"aborted"``. A long idle game is abandoned (:func:`finish_abandoned`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine import Dealt, Event, Game, Phase, Scored, ScoreReason, Shown
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


# the phases of a deal before its show: in the first deal, no hand has been counted yet
_BEFORE_THE_SHOW = (Phase.CUT_FOR_DEAL, Phase.DISCARD, Phase.CUT_FOR_STARTER, Phase.PLAY)


def before_first_show(game: Game) -> bool:
    """No hand has been counted yet: the cut for the deal or the first deal up to its show (a
    muggins show in which nobody has claimed a count yet included).

    >>> from bot.engine import Variant
    >>> before_first_show(Game.new(Variant(), seed=1, first_dealer=0))
    True
    """
    if game.deal_number > 1:
        return False
    if game.phase in _BEFORE_THE_SHOW:
        return True
    return game.phase is Phase.SHOW and game.show_step == 0 and game.muggins_window is None


def finish_forfeit(game: Game, seat: int) -> Finish:
    """``seat`` conceded: its side loses, every other side wins (no skunks). Before the first
    show the game is aborted instead (:func:`finish_aborted`)."""
    if before_first_show(game):
        return finish_aborted(game, seat)
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


def finish_aborted(game: Game, seat: int) -> Finish:
    """``seat`` left before the first show: nobody wins or loses, nothing is counted. Stored as
    an abandoned game (the store keeps ``"abandoned"`` as its end reason) that names who left."""
    return Finish("abandoned", "aborted", None, _nobody_won(game), forfeit_seat=seat)


def finish_abandoned(game: Game) -> Finish:
    """Nobody played for too long: no winner."""
    return Finish("abandoned", "abandoned", None, _nobody_won(game))


def _nobody_won(game: Game) -> tuple[SeatOutcome, ...]:
    """Every seat's outcome in a game that ended without a winner, at its scores."""
    return tuple(
        SeatOutcome(
            seat=s,
            side=game.side_of(s),
            outcome="abandoned",
            final_score=game.scores[game.side_of(s)],
        )
        for s in range(game.players)
    )
