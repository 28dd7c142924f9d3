"""The game state machine: cut for deal, deal, discard, starter, the play, the show, again.

>>> game = Game.new(Variant(players=2), seed=7, first_dealer=0)
>>> game.phase, game.dealer, game.to_act
(<Phase.DISCARD: 'discard'>, 0, [0, 1])
>>> len(game.hand(1)), len(game.legal_actions(1))
(6, 15)
>>> events = game.apply(1, game.legal_actions(1)[0])
>>> events
[Discarded(seat=1, count=2)]

Everything automatic (dealing, go, last card, resets, the show, the next deal) happens inside
``apply`` and is reported in the events it returns.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from itertools import combinations
from typing import Any

from . import muggins, muggins_rulebook, nextdeal, snapshot
from .actions import Action, Cut, Discard, NextDeal, Play
from .cards import Card, new_pack
from .events import (
    CountReset,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    Played,
    Scored,
    ScoreReason,
    Shown,
    StarterCut,
)
from .legality import check_action, cut_depths
from .phase import Phase
from .scoring import score_pegging, score_show
from .variant import Variant


def _shuffled_pack(seed: int, purpose: str) -> list[Card]:
    """A pack shuffled by a generator derived from the game's secret seed and ``purpose``."""
    digest = hashlib.sha256(f"{seed}:{purpose}".encode()).digest()
    pack = new_pack()
    random.Random(int.from_bytes(digest, "big")).shuffle(pack)
    return pack


