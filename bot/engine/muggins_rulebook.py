"""The one place that chooses the muggins rules a game's show is played by.

A game keeps its rules (``Game.muggins_rules``, a :class:`~.muggins.MugginsRules`) from
``Game.new`` to its end and in its snapshot: every new game plays by :mod:`.muggins`; a game
begun under release 0.1.0 by :mod:`.muggins_queued`, whose snapshots name no rules (see
:func:`~.muggins.rules_in`). The game, the legality check and the snapshot ask :func:`of` for
the rules, so each plays a game by its own.

>>> from bot.engine import Game, Variant
>>> of(Game.new(Variant(muggins=True), seed=7, first_dealer=0)).__name__
'bot.engine.muggins'
"""

from __future__ import annotations

from typing import Any, Protocol

from . import muggins, muggins_queued
from .actions import Action, Claim, LetGo, Muggins
from .events import Event
from .muggins import MugginsGame, MugginsRules


class Rulebook(Protocol):
    """What a module of muggins rules does (:mod:`.muggins`, :mod:`.muggins_queued`)."""

    def to_act(self, game: MugginsGame) -> list[int]: ...

    def legal_actions(self, game: MugginsGame, seat: int) -> list[Action]: ...

    def check(self, game: MugginsGame, seat: int, action: Action) -> None: ...

    def start_show(self, game: MugginsGame) -> list[Event]: ...

    def apply(
        self, game: MugginsGame, seat: int, action: Claim | Muggins | LetGo
    ) -> list[Event]: ...

    def state(self, game: MugginsGame) -> dict[str, Any]: ...

    def restore(self, game: MugginsGame, data: dict[str, Any]) -> None: ...


RULEBOOKS: dict[MugginsRules, Rulebook] = {
    MugginsRules.INDEPENDENT: muggins,
    MugginsRules.QUEUED: muggins_queued,
}


def of(game: MugginsGame) -> Rulebook:
    """The rules ``game`` is played under."""
    return RULEBOOKS[game.muggins_rules]


def state(game: MugginsGame) -> dict[str, Any]:
    """The snapshot keys of a muggins game's show, written as its rules write them."""
    return of(game).state(game)


def restore(game: MugginsGame, data: dict[str, Any]) -> None:
    """Restore a muggins game's rules and its show from :func:`state` data."""
    game.muggins_rules = muggins.rules_in(data)
    of(game).restore(game, data)
