"""The hold between deals: after a show, the table waits until every seat says it is ready.

A game made with ``Game.new(..., hold_between_deals=True)`` does not deal the next hand the
moment a show ends (a plain show, or a muggins show once its last window closed). It enters
:attr:`Phase.NEXT_DEAL` instead, with the deal just shown left as it was: the dealer, the kept
hands, the crib, the starter (all shown, so public now). Every seat not yet ready is to act, and
its one legal action is :class:`NextDeal`; each makes a :class:`ReadyForDeal` event, and the last
one deals (its events end with the new deal's :class:`Dealt`). A show that ends the game never
holds. The hold is kept in the game's snapshot; a snapshot without it (written before the hold
existed) restores a game that deals at once, as it always did.

>>> from bot.engine import Game, Variant
>>> game = Game.new(Variant(players=2), seed=7, first_dealer=0, hold_between_deals=True)
>>> game.hold_between_deals, sorted(game.ready_for_deal)
(True, [])
"""

from __future__ import annotations

from typing import Any, Protocol

from .actions import Action, NextDeal
from .events import Event, ReadyForDeal
from .phase import IllegalAction, Phase


class HoldingGame(Protocol):
    """What the hold between deals reads and sets of a game (a :class:`~bot.engine.Game`)."""

    phase: Phase
    dealer: int | None
    turn: int | None
    hold_between_deals: bool
    ready_for_deal: frozenset[int]

    @property
    def players(self) -> int: ...

    def _seat_dealing(self) -> int: ...

    def _deal(self) -> list[Event]: ...

ALREADY_READY = "You're already ready for the next deal."
STARTED = "The next deal has already started."
NOW = "Now is the time to get ready for the next deal."
_DEALT_PHASES = (Phase.DISCARD, Phase.CUT_FOR_STARTER, Phase.PLAY)


def after_show(game: HoldingGame) -> list[Event]:
    """The show is over and the game goes on: hold in NEXT_DEAL, or deal the next hand now."""
    game.ready_for_deal = frozenset()
    if game.hold_between_deals:
        game.phase = Phase.NEXT_DEAL
        game.turn = None
        return []
    return deal_next(game)


def deal_next(game: HoldingGame) -> list[Event]:
    """The deal passes to the left, and the next hand is dealt."""
    game.ready_for_deal = frozenset()
    game.dealer = (game._seat_dealing() + 1) % game.players
    return game._deal()


def to_act(game: HoldingGame) -> list[int]:
    return [s for s in range(game.players) if s not in game.ready_for_deal]


def check(game: HoldingGame, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is a seat's legal one in NEXT_DEAL, or
    the reason a :class:`NextDeal` is refused in another phase."""
    if game.phase is Phase.NEXT_DEAL:
        if not isinstance(action, NextDeal):
            raise IllegalAction(NOW)
        if seat in game.ready_for_deal:
            raise IllegalAction(ALREADY_READY)
    elif isinstance(action, NextDeal) and game.phase in _DEALT_PHASES:
        raise IllegalAction(STARTED)


def apply(game: HoldingGame, seat: int) -> list[Event]:
    """A checked :class:`NextDeal`: the seat is ready; the last one to be ready deals."""
    game.ready_for_deal = game.ready_for_deal | {seat}
    events: list[Event] = [ReadyForDeal(seat)]
    if to_act(game):
        return events
    return events + deal_next(game)


def state(game: HoldingGame) -> dict[str, Any]:
    """The snapshot keys of the hold (only for a game that has it: older ones are unchanged)."""
    if not game.hold_between_deals:
        return {}
    return {"hold_between_deals": True, "ready_for_deal": sorted(game.ready_for_deal)}


def restore(game: HoldingGame, data: dict[str, Any]) -> None:
    game.hold_between_deals = bool(data.get("hold_between_deals", False))
    game.ready_for_deal = frozenset(int(s) for s in data.get("ready_for_deal", ()))
