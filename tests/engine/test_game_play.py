"""The play (pegging) and the show through the game: go, 31, resets, last card, winning."""

from bot.engine import (
    Card,
    CountReset,
    Dealt,
    GameOver,
    Go,
    Phase,
    Play,
    Played,
    Scored,
    ScoreReason,
    Shown,
    Variant,
)
from tests.support.engine_positions import play, position


def scored(events, reason=None):
    return [
        (e.seat, e.points)
        for e in events
        if isinstance(e, Scored) and e.reason in ((reason,) if reason else tuple(ScoreReason))
    ]


def test_three_players_go_goes_to_the_last_card_and_the_next_seat_leads():
    # dealer 0: seat 1 leads, then 2, then 0.
    game = position(
        Variant(players=3),
        dealer=0,
        kept=["QD 9D 8D 7D", "KH 9H 8H 7H", "10C 9C 8C 7C"],
        starter="2S",
    )
    events = play(game, "KH", "10C", "QD")  # count 30, nobody holds an ace
    assert [e.seat for e in events if isinstance(e, Go)] == [1, 2]
    assert scored(events, ScoreReason.GO) == [(0, 1)]
    assert events[-1] == CountReset(leader=1)
    assert game.count == 0 and game.pile == [] and game.to_act == [1]


def test_a_player_who_alone_can_play_keeps_laying():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD 3C 2D 9S", "QH JH 10H 8H"],
        starter="6S",
    )
    events = play(game, "QH", "KD")  # 20
    assert game.to_act == [1]
    events = play(game, "JH")  # 30: dealer (seat 0) holds 3, 2, 9 — cannot play
    assert [e.seat for e in events if isinstance(e, Go)] == [0]
    # seat 1 holds 10H, 8H: cannot play either -> seat 1 pegs the go, seat 0 leads
    assert scored(events, ScoreReason.GO) == [(1, 1)]
    assert events[-1] == CountReset(leader=0)


def test_the_last_player_lays_on_until_stuck_then_pegs_the_go():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD QD 8S 9S", "AH 2C 5H 10H"],
        starter="6S",
    )
    events = play(game, "10H", "KD")  # 20
    events = play(game, "5H")  # 25: dealer holds Q 8 9 -> go; seat 1 continues
    assert [e.seat for e in events if isinstance(e, Go)] == [0]
    assert game.to_act == [1]
    events = play(game, "2C", "AH")  # 27, 28: seat 1 keeps laying, then is out of cards
    assert [e.card for e in events if isinstance(e, Played)] == [Card.parse("2C"), Card.parse("AH")]
    assert scored(events, ScoreReason.GO) == [(1, 1)]
    # the go was not said twice
    assert not [e for e in events if isinstance(e, Go)]
    assert events[-1] == CountReset(leader=0)


def test_thirty_one_scores_two_and_no_go():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD QD 8S 9S", "JH AC 5H 10H"],
        starter="6S",
    )
    events = play(game, "JH", "KD", "AC")  # 21 then... 10+10+1 = 21
    events = play(game, "QD")  # 31
    assert scored(events) == [(0, 2)]
    assert [i.kind.value for i in events[0].breakdown.items] == ["thirty-one"]
    assert events[-1] == CountReset(leader=1)


def test_last_card_scores_one_and_the_show_follows_in_order_then_the_next_deal():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["2D 3D 4S 6C", "7H 8H 9C KC"],
        starter="AS",
        crib="AD AH 10S JS",
    )
    events = play(game, "KC", "6C", "9C", "2D")  # 27: seat 1 holds 7 and 8
    assert [e.seat for e in events if isinstance(e, Go)] == [1]
    assert game.to_act == [0]  # the dealer lays on alone
    events = play(game, "3D")  # 30: nobody can lay -> go for the dealer, seat 1 leads
    assert scored(events, ScoreReason.GO) == [(0, 1)]
    events = play(game, "7H", "4S", "8H")  # 7, 11, 19: the very last card
    assert scored(events, ScoreReason.LAST_CARD) == [(1, 1)]
    shows = [e for e in events if isinstance(e, Shown)]
    assert [(s.seat, s.crib) for s in shows] == [(1, False), (0, False), (0, True)]
    assert shows[0].starter == Card.parse("AS")
    assert shows[2].cards == tuple(sorted(Card.parse(c) for c in ("AD", "AH", "10S", "JS")))
    dealt = [e for e in events if isinstance(e, Dealt)]
    assert dealt == [Dealt(dealer=1, number=2, cards_each=6)]
    assert game.phase is Phase.DISCARD and game.dealer == 1
    assert all(len(game.hand(s)) == 6 for s in (0, 1)) and game.starter is None


def test_last_card_making_31_scores_only_the_thirty_one():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["KD QD JD AS", "10H 9C 8C 7C"],
        held=["AS", ""],
        pile="10H KD QD",
        starter="2S",
        turn=0,
    )
    events = play(game, "AS")
    first_show = next(i for i, e in enumerate(events) if isinstance(e, Shown))
    pegging = events[:first_show]
    assert scored(pegging) == [(0, 2)]
    assert [i.kind.value for i in pegging[0].breakdown.items] == ["thirty-one"]
    assert not scored(events, ScoreReason.LAST_CARD) and not scored(events, ScoreReason.GO)


def test_pone_wins_in_the_show_before_the_dealer_counts():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["5C 5D JH QH", "5H 5S 10C KC"],  # dealer's hand would be worth 16
        held=["", "KC"],
        pile="",
        starter="2S",
        scores=[120, 110],
        turn=1,
    )
    events = play(game, "KC")  # last card: 111, then the pone's hand (10) makes 121
    assert scored(events) == [(1, 1), (1, 10)]
    shows = [e for e in events if isinstance(e, Shown)]
    assert [s.seat for s in shows] == [1]  # the dealer's hand and crib are never counted
    assert game.winner == 1 and game.scores == [120, 121]
    assert isinstance(events[-1], GameOver) and events[-1].skunks == (0, 0)


