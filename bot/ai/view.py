"""What one seat may know: the only thing computer players and the coach decide from.

A :class:`SeatKnowledge` is built from a :class:`~bot.engine.Game` by copying the public facts (the
starter, the cards laid this deal, the count, the scores, who deals) and that seat's own cards.
It holds no reference to the game, so nothing downstream can reach another hand, the crib or the
undealt pack.

>>> from bot.engine import Game, Variant
>>> view = SeatKnowledge.of(Game.new(Variant(players=2), seed=7, first_dealer=0), 1)
>>> len(view.hand), view.dealer, view.crib_is_ours
(6, 0, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import FULL_PACK, Card, Cut, Game, Phase, Variant, show_points
from bot.engine.pegging import MAX_COUNT


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """One seat's knowledge of the game (its own cards plus everything public)."""

    seat: int
    variant: Variant
    phase: Phase
    dealer: int | None
    scores: tuple[int, ...]
    hand: tuple[Card, ...]
    """The cards the seat still holds."""
    kept: tuple[Card, ...]
    """The four cards kept for the show (empty before the seat's discard)."""
    discards: tuple[Card, ...] | None
    """What the seat itself laid away this deal (None: not known to whoever built the view)."""
    starter: Card | None
    played: tuple[tuple[int, Card], ...]
    """(seat, card) for every card laid this deal, in order."""
    pile: tuple[Card, ...]
    """The cards laid since the count was last reset."""
    count: int
    to_act: tuple[int, ...]
    cut_depths: tuple[int, ...] = ()
    """The legal cut depths when the seat must cut (the pack's size is public)."""

    @classmethod
    def of(cls, game: Game, seat: int) -> SeatKnowledge:
        """Copy what ``seat`` may know out of ``game``."""
        if seat not in range(game.players):
            raise ValueError(f"There is no seat {seat!r} at this table")
        kept = tuple(game.kept(seat))
        depths: tuple[int, ...] = ()
        if game.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER) and seat in game.to_act:
            depths = tuple(a.depth for a in game.legal_actions(seat) if isinstance(a, Cut))
        return cls(
            seat=seat,
            variant=game.variant,
            phase=game.phase,
            dealer=game.dealer,
            scores=tuple(game.scores),
            hand=tuple(game.hand(seat)),
            kept=kept,
            discards=tuple(game.discards(seat)),
            starter=game.starter,
            played=tuple(game.played),
            pile=tuple(game.pile),
            count=game.count,
            to_act=tuple(game.to_act),
            cut_depths=depths,
        )

    # ------------------------------------------------------------------ derived facts

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def side(self) -> int:
        return self.side_of(self.seat)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for (:meth:`Variant.side_of`)."""
        return self.variant.side_of(seat)

    @property
    def crib_is_ours(self) -> bool:
        """The crib counts for this seat's side (its own, or its partner's)."""
        return self.dealer is not None and self.side_of(self.dealer) == self.side

    def held_counts(self) -> list[int]:
        """How many cards each seat still holds (public: dealt minus laid)."""
        if self.phase is Phase.DISCARD:
            return [
                len(self.hand) if s == self.seat else self.variant.dealt
                for s in range(self.players)
            ]
        laid = [0] * self.players
        for s, _ in self.played:
            laid[s] += 1
        return [4 - laid[s] for s in range(self.players)]

    def known_cards(self) -> set[Card]:
        """Every card this seat has seen: its own, the starter, everything laid."""
        known = set(self.hand) | set(self.kept)
        if self.discards:
            known |= set(self.discards)
        if self.starter is not None:
            known.add(self.starter)
        known |= {card for _, card in self.played}
        return known

    def unseen_cards(self) -> list[Card]:
        """The cards this seat has not seen (in other hands, the crib or the pack)."""
        known = self.known_cards()
        return [card for card in FULL_PACK if card not in known]

    def go_floors(self) -> dict[int, int]:
        """For each other seat, the lowest value its unlaid cards can have.

        A seat that said go at count ``c`` held nothing of value ``31 - c`` or less, and it
        still holds a subset of those cards. Reconstructed from the order of the cards laid.
        """
        floors: dict[int, int] = {}
        n = self.players
        laid = [0] * n
        count = 0
        last: int | None = None
        for seat, card in self.played:
            if last is not None:
                if count == MAX_COUNT or count + card.value > MAX_COUNT:
                    # Nobody could play at ``count``: everyone but the last player said go.
                    if count != MAX_COUNT:
                        for other in range(n):
                            if other != last and laid[other] < 4:
                                floors[other] = max(floors.get(other, 0), MAX_COUNT - count + 1)
                    count = 0
                else:
                    # Seats skipped between the last player and this one could not play.
                    step = (last + 1) % n
                    while step != seat:
                        if laid[step] < 4:
                            floors[step] = max(floors.get(step, 0), MAX_COUNT - count + 1)
                        step = (step + 1) % n
            laid[seat] += 1
            count += card.value
            last = seat
        if last is not None and self.phase is Phase.PLAY and self.to_act:
            turn = self.to_act[0]
            if count == self.count:
                # Seats passed over between the last card and the seat to act now said go.
                step = (last + 1) % n
                while step != turn:
                    if laid[step] < 4:
                        floors[step] = max(floors.get(step, 0), MAX_COUNT - count + 1)
                    step = (step + 1) % n
            elif count != MAX_COUNT:
                # The count was reset after the last card: nobody else could play at ``count``.
                for other in range(n):
                    if other != last and laid[other] < 4:
                        floors[other] = max(floors.get(other, 0), MAX_COUNT - count + 1)
        floors.pop(self.seat, None)
        return {s: f for s, f in floors.items() if f > 1}


def kept_show(view: SeatKnowledge) -> int:
    """The seat's own show (its four kept cards with the starter, suits and all), 0 before."""
    if len(view.kept) == 4 and view.starter is not None:
        return show_points(view.kept, view.starter)
    return 0
