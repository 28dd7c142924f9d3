import pytest

from bot.ratings import DEFAULT_RATING, RATER, Rating, rate_game, rate_result

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


# ---------------------------------------------------------------------- rate_result (the store's)


def side(score, *, won=False, forfeited=False, skunk=0, ratings=None):
    from db.standings import RatedSide

    ratings = ratings or ((D.mu, D.sigma),)
    return RatedSide(0, (1,) * len(ratings), ratings, score, won, forfeited, skunk)


def test_rate_result_is_rate_game_for_a_won_game():
    sides = [side(121, won=True), side(80, skunk=1)]
    assert rate_result(sides, target=121) == rate_game(
        [[D], [D]], scores=[121, 80], winner=0, skunks=[0, 1]
    )


def test_a_forfeit_ranks_the_forfeiter_last_even_when_ahead():
    (a,), (b,) = rate_result([side(100, forfeited=True), side(40, won=True)], target=121)
    assert b.mu > D.mu > a.mu
    third, (first,), (second,) = rate_result(
        [side(55, forfeited=True), side(50, won=True), side(30, won=True)], target=61
    )
    assert first.mu > second.mu > third[0].mu


def test_a_forfeit_is_a_plain_loss_unless_a_skunk_was_on_the_board():
    early = rate_result([side(20, forfeited=True), side(40, won=True)], target=121)
    plain = rate_result([side(100, forfeited=True), side(110, won=True)], target=121)
    on_board = rate_result([side(80, forfeited=True), side(95, won=True)], target=121)
    assert early == plain  # the scores only matter through the skunk line
    assert on_board[0][0].mu < plain[0][0].mu
    assert on_board[1][0].mu > plain[1][0].mu
    short = rate_result([side(20, forfeited=True), side(35, won=True)], target=61)
    assert short == on_board  # the skunk line is 31 in a game to 61


def test_a_partnership_forfeit_moves_both_partners():
    team = ((D.mu, D.sigma), (D.mu, D.sigma))
    (a, b), (c, d) = rate_result(
        [side(60, forfeited=True, ratings=team), side(70, won=True, ratings=team)], target=121
    )
    assert a == b and c == d and c.mu > D.mu > a.mu


def test_the_openskill_rater_starts_new_players_at_the_default():
    assert RATER.default == (D.mu, D.sigma)
    assert RATER([side(121, won=True), side(100)], target=121)[0][0].mu > D.mu


def test_a_game_needs_exactly_one_winner_unless_forfeited():
    with pytest.raises(ValueError, match="one winner"):
        rate_result([side(121, won=True), side(121, won=True)], target=121)
    with pytest.raises(ValueError, match="Every side forfeited"):
        rate_result([side(1, forfeited=True), side(2, forfeited=True)], target=121)


def test_ordinal_is_the_unrounded_shown_rating():
    r = Rating(27.123, 2.001)
    assert r.shown == round(r.ordinal, 1) and r.ordinal == pytest.approx(211.2)
