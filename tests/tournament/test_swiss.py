import random

import pytest

from bot.tournament import Format, Result, Tournament, TournamentError, next_round, standings

from .helpers import can_pair_round, can_pair_without_repeat, pairs_met, play


def _field(n: int) -> tuple[str, ...]:
    return tuple(f"p{i:02}" for i in range(1, n + 1))


def _check_round(rnd, active):
    seated = [p for pairing in rnd.pairings for p in (pairing.first, pairing.second)]
    seated += [r.first for r in rnd.settled]
    assert sorted(seated) == sorted(active), "every active player once, nobody else"
    assert len(rnd.byes) == len(active) % 2


def test_swiss_never_repeats_a_pairing_while_one_is_possible():
    checked_tight = 0
    for seed in range(250):
        rng = random.Random(seed)
        n = rng.randint(2, 13)
        most = n - 1 + n % 2
        t = Tournament(Format.SWISS, _field(n), rounds=rng.randint(1, most), seed=seed)
        results: list[Result] = []
        dropped: set[str] = set()
        for _ in range(t.total_rounds):
            if n > 4 and rng.random() < 0.1:
                dropped.add(rng.choice(t.players))
            active = [p for p in t.players if p not in dropped]
            if len(active) < 2:
                break
            met = pairs_met(results)
            rnd = next_round(t, results, dropped=dropped)
            _check_round(rnd, active)
            repeats = [p for p in rnd.pairings if frozenset((p.first, p.second)) in met]
            possible = can_pair_round(active, met)
            assert not (repeats and possible), (seed, rnd, repeats)
            checked_tight += bool(repeats)
            results += play(rnd, rng)
    assert checked_tight > 0, "some events ran out of fresh pairings: the fallback was exercised"


@pytest.mark.parametrize("n", [32, 57, 64])
def test_large_fields_pair_without_repeats(n):
    rng = random.Random(n)
    t = Tournament(Format.SWISS, _field(n), rounds=8, seed=n)
    results: list[Result] = []
    for _ in range(8):
        met = pairs_met(results)
        rnd = next_round(t, results)
        _check_round(rnd, t.players)
        assert all(frozenset((p.first, p.second)) not in met for p in rnd.pairings)
        results += play(rnd, rng)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    for seed in range(120):
        rng = random.Random(1000 + seed)
        n = rng.choice([3, 5, 7, 9, 11])
        t = Tournament(Format.SWISS, _field(n), rounds=min(n, 5), seed=seed)
        results: list[Result] = []
        for _ in range(t.total_rounds):
            met = pairs_met(results)
            rnd = next_round(t, results)
            (bye,) = rnd.byes
            had_bye = {r.first for r in results if r.is_bye}
            assert bye not in had_bye, "everyone gets a bye before anyone gets a second"
            table = {s.player: (s.wins, s.spread) for s in standings(t, results)}
            lower = [
                p for p in t.players if p not in had_bye and p != bye and table[p] < table[bye]
            ]
            for p in lower:
                # passing over a lower-ranked player is right only if their bye forces a repeat
                rest = [q for q in t.players if q != p]
                assert not can_pair_without_repeat(rest, met), (seed, bye, p)
            results += play(rnd, rng)


def test_winners_meet_winners_and_players_pair_within_score_groups():
    rng = random.Random(5)
    t = Tournament(Format.SWISS, _field(16), rounds=4, seed=3)
    results: list[Result] = []
    for _ in range(4):
        rnd = next_round(t, results)
        wins = {s.player: s.wins for s in standings(t, results)}
        # 16 players with random results: every score group is even in size after round 1
        # is rare, but two players more than one win apart never meet in a 4-round event
        assert all(abs(wins[p.first] - wins[p.second]) <= 1 for p in rnd.pairings)
        top = max(wins.values())
        leaders = [p for p in rnd.pairings if wins[p.first] == top]
        assert leaders and rnd.pairings[0] == leaders[0], "the top table is the leaders'"
        results += play(rnd, rng)


def test_the_draw_is_the_same_for_the_same_seed_and_differs_across_seeds():
    def first_round(seed):
        t = Tournament(Format.SWISS, _field(12), rounds=3, seed=seed)
        return next_round(t, []).pairings

    assert first_round(7) == first_round(7)
    assert len({first_round(s) for s in range(6)}) > 1


def test_eight_players_three_rounds():
    """A worked example: the higher seed wins every game by 121-100."""
    players = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
    t = Tournament(Format.SWISS, players, rounds=3, seed=2024)
    rank = {p: i for i, p in enumerate(players)}
    results: list[Result] = []
    shown = []
    for _ in range(3):
        rnd = next_round(t, results)
        shown.append([f"{p.first}-{p.second}" for p in rnd.pairings])
        for p in rnd.pairings:
            first_wins = rank[p.first] < rank[p.second]
            score = (121, 100) if first_wins else (100, 121)
            results.append(Result.played(rnd.number, p.first, p.second, score))
    assert shown == [
        # round 1, a draw by lot: the lot's first four meet its last four (the fold)
        ["eve-cy", "hal-ann", "fay-dee", "bob-gus"],
        # winners (by lot: bob, cy, ann, dee) fold among themselves, losers likewise
        ["bob-ann", "cy-dee", "eve-fay", "hal-gus"],
        # the 1-win group (eve, bob, dee, gus by lot) would fold eve-dee, bob-gus; bob met gus
        # in round 1, so the group is re-paired rather than float bob down to the 0-win group
        ["cy-ann", "eve-gus", "bob-dee", "hal-fay"],
    ]
    assert len(pairs_met(results)) == 12, "no pairing repeats"
    table = [(s.place, s.player, s.wins, s.spread) for s in standings(t, results)]
    assert table == [
        (1, "ann", 3, 63),
        (2, "cy", 2, 21),  # cy beat eve: head-to-head
        (3, "bob", 2, 21),  # bob and eve never met: they share 3rd
        (3, "eve", 2, 21),
        (5, "dee", 1, -21),  # dee beat fay; gus met neither
        (6, "fay", 1, -21),
        (6, "gus", 1, -21),
        (8, "hal", 0, -63),
    ]
    with pytest.raises(TournamentError, match="over"):
        next_round(t, results)


def test_a_dropped_player_is_not_paired_again_and_can_forfeit_the_current_game():
    t = Tournament(Format.SWISS, _field(6), rounds=3, seed=1)
    rng = random.Random(1)
    first = next_round(t, [])
    quitter = first.pairings[0].first
    forfeit = first.forfeit(quitter)
    assert forfeit.loser == quitter and forfeit.winner == first.pairings[0].second
    results = [forfeit] + play(type(first)(1, first.pairings[1:]), rng)
    second = next_round(t, results, dropped={quitter})
    assert quitter not in {p for pr in second.pairings for p in (pr.first, pr.second)}
    assert len(second.byes) == 1, "five left: one bye"
    with pytest.raises(TournamentError, match="no game to forfeit"):
        second.forfeit(quitter)
    with pytest.raises(TournamentError, match="did not enter"):
        next_round(t, results, dropped={"stranger"})
