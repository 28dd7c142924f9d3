"""Muggins in the engine (docs/players/muggins.md): claimed counts, missed points, over-claims
corrected in public, independent windows, instant wins in counting order; and a game of release
0.1.0 played on by its own rules (one window at a time: bot.engine.muggins_queued)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.engine import (
    Claim,
    Claimed,
    CountSettled,
    Game,
    GameOver,
    IllegalAction,
    LetGo,
    Muggins,
    MugginsCalled,
    Phase,
    Scored,
    ScoreReason,
    Shown,
    Variant,
    action_from_dict,
)
from bot.engine.muggins import MugginsRules, breakdown_of, counter, pegged_for, window_waiting

QUEUED = MugginsRules.QUEUED


def to_show(
    variant: Variant,
    seed: int,
    *,
    min_points: int = 0,
    rules: MugginsRules = MugginsRules.INDEPENDENT,
) -> Game:
    """A game at the first claim of its first show; the pone's hand worth at least min_points."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        game = Game.new(variant, seed=s, first_dealer=0, muggins_rules=rules)
        while game.phase is not Phase.SHOW and not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.phase is Phase.SHOW and breakdown_of(game, game.pone, False).total >= min_points:
            return game
    raise AssertionError("no such game")


def test_variant_flag_round_trips_and_old_data_reads_off():
    v = Variant(players=3, muggins=True)
    assert v.name == "3 players, to 121, muggins"
    assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_dict({"players": 2, "partnerships": False, "target": 61}).muggins is False
    assert "muggins" not in Variant().to_dict()
    game = Game.new(Variant(), seed=1, first_dealer=0)
    assert "show_step" not in game.to_dict() and "muggins_window" not in game.to_dict()


def test_actions_round_trip():
    for action in (Claim(12), Muggins(), LetGo()):
        assert action_from_dict(action.to_dict()) == action


def test_show_waits_for_the_pone_to_claim():
    game = to_show(Variant(muggins=True), 1)
    assert game.to_act == [game.pone]
    assert game.legal_actions(game.pone) == [Claim(p) for p in range(30)]
    assert game.legal_actions(game.dealer) == []
    with pytest.raises(IllegalAction):
        game.apply(game.dealer, Claim(3))
    with pytest.raises(IllegalAction):
        game.apply(game.pone, Claim(30))
    with pytest.raises(IllegalAction):
        game.apply(game.dealer, Muggins())


def test_exact_claim_opens_a_window_the_next_claim_leaves_open():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    before = game.scores[pone]
    events = game.apply(pone, Claim(true))
    assert isinstance(events[0], Shown) and events[1] == Claimed(pone, true, False)
    assert events[2] == Scored(pone, pone, true, ScoreReason.HAND, before + true)
    assert not any(isinstance(e, CountSettled) for e in events)  # the count is not public yet
    assert game.to_act == [dealer] and window_waiting(game) == [dealer]
    assert Muggins() in game.legal_actions(dealer) and Claim(0) in game.legal_actions(dealer)
    events = game.apply(dealer, Claim(0))
    assert not any(isinstance(e, CountSettled) for e in events)  # the pone's window stays open
    assert [(w.seat, w.crib) for w in game.muggins_windows] == [(pone, False), (dealer, False)]
    settled = game.apply(dealer, LetGo(0))
    assert [type(e) for e in settled] == [CountSettled]
    assert settled[0].seat == pone and settled[0].missed == 0 and settled[0].breakdown.total == true
    assert [(w.seat, w.crib) for w in game.muggins_windows] == [(dealer, False)]


def test_under_claim_is_taken_by_the_opponent():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    game.apply(pone, Claim(true - 2))
    before = game.scores[dealer]
    events = game.apply(dealer, Muggins())
    assert events[0] == MugginsCalled(dealer, 2)
    assert isinstance(events[1], CountSettled) and events[1].missed == 2
    assert events[2] == Scored(dealer, dealer, 2, ScoreReason.MUGGINS, before + 2)
    assert game.muggins_window is None and game.to_act == [dealer]
    assert Muggins() not in game.legal_actions(dealer)


