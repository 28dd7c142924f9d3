"""What a person counts in a muggins show: the cards their hand message asks them to count, and
the exact count a careful player claims (used by the scripted players)."""

from __future__ import annotations

import re

_COUNT_LINE = re.compile(r"\*\*Count your (hand|crib):\*\* (.+?) · starter (\S+)")


def counted_cards(text: str) -> tuple[list, object, bool]:
    """The cards a muggins hand message asks its player to count: (cards, starter, crib)."""
    from bot.engine import FULL_PACK

    by_name = {str(c): c for c in FULL_PACK}
    found = _COUNT_LINE.search(text)
    if found is None:
        raise LookupError(f"no cards to count in the hand message:\n{text}")
    cards = [by_name[name] for name in found[2].split()]
    return cards, by_name[found[3]], found[1] == "crib"


def exact_claim(cards, starter, crib: bool) -> int:
    """What a player who counts right claims."""
    from bot.engine import score_show

    return score_show(cards, starter, crib=crib).total
