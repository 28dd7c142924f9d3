"""kill -9 at random moments, 200 times: nothing acknowledged is lost, nothing applied twice.

A worker (tests/support/sessions_kill_worker.py, serving forked processes) plays six games at
once on a database file through the session manager: two to four seats, computers in most,
muggins games (claims, muggins calls, let-gos, windows let go by a ticker), best-of-3 matches
(each next game started by the manager). It reports every acknowledged (committed) request.
The test kills it with SIGKILL after a random number of acknowledgements (sometimes while it is
still resuming), checks the database, and starts it again. Each time:

* every action a person was told was done is in the log, exactly once, at a step between the
  step before the request and the step after it (0 lost, 0 doubled);
* no acknowledged step of any game is missing; each log has no gap and replays to its snapshot;
  an ended game has its results, a live one none;
* every restart resumes each game exactly where its last committed action left it.

At the end a last process only resumes (starting any match game that was due), and every match
is consistent: its stored tally is the tally of its games' results.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.engine import Game, Variant, action_from_dict
from bot.sessions.matchplay import GameResult, tally
from tests.support.kill_harness import Worker
from tests.support.postgres import connect
from tests.support.sessions import play_one, running, started_game, stored_log

ROOT = Path(__file__).resolve().parents[2]
WORKER = ROOT / "tests" / "support" / "sessions_kill_worker.py"
KILLS = int(os.environ.get("CRIBBAGE_KILLS", 200))
QUOTAS = (0, 1, 2, 5, 13, 34, 89, 233, 377)  # acknowledged before the kill

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and fork")


class Ledger:
    """What the runs acknowledged, and what the database must therefore hold."""

    def __init__(self) -> None:
        self.acked: dict[int, int] = {}  # game -> highest acknowledged step
        self.taken: set[tuple[int, int]] = set()  # (game, seq) of acknowledged actions
        self.counts: Counter[str] = Counter()
        self.ended: set[int] = set()
        self.replayed: dict[int, tuple[list, Game]] = {}  # game -> (log replayed, its game)

    def read(self, lines: list[list[str]]) -> tuple[list[tuple], set[int]]:
        """Take a run's lines; its actions to check and the games it touched."""
        acts, touched = [], set()
        for words in lines:
            kind = words[0]
            if kind == "ACT":
                game, lo, hi, seat = map(int, words[1:5])
                action = json.loads(words[5])
                acts.append((game, lo, hi, seat, action))
                self._step(game, hi)
                touched.add(game)
                self.counts["acknowledged actions"] += 1
                self.counts[action["type"]] += 1
            elif kind == "ACK":
                self._step(int(words[1]), int(words[2]))
                touched.add(int(words[1]))
            elif kind == "ENDED":
                self.ended.add(int(words[1]))
            elif kind == "TICK":
                self.counts["windows let go by the loop"] += 1
            elif kind == "NEXT":
                self.counts["match games started"] += 1
            elif kind == "RESUMED":
                touched.add(int(words[1]))
            assert kind != "CRASH", words
        return acts, touched

    def _step(self, game: int, step: int) -> None:
        # (lines of two coroutines may come out of step order: the highest is what counts)
        self.acked[game] = max(step, self.acked.get(game, 0))


