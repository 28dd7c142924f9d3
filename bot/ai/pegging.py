"""The play (pegging): what each level lays, and why.

Suits never matter in the play, so everything here works on ranks (1..13).

- ``easy``: takes an obvious fifteen or thirty-one, else lays its first "safe" card (one that
  does not leave the count at 5 or 21).
- ``standard``: greedy with simple defence: the points a card makes now, minus the points the
  next player can expect to make on it (from how many cards of each rank are still unseen and
  how many the next player holds).
- ``expert``: searches. It deals the unseen cards to the other seats many times over
  ("worlds"), consistent with everything known (what each laid, when they said go and, two-
  handed, that the four the opponent kept are what a sound player keeps from six), lays each
  candidate card in every world and plays the deal out with every seat laying as ``standard``
  would from what that seat can see, and lays the card with the best average (ours minus
  theirs). Near the end of a two-handed game the play-outs stop when a side reaches the target
  and the show settles the rest in counting order; with four cards or fewer left that end is
  searched exactly (:class:`EndgameSolver`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from math import comb

from bot.engine import Card

from .memo import memo
from .view import MAX_COUNT, SeatView

VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
WIN = 1000


# --------------------------------------------------------------------------- scoring


@memo(1 << 18)
def peg_points(pile: tuple[int, ...]) -> int:
    """Points for the last rank of ``pile`` (the ranks laid since the count was reset)."""
    count = 0
    for r in pile:
        count += VALUE[r]
    points = 2 if count in (15, 31) else 0
    last = pile[-1]
    same = 1
    n = len(pile)
    while same < n and pile[-same - 1] == last:
        same += 1
    points += (0, 0, 2, 6, 12)[same]
    for length in range(n, 2, -1):
        tail = pile[-length:]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            points += length
            break
    return points


def describe(pile: tuple[int, ...], count_after: int, go: bool = False) -> list[str]:
    """Names of what laying the last rank of ``pile`` makes ('fifteen', 'a pair', ...)."""
    names = []
    if count_after == 15:
        names.append("fifteen")
    if count_after == MAX_COUNT:
        names.append("thirty-one")
    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-same - 1] == last:
        same += 1
    if same >= 2:
        names.append({2: "a pair", 3: "a pair royal", 4: "a double pair royal"}[same])
    for length in range(len(pile), 2, -1):
        tail = pile[-length:]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            names.append(f"a run of {length}")
            break
    if go:
        names.append("the go")
    return names


# --------------------------------------------------------------------------- view helpers


@dataclass(frozen=True, slots=True)
class PlayCandidate:
    """A card the seat may lay, with what the level thought of it."""

    card: Card
    score: float
    points: int
    """Points the card makes at once (fifteen, pairs, runs, 31; plus a go it takes)."""
    count_after: int
    reply: float = 0.0
    """The points the next player can be expected to make on it (standard's defence)."""


def legal_cards(view: SeatView) -> list[Card]:
    return [c for c in view.hand if view.count + c.value <= MAX_COUNT]


def distinct_by_rank(cards: list[Card]) -> list[Card]:
    seen = set()
    out = []
    for card in cards:
        if card.rank not in seen:
            seen.add(card.rank)
            out.append(card)
    return out


def pile_ranks(view: SeatView) -> tuple[int, ...]:
    return tuple(c.rank for c in view.pile)


def unseen_rank_counts(view: SeatView) -> list[int]:
    counts = [4] * 14
    counts[0] = 0
    for card in view.known_cards():
        counts[card.rank] -= 1
    return counts


# --------------------------------------------------------------------------- easy


def easy_play(view: SeatView) -> Card:
    """An obvious fifteen or 31, else the first card that does not leave 5 or 21."""
    legal = legal_cards(view)
    for card in legal:
        if view.count + card.value in (15, MAX_COUNT):
            return card
    for card in legal:
        if view.count + card.value not in (5, 21):
            return card
    return legal[0]


# --------------------------------------------------------------------------- standard


_COMB = [[float(comb(n, k)) for k in range(14)] for n in range(53)]


def holding_chances(unseen: list[int], held: int, floor: int = 1) -> tuple[float, ...]:
    """Per rank, the chance a player holding ``held`` unseen cards has at least one of it.

    Cards worth less than ``floor`` are out (the player said go when they would have fitted).
    """
    return _holding_chances(tuple(unseen), held, floor)


@memo(1 << 16)
def _holding_chances(unseen: tuple[int, ...], held: int, floor: int) -> tuple[float, ...]:
    chances = [0.0] * 14
    total = 0
    for r in range(1, 14):
        if VALUE[r] >= floor:
            total += unseen[r]
    if held <= 0 or total <= 0:
        return tuple(chances)
    held = min(held, total, 13)
    row_total = _COMB[total][held]
    for r in range(1, 14):
        u = unseen[r]
        if u and VALUE[r] >= floor:
            chances[r] = 1.0 - _COMB[total - u][held] / row_total
    return tuple(chances)


@memo(1 << 17)
def reply_points(pile: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(points, rank) for every rank that scores when laid on ``pile``, best first."""
    count = 0
    for r in pile:
        count += VALUE[r]
    room = MAX_COUNT - count
    out = [
        (peg_points(pile + (r,)), r) for r in range(1, 14) if VALUE[r] <= room and pile.count(r) < 4
    ]
    return tuple(sorted((x for x in out if x[0]), reverse=True))


def _reply_expectation(pile: tuple[int, ...], count: int, chances: tuple[float, ...]) -> float:
    """The next player's expected best immediate points on ``pile``, holding rank r with
    probability ``chances[r]`` (independently)."""
    expected = 0.0
    still = 1.0
    for points, r in reply_points(pile):
        p = chances[r]
        if p:
            expected += points * p * still
            still *= 1.0 - p
    return expected


def standard_candidates(view: SeatView) -> list[PlayCandidate]:
    """Every legal card (one per rank) scored greedily with simple defence, best first."""
    pile = pile_ranks(view)
    unseen = unseen_rank_counts(view)
    held = view.held_counts()
    floors = view.go_floors()
    out = []
    for card in distinct_by_rank(legal_cards(view)):
        after = pile + (card.rank,)
        count_after = view.count + card.value
        points = peg_points(after)
        held_after = list(held)
        held_after[view.seat] -= 1
        rest = [c for c in view.hand if c is not card]
        # Who can lay next: the first seat to the left that holds a card that fits.
        nxt = None
        if count_after < MAX_COUNT:
            for step in range(1, view.players + 1):
                seat = (view.seat + step) % view.players
                if seat == view.seat:
                    if any(c.value <= MAX_COUNT - count_after for c in rest):
                        nxt = seat
                    break
                if held_after[seat] > 0 and _may_fit(floors.get(seat, 1), count_after, unseen):
                    nxt = seat
                    break
        reply = 0.0
        if count_after == MAX_COUNT:
            pass
        elif nxt is None:
            points += 1  # nobody else can lay and we cannot either: the go (or last card)
        elif nxt != view.seat:
            chances = holding_chances(unseen, held_after[nxt], floors.get(nxt, 1))
            reply = _reply_expectation(after, count_after, chances)
            if view.side_of(nxt) == view.side:
                reply = -reply  # a partner's points are ours
        # Hold low cards for later (they take goes and thirty-ones): lay high ones first.
        tie = 0.01 * card.value
        out.append(PlayCandidate(card, points - reply + tie, points, count_after, reply))
    out.sort(key=lambda c: -c.score)
    return out


def _may_fit(floor: int, count: int, unseen: list[int]) -> bool:
    """Could a seat whose cards are all worth ``floor`` or more lay on ``count``?"""
    room = MAX_COUNT - count
    return any(unseen[r] for r in range(1, 14) if floor <= VALUE[r] <= room)


def standard_play(view: SeatView) -> Card:
    return standard_candidates(view)[0].card


# --------------------------------------------------------------------------- expert


def _remove(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


class TwoHandedSolver:
    """Exact minimax of the rest of a two-handed play with every card known.

    Values are points for seat "A" minus points for seat "B". With ``needs`` (points each side
    still needs to win) reaching the target is worth ``WIN`` at once.
    """

    def __init__(self, needs: tuple[int, int] | None = None) -> None:
        self.memo: dict = {}
        self.needs = needs

    def value(
        self,
        a: tuple[int, ...],
        b: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        gained: tuple[int, int] = (0, 0),
    ) -> float:
        key = (a, b, pile, count, turn, gained if self.needs else None)
        memo = self.memo
        if key in memo:
            return memo[key]
        hand = a if turn == 0 else b
        best = None
        last = -1
        for r in hand:
            if r == last:
                continue
            last = r
            if count + VALUE[r] > MAX_COUNT:
                break
            v = self.after(a, b, pile, count, turn, r, gained)
            if best is None or (v > best if turn == 0 else v < best):
                best = v
        memo[key] = best
        return best

    def after(
        self,
        a: tuple[int, ...],
        b: tuple[int, ...],
        pile: tuple[int, ...],
        count: int,
        turn: int,
        rank: int,
        gained: tuple[int, int] = (0, 0),
    ) -> float:
        """The value once ``turn`` lays ``rank`` (which must fit)."""
        if turn == 0:
            a = _remove(a, rank)
            mine, other = a, b
        else:
            b = _remove(b, rank)
            mine, other = b, a
        pile = pile + (rank,)
        count += VALUE[rank]
        points = peg_points(pile)
        if count == MAX_COUNT:
            pile, count = (), 0
            nxt = 1 - turn if other else (turn if mine else None)
        elif other and VALUE[other[0]] <= MAX_COUNT - count:
            nxt = 1 - turn
        elif mine and VALUE[mine[0]] <= MAX_COUNT - count:
            nxt = turn
        else:
            points += 1
            pile, count = (), 0
            nxt = 1 - turn if other else (turn if mine else None)
        sign = 1 if turn == 0 else -1
        if self.needs is not None:
            gained = (
                (gained[0] + points, gained[1]) if turn == 0 else (gained[0], gained[1] + points)
            )
            if gained[turn] >= self.needs[turn]:
                return sign * WIN
            if nxt is None:
                return self.terminal(gained)
            return self.value(a, b, pile, count, nxt, gained)
        if nxt is None:
            return sign * points
        return sign * points + self.value(a, b, pile, count, nxt)

    def terminal(self, gained: tuple[int, int]) -> float:
        return gained[0] - gained[1]


class EndgameSolver(TwoHandedSolver):
    """The solver near the end of a game: after the play, the show decides (pone first)."""

    def __init__(self, needs: tuple[int, int], shows: tuple[int, int], pone: int, crib: float):
        super().__init__(needs)
        self.shows = shows
        self.pone = pone
        self.crib = crib

    def terminal(self, gained: tuple[int, int]) -> float:
        left = [self.needs[0] - gained[0], self.needs[1] - gained[1]]
        pone, dealer = self.pone, 1 - self.pone
        sign_pone = 1 if pone == 0 else -1
        if self.shows[pone] >= left[pone]:
            return sign_pone * WIN
        if self.shows[dealer] >= left[dealer]:
            return -sign_pone * WIN
        if self.shows[dealer] + self.crib >= left[dealer]:
            return -sign_pone * WIN * 0.6
        # Nobody out yet: keep the race (the diff of this deal's points).
        return (
            (gained[0] + self.shows[0])
            - (gained[1] + self.shows[1])
            + (self.crib if dealer == 0 else -self.crib)
        )


EXPERT_SAMPLES_TWO = 64
EXPERT_SAMPLES_MULTI = 96
ENDGAME_CRIB = 4.7
ENDGAME_REACH = 31
"""Points from the target within which the expert plays for the win, not the points."""


def expert_play(view: SeatView, rng: random.Random) -> Card:
    """Search over sampled worlds (see the module docstring)."""
    legal = distinct_by_rank(legal_cards(view))
    if len(legal) == 1:
        return legal[0]
    if view.players == 2:
        values = _expert_two_handed(view, rng, legal)
    else:
        values = _expert_multi(view, rng, legal)
    return max(legal, key=lambda c: (values[c.rank], 0.01 * c.value))


def _expert_two_handed(view: SeatView, rng: random.Random, legal: list[Card]) -> dict:
    """Average over sampled worlds of laying each card, then playing on as ``standard`` would
    (both seats, each from what it can see). Near the end of the game the rollouts stop when a
    side reaches the target, and the show (in counting order) settles the rest; with four
    cards or fewer left the end is searched exactly."""
    from .inference import sample_opponent_two_handed

    opp = 1 - view.seat
    worlds = sample_opponent_two_handed(view, rng, EXPERT_SAMPLES_TWO)
    me = tuple(sorted(c.rank for c in view.hand))
    pile = pile_ranks(view)
    target = view.variant.target
    needs = (target - view.scores[view.side], target - view.scores[view.side_of(opp)])
    endgame = min(needs) <= ENDGAME_REACH
    base = [4] * 14
    base[0] = 0
    base[view.starter.rank] -= 1
    for _, card in view.played:
        base[card.rank] -= 1
    unseen_me = list(base)
    for r in me:
        unseen_me[r] -= 1
    my_show = _my_show(view)
    opp_laid = [c.rank for s, c in view.played if s == opp]
    pone = 0 if view.dealer == opp else 1
    totals = {c.rank: 0.0 for c in legal}
    for world, times in Counter(worlds).items():
        unseen_opp = list(base)
        for r in world:
            unseen_opp[r] -= 1
        end = None
        if endgame:
            opp_show = _rank_show(tuple(sorted(opp_laid + list(world))), view.starter.rank)
            end = EndgameSolver(needs, (my_show, opp_show), pone, ENDGAME_CRIB)
        for card in legal:
            r = card.rank
            if end is not None and len(me) + len(world) <= 4:
                value = end.after(me, world, pile, view.count, 0, r, (0, 0))
            else:
                seen_by_opp = list(unseen_opp)
                seen_by_opp[r] -= 1
                value = _first_then_rollout(
                    me, world, pile, view.count, r, unseen_me, seen_by_opp, end
                )
            totals[r] += times * value
    return totals


def _my_show(view: SeatView) -> int:
    from bot.engine import show_points

    if len(view.kept) == 4 and view.starter is not None:
        return show_points(view.kept, view.starter)
    return 0


def _rank_show(ranks: tuple[int, ...], starter: int) -> int:
    from bot.engine.scoring import rank_points

    if len(ranks) != 4:
        return 0
    return rank_points(tuple(sorted((*ranks, starter))))


def _expert_multi(view: SeatView, rng: random.Random, legal: list[Card]) -> dict:
    """Three or four players: lay each card in every sampled world, then play the rest out with
    every seat laying as ``standard`` would (from what it can see)."""
    from .inference import sample_others

    n = view.players
    sides = view.variant.sides
    weights = tuple(1.0 if view.side_of(s) == view.side else -1.0 / (sides - 1) for s in range(n))
    pile = pile_ranks(view)
    me = tuple(sorted(c.rank for c in view.hand))
    base = [4] * 14
    base[0] = 0
    base[view.starter.rank] -= 1
    for _, card in view.played:
        base[card.rank] -= 1
    totals = {c.rank: 0.0 for c in legal}
    for world in sample_others(view, rng, EXPERT_SAMPLES_MULTI):
        hands = [me if s == view.seat else world[s] for s in range(n)]
        unseen = []
        for s in range(n):
            u = list(base)
            for r in hands[s]:
                u[r] -= 1
            unseen.append(u)
        for card in legal:
            totals[card.rank] += multi_rollout(
                hands, pile, view.count, view.seat, card.rank, unseen, weights
            )
    return totals


def multi_rollout(
    hands: list[tuple[int, ...]],
    pile: tuple[int, ...],
    count: int,
    turn: int,
    rank: int,
    unseen: list[list[int]],
    weights: tuple[float, ...],
) -> float:
    """``turn`` lays ``rank``, then every seat lays as ``standard`` would; the weighted points."""
    n = len(hands)
    hands = list(hands)
    unseen = [list(u) for u in unseen]
    value = 0.0
    while True:
        hands[turn] = _remove(hands[turn], rank)
        for s in range(n):
            if s != turn:
                unseen[s][rank] -= 1
        pile = pile + (rank,)
        count += VALUE[rank]
        points = peg_points(pile)
        nxt = None
        if count < MAX_COUNT:
            for step in range(1, n + 1):
                seat = (turn + step) % n
                h = hands[seat]
                if h and VALUE[h[0]] <= MAX_COUNT - count:
                    nxt = seat
                    break
        if nxt is None:
            if count < MAX_COUNT:
                points += 1
            pile, count = (), 0
            for step in range(1, n + 1):
                seat = (turn + step) % n
                if hands[seat]:
                    nxt = seat
                    break
        value += weights[turn] * points
        if nxt is None:
            return value
        turn = nxt
        mine = hands[turn]
        room = MAX_COUNT - count
        fits = [r for r in mine if VALUE[r] <= room]
        if fits[0] == fits[-1]:
            rank = fits[0]
        else:
            after = (turn + 1) % n
            while not hands[after] and after != turn:
                after = (after + 1) % n
            rank = model_choice(mine, pile, count, unseen[turn], len(hands[after]))


def model_choice(
    hand: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    unseen: list[int],
    other_held: int,
) -> int:
    """The rank ``standard`` lays from ``hand`` (two-handed, ranks only): what it makes now
    minus the points the other player can be expected to make on it."""
    return _model_choice(hand, pile, count, tuple(unseen), other_held)


@memo(1 << 17)
def _model_choice(
    hand: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    unseen: tuple[int, ...],
    other_held: int,
) -> int:
    best = -1
    best_score = -1e9
    last = -1
    chances = _holding_chances(unseen, other_held, 1)
    for i, r in enumerate(hand):
        if r == last:
            continue
        last = r
        count_after = count + VALUE[r]
        if count_after > MAX_COUNT:
            break
        after = pile + (r,)
        points = peg_points(after)
        reply = 0.0
        if count_after < MAX_COUNT:
            room = MAX_COUNT - count_after
            other_fits = other_held > 0 and any(unseen[q] for q in range(1, 14) if VALUE[q] <= room)
            if other_fits:
                reply = _reply_expectation(after, count_after, chances)
            else:
                rest = hand[:i] + hand[i + 1 :]
                if not (rest and VALUE[rest[0]] <= room):
                    points += 1
        score = points - reply + 0.01 * VALUE[r]
        if score > best_score:
            best, best_score = r, score
    return best


def rollout(
    a: tuple[int, ...],
    b: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    turn: int,
    unseen_a: list[int],
    unseen_b: list[int],
    end: EndgameSolver | None = None,
    gained: tuple[int, int] = (0, 0),
) -> float:
    """Play the rest out with both seats laying as ``standard`` would; A's points minus B's.

    ``unseen_a``/``unseen_b``: per rank, what each seat cannot see now (updated as cards fall).
    With ``end`` (near the end of the game), reaching the target wins at once and the show
    decides the rest (see :class:`EndgameSolver`); ``gained``: points already made.
    """
    unseen_a = list(unseen_a)
    unseen_b = list(unseen_b)
    diff = gained[0] - gained[1]
    got = list(gained)
    hands = [a, b]
    unseen = [unseen_a, unseen_b]
    while True:
        mine, other = hands[turn], hands[1 - turn]
        room = MAX_COUNT - count
        fits = [r for r in mine if VALUE[r] <= room]
        if fits[0] == fits[-1]:
            rank = fits[0]
        else:
            rank = model_choice(mine, pile, count, unseen[turn], len(other))
        mine = _remove(mine, rank)
        hands[turn] = mine
        unseen[1 - turn][rank] -= 1  # the other seat now sees it
        pile = pile + (rank,)
        count += VALUE[rank]
        points = peg_points(pile)
        if count == MAX_COUNT:
            pile, count = (), 0
            nxt = 1 - turn if other else (turn if mine else None)
        elif other and VALUE[other[0]] <= MAX_COUNT - count:
            nxt = 1 - turn
        elif mine and VALUE[mine[0]] <= MAX_COUNT - count:
            nxt = turn
        else:
            points += 1
            pile, count = (), 0
            nxt = 1 - turn if other else (turn if mine else None)
        diff += points if turn == 0 else -points
        if end is not None:
            got[turn] += points
            if got[turn] >= end.needs[turn]:
                return WIN if turn == 0 else -WIN
            if nxt is None:
                return end.terminal((got[0], got[1]))
        if nxt is None:
            return diff
        turn = nxt


def _first_then_rollout(a, b, pile, count, rank, unseen_a, unseen_b, end=None) -> float:
    """A lays ``rank`` now, then both play on as ``standard`` would (A's points minus B's)."""
    a = _remove(a, rank)
    pile = pile + (rank,)
    count += VALUE[rank]
    points = peg_points(pile)
    if count == MAX_COUNT:
        pile, count = (), 0
        nxt = 1 if b else (0 if a else None)
    elif b and VALUE[b[0]] <= MAX_COUNT - count:
        nxt = 1
    elif a and VALUE[a[0]] <= MAX_COUNT - count:
        nxt = 0
    else:
        points += 1
        pile, count = (), 0
        nxt = 1 if b else (0 if a else None)
    if end is not None:
        if points >= end.needs[0]:
            return WIN
        if nxt is None:
            return end.terminal((points, 0))
        return rollout(a, b, pile, count, nxt, unseen_a, unseen_b, end, (points, 0))
    if nxt is None:
        return points
    return points + rollout(a, b, pile, count, nxt, unseen_a, unseen_b)
