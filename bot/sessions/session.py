"""The manager's record of one live lobby or game (internal), and its public view."""

from __future__ import annotations

import asyncio
from types import MappingProxyType
from typing import Any

from bot.engine import Game, Variant
from bot.engine.muggins import window_waiting
from db import GameRecord, MessageRef

from .matchplay import MatchView
from .views import Finished, GameStatus, GameView, SeatView


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
        "_view",
    )

    def __init__(self, record: GameRecord) -> None:
        self.id = record.id
        self.guild_id = record.guild_id
        self.channel_id = record.channel_id
        self.status = GameStatus(record.status)
        self.variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        self.host_id = record.host_id
        self.seats: dict[int, SeatView] = {}
        for s in record.seats:
            self.seats[s.seat] = SeatView(s.seat, s.user_id, s.computer, self.side_of(s.seat))  # type: ignore[arg-type]
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
        self.match: MatchView | None = None  # set by the match operations (matches.py)
        self._view: GameView | None = None

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.variant.partnerships else seat

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat.seat
        return None

    def set_game(self, game: Game | None, state: dict[str, Any] | None = None) -> None:
        """Install a committed game (``state``: its ``to_dict()``, when already at hand)."""
        self.game = game
        self.state = state if state is not None or game is None else game.to_dict()
        self._view = None

    def changed(self) -> None:
        self._view = None

    def view(self) -> GameView:
        if self._view is None:
            self._view = build_view(self)
        return self._view


def build_view(s: Session) -> GameView:
    seats = tuple(s.seats.get(i) for i in range(s.variant.players))
    base = dict(
        game_id=s.id,
        guild_id=s.guild_id,
        channel_id=s.channel_id,
        status=s.status,
        variant=s.variant,
        host_id=s.host_id,
        step=s.step,
        seats=seats,
        messages=MappingProxyType(dict(s.messages)),
        end_reason=None if s.finished is None else s.finished.reason,
        match=s.match,
    )
    game = s.game
    if game is None:
        return GameView(**base)
    return GameView(
        **base,
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
        **_muggins_fields(game),
    )


def _muggins_fields(game) -> dict:
    """The public side of an open muggins window: whose claim, and who may still answer."""
    window = getattr(game, "muggins_window", None)
    if window is None:
        return {}
    return {
        "muggins_claimer": window.seat,
        "muggins_crib": window.crib,
        "muggins_waiting": tuple(window_waiting(game)),
    }