def check_games(path: Path, ledger: Ledger, acts: list[tuple], games: set[int] | None) -> dict:
    """Check ``games`` (None: every started game) and the acknowledged ``acts``; return
    {active game: its last committed step}."""
    conn = connect(path, read_only=True)
    try:
        rows = conn.execute(
            "SELECT id, status, players, partnerships, target, seed, first_dealer, step, "
            "muggins FROM games WHERE seed IS NOT NULL"
        ).fetchall()
        known = {r[0] for r in rows}
        assert set(ledger.acked) <= known, f"acknowledged games gone: {set(ledger.acked) - known}"
        active, logs = {}, {}
        for game_id, status, players, partners, target, seed, first, step, muggins in rows:
            if status == "active":
                active[game_id] = step
            if games is not None and game_id not in games and status != "active":
                continue
            log, snapshot = stored_log(conn, game_id)
            logs[game_id] = log
            seqs = [entry[0] for entry in log]
            assert seqs == list(range(1, len(seqs) + 1)), f"game {game_id}: gaps in {seqs}"
            assert snapshot is not None and snapshot[0] == step == len(seqs), (game_id, step)
            assert step >= ledger.acked.get(game_id, 0), f"game {game_id}: acknowledged step lost"
            done, game = ledger.replayed.get(game_id, ([], None))
            if game is None or log[: len(done)] != done:  # a changed log is replayed whole
                variant = Variant(players, bool(partners), target, bool(muggins))
                hold = json.loads(snapshot[1]).get("hold_between_deals", False)
                game, done = Game.new(variant, int(seed), first, hold_between_deals=hold), []
            for _, seat, action, _ in log[len(done) :]:
                game.apply(seat, action_from_dict(action))
            ledger.replayed[game_id] = (log, game)
            assert game.to_dict() == json.loads(snapshot[1]), f"game {game_id}: snapshot != replay"
            (results,) = conn.execute(
                "SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,)
            ).fetchone()
            assert results == (0 if status == "active" else players), (game_id, status, results)
        for game_id, lo, hi, seat, action in acts:
            found = [seq for seq, s, a, _ in logs[game_id][lo:hi] if s == seat and a == action]
            assert found, f"game {game_id}: acknowledged {action} by seat {seat} lost"
            assert len(found) == 1, f"game {game_id}: {action} by seat {seat} applied twice"
            assert (game_id, found[0]) not in ledger.taken, (
                f"game {game_id}: step {found[0]} acknowledged twice"
            )
            ledger.taken.add((game_id, found[0]))
        return active
    finally:
        conn.close()


def check_matches(path: Path) -> Counter[str]:
    """Every match's stored tally is the tally of its ended games, and a match still being
    played has its next game live."""
    conn = connect(path, read_only=True)
    seen: Counter[str] = Counter()
    try:
        for match_id, best_of, status, wins in conn.execute(
            "SELECT id, best_of, status, wins FROM matches"
        ).fetchall():
            games = conn.execute(
                "SELECT g.id, g.status, g.end_reason, g.winner_side, g.players, g.partnerships, "
                "COALESCE((SELECT MAX(skunk_given) FROM results r WHERE r.game_id = g.id), 0) "
                "FROM games g WHERE g.match_id = ? ORDER BY g.id",
                (match_id,),
            ).fetchall()
            assert games, match_id
            seen[status] += 1
            seen["match games"] += len(games)
            if status in ("forming", "cancelled"):  # its first game never started
                assert len(games) == 1 and games[0][1] in ("lobby", "cancelled"), games
                continue
            sides = 2 if games[0][5] else games[0][4]
            ended = [
                GameResult(g[2] or "", g[3], g[6])
                for g in games
                if g[1] in ("finished", "abandoned")
            ]
            expected = tally(best_of, sides, ended)
            for played in range(1, len(ended)):  # a game was started only while undecided
                assert tally(best_of, sides, ended[:played]).status == "playing", games
            live = [g for g in games if g[1] in ("active", "lobby")]
            if status == "playing":
                assert expected.status == "playing" and len(live) == 1, (match_id, games)
                assert games[-1][1] == "active", (match_id, games)
            else:
                assert status == expected.status and not live, (match_id, status, games)
            assert tuple(json.loads(wins)) == expected.wins, (match_id, wins, expected)
        return seen
    finally:
        conn.close()


