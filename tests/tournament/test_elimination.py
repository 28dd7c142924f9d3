import random

import pytest

from bot.tournament import (
    Format,
    Result,
    Tournament,
    TournamentError,
    bracket_order,
    next_round,
    placings,
    seeded,
)

from .helpers import play


def _seeds(n: int) -> tuple[str, ...]:
    return tuple(f"s{i}" for i in range(1, n + 1))


def _favourites_win(t: Tournament, rnd, results) -> list[Result]:
    """The better seed wins every pairing 121-100."""
    seed = {p: i for i, p in enumerate(t.players)}
    out = list(rnd.settled)
    for p in rnd.pairings:
        score = (121, 100) if seed[p.first] < seed[p.second] else (100, 121)
        out.append(Result.played(rnd.number, p.first, p.second, score))
    return out


def test_bracket_order():
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    with pytest.raises(TournamentError, match="power of two"):
        bracket_order(6)


@pytest.mark.parametrize(
    ("n", "pairings", "byes"),
    [
        (5, ["s4-s5"], ["s1", "s2", "s3"]),
        (8, ["s1-s8", "s4-s5", "s2-s7", "s3-s6"], []),
        (13, ["s8-s9", "s4-s13", "s5-s12", "s7-s10", "s6-s11"], ["s1", "s2", "s3"]),
    ],
)
def test_first_round_in_bracket_order_with_byes_for_the_top_seeds(n, pairings, byes):
    rnd = next_round(Tournament(Format.SINGLE_ELIMINATION, _seeds(n)), [])
    assert [f"{p.first}-{p.second}" for p in rnd.pairings] == pairings
    assert list(rnd.byes) == byes


@pytest.mark.parametrize("n", range(2, 34))
def test_seeds_one_and_two_meet_only_in_the_final(n):
    t = Tournament(Format.SINGLE_ELIMINATION, _seeds(n))
    results: list[Result] = []
    rounds = []
    for _ in range(t.total_rounds):
        rnd = next_round(t, results)
        rounds.append(rnd)
        results += _favourites_win(t, rnd, results)
    final = rounds[-1].pairings
    assert [(p.first, p.second) for p in final] == [("s1", "s2")]
    for rnd in rounds[:-1]:
        assert all({p.first, p.second} != {"s1", "s2"} for p in rnd.pairings)
    if n >= 4:
        semis = {frozenset((p.first, p.second)) for p in rounds[-2].pairings}
        assert frozenset(("s1", "s4")) in semis and frozenset(("s2", "s3")) in semis
    places = placings(t, results)
    assert places[0].player == "s1" and places[0].place == 1
    assert sorted(p.player for p in places) == sorted(t.players)


def test_eight_players_to_the_final_placings():
    players = seeded({f"p{i}": 1500 - 10 * i for i in range(8)})
    t = Tournament(Format.SINGLE_ELIMINATION, players, games_to_win=2)
    r1 = next_round(t, [])
    assert [(p.first, p.second) for p in r1.pairings] == [
        ("p0", "p7"), ("p3", "p4"), ("p1", "p6"), ("p2", "p5"),
    ]
    # best of 3: an upset on table 2
    results = [
        Result.played(1, "p0", "p7", (121, 80), (121, 99)),
        Result.played(1, "p3", "p4", (121, 80), (70, 121), (101, 121)),
        Result.played(1, "p1", "p6", (121, 80), (121, 99)),
        Result.played(1, "p2", "p5", (110, 121), (121, 99), (121, 120)),
    ]
    r2 = next_round(t, results)
    assert [(p.first, p.second) for p in r2.pairings] == [("p0", "p4"), ("p1", "p2")]
    with pytest.raises(TournamentError, match="not finished: p1 v p2"):
        next_round(t, [*results, Result.played(2, "p0", "p4", (121, 1), (121, 2))])
    results += [
        Result.played(2, "p0", "p4", (121, 1), (121, 2)),
        Result.played(2, "p1", "p2", (90, 121), (100, 121)),
    ]
    (final,) = next_round(t, results).pairings
    assert (final.first, final.second) == ("p0", "p2")
    results.append(Result.played(3, "p0", "p2", (100, 121), (121, 100), (120, 121)))
    assert [(p.place, p.player, p.lost_in) for p in placings(t, results)] == [
        (1, "p2", None),
        (2, "p0", 3),
        (3, "p1", 2),
        (3, "p4", 2),
        (5, "p3", 1),
        (5, "p5", 1),
        (5, "p6", 1),
        (5, "p7", 1),
    ]
    with pytest.raises(TournamentError, match="over"):
        next_round(t, results)


def test_placings_while_the_event_is_on_name_only_those_out():
    t = Tournament(Format.SINGLE_ELIMINATION, _seeds(6))
    rnd = next_round(t, [])
    results = play(rnd, random.Random(3))
    places = placings(t, results)
    assert len(places) == 2 and all(p.place == 5 and p.lost_in == 1 for p in places)
    with pytest.raises(TournamentError, match="elimination"):
        placings(Tournament(Format.SWISS, _seeds(4), rounds=2), [])


def test_a_dropped_player_gives_a_walkover():
    t = Tournament(Format.SINGLE_ELIMINATION, _seeds(4))
    rnd = next_round(t, [], dropped={"s4"})
    assert [(p.first, p.second) for p in rnd.pairings] == [("s2", "s3")]
    (walkover,) = rnd.settled
    assert (walkover.winner, walkover.loser, walkover.is_forfeit) == ("s1", "s4", True)
    results = [walkover, Result.played(1, "s2", "s3", (121, 100))]
    (final,) = next_round(t, results, dropped={"s4"}).pairings
    assert (final.first, final.second) == ("s1", "s2")

    # two who drop from one pairing leave the next opponent a bye
    both = next_round(t, [], dropped={"s1", "s4"})
    assert both.settled == () and len(both.pairings) == 1
    results = [Result.played(1, "s2", "s3", (121, 100))]
    final_round = next_round(t, results, dropped={"s1", "s4"})
    assert final_round.pairings == () and final_round.byes == ("s2",)
    results += list(final_round.settled)
    assert placings(t, results, frozenset({"s1", "s4"}))[0].player == "s2"
