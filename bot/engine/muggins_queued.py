"""Muggins as release 0.1.0 played it (:attr:`~.muggins.MugginsRules.QUEUED`): one window at a
time. Games begun under these rules play on and replay by them; new games play by
:mod:`.muggins`, which holds everything both share. Frozen: a change here changes how the
games of 0.1.0 replay, so it would break the promise that they replay identically.

In counting order (the pone first … the dealer, then the dealer again for the crib) the owner of
each hand makes one :class:`~.actions.Claim` of 0..29 points:

- a claim at or below the true count pegs the claim; the rest is *missed*;
- an over-claim is corrected at once: it pegs the true count less the excess (never below 0),
  and the points lost are missed too.

Every claim opens a *window* (an over-claim too). While it is open every opponent seat (not a
partner) may call :class:`~.actions.Muggins` (the first caller's side pegs the missed points)
or :class:`~.actions.LetGo` (pass; the window closes once every opponent has passed).

The next claim closes the window too, but only a claimer on another side may make it while the
window is open: the dealer's crib claim waits until the opponents have called or let the hand's
claim go. When the window closes a :class:`~.events.CountSettled` event makes the true count and
the miss public. A claim or a muggins call that takes a side to the target ends the game at once.

What these rules read and set of a game is what :mod:`.muggins` does (the one window is
``muggins_windows``, never longer than one; nothing is ever held in ``show_awards``), and a
``LetGo(position)`` that names the open window answers it as ``LetGo()`` does. A snapshot keeps
the show as 0.1.0 wrote it: ``show_step`` and ``muggins_window``, and no ``muggins_rules``.

>>> from bot.engine import Claim, Game, Muggins, Phase, Variant
>>> from bot.engine.muggins import MugginsRules
>>> queued = MugginsRules.QUEUED
>>> game = Game.new(Variant(muggins=True), seed=7, first_dealer=0, muggins_rules=queued)
>>> while game.phase is not Phase.SHOW:
...     seat = game.to_act[0]
...     _ = game.apply(seat, game.legal_actions(seat)[0])
>>> _ = game.apply(1, Claim(29))  # the pone over-claims: a window opens all the same
>>> game.to_act, Muggins() in game.legal_actions(0), Claim(0) in game.legal_actions(0)
([0], True, True)
>>> _ = game.apply(0, Claim(0))  # the dealer's claim closes it; his own opens
>>> game.to_act  # and his crib waits until the pone has answered it
[1]
"""

from __future__ import annotations

from typing import Any

from . import nextdeal
from .actions import Action, Claim, LetGo, Muggins
from .events import Claimed, CountSettled, Event, MugginsCalled, ScoreReason, Shown
from .muggins import (
    CLAIMS,
    MAX_CLAIM,
    MugginsGame,
    Window,
    breakdown_of,
    counted_cards,
    counter,
    newest_window,
    pegged_for,
    position_of,
    window_waiting,
)
from .phase import IllegalAction


def _may_claim(game: MugginsGame) -> int | None:
    nxt = counter(game)
    if nxt is None:
        return None
    w = newest_window(game)
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
    w = newest_window(game)
    if w is not None and seat in window_waiting(game):
        actions.extend((Muggins(), LetGo(), LetGo(position_of(game, w.seat, w.crib))))
    return actions


def check(game: MugginsGame, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal for ``seat`` in the show."""
    w = newest_window(game)
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
        named = action.position if isinstance(action, LetGo) else None
        if w is None or named not in (None, position_of(game, w.seat, w.crib)):
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
    game.muggins_windows = ()
    game.show_awards = ()
    return []


def _open_window(game: MugginsGame) -> Window:
    """The window open now (a checked :class:`Muggins` or :class:`LetGo` has one)."""
    w = newest_window(game)
    if w is None:
        raise RuntimeError("No count is open to muggins")
    return w


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
    game.muggins_windows = (Window(w.seat, w.crib, w.missed, passed, w.claimed),)
    if window_waiting(game):
        return []
    return _settle(game) + _after_window(game)


def _claim(game: MugginsGame, seat: int, points: int) -> list[Event]:
    events: list[Event] = _settle(game) if game.muggins_windows else []
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
    game.muggins_windows = (Window(seat, crib, breakdown.total - pegged, claimed=points),)
    return events


def _settle(game: MugginsGame) -> list[Event]:
    w = _open_window(game)
    game.muggins_windows = ()
    breakdown = breakdown_of(game, w.seat, w.crib)
    return [CountSettled(w.seat, w.crib, breakdown, w.missed, w.claimed)]


def _after_window(game: MugginsGame) -> list[Event]:
    if counter(game) is not None:
        return []
    game.show_step = 0
    return nextdeal.after_show(game)  # the next deal, or the hold before it


def state(game: MugginsGame) -> dict[str, Any]:
    """The snapshot keys of the show, as release 0.1.0 wrote them."""
    w = newest_window(game)
    return {"show_step": game.show_step, "muggins_window": w.to_dict() if w else None}


def restore(game: MugginsGame, data: dict[str, Any]) -> None:
    """Read :func:`state`."""
    game.show_step = data.get("show_step", 0)
    w = data.get("muggins_window")
    game.muggins_windows = (Window.from_dict(w),) if w else ()
    game.show_awards = ()
