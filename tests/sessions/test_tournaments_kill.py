"""Tournaments under kill -9 at random moments, on SQLite and on PostgreSQL: nothing
acknowledged is lost, no pairing is lost or made twice, and every tournament goes on to its
final placings, ranked as a recomputation from the stored games ranks them.

This module is also the worker (``python tests/sessions/test_tournaments_kill.py --serve``):
it imports everything once and forks one process per command read from stdin, so each of the
test's runs starts in milliseconds yet is a process of its own, killed with SIGKILL.

``RUN TARGET SEED``  the child resumes (the manager's ``resume`` reloads the tournaments), then
                     keeps a tournament going in each of two channels until killed: creates one
                     (a random format, 3 to 6 players, one game or a best of 3, to 61), enters
                     its players, starts it, opens each pairing's game in a thread of its own,
                     plays the games with random legal clicks (some conceded), and now and then
                     lets every round's deadline pass (a sweep on a clock a week ahead). A
                     tournament found in sign-up is filled and started; a waiting pairing is
                     opened.
``CHECK TARGET``     the same without creating any tournament: every one not over is played to
                     its end; then the child exits.

Every line is written with one ``os.write`` after the step it reports was committed:

``T tid`` created, ``J tid user`` entered, ``P tid round table first second`` a pairing of a
round made (``-`` for a bye's second), ``G tid round table game`` a pairing's game started,
``D tid round table forfeited_by decided_by games`` a pairing decided (``games`` as JSON),
``F tid standings`` the tournament finished (its standings or placings as JSON), ``READY``.

After each kill the test reads the store: every acknowledged step is there as acknowledged; no
player sits twice in a round, no pair meets twice (Swiss, round robin); a round before the one
being played is decided whole; a pairing's games are the stored games' results (its player who
forfeited is the seat that forfeited); a finished tournament's announced standings are
:func:`bot.tournament.standings` (or ``placings``) of results rebuilt from the games table.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from bot.sessions import Forfeit, Move, Outcome, PrivateView, ShowHand  # noqa: E402
from bot.sessions.requests import (  # noqa: E402
    CreateTournament,
    JoinTournament,
    OpenPairing,
    StartTournament,
)
from bot.sessions.tournament_views import (  # noqa: E402
    PairingView,
    TournamentOutcome,
    TournamentView,
    final_score,
)
from bot.tournament import Format, Result, Scoring, Tournament, placings, standings  # noqa: E402
from tests.support.kill_harness import Worker, say, serve  # noqa: E402

KILLS = int(os.environ.get("CRIBBAGE_TOURNAMENT_KILLS", 60))
QUOTAS = (0, 1, 2, 5, 13, 34, 89, 233)  # acknowledged lines before the kill
GUILD, ORGANISER = 1, 42
CHANNELS = (900, 901)
FORMATS = ("swiss", "round robin", "single elimination")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and fork")


# ---------------------------------------------------------------------- the worker


def field_of(tid: int) -> list[int]:
    """The players of tournament ``tid``: 3 to 6 of them, fixed by its id (so a run that finds
    it in sign-up enters the same people)."""
    return [tid * 100 + i for i in range(1, 4 + tid % 4)]


def told(news: TournamentOutcome) -> None:
    """Print what a tournament outcome made durable."""
    tid = news.view.tournament_id
    for p in news.decided:
        say("D", tid, p.round, p.table, forfeited_by(p), p.decided_by, compact(p.games))
    if news.opened or news.what == "started":
        number = news.view.round
        for p in news.view.pairings:
            if p.round == number:
                say("P", tid, p.round, p.table, p.first, "-" if p.second is None else p.second)
                if p.state == "decided":
                    say("D", tid, p.round, p.table, forfeited_by(p), p.decided_by, "[]")
    if news.finished:
        say("F", tid, compact(announced(news.view)))
    for game in news.games:
        game_told(game)


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def forfeited_by(p: PairingView) -> int | None:
    """The place that forfeited a decided pairing (``None``: played out, or a bye)."""
    result = p.result
    return None if result is None or result.forfeited_by is None else int(result.forfeited_by)


def announced(view: TournamentView) -> list[list[object]]:
    if view.settings.format == "single elimination":
        return [[x.place, x.player, x.lost_in] for x in view.placings]
    return [
        [s.place, s.player, s.wins, s.losses, s.spread, s.games_won, s.games_lost, s.byes]
        for s in view.standings
    ]


def game_told(outcome: Outcome) -> None:
    following = outcome.next_game
    if following is not None:
        started(following)


def started(game: Outcome) -> None:
    """A pairing's game began (its first or a match's next): which pairing it plays."""
    say("GAME", game.game_id)


async def worker(target: str, seed: int, check: bool) -> None:
    from bot.sessions import GameSessionManager
    from db import Store

    store = await Store.open(target)
    try:
        manager = GameSessionManager(store)
        await manager.resume(verify=10**9)
        director = manager.tournaments
        for news in director.resumed:
            told(news)

        async def heard(news: TournamentOutcome) -> None:
            told(news)

        director.listeners.append(heard)
        say("READY")
        rng = random.Random(seed)
        while True:
            for channel in CHANNELS:
                view = director.in_channel(channel)
                if view is None and not check:
                    await create(director, channel, rng)
                elif view is not None:
                    await keep_going(manager, view, rng)
            if check and not director.running():
                return
            if rng.random() < 0.01:  # every round's deadline has passed
                for news in await director.deadlines.sweep(now=time.time() + 7 * 86400):
                    told(news)
    finally:
        await store.close()


async def create(director, channel: int, rng: random.Random) -> None:
    fmt = rng.choice(FORMATS)
    made = await director.signup.create(
        CreateTournament(
            GUILD,
            channel,
            ORGANISER,
            "Killed at random",
            fmt,
            rounds=rng.choice((2, 3)) if fmt == "swiss" else 0,
            target=61,
            best_of=rng.choice((1, 1, 3)),
            deadline_rule=rng.choice(("forfeit", "score")),
            bye_spread=rng.choice((0, 20)),
            forfeit_spread=rng.choice((0, 31)),
        )
    )
    assert isinstance(made, TournamentOutcome), made
    say("T", made.view.tournament_id)


async def keep_going(manager, view: TournamentView, rng: random.Random) -> None:
    """One step of a tournament: fill and start its sign-up, open a waiting pairing, or make
    one move (or a concession) in each game being played."""
    director, tid = manager.tournaments, view.tournament_id
    if view.status == "signup":
        for user in field_of(tid):
            if all(e.user_id != user for e in view.entrants):
                joined = await director.signup.join(JoinTournament(tid, user))
                assert isinstance(joined, TournamentOutcome), joined
                say("J", tid, user)
        begun = await director.signup.start(StartTournament(tid, ORGANISER))
        assert isinstance(begun, TournamentOutcome), begun
        told(begun)
        return
    if view.status != "running":
        return
    for p in view.current:
        if p.state == "waiting":
            game = await director.games.open_pairing(
                OpenPairing(tid, p.round, p.table, rng.getrandbits(48))
            )
            assert isinstance(game, Outcome), game
            started(game)
            game_told(game)
        elif p.state == "playing" and p.game_id is not None:
            await move(manager, p.game_id, rng)


async def move(manager, game_id: int, rng: random.Random) -> None:
    view = manager.live.view(game_id)
    if view is None or not view.to_act_users:
        return
    user = rng.choice(view.to_act_users)
    if rng.random() < 0.01:
        outcome = await manager.play.forfeit(Forfeit(game_id, user))
    else:
        mine = manager.hands.private_view(ShowHand(game_id, user))
        assert isinstance(mine, PrivateView), mine
        action = rng.choice(mine.legal_actions)
        outcome = await manager.play.act(Move(game_id, user, action, step=mine.step))
    assert isinstance(outcome, Outcome), outcome
    say("ACK", game_id, outcome.step)
    game_told(outcome)


class Ledger:
    """What the runs acknowledged."""

    def __init__(self) -> None:
        self.created: set[int] = set()
        self.joined: set[tuple[int, int]] = set()
        self.paired: dict[tuple[int, int, int], tuple[int, int | None]] = {}
        self.decided: dict[tuple[int, int, int], tuple[int | None, str, list]] = {}
        self.games: set[int] = set()
        self.finished: dict[int, list] = {}
        self.counts: dict[str, int] = {}

    def read(self, lines: list[list[str]]) -> None:
        for words in lines:
            kind = words[0]
            assert kind != "CRASH", words
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if kind == "T":
                self.created.add(int(words[1]))
            elif kind == "J":
                self.joined.add((int(words[1]), int(words[2])))
            elif kind == "P":
                key = (int(words[1]), int(words[2]), int(words[3]))
                pair = (int(words[4]), None if words[5] == "-" else int(words[5]))
                assert self.paired.setdefault(key, pair) == pair, f"{key} paired twice: {pair}"
            elif kind == "GAME":
                self.games.add(int(words[1]))
            elif kind == "D":
                key = (int(words[1]), int(words[2]), int(words[3]))
                side = None if words[4] == "None" else int(words[4])
                self.decided[key] = (side, words[5], json.loads(words[6]))
                self.counts[f"decided by {words[5]}"] = (
                    self.counts.get(f"decided by {words[5]}", 0) + 1
                )
            elif kind == "F":
                self.finished[int(words[1])] = json.loads(words[2])


def _rows(conn, sql: str, *params: object) -> list[tuple]:
    return [tuple(r) for r in conn.execute(sql, params).fetchall()]


def check_store(target: str, ledger: Ledger, *, over: bool = False) -> dict[str, int]:
    """The store holds what the ledger acknowledged, and every tournament in it is sound
    (``over``: every one has finished)."""
    from tests.support.postgres import connect

    conn = connect(target, read_only=True)
    seen = {"tournaments": 0, "finished": 0, "pairings": 0, "games": 0}
    try:
        tournaments = {
            r[0]: r
            for r in _rows(
                conn,
                "SELECT id, format, rounds, target, games_to_win, spread_cap, bye_spread, "
                "forfeit_spread, seed, status, round FROM tournaments",
            )
        }
        assert ledger.created <= set(tournaments), ledger.created - set(tournaments)
        entrants = _rows(conn, "SELECT tournament_id, user_id, seed FROM tournament_players")
        assert ledger.joined <= {(t, u) for t, u, _ in entrants}
        pairings = {
            (r[0], r[1], r[2]): r
            for r in _rows(
                conn,
                "SELECT tournament_id, round, table_no, first_id, second_id, game_id, games, "
                "state, forfeited_by, decided_by FROM tournament_pairings",
            )
        }
        for key, pair in ledger.paired.items():
            assert key in pairings, f"acknowledged pairing {key} lost"
            assert pairings[key][3:5] == pair, (key, pairings[key], pair)
        for key, (side, by, games) in ledger.decided.items():
            row = pairings[key]
            assert row[7] == "decided", f"acknowledged result {key} lost: {row}"
            assert (row[8], row[9]) == (side, by), (key, row, side, by)
            assert json.loads(row[6]) == games, (key, row, games)
        linked = {r[5] for r in pairings.values()} | {
            g for r in pairings.values() for g, _, _ in json.loads(r[6])
        }
        assert ledger.games <= linked, f"acknowledged games of no pairing: {ledger.games - linked}"
        ended = {
            r[0]: r
            for r in _rows(
                conn,
                "SELECT id, status, end_reason, forfeit_seat FROM games "
                "WHERE status IN ('finished', 'abandoned')",
            )
        }
        scores: dict[int, dict[int, int]] = {}
        for game_id, seat, score in _rows(conn, "SELECT game_id, seat, final_score FROM results"):
            scores.setdefault(game_id, {})[seat] = score
        if over:  # a pairing decided while its game was played ended that game too
            live = {r[0] for r in _rows(conn, "SELECT id FROM games WHERE status = 'active'")}
            playing = [p for p in pairings.values() if p[5] in live]
            assert not playing, f"games still played for pairings decided: {playing}"
        for tid, row in tournaments.items():
            seen["tournaments"] += 1
            mine = sorted((k, p) for k, p in pairings.items() if k[0] == tid)
            seen["pairings"] += len(mine)
            check_rounds(row, [p for _, p in mine])
            results = []
            for _, p in mine:
                result = result_from_games(p, row[3], ended, scores)
                seen["games"] += len(json.loads(p[6]))
                if result is not None:
                    results.append(result)
            if row[9] == "finished":
                seen["finished"] += 1
                seeds = sorted((s, u) for t, u, s in entrants if t == tid and s is not None)
                rules = Tournament(
                    Format(row[1]),
                    tuple(str(u) for _, u in seeds),
                    rounds=row[2] if row[1] == "swiss" else 0,
                    target=row[3],
                    games_to_win=row[4],
                    seed=int(row[8]),
                    scoring=Scoring(row[5], row[6], row[7]),
                )
                if row[1] == "single elimination":
                    expected = [[x.place, x.player, x.lost_in] for x in placings(rules, results)]
                else:
                    expected = [
                        [s.place, s.player, s.wins, s.losses, s.spread, s.games_won,
                         s.games_lost, s.byes]
                        for s in standings(rules, results)
                    ]  # fmt: skip
                assert len(expected) >= 2, (tid, expected)
                if tid in ledger.finished:
                    assert ledger.finished[tid] == expected, (tid, ledger.finished[tid], expected)
            elif over:
                raise AssertionError(f"tournament {tid} is {row[9]} after the last run")
        return seen
    finally:
        conn.close()


def check_rounds(tournament: tuple, pairings: list[tuple]) -> None:
    """No player twice in a round, no pair twice (Swiss, round robin), rounds before the one
    being played decided whole, and a finished tournament decided whole."""
    tid, fmt, status, current = tournament[0], tournament[1], tournament[9], tournament[10]
    met: set[frozenset[int]] = set()
    by_round: dict[int, list[tuple]] = {}
    for p in pairings:
        by_round.setdefault(p[1], []).append(p)
    assert set(by_round) == set(range(1, len(by_round) + 1)), (tid, sorted(by_round))
    assert not by_round or max(by_round) == current, (tid, current, sorted(by_round))
    for number, rows in by_round.items():
        people = [u for p in rows for u in (p[3], p[4]) if u is not None]
        assert len(people) == len(set(people)), f"tournament {tid} round {number}: {rows}"
        assert [p[2] for p in rows] == list(range(1, len(rows) + 1)), (tid, number, rows)
        if number < current or status == "finished":
            assert all(p[7] == "decided" for p in rows), (tid, number, rows)
        for p in rows:
            if p[4] is not None and fmt != "single elimination":
                pair = frozenset((p[3], p[4]))
                assert pair not in met, f"tournament {tid}: {sorted(pair)} met twice"
                met.add(pair)


def result_from_games(p: tuple, target: int, ended: dict, scores: dict) -> Result | None:
    """A decided pairing's result rebuilt from the games table (its games' final scores, the
    seat that forfeited), checked against what the pairing row says."""
    _, number, _, first, second, game_id, games_text, state, forfeited_by, by = p
    if state != "decided":
        return None
    if second is None:
        return Result.bye(number, str(first))
    games = json.loads(games_text)
    for gid, a, b in games:
        assert gid in ended, f"pairing {p}: game {gid} has not ended"
        assert (scores[gid][0], scores[gid][1]) == (a, b), (p, scores[gid])
    if forfeited_by is not None:
        if by == "played":  # conceded: the game's forfeiting seat is that side's
            game = ended[game_id]
            assert game[3] is not None and (first, second)[game[3]] == forfeited_by, (p, game)
        winner = second if forfeited_by == first else first
        return Result.forfeit(number, winner=str(winner), loser=str(forfeited_by))
    return Result.played(number, str(first), str(second),
                         *(final_score(a, b, target) for _, a, b in games))  # fmt: skip


@pytest.mark.slow  # sixty processes killed, on each backend: about 15 s each
def test_tournaments_killed_at_random_lose_nothing_and_finish(databases, tmp_path):
    target = str(databases("kill"))
    rng = random.Random(20261207)
    ledger = Ledger()
    worker_ = Worker(__file__, tmp_path / "worker.log")
    started_at = time.perf_counter()
    try:
        for run in range(KILLS):
            quota = None if rng.random() < 0.1 else rng.choice(QUOTAS)
            lines, status = worker_.run(target, run, quota)
            assert status == -signal.SIGKILL, f"run {run} ended by itself ({status}): {lines[-3:]}"
            ledger.counts["kills"] = ledger.counts.get("kills", 0) + 1
            ledger.read(lines)
            check_store(target, ledger)
        ledger.read(worker_.check(target))
        seen = check_store(target, ledger, over=True)
    finally:
        worker_.close()
    seconds = time.perf_counter() - started_at
    print(f"\n{ledger.counts}, {seen}, {seconds:.1f} s")
    assert ledger.counts["kills"] == KILLS
    assert seen["finished"] >= 3 and seen["finished"] == seen["tournaments"], seen
    counts = ledger.counts
    assert counts.get("D", 0) > 10 and counts.get("F", 0) >= 3, counts
    assert counts.get("decided by played", 0) and counts.get("decided by deadline", 0), counts


if __name__ == "__main__":
    serve(worker)
