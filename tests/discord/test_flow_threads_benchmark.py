"""benchmarks/table.py runs and the table meets the issue's goals (issue 13, "Measure and
prove"): a whole 2-player game to 121 in the emulator, the game in its own thread as servers
have it by default, scripted people keeping their hands open."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole games to 121

ROOT = Path(__file__).resolve().parents[2]
FIGURE = re.compile(r"^(\w+): (-?\d+(?:\.\d+)?) ?(\S*)$")


def test_a_whole_game_meets_the_goals() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/table.py", "--games", "1", "--sizes", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = {}
    for line in run.stdout.splitlines():
        match = FIGURE.match(line)
        assert match, f"not a 'name: value unit' line: {line!r}"
        figures[match[1]] = float(match[2])
    assert figures["games_2p"] == 1 and figures["deals_per_game_2p"] >= 3
    assert figures["ghost_pings_per_game_2p"] == 0
    assert figures["pings_per_player_max_2p"] <= 2
    assert figures["clicks_per_player_per_deal_2p"] <= 5.5
    assert figures["below_hand_max_2p"] == 0
    assert figures["public_edited_per_deal_2p"] <= 12.4
    # the game played in its thread: one line in the channel, no hand left there
    assert figures["channel_lines_per_game_2p"] == 1
    assert figures["private_in_channel_per_game_2p"] == 0
