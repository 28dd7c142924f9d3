"""Muggins (docs/players/muggins.md): with it on, each hand's owner counts it; an opponent may
take a miss.

After the last card of the play the game enters :attr:`Phase.SHOW`. In counting order (the pone
first … the dealer, then the dealer again for the crib) the owner of each hand makes one
:class:`Claim` of 0..29 points:

- a claim at or below the true count pegs the claim; the rest is *missed*;
- an over-claim is corrected at once: it pegs the true count less the excess (never below 0, so
  never more than the hand is worth), and the points lost are missed too. An exact count is the
  only claim that pegs everything, and no claim is ever refused (a refusal would tell the
  claimer the count).

Every claim opens a *window* (whether or not anything was missed, so that nothing about the
true count shows in who may act). While it is open every opponent seat (not a partner) may:

- :class:`Muggins`: the first caller's side pegs the missed points (0 if nothing was missed);
- :class:`LetGo`: pass; the window closes once every opponent has passed.

The next :class:`Claim` closes the window too, but only a claimer on another side may make it
while the window is open: the dealer's crib claim waits until the opponents have called or let
the hand's claim go. A session closes a forgotten window by letting it go for the opponents
(see :func:`window_waiting`). When the window closes a :class:`CountSettled` event makes the
true count and the miss public. The instant-win rule holds: a claim or a muggins call that takes
a side to the target ends the game at once, in counting order.

>>> from bot.engine import Game, Variant, Phase
>>> game = Game.new(Variant(players=2, muggins=True), seed=7, first_dealer=0)
>>> game.variant.name
'2 players, to 121, muggins'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import nextdeal
from .actions import Action, Claim, LetGo, Muggins
from .events import Claimed, CountSettled, Event, MugginsCalled, ScoreReason, Shown
from .phase import IllegalAction
from .scoring import Breakdown, score_show

if TYPE_CHECKING:
    from .cards import Card
    from .variant import Variant

MAX_CLAIM = 29
CLAIMS = tuple(range(MAX_CLAIM + 1))


@dataclass(frozen=True, slots=True)
class Window:
    """The open window on ``seat``'s claim. ``missed`` stays private until it closes."""

    seat: int
    crib: bool
    missed: int
    passed: tuple[int, ...] = ()
    claimed: int | None = None  # the claim (None: a snapshot from before it was kept)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "crib": self.crib,
            "missed": self.missed,
            "passed": list(self.passed),
            "claimed": self.claimed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Window:
        passed = tuple(data["passed"])
        return cls(data["seat"], data["crib"], data["missed"], passed, data.get("claimed"))


class MugginsGame(nextdeal.HoldingGame, Protocol):
    """What the claimed show reads and sets of a game (a :class:`~bot.engine.Game`)."""

    show_step: int
    muggins_window: Window | None

    @property
    def variant(self) -> Variant: ...

    @property
    def crib(self) -> list[Card]: ...

    def kept(self, seat: int) -> list[Card]: ...

    def side_of(self, seat: int) -> int: ...

    def _starter_cut(self) -> Card: ...

    def _award(self, seat: int, points: int, reason: ScoreReason, events: list[Event]) -> bool: ...


def pegged_for(claim: int, true_count: int) -> int:
    """What a claim pegs: the claim if not above the count, else the count less the excess.

    >>> pegged_for(6, 8), pegged_for(8, 8), pegged_for(10, 8), pegged_for(29, 8)
    (6, 8, 6, 0)
    """
    if claim <= true_count:
        return claim
    return max(0, 2 * true_count - claim)


def counter(game: MugginsGame) -> tuple[int, bool] | None:
    """Who counts next and whether it is the crib; None once every count is claimed."""
    n = game.players
    dealer = game._seat_dealing()
    if game.show_step < n:
        return (dealer + 1 + game.show_step) % n, False
    if game.show_step == n:
        return dealer, True
    return None


def counted_cards(game: MugginsGame, seat: int, crib: bool) -> list[Card]:
    return game.crib if crib else game.kept(seat)


def breakdown_of(game: MugginsGame, seat: int, crib: bool) -> Breakdown:
    return score_show(counted_cards(game, seat, crib), game._starter_cut(), crib=crib)


def opponents(game: MugginsGame, seat: int) -> list[int]:
    side = game.side_of(seat)
    return [s for s in range(game.players) if game.side_of(s) != side]


def window_waiting(game: MugginsGame) -> list[int]:
    """The seats that may still call muggins on the open window (empty when none is open)."""
    w = game.muggins_window
    if w is None:
        return []
    return [s for s in opponents(game, w.seat) if s not in w.passed]


