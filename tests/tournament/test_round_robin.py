import random
from itertools import combinations

import pytest

from bot.tournament import Format, Result, Tournament, TournamentError, next_round

from .helpers import play


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_exactly_once(n):
    players = tuple(f"p{i}" for i in range(n))
    t = Tournament(Format.ROUND_ROBIN, players)
    assert t.total_rounds == (n - 1 if n % 2 == 0 else n)
    rng = random.Random(n)
    results: list[Result] = []
    for number in range(1, t.total_rounds + 1):
        rnd = next_round(t, results)
        assert rnd.number == number
        seated = [p for pr in rnd.pairings for p in (pr.first, pr.second)] + list(rnd.byes)
        assert sorted(seated) == sorted(players), "everyone plays or sits out once a round"
        assert len(rnd.byes) == n % 2
        results += play(rnd, rng)
    met = [frozenset(r.players) for r in results if r.second is not None]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations(players, 2))))
    byes = [r.first for r in results if r.is_bye]
    assert sorted(byes) == (sorted(players) if n % 2 else [])
    with pytest.raises(TournamentError, match="over"):
        next_round(t, results)


def test_five_players_a_bye_each_round():
    t = Tournament(Format.ROUND_ROBIN, ("ann", "bob", "cy", "dee", "eve"))
    results: list[Result] = []
    shown = []
    for _ in range(5):
        rnd = next_round(t, results)
        shown.append(([f"{p.first}-{p.second}" for p in rnd.pairings], rnd.byes))
        results += list(rnd.settled)
        results += [
            Result.played(rnd.number, p.first, p.second, (121, 90)) for p in rnd.pairings
        ]
    # the empty seat of the circle gives a different player the bye each round; ann holds the
    # fixed seat and alternates between first and second
    assert shown == [
        (["bob-eve", "cy-dee"], ("ann",)),
        (["eve-ann", "bob-cy"], ("dee",)),
        (["ann-dee", "eve-cy"], ("bob",)),
        (["cy-ann", "dee-bob"], ("eve",)),
        (["ann-bob", "dee-eve"], ("cy",)),
    ]
    assert len({frozenset(r.players) for r in results if not r.is_bye}) == 10


def test_a_dropped_players_remaining_games_are_forfeits_or_void():
    players = ("ann", "bob", "cy", "dee")
    t = Tournament(Format.ROUND_ROBIN, players)
    rnd = next_round(t, [], dropped={"dee"})
    assert [str(p) for p in rnd.pairings] == ["table 1: bob v cy"]
    (forfeit,) = rnd.settled
    assert forfeit.is_forfeit and forfeit.winner == "ann" and forfeit.loser == "dee"

    void = next_round(t, [], dropped={"dee"}, forfeit_remaining=False)
    assert void.settled == () and [p.first for p in void.pairings] == ["bob"]

    both = next_round(t, [], dropped={"ann", "dee"})
    assert both.settled == (), "two dropped players' game is neither played nor scored"
