"""Computer players in the play: rank scoring, the exact solver, defence, what a seat infers."""

import itertools
import random

from bot.ai.expert_pegging import expert_play
from bot.ai.pegging import VALUE, holding_chances, peg_points, standard_candidates, standard_play
from bot.ai.pegging_solver import TwoHandedSolver
from bot.ai.players import decide
from bot.ai.view import SeatKnowledge
from bot.engine import (
    FULL_PACK,
    Card,
    Game,
    Phase,
    Play,
    Scored,
    ScoreReason,
    Suit,
    Variant,
    score_pegging,
)
from tests.support.engine_positions import play, position, random_two_handed


def test_rank_pegging_points_match_the_engine_on_random_piles():
    rng = random.Random(5)
    checked = 0
    while checked < 3000:
        cards = rng.sample(FULL_PACK, rng.randint(1, 8))
        count = 0
        pile = []
        for card in cards:
            if count + card.value > 31:
                break
            pile.append(card)
            count += card.value
        assert peg_points(tuple(c.rank for c in pile)) == score_pegging(pile).total, pile
        checked += 1


def _cards_of(ranks: tuple[int, ...]) -> list[Card]:
    """The ranks as cards, each copy of a rank in a suit of its own."""
    suits = list(Suit)
    return [Card(r, suits[ranks[:i].count(r)]) for i, r in enumerate(ranks)]


def test_rank_pegging_points_match_the_engine_on_every_short_pile_and_long_runs():
    # Every pile of up to four ranks within 31 (pairs, short runs, fifteens, 31), every order of
    # the longest run a count allows (ace to seven, 28), and every order of ace to six followed
    # by a repeat of its fourth card (the distinct tail ends short of the whole pile).
    piles = [
        p
        for n in range(1, 5)
        for p in itertools.product(range(1, 14), repeat=n)
        if sum(VALUE[r] for r in p) <= 31 and max(p.count(r) for r in p) <= 4
    ]
    piles += list(itertools.permutations(range(1, 8)))
    piles += [p[:6] + (p[3],) for p in itertools.permutations(range(1, 7))]
    for ranks in piles:
        assert peg_points(ranks) == score_pegging(_cards_of(ranks)).total, ranks


PLAY_REASONS = (ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)


def _engine_best(game: Game, seat: int) -> int:
    """Exact minimax of the rest of the play through the engine itself (points for ``seat``)."""
    if game.phase is not Phase.PLAY:
        return 0
    mover = game.to_act[0]
    best = None
    for action in game.legal_actions(mover):
        child = game.copy()
        before = list(child.scores)
        events = child.apply(mover, action)
        # Stop at the show: only the play's points count here.
        gained = [0, 0]
        for event in events:
            if isinstance(event, Scored) and event.reason in PLAY_REASONS:
                gained[event.side] += event.points
        child.scores = before
        diff = gained[seat] - gained[1 - seat]
        value = diff + (_engine_best(child, seat) if child.phase is Phase.PLAY else 0)
        if child.deal_number != game.deal_number:
            value = diff
        if best is None or (value > best if mover == seat else value < best):
            best = value
    return best


def test_holding_chances_are_the_share_of_hands_holding_the_rank():
    """The chance that a player holding ``held`` of the unseen cards (only those worth at
    least the floor, after a go) has a rank: counted over every such hand of a small pack."""
    from itertools import combinations

    rng = random.Random(4)
    for _ in range(60):
        unseen = [0] + [rng.randint(0, 2) for _ in range(13)]
        floor = rng.choice((1, 1, 4, 8))
        pack = [r for r in range(1, 14) for _ in range(unseen[r]) if VALUE[r] >= floor]
        held = rng.randint(0, 4)
        chances = holding_chances(unseen, held, floor)
        assert len(chances) == 14 and chances[0] == 0.0
        hands = list(combinations(range(len(pack)), min(held, len(pack)))) if held else []
        for r in range(1, 14):
            holding = sum(1 for h in hands if any(pack[i] == r for i in h))
            expected = holding / len(hands) if hands and pack else 0.0
            assert abs(chances[r] - expected) < 1e-12, (unseen, floor, held, r)


def test_solver_agrees_with_minimax_through_the_engine():
    rng = random.Random(11)
    for _ in range(6):
        game, a, b = random_two_handed(rng)
        # Seat 1 (the pone) leads; the solver's seat "A" is seat 1.
        solver = TwoHandedSolver()
        me = tuple(sorted(c.rank for c in a))
        them = tuple(sorted(c.rank for c in b))
        assert solver.value(me, them, (), 0, 0) == _engine_best(game, 1)


def test_standard_avoids_leaving_five_or_twenty_one():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD QD 9D 8D", "10H 5C 3S 2H"],
        starter="AS",
    )
    view = SeatKnowledge.of(game, 1)  # the pone leads: never the 5 (a ten makes fifteen)
    assert standard_play(view).rank != 5
    play(game, "3S", "8D")  # count 11: a 10 would make 21
    view = SeatKnowledge.of(game, 1)
    choice = standard_play(view)
    assert view.count + choice.value != 21


def test_standard_takes_fifteen_and_thirty_one():
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "7H 5C 3S 2H"], starter="AS")
    play(game, "2H", "KD")  # count 12: the 3 makes fifteen
    assert standard_play(SeatKnowledge.of(game, 1)).code == "3S"
    candidates = standard_candidates(SeatKnowledge.of(game, 1))
    assert candidates[0].points == 2


def test_expert_takes_a_sure_thirty_one():
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "AH 5C 3S 2H"], starter="4S")
    play(game, "5C", "KD", "3S", "QD")  # count 28: the 3 is gone; the ace makes 29, ...
    view = SeatKnowledge.of(game, 1)
    assert view.count == 28
    card = expert_play(view, random.Random(0))
    assert card.code in ("AH", "2H")


def test_go_floors_follow_the_goes_said():
    game = position(
        Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "10H 5C 9S AH"], starter="4S"
    )
    play(game, "10H", "KD")  # count 20
    assert SeatKnowledge.of(game, 1).go_floors() == {}
    play(game, "9S")  # 29: the dealer's Q, 9 and 8 go past 31, so the dealer says go
    assert game.to_act == [1]
    assert SeatKnowledge.of(game, 1).go_floors() == {0: 3}  # holds nothing worth 2 or less
    play(game, "AH")  # 30, nobody can lay: the go, and the count is reset
    assert game.count == 0 and game.to_act == [0]
    assert SeatKnowledge.of(game, 1).go_floors() == {0: 3}


def test_expert_and_standard_never_play_illegal_cards_in_the_play():
    rng = random.Random(3)
    for level in ("standard", "expert"):
        game = Game.new(Variant(players=2), seed=rng.randrange(1 << 30), first_dealer=0)
        while game.deal_number == 1:
            seat = game.to_act[0]
            action = decide(SeatKnowledge.of(game, seat), level=level, seed=1)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
            if isinstance(action, Play):
                assert game.count <= 31