def _may_claim(game: MugginsGame) -> int | None:
    nxt = counter(game)
    if nxt is None:
        return None
    w = game.muggins_window
    if w is not None and game.side_of(nxt[0]) == game.side_of(w.seat):
        return None
    return nxt[0]


def to_act(game: MugginsGame) -> list[int]:
    seats = set(window_waiting(game))
    claimer = _may_claim(game)
    if claimer is not None:
        seats.add(claimer)
    return sorted(seats)


def legal_actions(game: MugginsGame, seat: int) -> list[Action]:
    actions: list[Action] = []
    if _may_claim(game) == seat:
        actions.extend(Claim(p) for p in CLAIMS)
    if seat in window_waiting(game):
        actions.extend((Muggins(), LetGo()))
    return actions


def check(game: MugginsGame, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal for ``seat`` in the show."""
    w = game.muggins_window
    if isinstance(action, Claim):
        nxt = counter(game)
        if nxt is None or nxt[0] != seat:
            raise IllegalAction("It's not your turn to count.")
        if _may_claim(game) != seat:
            raise IllegalAction("Wait: your opponents may still call muggins on the last count.")
        if not isinstance(action.points, int) or action.points not in CLAIMS:
            raise IllegalAction(f"Claim from 0 to {MAX_CLAIM} points.")
        return
    if isinstance(action, Muggins | LetGo):
        if w is None:
            raise IllegalAction("There is no count open to muggins now.")
        if game.side_of(seat) == game.side_of(w.seat):
            raise IllegalAction("Only an opponent can call muggins on that count.")
        if seat in w.passed:
            raise IllegalAction("You have already let that count go.")
        return
    raise IllegalAction("Now is the time to count your hand.")


def start_show(game: MugginsGame) -> list[Event]:
    """Enter the claimed show after the last card of the play."""
    game.show_step = 0
    game.muggins_window = None
    return []


def _open_window(game: MugginsGame) -> Window:
    """The window open now (a checked :class:`Muggins` or :class:`LetGo` has one)."""
    if game.muggins_window is None:
        raise RuntimeError("No count is open to muggins")
    return game.muggins_window


def apply(game: MugginsGame, seat: int, action: Claim | Muggins | LetGo) -> list[Event]:
    """Apply a checked show action and what it triggers."""
    if isinstance(action, Claim):
        return _claim(game, seat, action.points)
    w = _open_window(game)
    if isinstance(action, Muggins):
        events: list[Event] = [MugginsCalled(seat, w.missed)]
        events.extend(_settle(game))
        if w.missed and game._award(seat, w.missed, ScoreReason.MUGGINS, events):
            return events
        return events + _after_window(game)
    passed = (*w.passed, seat)
    game.muggins_window = Window(w.seat, w.crib, w.missed, passed, w.claimed)
    if window_waiting(game):
        return []
    return _settle(game) + _after_window(game)


def _claim(game: MugginsGame, seat: int, points: int) -> list[Event]:
    events: list[Event] = _settle(game) if game.muggins_window else []
    nxt = counter(game)
    if nxt is None:
        raise RuntimeError("Every count of this show is claimed")
    crib = nxt[1]
    breakdown = breakdown_of(game, seat, crib)
    cards = tuple(sorted(counted_cards(game, seat, crib)))
    events.append(Shown(seat, cards, game._starter_cut(), crib, breakdown))
    events.append(Claimed(seat, points, crib))
    pegged = pegged_for(points, breakdown.total)
    game.show_step += 1
    reason = ScoreReason.CRIB if crib else ScoreReason.HAND
    if pegged and game._award(seat, pegged, reason, events):
        return events
    game.muggins_window = Window(seat, crib, breakdown.total - pegged, claimed=points)
    return events


def _settle(game: MugginsGame) -> list[Event]:
    w = _open_window(game)
    game.muggins_window = None
    breakdown = breakdown_of(game, w.seat, w.crib)
    return [CountSettled(w.seat, w.crib, breakdown, w.missed, w.claimed)]


def _after_window(game: MugginsGame) -> list[Event]:
    if counter(game) is not None:
        return []
    game.show_step = 0
    return nextdeal.after_show(game)  # the next deal, or the hold before it


def state(game: MugginsGame) -> dict[str, Any]:
    w = game.muggins_window
    return {"show_step": game.show_step, "muggins_window": w.to_dict() if w else None}


def restore(game: MugginsGame, data: dict[str, Any]) -> None:
    game.show_step = data.get("show_step", 0)
    w = data.get("muggins_window")
    game.muggins_window = Window.from_dict(w) if w else None
