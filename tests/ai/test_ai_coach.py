"""The coach: exact hand expectations, ranked discards, the card to lay and why, reviews."""

import random
from itertools import combinations

import pytest

from bot.ai import coach, players
from bot.ai.crib import crib_value, crib_weight, table_key
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Game, Phase, Play, Variant, parse_cards, score_show
from tests.support.engine_positions import play, position


def brute_force(hand, *, dealer, players=2, partnerships=False):
    """Every discard with its hand averaged over every unseen starter by ``score_show``."""
    k = 2 if players == 2 else 1
    starters = [c for c in FULL_PACK if c not in hand]
    key = table_key(players, partnerships)
    weight = crib_weight(players, partnerships, dealer)
    out = {}
    for discard in combinations(sorted(hand), k):
        kept = [c for c in hand if c not in discard]
        hand_ev = sum(score_show(kept, s).total for s in starters) / len(starters)
        crib = crib_value(discard, key=key, own=dealer)
        out[frozenset(discard)] = (hand_ev, hand_ev + weight * crib)
    return out


@pytest.mark.parametrize("players, partnerships", [(2, False), (3, False), (4, False), (4, True)])
def test_discard_advice_is_exact_against_brute_force(players, partnerships):
    rng = random.Random(players * 10 + partnerships)
    for i in range(4 if players == 2 else 6):
        hand = rng.sample(FULL_PACK, 6 if players == 2 else 5)
        dealer = bool(i % 2)
        advice = coach.discard_advice(
            hand, dealer=dealer, players=players, partnerships=partnerships
        )
        truth = brute_force(hand, dealer=dealer, players=players, partnerships=partnerships)
        assert len(advice) == len(truth)
        for option in advice:
            hand_ev, net = truth[frozenset(option.discard)]
            assert option.hand == pytest.approx(hand_ev, abs=1e-9)
            assert option.net == pytest.approx(net, abs=1e-9)
        best_net = max(net for _, net in truth.values())
        assert advice[0].net == pytest.approx(best_net, abs=1e-9)
        assert [o.net for o in advice] == sorted((o.net for o in advice), reverse=True)


def test_hand_only_optimum_with_flushes_and_nobs():
    # Suits matter: a four-card flush and the jack for his nobs.
    hand = parse_cards("2H 7H 9H JH 5C KS")
    truth = brute_force(hand, dealer=True)
    advice = coach.discard_advice(hand, dealer=True)
    best_hand = max(truth.values())[0]
    assert max(o.hand for o in advice) == pytest.approx(best_hand, abs=1e-9)


def test_format_and_hint():
    hand = parse_cards("5H 5C JD QS 2C 3D")
    best = coach.discard_advice(hand, dealer=True, top=1)[0]
    assert coach.format_discard(best) == "keep 5-5-J-Q, throw 2-3: hand 12.7, crib +6.9, net 19.6"
    text = coach.discard_hint(hand, dealer=False)
    assert text.splitlines()[0] == "Best discards (the dealer's crib):"
    assert len(text.splitlines()) == 4
    assert "crib -" in text.splitlines()[1]
    # With a rank both kept and thrown, cards are written with their suits.
    option = coach.discard_advice(parse_cards("5H 5C 5D JD 2C 3D"), dealer=False, top=1)[0]
    if {c.rank for c in option.discard} & {c.rank for c in option.kept}:
        assert "♣" in coach.format_discard(option) or "♦" in coach.format_discard(option)


def test_three_players_show_the_share_of_the_crib():
    text = coach.discard_hint(parse_cards("5H 6C JD QS 2C"), dealer=False, players=3, top=1)
    assert "(counts 0.5)" in text


def test_review_notes_a_costly_discard_only():
    kept, thrown = parse_cards("5H 5C JD QS"), parse_cards("2C 3D")
    assert coach.discard_review(kept, thrown, dealer=True) is None
    note = coach.discard_review(parse_cards("2C 3D JD QS"), parse_cards("5H 5C"), dealer=False)
    assert note is not None
    assert note.startswith("Your discard of 5-5 cost about")
    assert "keep 5-5-J-Q" in note or "keep 5" in note


def test_review_threshold_is_half_a_point():
    rng = random.Random(2)
    for _ in range(20):
        hand = rng.sample(FULL_PACK, 6)
        options = coach.discard_advice(hand, dealer=False)
        for option in options:
            note = coach.discard_review(option.kept, option.discard, dealer=False)
            assert (note is not None) == (options[0].net - option.net > 0.5)


