"""The manager's record of one live lobby or game (internal), and the views built from it.

A :class:`Session` builds its public :class:`GameView` and its people's :class:`PrivateView`\\ s
in one place each, and keeps them until something changes (:meth:`Session.changed`): the
outcome of a click and the hand a player opens next read the same values.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.engine import Card, Game, Phase, Variant
from bot.engine.muggins import counted_cards, counter, window_waiting
from db import GameRecord, MessageRef

from .matchplay import MatchView
from .views import Finished, GameStatus, GameView, Level, PrivateView, SeatView, level_of


def seat_view(variant: Variant, seat: int, user_id: int | None, level: Level | None) -> SeatView:
    """Who sits in ``seat``, with the side the variant gives that seat."""
    return SeatView(seat, user_id, level, variant.side_of(seat))


class Session:
    """A live lobby or game (internal; callers only ever see views)."""

    __slots__ = (
        "id",
        "guild_id",
        "channel_id",
        "status",
        "variant",
        "host_id",
        "seats",
        "first_dealer",
        "seed",
        "game",
        "state",
        "step",
        "ready",
        "lock",
        "updated_at",
        "warned_at",
        "messages",
        "finished",
        "broken",
        "match",
        "next_deal_since",
        "_view",
        "_hands",
    )

    def __init__(self, record: GameRecord) -> None:
        self.id = record.id
        self.guild_id = record.guild_id
        self.channel_id = record.channel_id
        self.status = GameStatus(record.status)
        self.variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        self.host_id = record.host_id
        self.seats: dict[int, SeatView] = {
            s.seat: seat_view(self.variant, s.seat, s.user_id, level_of(s.computer))
            for s in record.seats
        }
        self.first_dealer = record.first_dealer
        self.seed = record.seed
        self.game: Game | None = None if record.state is None else Game.from_dict(record.state)
        self.state = record.state  # game.to_dict() as committed: the base of the next action
        self.step = record.step if record.snapshot_seq is None else record.snapshot_seq
        self.ready: tuple[int, ...] = record.ready or tuple(0 for _ in range(record.players))
        self.lock = asyncio.Lock()
        self.updated_at = record.updated_at
        self.warned_at = record.warned_at
        self.messages: dict[str, MessageRef] = dict(record.messages)
        self.finished: Finished | None = None
        self.broken = False  # the durable state is unknown: reload before the next request
        self.match: MatchView | None = None  # set by the matches part (matches.py)
        # when the game entered NEXT_DEAL (set by the step that entered it; loaded in NEXT_DEAL,
        # the time of its last step: see bot.sessions.deals)
        self.next_deal_since: float | None = (
            record.updated_at
            if self.game is not None and self.game.phase is Phase.NEXT_DEAL
            else None
        )
        self._view: GameView | None = None
        self._hands: Mapping[int, PrivateView] | None = None

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat.seat
        return None

    def sit(self, seat: int, user_id: int | None, level: Level | None) -> None:
        """A person (``user_id``) or a computer (``level``) takes ``seat`` of this lobby."""
        self.seats[seat] = seat_view(self.variant, seat, user_id, level)
        self.changed()

    def set_variant(self, variant: Variant) -> None:
        """The lobby plays ``variant`` now (the seats keep their people, sides may change)."""
        self.variant = variant
        self.seats = {i: seat_view(variant, i, v.user_id, v.level) for i, v in self.seats.items()}
        self.changed()

    def set_game(self, game: Game | None, state: dict[str, Any] | None = None) -> None:
        """Install a committed game (``state``: its ``to_dict()``, when already at hand)."""
        self.game = game
        self.state = state if state is not None or game is None else game.to_dict()
        self.changed()

    def changed(self) -> None:
        """Something a view shows changed: build the views again when next asked."""
        self._view = None
        self._hands = None

    def view(self) -> GameView:
        if self._view is None:
            self._view = build_view(self)
        return self._view

    def hands(self) -> Mapping[int, PrivateView]:
        """The private view of every person seated, by user id (none before the start)."""
        if self._hands is None:
            game = self.game
            self._hands = MappingProxyType(
                {}
                if game is None
                else {
                    v.user_id: build_private_view(self, game, v.seat)
                    for v in self.seats.values()
                    if v.user_id is not None
                }
            )
        return self._hands


def build_view(s: Session) -> GameView:
    table = GameView(  # the table as a lobby shows it; a started game adds its own fields
        game_id=s.id,
        guild_id=s.guild_id,
        channel_id=s.channel_id,
        status=s.status,
        variant=s.variant,
        host_id=s.host_id,
        step=s.step,
        seats=tuple(s.seats.get(i) for i in range(s.variant.players)),
        messages=MappingProxyType(dict(s.messages)),
        end_reason=None if s.finished is None else s.finished.reason,
        match=s.match,
    )
    game = s.game
    if game is None:
        return table
    window = game.muggins_window
    nxt = counter(game) if game.phase is Phase.SHOW else None
    between = game.phase is Phase.NEXT_DEAL  # the deal just shown is public now
    return dataclasses.replace(
        table,
        phase=game.phase,
        dealer=game.dealer,
        pone=game.pone,
        deal_number=game.deal_number,
        scores=tuple(game.scores),
        to_act=tuple(game.to_act) if s.status is GameStatus.ACTIVE else (),
        count=game.count,
        pile=tuple(game.pile),
        played=tuple(game.played),
        starter=game.starter,
        hand_sizes=tuple(len(game.hand(i)) for i in range(game.players)),
        cut_cards=tuple(sorted(game.cut_cards.items())),
        winner=game.winner,
        skunks=tuple(game.skunks),
        # muggins: whose claim is open to a call, and who may still call or pass
        muggins_claimer=None if window is None else window.seat,
        muggins_crib=False if window is None else window.crib,
        muggins_waiting=() if window is None else tuple(window_waiting(game)),
        muggins_counter=None if nxt is None else nxt[0],
        shown_kept=tuple(tuple(game.kept(i)) for i in range(game.players)) if between else (),
        shown_crib=tuple(game.crib) if between else (),
    )


def build_private_view(s: Session, game: Game, seat: int) -> PrivateView:
    """What ``seat`` sees of ``game``: its cards, and what it may do (nothing once it ended)."""
    must_act = s.status is GameStatus.ACTIVE and seat in game.to_act
    counting, counting_crib = _counting(game, seat)
    return PrivateView(
        game_id=s.id,
        seat=seat,
        step=s.step,
        phase=game.phase,
        hand=tuple(game.hand(seat)),
        kept=tuple(game.kept(seat)),
        # a seat that need not act has none (the engine's answer too, without asking it)
        legal_actions=tuple(game.legal_actions(seat)) if must_act else (),
        must_act=must_act,
        counting=counting,
        counting_crib=counting_crib,
    )


def _counting(game: Game, seat: int) -> tuple[tuple[Card, ...], bool]:
    """In a muggins show, when it is ``seat``'s turn to claim: the cards it must count (its
    hand, or as the dealer the crib) and whether they are the crib."""
    if game.phase is not Phase.SHOW:
        return (), False
    nxt = counter(game)
    if nxt is None or nxt[0] != seat:
        return (), False
    return tuple(sorted(counted_cards(game, seat, nxt[1]))), nxt[1]