def test_a_wrong_muggins_call_takes_nothing():
    game = to_show(Variant(muggins=True), 1)
    true = breakdown_of(game, game.pone, False).total
    game.apply(game.pone, Claim(true))
    scores = list(game.scores)
    events = game.apply(game.dealer, Muggins())
    assert events[0] == MugginsCalled(game.dealer, 0)
    assert game.scores == scores


def test_over_claim_is_corrected_in_public_and_opens_no_window():
    assert [pegged_for(c, 8) for c in (0, 7, 8, 9, 12, 16, 29)] == [0, 7, 8, 7, 4, 0, 0]
    game = to_show(Variant(muggins=True), 1, min_points=4)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    scores = list(game.scores)
    events = game.apply(pone, Claim(true + 1))
    assert [type(e) for e in events] == [Shown, Claimed, Scored, CountSettled]
    assert events[2].points == true - 1
    settled = events[3]
    assert settled.breakdown.total == true and settled.claimed == true + 1 and settled.missed == 1
    assert game.muggins_window is None and window_waiting(game) == []
    assert game.to_act == [dealer] and Muggins() not in game.legal_actions(dealer)
    with pytest.raises(IllegalAction, match="no count open"):
        game.apply(dealer, Muggins())
    # the point it lost is a penalty: nobody pegs it
    assert game.scores[pone] == scores[pone] + true - 1 and game.scores[dealer] == scores[dealer]


def test_an_over_claim_that_pegs_nothing_still_shows_the_count():
    game = to_show(Variant(muggins=True), 1)
    true = breakdown_of(game, game.pone, False).total
    events = game.apply(game.pone, Claim(29))
    assert [type(e) for e in events] == [Shown, Claimed, CountSettled]
    assert events[2].missed == true and game.muggins_windows == ()


def test_the_last_count_over_claimed_ends_the_show_at_once():
    game = to_show(Variant(muggins=True), 1)
    pone, dealer = game.pone, game.dealer
    game.apply(pone, Claim(29))
    game.apply(dealer, Claim(29))
    events = game.apply(dealer, Claim(29))
    assert isinstance(events[2], CountSettled) and events[2].crib
    assert game.phase is Phase.DISCARD and game.dealer == pone and game.deal_number == 2


def test_the_dealer_claims_the_crib_while_the_window_on_his_hand_is_open():
    game = to_show(Variant(muggins=True), 1)
    pone, dealer = game.pone, game.dealer
    game.apply(pone, Claim(0))
    game.apply(dealer, LetGo())
    game.apply(dealer, Claim(0))  # opens a window on the dealer's hand
    assert counter(game) == (dealer, True)
    assert game.to_act == sorted([pone, dealer]) and Claim(0) in game.legal_actions(dealer)
    with pytest.raises(IllegalAction, match="opponent"):
        game.apply(dealer, LetGo())
    game.apply(dealer, Claim(0))  # no wait: a window of its own on the crib
    assert [(w.seat, w.crib) for w in game.muggins_windows] == [(dealer, False), (dealer, True)]
    assert game.to_act == [pone] and game.phase is Phase.SHOW
    assert LetGo(1) in game.legal_actions(pone) and LetGo(2) in game.legal_actions(pone)
    events = game.apply(pone, LetGo(2))  # the crib's window closes first
    assert [type(e) for e in events] == [CountSettled] and events[0].crib
    events = game.apply(pone, LetGo())
    assert isinstance(events[0], CountSettled) and not events[0].crib
    assert game.phase is Phase.DISCARD and game.dealer == pone and game.deal_number == 2


def test_one_muggins_call_answers_every_window_open_to_the_caller():
    game = to_show(Variant(muggins=True), 1, min_points=0)
    pone, dealer = game.pone, game.dealer
    hand = breakdown_of(game, dealer, False).total
    crib = breakdown_of(game, dealer, True).total
    game.apply(pone, Claim(29))
    game.apply(dealer, Claim(0))
    game.apply(dealer, Claim(0))
    before = game.scores[pone]
    events = game.apply(pone, Muggins())
    calls = [e for e in events if isinstance(e, MugginsCalled)]
    settled = [e for e in events if isinstance(e, CountSettled)]
    assert calls == [MugginsCalled(pone, crib), MugginsCalled(pone, hand)]  # the latest first
    assert [(e.crib, e.missed) for e in settled] == [(True, crib), (False, hand)]
    if before + hand + crib < game.variant.target:
        assert game.scores[pone] == before + hand + crib and game.phase is Phase.DISCARD


