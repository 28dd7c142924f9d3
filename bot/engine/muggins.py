"""Muggins (docs/players/muggins.md): with it on, each hand's owner counts it; an opponent may
take a miss.

After the last card of the play the game enters :attr:`Phase.SHOW`. In counting order (the pone
first … the dealer, then the dealer again for the crib) the owner of each hand makes one
:class:`Claim` of 0..29 points. Nobody waits for anything but the claim before theirs:

- a claim at or below the true count pegs the claim, and opens a *window* on it (whether or not
  anything was missed, so that nothing about the true count shows in who may act); the rest of
  the count is *missed*;
- an over-claim is corrected at once and in public: it pegs the true count less the excess
  (never below 0, so never more than the hand is worth), and a :class:`CountSettled` makes the
  true count public in the same step. The points it loses are a penalty: nobody pegs them, and
  no window opens (nothing is left uncounted). No claim is ever refused (a refusal would tell
  the claimer the count).

Each window is independent of the others: several may be open at once (the dealer may claim
the crib while the window on his hand is open). While a window is open every opponent seat (not
a partner) may:

- :class:`Muggins`: the first caller's side pegs the missed points (0 if nothing was missed);
- :class:`LetGo`: pass; the window closes once every opponent has passed.

Both answer every window open to the seat at once, the latest count first (calling muggins
costs nothing, so calling on all is never worse); ``LetGo(position)`` answers only the window
on the count at that place in counting order, which is how a session lets a forgotten window
go (see :func:`window_waiting`).
When a window closes a :class:`CountSettled` event makes the true count and the miss public.

The instant-win rule holds in counting order: a side reaching the target ends the game at
once, and the points of the show are counted in the order of the counts (a muggins call on a
count right after its claim), whatever the order of the clicks. A point that would take a side
to the target while a window on an earlier count is still open is *held*: it goes on the board
once the earlier windows have closed, unless a muggins call on one of them took another side to
the target first. So the dealer claiming his crib cannot overtake a muggins call on his hand.

These are the rules of every new game (:attr:`MugginsRules.INDEPENDENT`, kept in its snapshot).
A game begun under release 0.1.0's rules (one window at a time) plays on, and replays, by those:
:mod:`.muggins_queued`; :mod:`.muggins_rulebook` chooses a game's. What both share (the
claims, what a claim pegs, the counting order, the windows and who may answer them) is here.

>>> from bot.engine import Game, Variant, Phase
>>> game = Game.new(Variant(players=2, muggins=True), seed=7, first_dealer=0)
>>> game.variant.name
'2 players, to 121, muggins'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from . import nextdeal
from .actions import Action, Claim, LetGo, Muggins
from .events import Claimed, CountSettled, Event, MugginsCalled, ScoreReason, Shown
from .phase import IllegalAction, Phase
from .scoring import Breakdown, score_show

if TYPE_CHECKING:
    from .cards import Card
    from .variant import Variant

MAX_CLAIM = 29
CLAIMS = tuple(range(MAX_CLAIM + 1))


class MugginsRules(StrEnum):
    """The muggins rules a game is played under (a game keeps its own to the end).

    >>> MugginsRules("independent") is MugginsRules.INDEPENDENT
    True
    """

    QUEUED = "queued"
    """Release 0.1.0's (:mod:`.muggins_queued`): one window open at a time; the next claim
    closes it, or waits for it when made by the claimer's side; an over-claim opens one too."""
    INDEPENDENT = "independent"
    """These (this module's): windows only on claims that may have missed points, each open on
    its own; points that would reach the target held until the earlier windows close."""


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


@dataclass(frozen=True, slots=True)
class Award:
    """Points of this show for ``seat``'s side: a count's claim, or (``muggins``) the call right
    after it, at ``position`` in counting order. ``pegged``: on the board; else held."""

    position: int
    muggins: bool
    seat: int
    points: int
    pegged: bool

    @property
    def order(self) -> tuple[int, bool]:
        """Where it falls in counting order: the count's place, its claim before the call."""
        return self.position, self.muggins

    def to_dict(self) -> list[int]:
        return [self.position, int(self.muggins), self.seat, self.points, int(self.pegged)]

    @classmethod
    def from_list(cls, data: list[int]) -> Award:
        position, muggins, seat, points, pegged = data
        return cls(position, bool(muggins), seat, points, bool(pegged))


class MugginsGame(nextdeal.HoldingGame, Protocol):
    """What the claimed show reads and sets of a game (a :class:`~bot.engine.Game`)."""

    show_step: int
    muggins_rules: MugginsRules
    muggins_windows: tuple[Window, ...]  # open in counting order (at most one: QUEUED)
    show_awards: tuple[Award, ...]
    scores: list[int]

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


def position_of(game: MugginsGame, seat: int, crib: bool) -> int:
    """The place of a count in counting order: 0 the pone's hand … players - 1 the dealer's,
    then players the crib."""
    n = game.players
    return n if crib else (seat - game._seat_dealing() - 1) % n


