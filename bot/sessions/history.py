"""Rebuilding a game from its action log: resume checks and deal-by-deal replays."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from bot.engine import Action, Card, Dealt, Event, Game, Variant, action_from_dict
from bot.engine.muggins import MugginsRules, rules_in
from db import ActionRecord

from .bookkeeping import next_ready
from .views import SeatView


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One logged action (``step`` = its seq) and the events it produced."""

    step: int
    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class DealReplay:
    """One deal: who dealt, the hands as dealt, every step played in it, the scores after it."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    steps: tuple[ReplayStep, ...]
    scores_after: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole game from its log: the cut for deal (``opening``), then deal by deal."""

    game_id: int
    variant: Variant
    seats: tuple[SeatView, ...]
    opening: tuple[ReplayStep, ...]
    deals: tuple[DealReplay, ...]
    scores: tuple[int, ...]
    winner: int | None
    ok: ClassVar[bool] = True

    @property
    def steps(self) -> tuple[ReplayStep, ...]:
        return self.opening + tuple(s for d in self.deals for s in d.steps)


@dataclass(slots=True)
class Rebuilt:
    """The result of replaying a log: the final game, its button freshness, what happened."""

    game: Game
    ready: tuple[int, ...]
    # (deal number when the action was taken, the step, the side scores after it)
    steps: list[tuple[int, ReplayStep, tuple[int, ...]]]
    dealt: dict[int, tuple[int, tuple[tuple[Card, ...], ...]]]  # deal -> (dealer, hands)


def hold_of(state: object) -> bool | None:
    """``True`` when a stored snapshot (``Game.to_dict()``) is of a game that holds between
    deals; else ``None``, for :func:`rebuild` to read it from the log (a snapshot without the
    flag may be an older game's, or one this version cannot read)."""
    if isinstance(state, dict) and state.get("hold_between_deals") is True:
        return True
    return None


def muggins_rules_of(state: object) -> MugginsRules | None:
    """The muggins rules a stored snapshot (``Game.to_dict()``) of a muggins game says its game
    is played under (a snapshot naming none: release 0.1.0's); ``None`` when it is not such a
    snapshot, for :func:`rebuild` to read the rules from the log."""
    if not isinstance(state, dict) or state.get("version") != 1:
        return None
    variant = state.get("variant")
    if not isinstance(variant, dict) or variant.get("muggins") is not True:
        return None
    try:
        return rules_in(state)
    except ValueError:  # rules this version does not know
        return None


def rebuild(
    variant: Variant,
    seed: int,
    first_dealer: int | None,
    log: Iterable[ActionRecord],
    *,
    hold: bool | None = None,
    muggins_rules: MugginsRules | None = None,
) -> Rebuilt:
    """Replay ``log`` on ``Game.new(variant, seed, first_dealer, hold_between_deals=hold,
    muggins_rules=muggins_rules)``.

    ``hold``: whether the game holds between deals (its snapshot says: :func:`hold_of`). The
    flag is not in the games table: every game the manager makes now has it, games made
    before the pause between deals existed do not. ``None`` (no snapshot to say) reads it
    from the log: a game that logged a Next deal holds; one whose log goes on into a second
    deal without one does not (the replay with the hold refuses it); any other holds, as every
    game made now does. So a log that ends in its first pause between deals replays to that
    pause.

    ``muggins_rules``: the rules of a muggins game's show (its snapshot says:
    :func:`muggins_rules_of`). ``None`` tries the current rules, and when the log does not
    replay by them, release 0.1.0's (one window at a time), under which a game of that release
    was played: its log is refused by the current ones as soon as a claim closed a window or an
    over-claim's window was answered.

    Raises ``ValueError`` (``IllegalAction`` included) when the log does not replay, or when its
    seq numbers are not 1, 2, 3, ...
    """
    log = list(log)
    if muggins_rules is not None or not variant.muggins:
        rules = muggins_rules or MugginsRules.INDEPENDENT
        return _by_hold(variant, seed, first_dealer, log, hold, rules)
    try:
        return _by_hold(variant, seed, first_dealer, log, hold, MugginsRules.INDEPENDENT)
    except ValueError:  # refused by the current muggins rules: a game of release 0.1.0
        return _by_hold(variant, seed, first_dealer, log, hold, MugginsRules.QUEUED)


def _by_hold(
    variant: Variant,
    seed: int,
    first_dealer: int | None,
    log: list[ActionRecord],
    hold: bool | None,
    rules: MugginsRules,
) -> Rebuilt:
    """:func:`rebuild` under the muggins ``rules``: the hold given, or read from the log."""
    if hold is not None:
        return _replay(variant, seed, first_dealer, log, hold, rules)
    if any(record.action.get("type") == "next_deal" for record in log):
        return _replay(variant, seed, first_dealer, log, True, rules)
    try:
        return _replay(variant, seed, first_dealer, log, True, rules)
    except ValueError:  # on past the first deal without a Next deal: an older game
        return _replay(variant, seed, first_dealer, log, False, rules)


def _replay(
    variant: Variant,
    seed: int,
    first_dealer: int | None,
    log: list[ActionRecord],
    hold: bool,
    rules: MugginsRules,
) -> Rebuilt:
    game = Game.new(
        variant, seed=seed, first_dealer=first_dealer, hold_between_deals=hold, muggins_rules=rules
    )
    ready = tuple(0 for _ in range(variant.players))
    out = Rebuilt(game, ready, [], {})
    if game.deal_number:
        _keep_deal(out, game)
    for expected, record in enumerate(log, start=1):
        if record.seq != expected:
            raise ValueError(f"The log jumps from seq {expected - 1} to {record.seq}")
        action = action_from_dict(record.action)
        deal, before = game.deal_number, game.to_act
        events = game.apply(record.seat, action)
        ready = next_ready(ready, before, game.to_act, record.seat, record.seq)
        step = ReplayStep(record.seq, record.seat, action, tuple(events))
        out.steps.append((deal, step, tuple(game.scores)))
        if any(isinstance(e, Dealt) for e in events):
            _keep_deal(out, game)
    out.ready = ready
    return out


def _keep_deal(out: Rebuilt, game: Game) -> None:
    """Remember the deal just dealt: its dealer and the hands as dealt."""
    if game.dealer is not None:
        hands = tuple(tuple(game.hand(seat)) for seat in range(game.players))
        out.dealt[game.deal_number] = (game.dealer, hands)


def build_replay(game_id: int, seats: tuple[SeatView, ...], rebuilt: Rebuilt) -> Replay:
    """Group a rebuilt log deal by deal."""
    game = rebuilt.game
    by_deal: dict[int, list[ReplayStep]] = {}
    scores_after: dict[int, tuple[int, ...]] = {}
    for deal, step, scores in rebuilt.steps:
        by_deal.setdefault(deal, []).append(step)
        scores_after[deal] = scores
    deals = []
    for number, (dealer, hands) in sorted(rebuilt.dealt.items()):
        steps = tuple(by_deal.get(number, ()))
        scores = scores_after.get(number, tuple(game.scores))
        deals.append(DealReplay(number, dealer, hands, steps, scores))
    return Replay(
        game_id=game_id,
        variant=game.variant,
        seats=seats,
        opening=tuple(by_deal.get(0, ())),
        deals=tuple(deals),
        scores=tuple(game.scores),
        winner=game.winner,
    )