def test_a_letgo_naming_a_count_not_open_is_refused_and_changes_nothing():
    game = to_show(Variant(muggins=True), 1)
    game.apply(game.pone, Claim(0))
    data = game.to_dict()
    with pytest.raises(IllegalAction, match="no count open"):
        game.apply(game.dealer, LetGo(2))
    with pytest.raises(IllegalAction, match="opponent"):
        game.apply(game.pone, LetGo(0))
    assert game.to_dict() == data


def test_partners_cannot_call_muggins_and_every_opponent_must_let_go():
    game = to_show(Variant(players=4, partnerships=True, muggins=True), 3)
    pone = game.pone
    partner = (pone + 2) % 4
    game.apply(pone, Claim(0))
    assert window_waiting(game) == sorted([(pone + 1) % 4, (pone + 3) % 4])
    assert partner not in game.to_act
    with pytest.raises(IllegalAction, match="opponent"):
        game.apply(partner, Muggins())
    assert game.apply((pone + 3) % 4, LetGo()) == []
    assert window_waiting(game) == [(pone + 1) % 4]
    with pytest.raises(IllegalAction, match="already"):
        game.apply((pone + 3) % 4, Muggins())
    events = game.apply((pone + 1) % 4, Claim(0))  # the next counter: the pone's window stays
    assert not any(isinstance(e, CountSettled) for e in events)
    assert isinstance(game.apply((pone + 1) % 4, LetGo(0))[0], CountSettled)


def test_a_claim_that_reaches_the_target_wins_at_once():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone = game.pone
    game.scores[pone] = 120
    events = game.apply(pone, Claim(1))
    assert isinstance(events[-1], GameOver) and game.winner == pone
    assert game.to_act == [] and game.is_over


def test_a_muggins_call_that_reaches_the_target_wins_at_once():
    game = to_show(Variant(muggins=True), 1, min_points=2)
    pone, dealer = game.pone, game.dealer
    game.scores[dealer] = 120
    game.apply(pone, Claim(0))
    events = game.apply(dealer, Muggins())
    assert isinstance(events[-1], GameOver) and game.winner == dealer


def show_worth(hand: int, dealer: int, crib: int) -> Game:
    """A two-player game at its first show whose pone's hand, dealer's hand and crib are worth
    at least these."""
    for seed in range(1, 400):
        game = to_show(Variant(muggins=True), seed)
        worth = (
            breakdown_of(game, game.pone, False).total,
            breakdown_of(game, game.dealer, False).total,
            breakdown_of(game, game.dealer, True).total,
        )
        if all(w >= least for w, least in zip(worth, (hand, dealer, crib), strict=True)):
            return game
    raise AssertionError("no such show")


def test_a_crib_claim_reaching_the_target_waits_for_a_muggins_call_on_the_hand():
    game = show_worth(0, 2, 1)
    pone, dealer = game.pone, game.dealer
    hand = breakdown_of(game, dealer, False).total
    game.scores[dealer] = 121 - (hand - 1) - 1  # the crib's 1 point would win
    game.scores[pone] = 120  # a muggins call on the dealer's hand wins first
    game.apply(pone, Claim(29))
    game.apply(dealer, Claim(hand - 1))  # one point missed: the window stays open
    events = game.apply(dealer, Claim(1))
    assert not any(isinstance(e, Scored | GameOver) for e in events)  # held, not pegged
    assert game.scores[dealer] == 120 and not game.is_over
    assert game.to_act == [pone]
    events = game.apply(pone, Muggins())  # the hand came before the crib: the pone wins
    assert isinstance(events[-1], GameOver) and game.winner == game.side_of(pone)
    assert game.scores == [121 if s == pone else 120 for s in range(2)]


