import pytest

from bot.ratings import (
    DEFAULT_RATING,
    RATER,
    Rating,
    display_change,
    display_rating,
    rate_game,
    rate_result,
)

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


def test_shown_rating_is_conservative_and_starts_at_1000():
    assert D.shown == 1000  # a new player: a round start
    assert Rating(30, 2).shown == 1720  # 1000 + 30 x (30 - 3 x 2)
    assert Rating(30, 8).shown < Rating(30, 2).shown  # less certain, shown lower


def test_no_shown_rating_is_negative_even_after_a_string_of_losses():
    """The loser of a 0-0 forfeit showed -18.3. Two hundred games lost, each double
    skunked, to a new player every time, would take mu - 3 sigma to about -36 (below -33 the
    scale itself would go negative): what is shown stays at 0 or above, and never rises."""
    me, shown = None, [D.shown]
    for _ in range(200):
        winner = side(121, won=True)  # a new player each time
        loser = side(40, skunk=2, ratings=(me,) if me else None)
        _, (after,) = rate_result([winner, loser], target=121)
        me = (after.mu, after.sigma)
        shown.append(after.shown)
    assert after.mu - 3 * after.sigma < -33  # the raw scale is well below its zero here
    assert min(shown) == 0 and all(s >= 0 for s in shown)
    assert shown == sorted(shown, reverse=True)  # each loss moves it down or keeps it at 0
    assert display_change((after.mu, after.sigma), (after.mu - 1, after.sigma)) == 0


def test_the_shown_scale_keeps_the_sorting_order():
    ratings = [Rating(mu, sigma) for mu in (-20, 0, 10, 25, 31, 40) for sigma in (1, 4, 8.3)]
    by_ordinal = sorted(ratings, key=lambda r: r.ordinal)
    assert [r.shown for r in by_ordinal] == sorted(r.shown for r in ratings)
    assert display_rating(25.0, 25 / 3) == 1000


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


def test_ordinal_is_the_stored_estimate_the_shown_rating_rescales():
    r = Rating(27.123, 2.001)
    assert r.ordinal == pytest.approx(211.2)
    assert r.shown == round(1000 + 3 * r.ordinal) == 1634
