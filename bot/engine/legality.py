"""Is an action legal now? Every refusal explains itself in words fit to show the player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from . import muggins, muggins_rulebook, nextdeal
from .actions import Action, Cut, Discard, Play
from .phase import MIN_CUT, IllegalAction, Phase

if TYPE_CHECKING:
    from .cards import Card


class RuledGame(muggins.MugginsGame, Protocol):
    """What the legality check reads of a game (a :class:`~bot.engine.Game`)."""

    count: int
    pack: list[Card]
    cut_pack: list[Card]
    cut_cards: dict[int, Card]

    @property
    def is_over(self) -> bool: ...

    @property
    def to_act(self) -> list[int]: ...

    def hand(self, seat: int) -> list[Card]: ...

_WHAT_NOW = {
    Phase.CUT_FOR_DEAL: "cut for the deal",
    Phase.DISCARD: "lay away cards to the crib",
    Phase.CUT_FOR_STARTER: "cut for the starter",
    Phase.PLAY: "play a card",
}
_ACTION_FOR_PHASE = {
    Phase.CUT_FOR_DEAL: Cut,
    Phase.DISCARD: Discard,
    Phase.CUT_FOR_STARTER: Cut,
    Phase.PLAY: Play,
}


def cut_depths(pack_size: int) -> range:
    """The depths a cut may have: at least four cards on each side."""
    return range(MIN_CUT, pack_size - MIN_CUT + 1)


def check_action(game: RuledGame, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` (with a message for the player) unless the action is legal."""
    if game.is_over:
        raise IllegalAction("The game is over.")
    if not isinstance(seat, int) or seat not in range(game.players):
        raise IllegalAction(f"There is no seat {seat!r} at this table.")
    if game.phase is Phase.SHOW:
        muggins_rulebook.of(game).check(game, seat, action)  # by the game's own rules
        return
    nextdeal.check(game, seat, action)  # NEXT_DEAL, or a NextDeal out of its time
    if game.phase is Phase.NEXT_DEAL:
        return
    expected = _ACTION_FOR_PHASE[game.phase]
    if seat not in game.to_act:
        if game.phase is Phase.DISCARD:
            raise IllegalAction("You have already laid away your cards for this deal.")
        if game.phase is Phase.CUT_FOR_DEAL and seat in game.cut_cards:
            raise IllegalAction("You have already cut for the deal.")
        raise IllegalAction("It's not your turn.")
    if not isinstance(action, expected):
        raise IllegalAction(f"Now is the time to {_WHAT_NOW[game.phase]}.")
    if isinstance(action, Cut):
        pack = game.cut_pack if game.phase is Phase.CUT_FOR_DEAL else game.pack
        depths = cut_depths(len(pack))
        if not isinstance(action.depth, int) or action.depth not in depths:
            raise IllegalAction(
                f"Cut at least {MIN_CUT} cards deep and leave at least {MIN_CUT}: "
                f"choose from {depths.start} to {depths.stop - 1}."
            )
    elif isinstance(action, Discard):
        k = game.variant.discards
        noun = "card" if k == 1 else "cards"
        if len(action.cards) != k:
            raise IllegalAction(f"Lay away exactly {k} {noun} to the crib.")
        if len(set(action.cards)) != k:
            raise IllegalAction(f"Choose {k} different cards.")
        for card in action.cards:
            if card not in game.hand(seat):
                raise IllegalAction(f"You don't hold the {card}.")
    elif isinstance(action, Play):
        card = action.card
        if card not in game.hand(seat):
            raise IllegalAction(f"You don't hold the {card}.")
        if game.count + card.value > 31:
            raise IllegalAction(
                f"The {card} would take the count past 31 (the count is {game.count})."
            )