def test_a_held_crib_claim_wins_once_the_hand_is_let_go():
    game = show_worth(0, 2, 1)
    pone, dealer = game.pone, game.dealer
    hand = breakdown_of(game, dealer, False).total
    game.scores[dealer] = 121 - (hand - 1) - 1
    game.scores[pone] = 120
    game.apply(pone, Claim(29))
    game.apply(dealer, Claim(hand - 1))
    game.apply(dealer, Claim(1))
    events = game.apply(pone, LetGo(1))  # the hand stands as claimed: the crib's point wins
    assert isinstance(events[0], CountSettled)
    assert events[-2] == Scored(dealer, dealer, 1, ScoreReason.CRIB, 121)
    assert isinstance(events[-1], GameOver) and game.winner == game.side_of(dealer)


def test_the_win_goes_by_counting_order_not_by_the_order_of_the_clicks():
    """The dealer's muggins call on the pone's hand comes after his own hand and crib, which
    pegged at once; it would take him to the target, but in counting order he gets there only
    with the crib, after the pone's muggins call on his hand."""
    game = show_worth(2, 2, 1)
    pone, dealer = game.pone, game.dealer
    mine = breakdown_of(game, pone, False).total
    hand = breakdown_of(game, dealer, False).total
    crib = breakdown_of(game, dealer, True).total
    game.scores[dealer] = 121 - mine - (hand - 1) - crib
    game.scores[pone] = 120
    game.apply(pone, Claim(0))
    game.apply(dealer, Claim(hand - 1))
    game.apply(dealer, Claim(crib))
    assert game.scores[dealer] == 121 - mine  # both pegged: neither reaches the target
    events = game.apply(dealer, Muggins())  # clicked first, counted first, but not enough
    assert [type(e) for e in events] == [MugginsCalled, CountSettled] and not game.is_over
    events = game.apply(pone, Muggins())
    assert isinstance(events[-1], GameOver) and game.winner == game.side_of(pone)
    assert game.scores[dealer] < 121


def test_the_win_in_counting_order_falls_to_the_later_count_when_the_earlier_is_let_go():
    game = show_worth(2, 2, 1)
    pone, dealer = game.pone, game.dealer
    mine = breakdown_of(game, pone, False).total
    hand = breakdown_of(game, dealer, False).total
    crib = breakdown_of(game, dealer, True).total
    game.scores[dealer] = 121 - mine - (hand - 1) - crib
    game.scores[pone] = 120
    game.apply(pone, Claim(0))
    game.apply(dealer, Claim(hand - 1))
    game.apply(dealer, Claim(crib))
    game.apply(dealer, Muggins())
    events = game.apply(pone, LetGo())
    assert events[-2] == Scored(dealer, dealer, mine, ScoreReason.MUGGINS, 121)
    assert isinstance(events[-1], GameOver) and game.winner == game.side_of(dealer)


def test_snapshot_round_trip_with_open_windows_and_held_points():
    game = show_worth(0, 2, 1)
    pone, dealer = game.pone, game.dealer
    hand = breakdown_of(game, dealer, False).total
    game.scores[dealer] = 121 - (hand - 1) - 1
    game.apply(pone, Claim(1))
    game.apply(dealer, Claim(hand - 1))
    game.apply(dealer, Claim(1))
    data = json.loads(json.dumps(game.to_dict()))
    assert len(data["muggins_windows"]) == 3 and len(data["show_awards"]) >= 2
    assert "muggins_window" not in data and data["muggins_rules"] == "independent"
    copy = Game.from_dict(data)
    assert copy == game and copy.to_act == game.to_act == sorted([pone, dealer])
    assert copy.muggins_rules is MugginsRules.INDEPENDENT
    assert copy.apply(pone, LetGo()) == game.apply(pone, LetGo())
    assert copy.apply(dealer, Muggins()) == game.apply(dealer, Muggins())
    assert copy == game and game.is_over


