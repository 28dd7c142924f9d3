"""kill -9 at random moments: nothing acknowledged is lost, nothing is applied twice.

A worker process (tests/support/sessions_kill_worker.py) plays several games at once on a
database file and reports every acknowledged (committed) step; the test kills it with SIGKILL
after a random number of acknowledgements, checks the database, and starts it again. Each
restart must resume every game from its last committed action, and each snapshot must equal
the replay of its log.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Game, Variant, action_from_dict

ROOT = Path(__file__).resolve().parents[2]
WORKER = ROOT / "tests" / "support" / "sessions_kill_worker.py"
KILLS = 20

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL"),
    pytest.mark.slow,  # twenty worker processes, each killed
]


def check_database(path: Path, acked: dict[int, int]) -> dict[int, int]:
    """Check every started game; return {active game: its last committed step}."""
    conn = sqlite3.connect(path)
    try:
        games = conn.execute(
            "SELECT id, status, players, partnerships, target, seed, step FROM games "
            "WHERE seed IS NOT NULL"
        ).fetchall()
        active = {}
        for game_id, status, players, partnerships, target, seed, step in games:
            seqs = [
                r[0]
                for r in conn.execute(
                    "SELECT seq FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            ]
            assert seqs == list(range(1, len(seqs) + 1)), f"game {game_id}: gaps in {seqs}"
            snapshot_seq, state = conn.execute(
                "SELECT seq, state FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchone()
            assert snapshot_seq == step == len(seqs), (game_id, snapshot_seq, step, len(seqs))
            assert len(seqs) >= acked.get(game_id, 0), f"game {game_id}: acknowledged step lost"
            game = Game.new(Variant(players, bool(partnerships), target), int(seed))
            for seat, action in conn.execute(
                "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ):
                game.apply(seat, action_from_dict(json.loads(action)))
            assert game.to_dict() == json.loads(state), f"game {game_id}: snapshot != replay"
            results = conn.execute(
                "SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            if status == "active":
                assert results == 0 and not game.is_over
                active[game_id] = len(seqs)
            else:
                assert results == players, f"game {game_id} ended without its results"
        for game_id in acked:
            assert game_id in {g[0] for g in games}, f"acknowledged game {game_id} is gone"
        return active
    finally:
        conn.close()


def run_worker(path: Path, seed: int, quota: int, log: Path) -> tuple[list[list[str]], int]:
    """Start the worker, read until ``quota`` ACKs after READY, SIGKILL it, read what it wrote."""
    with log.open("ab") as errors:
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(path), str(seed)],
            stdout=subprocess.PIPE,
            stderr=errors,
            cwd=ROOT,
        )
    lines: list[list[str]] = []
    ready, acks = False, 0
    try:
        assert proc.stdout is not None
        for raw in proc.stdout:
            words = raw.decode().split()
            lines.append(words)
            ready = ready or words[0] == "READY"
            acks += ready and words[0] == "ACK"
            if ready and acks >= quota:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        rest = proc.stdout.read() if proc.stdout else b""
        proc.wait(timeout=10)
    lines += [line.split() for line in rest.decode().splitlines()]
    return lines, proc.returncode


def test_killed_at_random_moments_every_game_resumes_where_it_was_acknowledged(tmp_path):
    path, log = tmp_path / "kill.db", tmp_path / "worker.log"
    rng = random.Random(20261121)
    acked: dict[int, int] = {}
    last_committed: dict[int, int] = {}
    total_acks = 0
    ended: set[int] = set()
    for run in range(KILLS):
        quota = rng.choice((0, 1, 5, 20, 60, 150, 300, 500))
        lines, returncode = run_worker(path, run, quota, log)
        assert returncode == -signal.SIGKILL, f"the worker died by itself:\n{log.read_text()}"
        assert not [w for w in lines if w[0] == "PROBLEM"], lines
        resumed = {int(w[1]): int(w[2]) for w in lines if w[0] == "RESUMED" and w[3] == "active"}
        ready_at = next((i for i, w in enumerate(lines) if w[0] == "READY"), len(lines))
        moved_on_resume = {int(w[1]) for w in lines[:ready_at] if w[0] == "ACK"}
        ended_on_resume = {int(w[1]) for w in lines[:ready_at] if w[0] == "ENDED"}
        if ready_at < len(lines):
            # Every game resumes exactly where its last committed action left it (computer
            # seats that were about to move move on; they may even end the game).
            assert set(resumed) == set(last_committed) - ended_on_resume, (resumed, last_committed)
            for game_id, step in last_committed.items():
                if game_id in resumed and game_id not in moved_on_resume:
                    assert resumed[game_id] == step, (game_id, resumed[game_id], step)
        for words in lines:
            if words[0] == "ACK":
                game_id, step = int(words[1]), int(words[2])
                assert step >= acked.get(game_id, 0), f"game {game_id} went back to {step}"
                acked[game_id] = step
                total_acks += 1
            elif words[0] == "ENDED":
                ended.add(int(words[1]))
        last_committed = check_database(path, acked)
    assert total_acks > 1000 and len(acked) > 12 and len(ended) > 5, (total_acks, len(acked), ended)

    check = subprocess.run(
        [sys.executable, str(WORKER), str(path), "0", "--check"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    words = [line.split() for line in check.stdout.decode().splitlines()]
    assert [w[0] for w in words if w[0] in ("READY", "PROBLEM")] == ["READY"]
