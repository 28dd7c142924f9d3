"""Scoring all 12,994,800 hand + starter combinations reproduces the published distribution."""

import json
from pathlib import Path

import pytest

from bot.engine.enumeration import COMBINATIONS, score_distribution

HERE = Path(__file__).resolve().parent
OURS = HERE / "data" / "score_distribution.json"


def expected(kind: str) -> dict[int, int]:
    data = json.loads(OURS.read_text())
    return {int(score): n for score, n in data[kind].items() if n}


@pytest.mark.slow  # thirteen million hands
def test_exhaustive_distribution_matches_hand_and_crib():
    hand, crib = score_distribution(workers=2)
    assert sum(hand.values()) == sum(crib.values()) == COMBINATIONS
    assert hand == expected("hand")
    assert crib == expected("crib")
    assert max(hand) == 29 and hand[29] == 4
    assert not {19, 25, 26, 27} & set(hand)