def test_a_new_game_keeps_the_current_rules_in_its_snapshot():
    game = Game.new(Variant(muggins=True), seed=3, first_dealer=1)
    assert game.muggins_rules is MugginsRules.INDEPENDENT
    data = json.loads(json.dumps(game.to_dict()))
    assert data["muggins_rules"] == "independent" and "muggins_window" not in data
    copy = Game.from_dict(data)
    assert copy.muggins_rules is MugginsRules.INDEPENDENT and copy == game
    # a game without muggins keeps the snapshot it always had
    assert "muggins_rules" not in Game.new(Variant(), seed=3, first_dealer=1).to_dict()


OLD_SNAPSHOT = Path(__file__).parent / "data" / "muggins_one_window.json"
"""A snapshot written mid-show by release 0.1.0's engine, which kept one window at a time: the
pone claimed 8 (exact), the dealer 2 for his hand (worth 4), which closed the pone's window and
opened one on the dealer's hand; the crib is not claimed yet."""


def test_an_old_snapshot_plays_on_by_the_rules_it_was_played_under():
    data = json.loads(OLD_SNAPSHOT.read_text())
    assert "muggins_windows" not in data and data["muggins_window"]["seat"] == 0  # the old shape
    assert "muggins_rules" not in data
    game = Game.from_dict(data)
    assert game.muggins_rules is QUEUED
    assert [(w.seat, w.crib, w.missed) for w in game.muggins_windows] == [(0, False, 2)]
    assert game.to_act == [1] and counter(game) == (0, True)  # the crib waits for the window
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="Wait: your opponents"):
        game.apply(0, Claim(0))
    assert Game.from_dict(data) == game  # refused: nothing changed
    events = game.apply(1, Muggins())
    assert MugginsCalled(1, 2) in events and game.scores == [3, 14]
    assert game.to_act == [0] and game.muggins_window is None
    crib = breakdown_of(game, 0, True).total
    game.apply(0, Claim(crib + 1))  # an over-claim opens a window under these rules
    assert game.to_act == [1] and game.scores[0] == 3 + crib - 1
    assert game.muggins_window is not None and game.muggins_window.missed == 1
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy == game and copy.to_dict().keys() == data.keys()  # still 0.1.0's shape
    events = game.apply(1, Muggins())
    assert MugginsCalled(1, 1) in events and game.scores == [3 + crib - 1, 15]
    assert game.phase is Phase.DISCARD and game.deal_number == 2
    assert Game.from_dict(game.to_dict()) == game


def test_under_the_old_rules_a_claim_closes_the_window_before_it():
    game = to_show(Variant(muggins=True), 1, min_points=2, rules=QUEUED)
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    game.apply(pone, Claim(true - 1))
    assert game.to_act == [dealer] and LetGo(0) in game.legal_actions(dealer)
    with pytest.raises(IllegalAction, match="no count open"):
        game.apply(dealer, LetGo(2))  # a LetGo naming another count
    events = game.apply(dealer, Claim(0))  # the pone's window closes, its point not taken
    assert isinstance(events[0], CountSettled) and events[0].missed == 1
    assert [(w.seat, w.crib) for w in game.muggins_windows] == [(dealer, False)]
    assert game.to_act == [pone] and counter(game) == (dealer, True)
    events = game.apply(pone, LetGo(1))  # the session's LetGo naming the one open window
    assert [type(e) for e in events] == [CountSettled]
    assert game.to_act == [dealer] and Claim(0) in game.legal_actions(dealer)


