"""The expert's search over what its seat may know (bot.ai.pegging_search)."""

import dataclasses
import random

import pytest

from bot.ai import inference
from bot.ai.config import EXPERT
from bot.ai.pegging import (
    VALUE,
    distinct_by_rank,
    legal_cards,
    standard_play,
    unseen_rank_counts,
)
from bot.ai.pegging_model import RankScores, answer, forced
from bot.ai.pegging_search import search_values
from bot.ai.players import decide
from bot.ai.playouts import first_then_rollout, model_choice
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Game, Phase, Play, Scored, ScoreReason, Variant
from tests.support.engine_positions import position, random_two_handed

PLAY_REASONS = (ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)


def _gained(events, seat: int) -> int:
    diff = 0
    for event in events:
        if isinstance(event, Scored) and event.reason in PLAY_REASONS:
            diff += event.points if event.side == seat else -event.points
    return diff


def _engine_value(game: Game, seat: int, deal: int) -> int:
    """Through the engine itself: ``seat`` lays its best card at each turn (it sees the other
    hand: one world), the other seat lays as the ``standard`` model would from its own view."""
    if game.phase is not Phase.PLAY or game.deal_number != deal:
        return 0
    mover = game.to_act[0]
    if mover != seat:
        view = SeatKnowledge.of(game, mover)
        ranks = tuple(sorted(c.rank for c in view.hand))
        rank = model_choice(
            ranks,
            tuple(c.rank for c in view.pile),
            view.count,
            unseen_rank_counts(view),
            len(game.hand(seat)),
        )
        fits = [c for c in view.hand if c.rank == rank and view.count + c.value <= 31]
        child = game.copy()
        diff = _gained(child.apply(mover, Play(fits[0])), seat)
        return diff + _engine_value(child, seat, deal)
    best = None
    for action in game.legal_actions(mover):
        child = game.copy()
        value = _gained(child.apply(mover, action), seat) + _engine_value(child, seat, deal)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def _one_world(game: Game, seat: int):
    opp = 1 - seat
    them = tuple(sorted(c.rank for c in game.hand(opp)))
    unseen = tuple(unseen_rank_counts(SeatKnowledge.of(game, opp)))
    return [(1.0, them)], unseen


@pytest.mark.parametrize("seed", range(8))
def test_with_the_other_hand_known_the_search_is_the_best_answer_through_the_engine(seed):
    game, a, b = random_two_handed(random.Random(seed))
    me = tuple(sorted(c.rank for c in a))
    values = search_values(me, (), 0, *_one_world(game, 1), sorted(set(me)))
    for card in a:
        child = game.copy()
        expected = _gained(child.apply(1, Play(card)), 1) + _engine_value(child, 1, 1)
        assert values[card.rank] == pytest.approx(expected), (a, b, card)


def test_mid_play_with_goes_and_thirty_one_the_search_follows_the_engine():
    # Count 21 after K, 8, 3: the pone holds 10 and A, the dealer 9 and 7.
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["8D 9C 7H QS", "KH 3C 10S AD"],
        starter="2S",
        held=["9C 7H QS", "10S AD"],
        pile="KH 8D 3C",
        turn=0,
    )
    assert game.count == 21
    me = tuple(sorted(c.rank for c in game.hand(0)))
    values = search_values(me, (13, 8, 3), 21, *_one_world(game, 0), [7, 9])
    for code in ("7H", "9C"):
        child = game.copy()
        card = next(c for c in game.hand(0) if c.code == code)
        expected = _gained(child.apply(0, Play(card)), 0) + _engine_value(child, 0, 1)
        assert values[card.rank] == pytest.approx(expected)


def test_the_search_is_never_worse_than_standard_and_never_better_than_seeing_the_cards():
    rng = random.Random(42)
    for _ in range(6):
        cards = rng.sample(FULL_PACK, 9)
        me = tuple(sorted(c.rank for c in cards[:4]))
        starter = cards[8].rank
        base = [4] * 14
        base[0] = 0
        base[starter] -= 1
        unseen_me = list(base)
        for r in me:
            unseen_me[r] -= 1
        pool = [r for r in range(1, 14) for _ in range(unseen_me[r])]
        unseen = tuple(base)  # the opponent's view, the same in every world (its own cards in)
        worlds = []
        for _ in range(12):
            them = tuple(sorted(rng.sample(pool, 4)))
            worlds.append((rng.choice((0.5, 1.0)), them))
        worlds.append(worlds[0])  # the same cards twice: searched once, weighed twice
        total = sum(w for w, _ in worlds)
        ranks = sorted(set(me))
        values = search_values(me, (), 0, worlds, unseen, ranks)
        for r in ranks:
            fixed = 0.0
            seeing = 0.0
            for w, them in worlds:
                theirs = list(unseen)
                theirs[r] -= 1  # the opponent sees the card laid
                fixed += w * first_then_rollout(me, them, (), 0, r, unseen_me, theirs)
                seeing += w * search_values(me, (), 0, [(1.0, them)], unseen, [r])[r]
            assert values[r] >= fixed / total - 1e-9
            assert values[r] <= seeing / total + 1e-9


