import pytest

from bot.tournament import Format, GameScore, Result, Scoring, Tournament, TournamentError


def test_spread_is_the_winners_margin_and_the_losers_negative():
    r = Result.played(1, "ann", "bob", (97, 121))
    assert r.winner == "bob" and r.loser == "ann"
    assert r.spread_for("bob", Scoring()) == 24
    assert r.spread_for("ann", Scoring()) == -24


def test_the_spread_cap_applies_to_each_game_of_a_match():
    match = Result.played(1, "ann", "bob", (121, 60), (100, 121), (121, 118))
    assert match.winner == "ann"
    assert match.spread_for("ann", Scoring()) == 61 - 21 + 3
    assert match.spread_for("ann", Scoring(spread_cap=30)) == 30 - 21 + 3
    assert match.spread_for("bob", Scoring(spread_cap=20)) == -20 + 20 - 3


def test_a_bye_and_a_forfeit_score_their_fixed_spreads():
    scoring = Scoring(bye_spread=25, forfeit_spread=31)
    bye = Result.bye(2, "cy")
    assert bye.is_bye and bye.winner == "cy" and bye.loser is None
    assert bye.spread_for("cy", scoring) == 25
    forfeit = Result.forfeit(3, winner="ann", loser="bob")
    assert forfeit.winner == "ann" and forfeit.loser == "bob"
    assert forfeit.spread_for("ann", scoring) == 31
    assert forfeit.spread_for("bob", scoring) == -31


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: GameScore(121, 121), "has a winner"),
        (lambda: GameScore(-1, 121), "cannot be negative"),
        (lambda: Result.played(0, "a", "b", (121, 3)), "numbered from 1"),
        (lambda: Result.played(1, "a", "a", (121, 3)), "themselves"),
        (lambda: Result.played(1, "a", "b"), "no games"),
        (lambda: Result.played(1, "a", "b", (121, 3), (3, 121)), "level"),
        (lambda: Result(1, "a", "b", forfeited_by="c"), "not in the pairing"),
        (lambda: Scoring(spread_cap=0), "at least 1"),
        (lambda: Scoring(bye_spread=-2), "cannot be negative"),
    ],
)
def test_nonsense_is_refused_with_a_clear_message(make, message):
    with pytest.raises(TournamentError, match=message):
        make()


def test_a_result_must_fit_the_tournament():
    t = Tournament(Format.SWISS, ("a", "b", "c", "d"), rounds=2, target=61, games_to_win=2)
    t.check(Result.played(1, "a", "b", (61, 40), (20, 61), (61, 59)))
    with pytest.raises(TournamentError, match="reaches 61"):
        t.check(Result.played(1, "a", "b", (121, 40), (121, 61)))
    with pytest.raises(TournamentError, match="best of 3"):
        t.check(Result.played(1, "a", "b", (61, 40)))
    with pytest.raises(TournamentError, match="not entered"):
        t.check(Result.played(1, "a", "zed", (61, 40), (61, 40)))
    with pytest.raises(TournamentError, match="no round 3"):
        t.check(Result.bye(3, "a"))
    with pytest.raises(TournamentError, match="two results in round 1"):
        t.check_all([Result.bye(1, "a"), Result.forfeit(1, winner="b", loser="a")])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": Format.SWISS, "players": ("a",), "rounds": 1}, "at least 2"),
        ({"format": Format.SWISS, "players": ("a", "b", "c", "d"), "rounds": 4}, "1 to 3"),
        ({"format": Format.SWISS, "players": ("a", "b"), "rounds": 0}, "1 to 1"),
        ({"format": Format.ROUND_ROBIN, "players": ("a", "b"), "rounds": 3}, "follow"),
        ({"format": Format.ROUND_ROBIN, "players": ("a", "b"), "target": 100}, "121 or 61"),
        ({"format": Format.ROUND_ROBIN, "players": ("a", "b"), "games_to_win": 4}, "best of 5"),
        ({"format": Format.ROUND_ROBIN, "players": ("a", "")}, "needs a name"),
    ],
)
def test_a_tournament_with_impossible_settings_is_refused(kwargs, message):
    with pytest.raises(TournamentError, match=message):
        Tournament(**kwargs)
