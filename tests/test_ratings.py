import pytest

from bot.ratings import DEFAULT_RATING, Rating, rate_game

D = DEFAULT_RATING


def test_two_players_winner_up_loser_down():
    (w,), (loser,) = rate_game([[D], [D]], scores=[121, 100], winner=0, skunks=[0, 0])
    assert w.mu > D.mu > loser.mu
    assert w.sigma < D.sigma and loser.sigma < D.sigma


def test_a_skunk_weighs_more_and_a_double_skunk_more_still():
    plain = rate_game([[D], [D]], scores=[121, 95], winner=0, skunks=[0, 0])
    skunk = rate_game([[D], [D]], scores=[121, 80], winner=0, skunks=[0, 1])
    double = rate_game([[D], [D]], scores=[121, 50], winner=0, skunks=[0, 2])
    assert plain[0][0].mu < skunk[0][0].mu < double[0][0].mu
    assert plain[1][0].mu > skunk[1][0].mu > double[1][0].mu


def test_three_players_rank_losers_by_score():
    sides = rate_game([[D], [D], [D]], scores=[110, 121, 70], winner=1, skunks=[0, 0, 0])
    second, winner, third = (s[0] for s in sides)
    assert winner.mu > second.mu > third.mu


def test_four_players_each_for_themselves():
    sides = rate_game([[D]] * 4, scores=[100, 90, 121, 80], winner=2, skunks=[0, 0, 0, 1])
    mus = [s[0].mu for s in sides]
    assert mus[2] == max(mus) and mus[3] == min(mus)
    assert mus[0] > mus[1] > mus[3]


def test_partnerships_move_both_partners_together():
    strong = Rating(30, 4)
    sides = rate_game([[D, strong], [D, D]], scores=[121, 100], winner=0, skunks=[0, 0])
    (a, b), (c, d) = sides
    assert a.mu > D.mu and b.mu > strong.mu
    assert c.mu < D.mu and d.mu < D.mu
    assert c == d


def test_an_upset_moves_more_than_an_expected_win():
    expert, novice = Rating(35, 3), Rating(20, 3)
    expected = rate_game([[expert], [novice]], scores=[121, 100], winner=0, skunks=[0, 0])
    upset = rate_game([[expert], [novice]], scores=[100, 121], winner=1, skunks=[0, 0])
    assert upset[1][0].mu - novice.mu > expected[0][0].mu - expert.mu


def test_shown_rating_is_conservative():
    assert D.shown == 0.0
    assert Rating(30, 2).shown == 240.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"scores": [121], "winner": 0, "skunks": [0, 0]},
        {"scores": [121, 1], "winner": 2, "skunks": [0, 0]},
    ],
)
def test_bad_input_is_refused(kwargs):
    with pytest.raises(ValueError):
        rate_game([[D], [D]], **kwargs)
