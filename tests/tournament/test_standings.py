import random

from bot.tournament import (
    Format,
    Result,
    Scoring,
    Tournament,
    next_round,
    standings,
)

from .helpers import play


def brute_force_places(t: Tournament, results: list[Result]) -> dict[str, tuple[int, int, int]]:
    """(place, wins, spread) of each player, straight from the rules, one player at a time."""
    cap = t.scoring.spread_cap

    def game_spread(mine: int, theirs: int) -> int:
        margin = mine - theirs
        if cap is not None:
            margin = max(-cap, min(cap, margin))
        return margin

    wins = {p: 0 for p in t.players}
    spread = {p: 0 for p in t.players}
    for r in results:
        if r.second is None:
            wins[r.first] += 1
            spread[r.first] += t.scoring.bye_spread
            continue
        if r.forfeited_by is not None:
            present = r.second if r.forfeited_by == r.first else r.first
            wins[present] += 1
            spread[present] += t.scoring.forfeit_spread
            spread[r.forfeited_by] -= t.scoring.forfeit_spread
            continue
        first_games = 0
        for g in r.games:
            spread[r.first] += game_spread(g.first, g.second)
            spread[r.second] += game_spread(g.second, g.first)
            first_games += g.first > g.second
        wins[r.first if 2 * first_games > len(r.games) else r.second] += 1

    def h2h(p: str) -> int:
        tied = [q for q in t.players if wins[q] == wins[p] and spread[q] == spread[p]]
        return sum(1 for r in results if r.second is not None and r.winner == p
                   and r.loser in tied)

    def above(q: str, p: str) -> bool:
        if wins[q] != wins[p]:
            return wins[q] > wins[p]
        if spread[q] != spread[p]:
            return spread[q] > spread[p]
        return h2h(q) > h2h(p)

    return {
        p: (1 + sum(above(q, p) for q in t.players), wins[p], spread[p]) for p in t.players
    }


def test_standings_equal_a_brute_force_recount():
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 12)
        fmt = rng.choice([Format.SWISS, Format.ROUND_ROBIN])
        scoring = Scoring(
            spread_cap=rng.choice([None, 10, 30]),
            bye_spread=rng.choice([0, 15]),
            forfeit_spread=rng.choice([0, 31]),
        )
        rounds = rng.randint(1, n - 1 + n % 2) if fmt is Format.SWISS else 0
        t = Tournament(fmt, tuple(f"p{i}" for i in range(n)), rounds=rounds,
                       games_to_win=rng.choice([1, 2]), scoring=scoring, seed=seed)
        results: list[Result] = []
        dropped: set[str] = set()
        for _ in range(t.total_rounds):
            if rng.random() < 0.15:
                dropped.add(rng.choice(t.players))
            if len(t.players) - len(dropped) < 2:
                break
            rnd = next_round(t, results, dropped=dropped)
            results += play(rnd, rng, t.games_to_win)
        expected = brute_force_places(t, results)
        got = {s.player: (s.place, s.wins, s.spread) for s in standings(t, results)}
        assert got == expected, seed
        table = standings(t, results)
        assert [s.place for s in table] == sorted(s.place for s in table)


def _t(players: str, **scoring: int) -> Tournament:
    return Tournament(Format.ROUND_ROBIN, tuple(players), scoring=Scoring(**scoring))


def test_wins_come_before_spread():
    t = _t("abcd")
    results = [
        Result.played(1, "a", "b", (121, 119)),  # a: 1 win, +2
        Result.played(1, "c", "d", (121, 20)),  # c: 1 win, +101
        Result.played(2, "a", "c", (121, 120)),  # a: 2 wins, +3
        Result.played(2, "b", "d", (121, 10)),
    ]
    assert [s.player for s in standings(t, results)][:2] == ["a", "b"]


def test_spread_breaks_a_tie_on_wins_before_head_to_head():
    t = _t("abc")
    results = [
        Result.played(1, "a", "b", (121, 120)),  # a beat b
        Result.played(2, "b", "c", (121, 50)),
        Result.played(3, "c", "a", (121, 100)),
    ]
    table = [(s.place, s.player, s.spread) for s in standings(t, results)]
    assert table == [(1, "b", 70), (2, "a", -20), (3, "c", -50)]  # b lost to a, yet leads


def test_head_to_head_breaks_a_tie_on_wins_and_spread():
    t = _t("abcd")
    results = [
        Result.played(1, "b", "a", (121, 111)),  # b beat a; both finish 1-1, spread 0
        Result.played(2, "a", "c", (121, 111)),
        Result.played(2, "d", "b", (121, 111)),
    ]
    table = [(s.place, s.player, s.wins, s.spread) for s in standings(t, results)]
    assert table[:2] == [(1, "d", 1, 10), (2, "b", 1, 0)]
    assert table[2] == (3, "a", 1, 0)


def test_players_equal_on_all_three_share_a_place():
    t = _t("abcde")
    results = [
        Result.played(1, "a", "b", (121, 101)),
        Result.played(1, "c", "d", (121, 101)),
        Result.bye(1, "e"),
    ]
    table = [(s.place, s.player) for s in standings(t, results)]
    assert table == [(1, "a"), (1, "c"), (3, "e"), (4, "b"), (4, "d")]


def test_the_spread_cap_limits_each_game():
    t = _t("ab", spread_cap=31)
    results = [Result.played(1, "a", "b", (121, 40))]
    a, b = standings(t, results)
    assert (a.player, a.spread, b.spread) == ("a", 31, -31)


def test_a_forfeit_and_a_bye_count_as_wins_with_their_fixed_spread():
    t = _t("abc", bye_spread=20, forfeit_spread=31)
    results = [Result.bye(1, "a"), Result.forfeit(1, winner="b", loser="c")]
    table = [(s.player, s.wins, s.losses, s.spread, s.byes) for s in standings(t, results)]
    assert table == [("b", 1, 0, 31, 0), ("a", 1, 0, 20, 1), ("c", 0, 1, -31, 0)]


def test_matches_count_match_wins_and_record_games():
    t = Tournament(Format.ROUND_ROBIN, ("a", "b"), games_to_win=3)
    results = [Result.played(1, "a", "b", (121, 90), (100, 121), (121, 119), (99, 121),
                             (121, 3))]
    a, b = standings(t, results)
    assert (a.player, a.wins, a.games_won, a.games_lost) == ("a", 1, 3, 2)
    assert (b.wins, b.losses, b.games_won) == (0, 1, 2)