def test_play_advice_and_reasons():
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "7H 5C 3S 2H"], starter="AS")
    play(game, "2H", "KD")  # count 12
    advice = coach.play_advice(SeatKnowledge.of(game, 1))
    assert advice.card.code == "3S"
    assert advice.reason == "makes fifteen for 2"
    assert str(advice) == "lay the 3♠: makes fifteen for 2"
    # Fifteen-two against the next best card: the search says by how much.
    assert advice.runner_up is not None and advice.margin > 1
    hint = coach.hint(game, 1)
    assert hint.startswith("Lay the 3♠: makes fifteen for 2; about ")
    assert f"points better than the {advice.runner_up} over the play." in hint


def _on_the_dealers_ten(scores: list[int]) -> Game:
    """The dealer led the 10♦; the pone (seat 1) holds 5♥ K♠ 2♣ 3♦, scores as given."""
    return position(
        Variant(players=2),
        dealer=0,
        kept=["10D 9C 8H 4S", "5H KS 2C 3D"],
        starter="9S",
        scores=scores,
        held=["9C 8H 4S", "5H KS 2C 3D"],
        pile="10D",
        turn=1,
    )


def test_near_the_end_the_coach_speaks_in_chances_to_win_as_the_expert_plays():
    # The pone needs 2 and can make fifteen on the dealer's 10: the game, whatever follows.
    game = _on_the_dealers_ten([118, 119])
    view = SeatKnowledge.of(game, 1)
    advice = coach.play_advice(view)
    assert advice.card.code == "5H" and advice.chances
    assert advice.margin > 0.01  # the next best card leaves the dealer a chance
    hint = coach.hint(game, 1)
    assert hint.startswith("Lay the 5♥: makes fifteen for 2; about ")
    assert "% more chance to win than the " in hint and "points" not in hint
    assert players.decide(view, level="expert", seed=0) == Play(advice.card)


def test_a_decided_game_is_not_compared_in_points():
    # The dealer needs 2, the pone 40: the pone's chance is under 1%, the search's values are
    # wins as well as points, and the coach does not call them "points better".
    advice = coach.play_advice(SeatKnowledge.of(_on_the_dealers_ten([119, 81]), 1))
    assert not advice.chances and advice.comparison == ""


def test_a_forced_card_is_not_compared():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD QD 9D 8D", "7H 5C 3S 2H"],
        starter="AS",
        held=["9D 8D", "5C 2H"],
        pile="KD 3S QD",
        turn=0,
    )
    assert game.count == 23  # the 9 would make 32: the 8 is the only card
    advice = coach.play_advice(SeatKnowledge.of(game, 0))
    assert advice.card.code == "8D"
    assert advice.runner_up is None and advice.comparison == ""
    assert coach.hint(game, 0) == "Lay the 8♦: thirty-one for 2."


def test_play_reasons_for_safe_and_paired_cards():
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "7H 5C 3S 2H"], starter="AS")
    view = SeatKnowledge.of(game, 1)
    assert (
        coach.play_reason(view, parse_cards("3S")[0]) == "safe lead: nothing makes fifteen on a 3"
    )
    play(game, "7H", "8D")  # 15 for the dealer; count 15
    view = SeatKnowledge.of(game, 1)
    reason = coach.play_reason(view, parse_cards("5C")[0])
    assert reason.startswith(("safe", "the least exposed"))
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "7H 8C 3S 2H"], starter="AS")
    play(game, "7H", "8D")
    view = SeatKnowledge.of(game, 1)
    assert coach.play_reason(view, parse_cards("8C")[0]) == ("makes a pair for 2")


def test_hint_speaks_for_the_phase():
    game = Game.new(Variant(players=2), seed=5, first_dealer=0)
    assert coach.hint(game, 1).startswith("Best discards")
    game = position(Variant(players=2), dealer=0, kept=["KD QD 9D 8D", "7H 5C 3S 2H"], starter="AS")
    assert coach.hint(game, 1).startswith("Lay the ")
    assert coach.hint(game, 0) == "Nothing to decide just now."


def test_a_hint_names_every_card_with_its_suit():
    """A hint's alternatives keep their suits: each line names the very cards to pick."""
    text = coach.discard_hint(parse_cards("5H 5C JD QS 2C 3D"), dealer=True)
    best, *others = text.splitlines()[1:]
    assert best.startswith("1. keep 5♣ 5♥ J♦ Q♠, throw 2♣ 3♦: ")
    for line in others:
        kept, thrown = line[3:].split(": ")[0].removeprefix("keep ").split(", throw ")
        assert len(kept.split()) == 4 and len(thrown.split()) == 2
        assert all(card[-1] in "♣♦♥♠" for card in f"{kept} {thrown}".split())


def test_between_deals_the_coach_has_nothing_to_say():
    game = Game.new(Variant(players=2), seed=5, first_dealer=0, hold_between_deals=True)
    rng = random.Random(1)
    while game.phase is not Phase.NEXT_DEAL:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert coach.hint(game, 0) == "Nothing to decide just now."