@pytest.mark.parametrize("against", [1.0, 0.8, 0.5, 0.0])
def test_the_opponents_points_count_at_the_weight_asked(against):
    # After a king, the seat's last card (5) makes fifteen for 2; the opponent's last card (the
    # other 5) pairs it for 2 and takes the last card for 1: no choice on either side.
    values = search_values(
        (5,), (13,), 10, [(1.0, (5,))], tuple([0] + [4] * 13), [5], None, against
    )
    assert values[5] == pytest.approx(2 - 3 * against)


class _PointsEnding:
    """An ending that values the end of the play by the points made (reaching 5 wins)."""

    needs = (5, 5)

    def value(self, got, laid):
        return float(got[0] - got[1])


def test_near_the_end_the_search_values_points_as_they_are():
    ending = _PointsEnding()
    assert search_values((5,), (13,), 10, [(1.0, (5,))], tuple([0] + [4] * 13), [5], ending) == {
        5: pytest.approx(-1.0)
    }
    with pytest.raises(ValueError):
        search_values((5,), (13,), 10, [(1.0, (5,))], tuple([0] + [4] * 13), [5], ending, 0.8)


def test_the_search_refuses_no_worlds():
    with pytest.raises(ValueError):
        search_values((1, 2, 3, 4), (), 0, [], tuple([0] + [4] * 13), [1])


def test_the_fast_model_lays_what_standard_lays():
    # On two-handed positions from real deals (before anyone said go: standard then uses the
    # opponent's floor, the model does not), the model's rank is standard's card.
    checked = 0
    for seed in range(60):
        game = Game.new(Variant(players=2), seed=seed, first_dealer=0)
        for seat in (0, 1):
            game.apply(seat, decide(SeatKnowledge.of(game, seat), level="standard", seed=seed))
        game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
        while game.phase is Phase.PLAY:
            seat = game.to_act[0]
            view = SeatKnowledge.of(game, seat)
            if not view.go_floors():
                hand = tuple(sorted(c.rank for c in view.hand))
                other = 4 - sum(1 for s, _ in view.played if s != seat)
                pile = tuple(c.rank for c in view.pile)
                unseen = tuple(unseen_rank_counts(view))
                rank = answer(hand, view.count, RankScores(pile, view.count, unseen, other))
                assert rank == standard_play(view).rank
                assert model_choice(hand, pile, view.count, list(unseen), other) == rank
                checked += 1
            game.apply(seat, decide(view, level="standard"))
    assert checked > 300


def _model_as_specified(hand, pile, count, unseen, other_held):
    """``standard``'s choice, literally: for each distinct rank that fits, the points it makes
    (and the go, when nobody can follow and the rest of the hand cannot either) minus the
    expected reply, plus a hundredth of its value; the first best, lowest rank first."""
    from bot.ai.pegging import _reply_expectation, holding_chances, peg_points, reply_points

    chances = holding_chances(list(unseen), other_held)
    best, best_score = None, None
    for r in sorted(set(hand)):
        if count + VALUE[r] > 31:
            break
        after = pile + (r,)
        points, reply = peg_points(after), 0.0
        room = 31 - count - VALUE[r]
        if room > 0:
            if other_held and any(unseen[q] for q in range(1, 14) if VALUE[q] <= room):
                reply = _reply_expectation(reply_points(after), chances)
            else:
                rest = list(hand)
                rest.remove(r)
                if not any(VALUE[q] <= room for q in rest):
                    points += 1
        score = points - reply + 0.01 * VALUE[r]
        if best_score is None or score > best_score:
            best, best_score = r, score
    return best


def test_the_fast_model_follows_its_specification_on_random_positions():
    rng = random.Random(9)
    checked = gone = forced_seen = 0
    while checked < 4000:
        cards = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(cards)
        pile: list[int] = []
        count = 0
        for r in cards[: rng.randint(0, 6)]:
            if count + VALUE[r] > 31:
                break
            pile.append(r)
            count += VALUE[r]
        hand = tuple(sorted(cards[10 : 10 + rng.randint(1, 4)]))
        if VALUE[hand[0]] > 31 - count:
            continue
        unseen = [0] + [4] * 13
        for r in pile + list(hand):
            unseen[r] -= 1
        pool = [q for q in range(1, 14) for _ in range(unseen[q])]
        for r in rng.sample(pool, rng.randint(0, 40)):  # up to nearly everything seen
            unseen[r] -= 1
        held = rng.randint(0, 4)
        scores = RankScores(tuple(pile), count, tuple(unseen), held)
        rank = answer(hand, count, scores)
        assert rank == _model_as_specified(hand, tuple(pile), count, unseen, held)
        choices = {r for r in hand if VALUE[r] <= 31 - count}
        must = forced(hand, count)  # the likelihoods' test of a choice
        assert must == (rank if len(choices) == 1 else None)
        assert (must is not None) == (not scores.known)  # a forced rank is laid unscored
        forced_seen += must is not None and len(set(hand)) > 1
        gone += any(
            VALUE[r] + count < 31
            and not (
                held and any(unseen[q] for q in range(1, 14) if VALUE[q] <= 31 - count - VALUE[r])
            )
            for r in hand
        )
        checked += 1
    assert gone > 800  # the go is often in play: the positions test it
    assert forced_seen > 200  # and hands whose higher ranks do not fit