def counted_cards(game: MugginsGame, seat: int, crib: bool) -> list[Card]:
    return game.crib if crib else game.kept(seat)


def breakdown_of(game: MugginsGame, seat: int, crib: bool) -> Breakdown:
    return score_show(counted_cards(game, seat, crib), game._starter_cut(), crib=crib)


def opponents(game: MugginsGame, seat: int) -> list[int]:
    side = game.side_of(seat)
    return [s for s in range(game.players) if game.side_of(s) != side]


def newest_window(game: MugginsGame) -> Window | None:
    """The open window on the latest count (None when none is open)."""
    return game.muggins_windows[-1] if game.muggins_windows else None


def waiting_on(game: MugginsGame, window: Window) -> list[int]:
    """The seats that may still call muggins on ``window`` or let it go."""
    return [s for s in opponents(game, window.seat) if s not in window.passed]


def answerable(game: MugginsGame, seat: int) -> list[Window]:
    """The open windows ``seat`` may still answer, in counting order."""
    return [w for w in game.muggins_windows if seat in waiting_on(game, w)]


def window_waiting(game: MugginsGame) -> list[int]:
    """The seats that may still answer some open window (empty when none is open)."""
    return sorted({s for w in game.muggins_windows for s in waiting_on(game, w)})


def to_act(game: MugginsGame) -> list[int]:
    seats = set(window_waiting(game))
    nxt = counter(game)
    if nxt is not None:
        seats.add(nxt[0])
    return sorted(seats)


def legal_actions(game: MugginsGame, seat: int) -> list[Action]:
    actions: list[Action] = []
    nxt = counter(game)
    if nxt is not None and nxt[0] == seat:
        actions.extend(Claim(p) for p in CLAIMS)
    windows = answerable(game, seat)
    if windows:
        actions.extend((Muggins(), LetGo()))
        actions.extend(LetGo(position_of(game, w.seat, w.crib)) for w in windows)
    return actions


def _targets(game: MugginsGame, action: Muggins | LetGo) -> list[Window]:
    """The open windows an answer is about: all of them, or the one ``LetGo`` names."""
    position = action.position if isinstance(action, LetGo) else None
    if position is None:
        return list(game.muggins_windows)
    return [w for w in game.muggins_windows if position_of(game, w.seat, w.crib) == position]