class Game:
    """One game of cribbage, from the cut for deal to the winner.

    Build one with :meth:`Game.new` or :meth:`Game.from_dict`; change it only with
    :meth:`apply`. Seats are numbered 0..n-1 clockwise; the deal passes to the left.
    """

    def __init__(self, variant: Variant, seed: int) -> None:
        n = variant.players
        self.variant = variant
        self.seed = seed
        self.phase = Phase.CUT_FOR_DEAL
        self.dealer: int | None = None
        self.first_dealer: int | None = None
        self.deal_number = 0
        self.scores = [0] * variant.sides
        self.winner: int | None = None
        # the cut for first deal
        self.cut_round = 0
        self.cut_pack: list[Card] = []
        self.cutting: list[int] = []
        self.cut_cards: dict[int, Card] = {}
        # the deal
        self.pack: list[Card] = []
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._kept: list[list[Card]] = [[] for _ in range(n)]
        self._crib: list[Card] = []
        self.discarded: set[int] = set()
        self._laid_away: list[list[Card]] = [[] for _ in range(n)]
        self.starter: Card | None = None
        # the play
        self.count = 0
        self._pile: list[Card] = []
        self.played: list[tuple[int, Card]] = []
        self.turn: int | None = None
        self.gone: set[int] = set()
        # the show claimed by the players (muggins only: see bot.engine.muggins)
        self.show_step = 0
        self.muggins_rules = muggins.MugginsRules.INDEPENDENT  # kept to the end of the game
        self.muggins_windows: tuple[muggins.Window, ...] = ()  # the open ones, in counting order
        self.show_awards: tuple[muggins.Award, ...] = ()  # this show's points, pegged or held
        # the hold between deals (bot.engine.nextdeal): the seats ready for the next deal
        self.hold_between_deals = False
        self.ready_for_deal: frozenset[int] = frozenset()
        self.last_events: list[Event] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        variant: Variant,
        seed: int | None = None,
        first_dealer: int | None = None,
        *,
        hold_between_deals: bool = False,
        muggins_rules: muggins.MugginsRules = muggins.MugginsRules.INDEPENDENT,
    ) -> Game:
        """A new game. Without ``first_dealer`` it opens with the cut for deal.

        Without a seed, one is drawn from :mod:`secrets` (128 bits); the game is fully
        deterministic from its seed and the actions applied. ``hold_between_deals``: after
        each show the table waits in NEXT_DEAL until every seat is ready (:mod:`.nextdeal`).
        ``muggins_rules``: the rules of a muggins show (:mod:`.muggins_rulebook`); a new game
        plays by the current ones, a game of release 0.1.0 replays by its own.
        """
        if seed is None:
            seed = secrets.randbits(128)
        game = cls(variant, seed)
        game.hold_between_deals = hold_between_deals
        game.muggins_rules = muggins_rules
        if first_dealer is None:
            game._start_cut_for_deal(list(range(variant.players)))
        else:
            if first_dealer not in range(variant.players):
                raise ValueError(f"There is no seat {first_dealer!r} to deal")
            game.dealer = game.first_dealer = first_dealer
            game.last_events = game._deal()
        return game

    # ------------------------------------------------------------------ public view

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def muggins_window(self) -> muggins.Window | None:
        """Muggins: the open window on the latest count (None: none is open)."""
        return muggins.newest_window(self)

    @property
    def pone(self) -> int | None:
        """The player to the dealer's left (two-handed: the non-dealer)."""
        return None if self.dealer is None else (self.dealer + 1) % self.players

    @property
    def to_act(self) -> list[int]:
        """The seats that must act now (several during the cut for deal and the discard)."""
        if self.phase is Phase.CUT_FOR_DEAL:
            return [s for s in self.cutting if s not in self.cut_cards]
        if self.phase is Phase.DISCARD:
            return [s for s in range(self.players) if s not in self.discarded]
        if self.phase is Phase.CUT_FOR_STARTER:
            return [self._pone_of_deal()]
        if self.phase is Phase.PLAY:
            return [] if self.turn is None else [self.turn]
        if self.phase is Phase.SHOW:
            return muggins_rulebook.of(self).to_act(self)
        if self.phase is Phase.NEXT_DEAL:
            return nextdeal.to_act(self)
        return []

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: :meth:`Variant.side_of` (its team in partnerships)."""
        return self.variant.side_of(seat)

    def seats_of(self, side: int) -> list[int]:
        """The seats that score for ``side``: :meth:`Variant.seats_of`."""
        return self.variant.seats_of(side)

    def hand(self, seat: int) -> list[Card]:
        """The cards this seat still holds (sorted); they leave the hand as they are laid."""
        return sorted(self._hands[seat])

    def kept(self, seat: int) -> list[Card]:
        """The four cards this seat kept for this deal's show (empty before its discard)."""
        return list(self._kept[seat])

    def discards(self, seat: int) -> list[Card]:
        """The cards this seat laid away to the crib this deal (private to that seat)."""
        return list(self._laid_away[seat])

    @property
    def crib(self) -> list[Card]:
        return sorted(self._crib)

    @property
    def pile(self) -> list[Card]:
        """The cards laid since the count was last reset, in order."""
        return list(self._pile)

    @property
    def skunks(self) -> list[int]:
        """Per side: 0 none, 1 skunk, 2 double skunk (zeros until the game is over)."""
        return self.variant.skunks(self.scores, self.winner)

    @property
    def next_first_dealer(self) -> int | None:
        """Who deals first in the next game of a match (None until this one is over).

        Two players: the loser. More players: the one to the left of this game's first dealer.
        """
        if self.winner is None or self.first_dealer is None:
            return None
        if self.players == 2:
            return 1 - self.winner
        return (self.first_dealer + 1) % self.players

    def _seat_dealing(self) -> int:
        """The dealer of the deal in progress (there is one from the first deal on)."""
        if self.dealer is None:
            raise RuntimeError("Nobody deals before the cut for the deal is over")
        return self.dealer

    def _pone_of_deal(self) -> int:
        """The pone of the deal in progress: the dealer's left."""
        return (self._seat_dealing() + 1) % self.players

    def _starter_cut(self) -> Card:
        """The starter of the deal in progress (cut before the play)."""
        if self.starter is None:
            raise RuntimeError("The starter is not cut yet")
        return self.starter

    def can_play(self, seat: int) -> bool:
        return any(self.count + c.value <= 31 for c in self._hands[seat])

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty when it has none)."""
        if seat not in self.to_act:
            return []
        if self.phase is Phase.CUT_FOR_DEAL:
            return [Cut(d) for d in cut_depths(len(self.cut_pack))]
        if self.phase is Phase.CUT_FOR_STARTER:
            return [Cut(d) for d in cut_depths(len(self.pack))]
        if self.phase is Phase.DISCARD:
            k = self.variant.discards
            return [Discard(combo) for combo in combinations(self.hand(seat), k)]
        if self.phase is Phase.SHOW:
            return muggins_rulebook.of(self).legal_actions(self, seat)
        if self.phase is Phase.NEXT_DEAL:
            return [NextDeal()]
        return [Play(c) for c in self.hand(seat) if self.count + c.value <= 31]

    # ------------------------------------------------------------------ applying actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action and every automatic step it triggers; return the events.

        Raises :class:`IllegalAction` (and changes nothing) for anything not in
        ``legal_actions(seat)``.
        """
        check_action(self, seat, action)
        if isinstance(action, Cut) and self.phase is Phase.CUT_FOR_DEAL:
            events = self._cut_for_deal(seat, action.depth)
        elif isinstance(action, Cut):
            events = self._cut_starter(action.depth)
        elif isinstance(action, Discard):
            events = self._discard(seat, action.cards)
        elif isinstance(action, Play):
            events = self._play(seat, action.card)
        elif isinstance(action, NextDeal):
            events = nextdeal.apply(self, seat)
        else:  # Claim, Muggins, LetGo: the counted show (check_action allows them only then)
            events = muggins_rulebook.of(self).apply(self, seat, action)
        self.last_events = events
        return events

    def _award(self, seat: int, points: int, reason: ScoreReason, events: list[Event]) -> bool:
        """Peg points for seat's side; True (and the game is over) when it reaches the target."""
        side = self.side_of(seat)
        target = self.variant.target
        self.scores[side] = min(target, self.scores[side] + points)
        events.append(Scored(seat, side, points, reason, self.scores[side]))
        if self.scores[side] < target:
            return False
        self.winner = side
        self.phase = Phase.GAME_OVER
        self.turn = None
        events.append(GameOver(side, tuple(self.scores), tuple(self.skunks)))
        return True

    # the cut for first deal

    def _start_cut_for_deal(self, seats: list[int]) -> None:
        self.phase = Phase.CUT_FOR_DEAL
        self.cutting = seats
        self.cut_cards = {}
        self.cut_pack = _shuffled_pack(self.seed, f"cut-for-deal:{self.cut_round}")

    def _cut_for_deal(self, seat: int, depth: int) -> list[Event]:
        card = self.cut_pack.pop(depth)
        self.cut_cards[seat] = card
        events: list[Event] = [CutForDeal(seat, card)]
        if self.to_act:
            return events
        lowest = min(c.rank for c in self.cut_cards.values())
        tied = [s for s in self.cutting if self.cut_cards[s].rank == lowest]
        if len(tied) > 1:
            events.append(CutTied(tuple(tied)))
            self.cut_round += 1
            self._start_cut_for_deal(tied)
            return events
        self.dealer = self.first_dealer = tied[0]
        events.append(DealerChosen(self.dealer))
        return events + self._deal()

    # the deal and the discard

    def _deal(self) -> list[Event]:
        n = self.players
        dealer = self._seat_dealing()
        self.deal_number += 1
        self.phase = Phase.DISCARD
        self.cutting, self.cut_cards, self.cut_pack = [], {}, []
        pack = _shuffled_pack(self.seed, f"deal:{self.deal_number}")
        self._hands = [[] for _ in range(n)]
        for i in range(self.variant.dealt * n):
            self._hands[(dealer + 1 + i) % n].append(pack[i])
        dealt = self.variant.dealt * n
        self._crib = pack[dealt : dealt + self.variant.crib_from_pack]
        self.pack = pack[dealt + self.variant.crib_from_pack :]
        self._kept = [[] for _ in range(n)]
        self.discarded = set()
        self._laid_away = [[] for _ in range(n)]
        self.starter = None
        self.count, self._pile, self.played, self.turn, self.gone = 0, [], [], None, set()
        return [Dealt(dealer, self.deal_number, self.variant.dealt)]

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        for card in cards:
            self._hands[seat].remove(card)
            self._crib.append(card)
        self._kept[seat] = sorted(self._hands[seat])
        self._laid_away[seat] = sorted(cards)
        self.discarded.add(seat)
        if len(self.discarded) == self.players:
            self.phase = Phase.CUT_FOR_STARTER
        return [Discarded(seat, len(cards))]

    def _cut_starter(self, depth: int) -> list[Event]:
        starter = self.starter = self.pack.pop(depth)
        pone = self._pone_of_deal()
        events: list[Event] = [StarterCut(pone, starter)]
        if starter.rank == 11 and self._award(self._seat_dealing(), 2, ScoreReason.HEELS, events):
            return events
        self.phase = Phase.PLAY
        self.turn = pone
        return events

    # the play

    def _play(self, seat: int, card: Card) -> list[Event]:
        self._hands[seat].remove(card)
        self._pile.append(card)
        self.played.append((seat, card))
        self.count += card.value
        breakdown = score_pegging(self._pile)
        events: list[Event] = [Played(seat, card, self.count, breakdown)]
        if breakdown and self._award(seat, breakdown.total, ScoreReason.PLAY, events):
            return events
        all_out = not any(self._hands)
        if self.count == 31:
            return self._reset_count(seat, events, all_out)
        n = self.players
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self.can_play(nxt):
                self.turn = nxt
                return events
            if nxt != seat and self._hands[nxt] and nxt not in self.gone:
                self.gone.add(nxt)
                events.append(Go(nxt, self.count))
        # Nobody can lay a card: the last card laid pegs the go, or last card.
        reason = ScoreReason.LAST_CARD if all_out else ScoreReason.GO
        if self._award(seat, 1, reason, events):
            return events
        return self._reset_count(seat, events, all_out)

    def _reset_count(self, last: int, events: list[Event], all_out: bool) -> list[Event]:
        self.count, self._pile, self.gone = 0, [], set()
        if all_out:
            self.turn = None
            events.append(CountReset(None))
            return events + self._show()
        n = self.players
        leader = next(
            (last + step) % n for step in range(1, n + 1) if self._hands[(last + step) % n]
        )
        self.turn = leader
        events.append(CountReset(leader))
        return events

    # the show

    def _show(self) -> list[Event]:
        if self.variant.muggins:
            self.phase = Phase.SHOW
            return muggins_rulebook.of(self).start_show(self)
        events: list[Event] = []
        n = self.players
        dealer = self._seat_dealing()
        starter = self._starter_cut()
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            breakdown = score_show(self._kept[seat], starter)
            events.append(Shown(seat, tuple(self._kept[seat]), starter, False, breakdown))
            if breakdown and self._award(seat, breakdown.total, ScoreReason.HAND, events):
                return events
        crib = tuple(sorted(self._crib))
        breakdown = score_show(crib, starter, crib=True)
        events.append(Shown(dealer, crib, starter, True, breakdown))
        if breakdown and self._award(dealer, breakdown.total, ScoreReason.CRIB, events):
            return events
        return events + nextdeal.after_show(self)

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; :meth:`from_dict` restores a game that plays on identically."""
        return snapshot.game_state(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Restore a game saved with :meth:`to_dict`."""
        game = cls(Variant.from_dict(snapshot.check_version(data)["variant"]), int(data["seed"]))
        snapshot.restore(game, data)
        return game

    def copy(self) -> Game:
        """An independent copy, equal to this game, that plays on identically (as
        :meth:`from_dict` of :meth:`to_dict` would give, without the round trip through plain
        data). Cards, events, tuples and the variant are immutable and shared; every list, set
        and dict is copied, a list of lists (the hands) list by list."""
        state = vars(self).copy()
        for name, value in state.items():
            kind = type(value)
            if kind is list:
                state[name] = [v.copy() if type(v) is list else v for v in value]
            elif kind is set or kind is dict:
                state[name] = value.copy()
        game = Game.__new__(Game)
        game.__dict__ = state
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # A game changes as it is played, so it is not hashable.
    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant.name}: {self.phase.value}, deal {self.deal_number}, "
            f"scores {self.scores}>"
        )
