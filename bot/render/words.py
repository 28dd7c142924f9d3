"""The small words every text is made of: names, sides, cards, lists, points.

>>> from bot.engine import Variant, parse_cards
>>> hand_line(parse_cards("QS 5H JD 5C"))
'5♣ 5♥ J♦ Q♠'
>>> side_name(0, ["Alice", "Bob", "Carol", "Dave"], Variant(players=4, partnerships=True))
'Alice & Carol'
>>> join_and(["Alice", "Bob", "Carol"]), join_or(["9♣", "10♠"])
('Alice, Bob and Carol', '9♣ or 10♠')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.engine import Breakdown, Card, ScoreKind, Suit, Variant

SUIT_EMOJI: dict[Suit, str] = {
    Suit.CLUBS: "♣️",
    Suit.DIAMONDS: "♦️",
    Suit.HEARTS: "♥️",
    Suit.SPADES: "♠️",
}
"""Suits with the emoji variation selector: Discord draws them as coloured emoji."""


# --------------------------------------------------------------------------- names and cards


_URL = r"(?P<url><[^: >]+:\/[^ >]+>|(?:https?|steam):\/\/[^\s<]+[^<.,:;\"\'\]\s])"
_MARKDOWN = r"(?P<markdown>[_\\~|\*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)"
_MARKDOWN_OR_URL = re.compile(f"(?:{_URL}|{_MARKDOWN})", re.MULTILINE)


def escape_markdown(text: str) -> str:
    r"""``text`` with every character Discord reads as markdown escaped by a backslash (bold,
    italics, underline, strike, spoilers, code, quotes, headings, list dashes, masked links);
    links are left whole. The same rules as discord.py's ``discord.utils.escape_markdown``.

    >>> escape_markdown("**Al_ice** > https://x.test/a_b")
    '\\*\\*Al\\_ice\\*\\* > https://x.test/a_b'
    """
    return _MARKDOWN_OR_URL.sub(lambda m: m["url"] or "\\" + m["markdown"], text)


def escape(name: str) -> str:
    """A display name made safe inside markdown: no formatting, no mentions, and no ``<#id>``,
    ``<t:...>`` or ``<:emoji:id>`` turned into a link or a pill (a backslash before ``<``)."""
    return escape_markdown(name).replace("@", "@\u200b").replace("<", "\\<")


def join_and(words: Sequence[str]) -> str:
    """'Alice', 'Alice and Bob', 'Alice, Bob and Carol'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def join_or(words: Sequence[str]) -> str:
    """'9♣', '9♣ or 10♠', '2♣, 3♦ or 4♥'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def check_names(names: Sequence[str], variant: Variant) -> None:
    if len(names) != variant.players:
        raise ValueError(f"{variant.players} seats need {variant.players} names, not {len(names)}")


def side_name(side: int, names: Sequence[str], variant: Variant) -> str:
    """A side's plain name: the player's, or both partners' (``"Alice & Carol"``). Not escaped."""
    return " & ".join(names[s] for s in variant.seats_of(side))


def side_names(names: Sequence[str], variant: Variant) -> list[str]:
    """Every side's plain name, by side index."""
    return [side_name(side, names, variant) for side in range(variant.sides)]


def card_text(card: Card, *, emoji: bool = False) -> str:
    """``'10♥'``, or with ``emoji=True`` ``'10♥️'`` (Discord's coloured suit emoji)."""
    text = str(card)
    return text[:-1] + SUIT_EMOJI[card.suit] if emoji else text


def cards_text(cards: Iterable[Card], *, emoji: bool = False, sort: bool = False) -> str:
    """Cards separated by spaces, in the order given (or sorted by rank with ``sort=True``)."""
    cards = sorted(cards) if sort else list(cards)
    return " ".join(card_text(c, emoji=emoji) for c in cards)


def hand_line(cards: Iterable[Card], *, emoji: bool = False) -> str:
    """A hand as a player holds it: sorted by rank (then suit). ``'5♣ 5♥ J♦ Q♠'``."""
    return cards_text(cards, emoji=emoji, sort=True)


_SUMMARY_GROUPS = (
    ("fifteens", {ScoreKind.FIFTEEN}),
    ("thirty-one", {ScoreKind.THIRTY_ONE}),
    ("pairs", {ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL}),
    ("runs", {ScoreKind.RUN}),
    ("flush", {ScoreKind.FLUSH}),
    ("nobs", {ScoreKind.NOBS}),
)


def breakdown_summary(breakdown: Breakdown) -> str:
    """Points by kind, compact: ``'fifteens 8 · pairs 2 · runs 6'`` (``'nineteen'`` for 0)."""
    parts = []
    for label, kinds in _SUMMARY_GROUPS:
        points = sum(item.points for item in breakdown.items if item.kind in kinds)
        if points:
            parts.append(f"{label} {points}")
    return " · ".join(parts) if parts else "nineteen"


def points_text(points: int) -> str:
    """'1 point', '2 points'."""
    return f"{points} point" if points == 1 else f"{points} points"