def _searches(monkeypatch, view: SeatKnowledge, config=EXPERT) -> list[tuple[int, float]]:
    """The expert's two-handed search on ``view`` (tuned by ``config``): the worlds of each stage
    it searched, and the weight it gave the opponent's points."""
    from bot.ai import expert_pegging, pegging_search

    stages: list[tuple[int, float]] = []
    real = pegging_search.search_values

    def counting(me, pile, count, worlds, unseen, ranks, ending=None, against=1.0):
        stages.append((len(worlds), against))
        return real(me, pile, count, worlds, unseen, ranks, ending, against)

    monkeypatch.setattr(pegging_search, "search_values", counting)
    legal = distinct_by_rank(legal_cards(view))  # as expert_play asks
    expert_pegging.expert_values(view, random.Random(5), legal, config)
    return stages


def _search_sizes(monkeypatch, view: SeatKnowledge) -> list[int]:
    """The worlds of each stage the expert's two-handed search searched on ``view``."""
    return [size for size, _ in _searches(monkeypatch, view)]


def test_the_search_stops_at_its_first_stage_when_one_card_is_clearly_best(monkeypatch):
    # On 5-5-5 (count 15) the fourth 5 makes a double pair royal for 12: nothing comes close.
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["5S 5H 9C KD", "5C 5D 2H 3H"],
        starter="AC",
        held=["5S 9C KD", "2H 3H"],
        pile="5C 5H 5D",
        turn=0,
    )
    assert _search_sizes(monkeypatch, SeatKnowledge.of(game, 0)) == [100]


def test_a_close_choice_is_searched_over_every_world_in_stages(monkeypatch):
    # The pone's lead from four middling cards: no lead is clearly best.
    game = position(
        Variant(players=2), dealer=0, kept=["9S 10H QC KD", "3C 4D 7H 8S"], starter="AC"
    )
    assert _search_sizes(monkeypatch, SeatKnowledge.of(game, 1)) == [100, 100, 200]


def test_the_dealer_counts_the_pones_points_at_a_weight_the_pone_the_dealers_in_full(monkeypatch):
    assert 0 < EXPERT.dealer_against < 1
    kept = ["3H 4S QC QH", "3D 8C 6H 10H"]

    def weights(seat: int, config=EXPERT, **play) -> set[float]:
        game = position(Variant(players=2), dealer=0, kept=kept, starter="8S", **play)
        view = SeatKnowledge.of(game, seat)
        return {against for _, against in _searches(monkeypatch, view, config)}

    after_the_lead = {"pile": "3D", "turn": 0, "held": ["3H 4S QC QH", "8C 6H 10H"]}
    assert weights(0, **after_the_lead) == {EXPERT.dealer_against}
    # The weight is the configured one: a benchmark measures another by configuring it.
    other = dataclasses.replace(EXPERT, dealer_against=0.9)
    assert weights(0, other, **after_the_lead) == {0.9}
    assert weights(1) == {1.0}  # the pone's lead
    # Near the end the dealer plays for the chance to win: every point as it is.
    assert weights(0, **after_the_lead, scores=[110, 112]) == {1.0}


def test_the_opening_lead_and_the_later_cards_are_evidence_of_their_own_weight(monkeypatch):
    monkeypatch.setattr(inference, "LEAD_MISMATCH", 0.9)
    monkeypatch.setattr(inference, "PLAY_MISMATCH", 0.2)

    def seat_0_sees(dealer: int, mine: str, pile: str) -> SeatKnowledge:
        """Seat 0 holds ``mine`` of its four; the opponent (seat 1) has laid its four of spades."""
        game = position(
            Variant(players=2),
            dealer=dealer,
            kept=["KH QH JH 10H", "4S 9D 9C KD"],
            starter="7C",
            held=[mine, "9D 9C KD"],
            pile=pile,
            turn=0,
        )
        return SeatKnowledge.of(game, 0)

    # The opponent (pone) opened with the four: standard would have too with nines and a king,
    # but not with a pair of aces and a king.
    view = seat_0_sees(dealer=0, mine="KH QH JH 10H", pile="4S")
    assert inference.play_likelihood(view, (9, 9, 13)) == 1.0
    assert inference.play_likelihood(view, (1, 1, 13)) == pytest.approx(0.9)
    # The opponent (dealer) laid the four on a king: holding a five it would have made fifteen;
    # a card it did not lay as standard would is weighed as any card in the play.
    view = seat_0_sees(dealer=1, mine="QH JH 10H", pile="KH 4S")
    assert inference.play_likelihood(view, (1, 1, 2)) == 1.0
    assert inference.play_likelihood(view, (1, 1, 5)) == pytest.approx(0.2)