class CountingOrder:
    """An oracle of the instant-win rule read from the events alone: every point of a show in
    counting order (a count's claim, then a muggins call on it), and the counts still open."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.start = list(game.scores)
        self.points: list[tuple[tuple[int, int], int, int]] = []  # (order, side, points)
        self.open: set[int] = set()
        self.shown: dict[int, int] = {}  # place -> true count

    def place(self, seat: int, crib: bool) -> int:
        n, dealer = self.game.players, self.game.dealer
        return n if crib else (seat - dealer - 1) % n

    def see(self, events: list) -> None:
        call = None
        for e in events:
            if isinstance(e, Shown):
                self.shown[self.place(e.seat, e.crib)] = e.breakdown.total
            elif isinstance(e, Claimed):
                place = self.place(e.seat, e.crib)
                pegged = pegged_for(e.points, self.shown[place])
                self.points.append(((place, 0), self.game.side_of(e.seat), pegged))
                if e.points <= self.shown[place]:
                    self.open.add(place)
            elif isinstance(e, MugginsCalled):
                call = e
            elif isinstance(e, CountSettled):
                place = self.place(e.seat, e.crib)
                self.open.discard(place)
                if call is not None:
                    self.points.append(((place, 1), self.game.side_of(call.seat), call.points))
                call = None

    def winner(self) -> int | None:
        """The side that reached the target first in counting order, once nothing before it
        can change; None while undecided."""
        totals = list(self.start)
        first_open = min(self.open, default=99)
        for (place, _), side, points in sorted(self.points):
            if place > first_open:
                return None
            totals[side] += points
            if totals[side] >= self.game.variant.target:
                return side
        return None


@pytest.mark.parametrize("rules", list(MugginsRules), ids=str)
@pytest.mark.parametrize(
    "variant",
    [
        Variant(2, target=61, muggins=True),
        Variant(3, target=61, muggins=True),
        Variant(4, muggins=True),
        Variant(4, True, 61, muggins=True),
    ],
    ids=lambda v: v.name,
)
def test_random_muggins_games_keep_the_invariants_and_counting_order(variant, rules):
    from tests.engine.test_game_properties import check_invariants

    winners = set()
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.new(variant, seed=seed, muggins_rules=rules)
        oracle = None
        for _ in range(5000):
            if game.is_over:
                break
            assert game.to_act, game
            for other in set(range(game.players)) - set(game.to_act):
                assert game.legal_actions(other) == []
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            assert legal
            if game.phase is Phase.SHOW and oracle is None:
                oracle = CountingOrder(game)
            scores = list(game.scores)
            if rng.random() < 0.1:
                twin = Game.from_dict(json.loads(json.dumps(game.to_dict())))
                assert twin == game and twin.muggins_rules is rules
            action = rng.choice(legal)
            events = game.apply(seat, action)
            check_invariants(game, scores, events)
            if oracle is not None:
                oracle.see(events)
                decided = oracle.winner()
                assert decided == game.winner, (seed, decided, game.winner, events)
                if game.phase is not Phase.SHOW:
                    oracle = None
        assert game.is_over and game.scores[game.winner] == variant.target
        winners.add(game.winner)
    assert winners == set(range(variant.sides))


def test_computers_claim_exactly_and_call_muggins_on_a_miss():
    from bot.ai.players import choose_action

    game = Game.new(Variant(3, target=61, muggins=True), seed=11, first_dealer=0)
    claims = 0
    while not game.is_over:
        seat = game.to_act[0]
        action = choose_action(game, seat, level="easy", seed=1)
        for event in game.apply(seat, action):
            if isinstance(event, Shown):
                true = event.breakdown.total
            if isinstance(event, Claimed):
                claims += 1
                assert event.points == true
            if isinstance(event, CountSettled):
                assert event.missed == 0
    assert claims >= 4
    game = to_show(Variant(muggins=True), 1, min_points=2)
    game.apply(game.pone, Claim(0))
    assert choose_action(game, game.dealer, level="easy") == Muggins()
    game.apply(game.dealer, Claim(breakdown_of(game, game.dealer, False).total))
    assert choose_action(game, game.pone, level="easy") == LetGo()


def test_the_story_shows_the_claim_not_the_count_until_the_window_closes():
    from bot.render.story import story_lines

    game = to_show(Variant(muggins=True), 1, min_points=2)
    names = ["Alice", "Bob"]
    pone, dealer = game.pone, game.dealer
    true = breakdown_of(game, pone, False).total
    lines = story_lines(game.apply(pone, Claim(true - 1)), names, game.variant)
    text = "\n".join(lines)
    assert f"claims **{true - 1}**" in text and "fifteen" not in text and "worth" not in text
    text = "\n".join(story_lines(game.apply(dealer, Muggins()), names, game.variant))
    assert "Muggins!" in text and f"was worth {true}" in text and "1 missed" in text
    assert "takes 1 point (now " in text