def test_winning_during_pegging_stops_everything():
    game = position(
        Variant(players=2),
        dealer=0,
        kept=["5C 9D JH QH", "10C 2S 3S 4S"],
        starter="AH",
        scores=[119, 100],
    )
    events = play(game, "10C", "5C")  # fifteen for two -> 121
    assert game.is_over and game.winner == 0 and game.scores == [121, 100]
    assert isinstance(events[-1], GameOver)
    assert game.to_act == [] and game.legal_actions(1) == []


def test_partnerships_pool_points():
    game = position(
        Variant(players=4, partnerships=True),
        dealer=3,
        kept=["7C AS AD AH", "8D 2S 2D 2H", "6C 3S 3D 3H", "QD 4S 4D 4H"],
        starter="KS",
    )
    events = play(game, "7C", "8D")  # seat 0 leads (dealer 3), seat 1 makes fifteen
    assert scored(events) == [(1, 2)]
    assert game.scores == [0, 2]
    events = play(game, "6C")  # seat 2: 21, run 6-7-8 for three, to side 0
    assert scored(events) == [(2, 3)]
    assert game.scores == [3, 2]
    assert game.side_of(0) == game.side_of(2) == 0 and game.side_of(1) == game.side_of(3) == 1


def test_four_players_skip_players_out_of_cards_when_leading():
    game = position(
        Variant(players=4),
        dealer=3,
        kept=["KC KD KH KS", "QC QD QH QS", "AC AD AH AS", "2C 2D 2H 2S"],
        starter="9D",
    )
    resets = 0
    laid = 0
    while game.phase is Phase.PLAY:
        seat = game.to_act[0]
        assert game.hand(seat), "the engine never asks a seat without cards to play"
        events = game.apply(seat, game.legal_actions(seat)[0])
        laid += sum(isinstance(e, Played) for e in events)
        reset = next((e for e in events if isinstance(e, CountReset)), None)
        if reset is not None and reset.leader is not None:
            resets += 1
            # the next seat to the left of the last card that still holds cards leads
            holding = [(seat + k) % 4 for k in range(1, 5) if game.hand((seat + k) % 4)]
            assert reset.leader == holding[0]
            assert game.to_act == [reset.leader]
    assert laid == 16 and resets >= 3


def test_his_heels_pegs_two_for_the_dealer_and_can_win():
    from bot.engine import Cut, Discard, Game

    for seed in range(200):
        game = Game.new(Variant(players=2), seed=seed, first_dealer=1)
        for seat in (0, 1):
            game.apply(seat, Discard(game.hand(seat)[:2]))
        depth = next((d for d in range(4, 37) if game.pack[d].rank == 11), None)
        if depth is None:
            continue
        state = game.to_dict()
        state["scores"] = [100, 119]
        near_end = type(game).from_dict(state)
        events = game.apply(0, Cut(depth))
        assert scored(events, ScoreReason.HEELS) == [(1, 2)]
        assert game.phase is Phase.PLAY
        events = near_end.apply(0, Cut(depth))
        assert near_end.is_over and near_end.winner == 1 and near_end.scores == [100, 121]
        assert isinstance(events[-1], GameOver)
        return
    raise AssertionError("no jack within reach in 200 deals")


def test_game_over_reports_skunks_per_side():
    def finish(variant, scores):
        # the dealer's hand is worth 21 and wins in the show; the others are worth 0, and the
        # pone lays the last card for 1
        kept = ["5C 5D 5S JS", "2C 4D 6S 8H", "3D 9H 10H QC"][: variant.players]
        held = ["", "2C", ""][: variant.players]
        game = position(variant, dealer=0, kept=kept, held=held, starter="KS", scores=scores)
        events = game.apply(1, Play(Card.parse("2C")))
        assert isinstance(events[-1], GameOver) and game.winner == 0
        assert events[-1].skunks == tuple(game.skunks)
        return game

    assert finish(Variant(players=2), [110, 89]).skunks == [0, 1]  # 90: below 91
    assert finish(Variant(players=2), [110, 59]).skunks == [0, 2]  # 60: below 61
    assert finish(Variant(players=2), [110, 60]).skunks == [0, 1]  # 61: not double
    assert finish(Variant(players=2), [110, 90]).skunks == [0, 0]  # 91: no skunk
    assert finish(Variant(players=2, target=61), [50, 29]).skunks == [0, 1]
    assert finish(Variant(players=2, target=61), [50, 30]).skunks == [0, 0]
    assert finish(Variant(players=2, target=61), [50, 2]).skunks == [0, 1]  # never double
    three = finish(Variant(players=3), [110, 95, 40])
    assert three.skunks == [0, 0, 2] and three.scores == [121, 96, 40]


def test_the_loser_deals_first_in_the_next_game():
    kept = ["5C 5D 5S JS", "2C 4D 6S 8H", "3D 9H 10H QC"]
    two = position(
        Variant(2), dealer=0, kept=kept[:2], held=["", "2C"], starter="KS", scores=[0, 120]
    )
    assert two.next_first_dealer is None
    two.apply(1, Play(Card.parse("2C")))  # last card: 121
    assert two.winner == 1 and two.next_first_dealer == 0  # the loser
    three = position(
        Variant(3),
        dealer=2,
        kept=kept,
        held=["", "", "3D"],
        starter="KS",
        scores=[0, 0, 120],
        turn=2,
    )
    three.apply(2, Play(Card.parse("3D")))  # last card: 121
    assert three.winner == 2 and three.next_first_dealer == 0  # left of the first dealer (2)