@pytest.mark.slow  # two hundred processes, each killed: about 40 s
def test_killed_200_times_nothing_acknowledged_is_lost_or_doubled(tmp_path):
    path, log = tmp_path / "kill.db", tmp_path / "worker.log"
    rng = random.Random(20261124)
    ledger = Ledger()
    last_committed: dict[int, int] = {}
    worker = Worker(WORKER, log)
    started = time.perf_counter()
    try:
        for run in range(KILLS):
            quota = None if rng.random() < 0.1 else rng.choice(QUOTAS)
            lines, status = worker.run(path, run, quota, counted=("ACK", "ACT"))
            assert status == -signal.SIGKILL, f"run {run} ended by itself ({status}): {lines[-3:]}"
            ledger.counts["kills"] += 1
            assert not [w for w in lines if w[0] == "PROBLEM"], lines
            resumed = {
                int(w[1]): int(w[2]) for w in lines if w[0] == "RESUMED" and w[3] == "active"
            }
            ready_at = next((i for i, w in enumerate(lines) if w[0] == "READY"), None)
            if ready_at is not None:
                before = lines[:ready_at]
                moved = {int(w[1]) for w in before if w[0] in ("ACK", "ACT")}
                ended = {int(w[1]) for w in before if w[0] == "ENDED"}
                # every game resumes where its last commit left it (computers that were about
                # to move move on, and may end it; a match's next game may start)
                assert set(last_committed) - ended <= set(resumed), (resumed, last_committed)
                for game_id, step in last_committed.items():
                    if game_id in resumed and game_id not in moved:
                        assert resumed[game_id] == step, (game_id, resumed[game_id], step)
            acts, touched = ledger.read(lines)
            last_committed = check_games(path, ledger, acts, touched)
        worker.check(path)
        check_games(path, ledger, [], None)
        matches = check_matches(path)
    finally:
        worker.close()
    seconds = time.perf_counter() - started
    counts = ledger.counts
    with_computers = computer_games(path)
    print(
        f"\n{dict(counts)}, {len(ledger.acked)} games ({with_computers} with computers), "
        f"{len(ledger.ended)} ended, matches {dict(matches)}, {seconds:.1f} s"
    )
    assert counts["kills"] >= 200 and counts["acknowledged actions"] > 3000, counts
    assert len(ledger.ended) > 20 and with_computers > 20, (ledger.ended, with_computers)
    assert counts["match games started"] > 3 and matches["won"] + matches["conceded"] > 0
    assert counts["claim"] and counts["let_go"] and counts["windows let go by the loop"], counts


def computer_games(path: Path) -> int:
    conn = connect(path, read_only=True)
    try:
        return conn.execute(
            "SELECT COUNT(DISTINCT game_id) FROM seats WHERE computer IS NOT NULL"
        ).fetchone()[0]
    finally:
        conn.close()


async def test_the_check_catches_a_lost_or_a_doubled_action(tmp_path):
    """The check above is not blind: an acknowledged action missing from the log, or two
    acknowledgements of one logged action, fail it."""
    path = tmp_path / "check.db"
    async with running(path) as manager:
        game_id = (await started_game(manager)).game_id
        rng = random.Random(3)
        for _ in range(6):
            await play_one(manager, game_id, rng)
        step = manager.live.view(game_id).step
    ledger = Ledger()
    conn = connect(path)
    log, _ = stored_log(conn, game_id)
    conn.close()
    seq, seat, action, _ = log[-1]
    fine = (game_id, seq - 1, seq, seat, action)
    check_games(path, ledger, [fine], {game_id})
    with pytest.raises(AssertionError, match="lost"):
        missing = {"type": "play", "card": "ZZ"}
        check_games(path, Ledger(), [(game_id, seq - 1, seq, seat, missing)], {game_id})
    with pytest.raises(AssertionError, match="acknowledged twice"):
        check_games(path, ledger, [fine], {game_id})  # the same step acknowledged again
    ledger.acked[game_id] = step + 1
    with pytest.raises(AssertionError, match="acknowledged step lost"):
        check_games(path, ledger, [], {game_id})