def check(game: MugginsGame, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal for ``seat`` in the show."""
    if isinstance(action, Claim):
        nxt = counter(game)
        if nxt is None or nxt[0] != seat:
            raise IllegalAction("It's not your turn to count.")
        if not isinstance(action.points, int) or action.points not in CLAIMS:
            raise IllegalAction(f"Claim from 0 to {MAX_CLAIM} points.")
        return
    if isinstance(action, Muggins | LetGo):
        targets = _targets(game, action)
        if not targets:
            raise IllegalAction("There is no count open to muggins now.")
        side = game.side_of(seat)
        theirs = [w for w in targets if game.side_of(w.seat) != side]
        if not theirs:
            raise IllegalAction("Only an opponent can call muggins on that count.")
        if all(seat in w.passed for w in theirs):
            raise IllegalAction("You have already let that count go.")
        return
    raise IllegalAction("Now is the time to count your hand.")


def start_show(game: MugginsGame) -> list[Event]:
    """Enter the claimed show after the last card of the play."""
    game.show_step = 0
    game.muggins_windows = ()
    game.show_awards = ()
    return []


def apply(game: MugginsGame, seat: int, action: Claim | Muggins | LetGo) -> list[Event]:
    """Apply a checked show action and what it triggers."""
    if isinstance(action, Claim):
        events = _claim(game, seat, action.points)
    else:
        events = []
        for window in reversed(_targets(game, action)):  # the latest first: told on its line
            if seat not in waiting_on(game, window):
                continue
            if isinstance(action, Muggins):
                events.append(MugginsCalled(seat, window.missed))
                events.extend(_settle(game, window))
                if window.missed:
                    position = position_of(game, window.seat, window.crib)
                    _add(game, Award(position, True, seat, window.missed, False), events)
            else:
                _let_go(game, seat, window, events)
    if _resolve(game, events):
        return events
    return events + _after_windows(game)


def _claim(game: MugginsGame, seat: int, points: int) -> list[Event]:
    nxt = counter(game)
    if nxt is None:
        raise RuntimeError("Every count of this show is claimed")
    crib = nxt[1]
    breakdown = breakdown_of(game, seat, crib)
    cards = tuple(sorted(counted_cards(game, seat, crib)))
    events: list[Event] = [Shown(seat, cards, game._starter_cut(), crib, breakdown)]
    events.append(Claimed(seat, points, crib))
    pegged = pegged_for(points, breakdown.total)
    position = position_of(game, seat, crib)
    game.show_step += 1
    if pegged:
        _add(game, Award(position, False, seat, pegged, False), events)
    missed = breakdown.total - pegged
    if points > breakdown.total:  # over: corrected in public, the loss a penalty nobody pegs
        events.append(CountSettled(seat, crib, breakdown, missed, points))
    else:
        window = Window(seat, crib, missed, claimed=points)
        game.muggins_windows = (*game.muggins_windows, window)
    return events


def _let_go(game: MugginsGame, seat: int, window: Window, events: list[Event]) -> None:
    passed = Window(window.seat, window.crib, window.missed, (*window.passed, seat), window.claimed)
    game.muggins_windows = tuple(passed if w == window else w for w in game.muggins_windows)
    if not waiting_on(game, passed):
        events.extend(_settle(game, passed))


def _settle(game: MugginsGame, window: Window) -> list[Event]:
    """Close ``window``: its true count and its miss are public now."""
    game.muggins_windows = tuple(w for w in game.muggins_windows if w != window)
    breakdown = breakdown_of(game, window.seat, window.crib)
    return [CountSettled(window.seat, window.crib, breakdown, window.missed, window.claimed)]


def _reason(game: MugginsGame, award: Award) -> ScoreReason:
    if award.muggins:
        return ScoreReason.MUGGINS
    return ScoreReason.CRIB if award.position == game.players else ScoreReason.HAND


def _add(game: MugginsGame, award: Award, events: list[Event]) -> None:
    """Record an award of the show: on the board at once unless it would reach the target,
    which :func:`_resolve` decides in counting order (the award is held until then)."""
    side = game.side_of(award.seat)
    if game.scores[side] + award.points < game.variant.target:
        game._award(award.seat, award.points, _reason(game, award), events)  # cannot end it
        award = Award(award.position, award.muggins, award.seat, award.points, True)
    game.show_awards = (*game.show_awards, award)


def _resolve(game: MugginsGame, events: list[Event]) -> bool:
    """End the game if a side has reached the target in counting order; True if it did.

    The awards are counted in counting order from the scores before the show, as far as no
    window on an earlier count is open (a muggins call could still come before them). The first
    that takes its side to the target wins; the points that side had held up to it go on the
    board (the last of them ends the game). Nothing held: nobody can have reached the target.
    """
    awards = game.show_awards
    if all(a.pegged for a in awards):
        return False
    open_at = [position_of(game, w.seat, w.crib) for w in game.muggins_windows]
    first_open = min(open_at, default=game.players + 1)
    totals = list(game.scores)
    for a in awards:
        if a.pegged:
            totals[game.side_of(a.seat)] -= a.points
    for a in sorted(awards, key=lambda a: a.order):
        if a.position > first_open:
            return False  # an earlier count may still be mugginsed
        side = game.side_of(a.seat)
        totals[side] += a.points
        if totals[side] < game.variant.target:
            continue
        for held in sorted(awards, key=lambda a: a.order):
            if held.pegged or held.order > a.order or game.side_of(held.seat) != side:
                continue
            if game._award(held.seat, held.points, _reason(game, held), events):
                return True
        raise RuntimeError("A side reached the target in counting order but not on the board")
    return False


def _after_windows(game: MugginsGame) -> list[Event]:
    """The next deal (or the hold before it) once every count is claimed and settled."""
    if game.phase is not Phase.SHOW or counter(game) is not None or game.muggins_windows:
        return []
    game.show_step = 0
    game.show_awards = ()
    return nextdeal.after_show(game)


def state(game: MugginsGame) -> dict[str, Any]:
    """The snapshot keys of the show, with the rules that say how to read them."""
    return {
        "muggins_rules": MugginsRules.INDEPENDENT.value,
        "show_step": game.show_step,
        "muggins_windows": [w.to_dict() for w in game.muggins_windows],
        "show_awards": [a.to_dict() for a in game.show_awards],
    }


def restore(game: MugginsGame, data: dict[str, Any]) -> None:
    """Read :func:`state`."""
    game.show_step = data.get("show_step", 0)
    game.muggins_windows = tuple(Window.from_dict(w) for w in data.get("muggins_windows", ()))
    game.show_awards = tuple(Award.from_list(a) for a in data.get("show_awards", ()))


def rules_in(data: dict[str, Any]) -> MugginsRules:
    """The rules a muggins game's snapshot was written under: the ones it names; a snapshot
    naming none was written before the rules were kept, under release 0.1.0's, unless it has
    this module's shape (several windows, ``muggins_windows``).

    >>> rules_in({"muggins_rules": "independent"}).name, rules_in({"muggins_window": None}).name
    ('INDEPENDENT', 'QUEUED')
    """
    named = data.get("muggins_rules")
    if named is not None:
        return MugginsRules(named)
    return MugginsRules.INDEPENDENT if "muggins_windows" in data else MugginsRules.QUEUED
