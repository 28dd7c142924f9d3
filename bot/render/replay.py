"""A finished game's replay, deal by deal, in words: ``/cribbage replay`` and ``python -m bot
replay``.

A page is one deal: who dealt and the scores before it, every hand as dealt and what each seat
laid away, the starter, the play card by card (the count and what each card made), the show
(each hand's and the crib's count, with its breakdown), and the scores after it. The first page
also tells the cut for the deal. Made from a replay: the game's action log replayed through the
engine (``bot.sessions.history``), read here through the structural types below (a renderer
takes plain records, never the session manager).

The replay shows every hand: only a game that has ended may be replayed (the manager refuses a
game in progress to anyone).

Discord's limits (developer docs, *Embed Limits*): a description of at most 4096 characters, a
field value 1024, 6000 in all. A deal's page is one description: a 4-player deal is about 2,500
characters with short names, 5,000 with Discord's longest (32 characters); beyond 4096 the show
moves to fields of its own, then loses its breakdowns (the totals stay), and only then is the
text cut (:func:`~bot.render.embeds.fit_embed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from bot.ai.review import DealLike as DealPlayed
from bot.ai.review import ReplayLike as GamePlayed
from bot.engine import (
    Dealt,
    Discard,
    Discarded,
    Event,
    Played,
    ReadyForDeal,
    Shown,
    Variant,
)

from .embeds import (
    DESCRIPTION_LIMIT,
    FELT,
    FIELD_VALUE_LIMIT,
    TOTAL_LIMIT,
    Embed,
    fit_embed,
    truncate,
)
from .story import story_lines
from .words import escape, hand_line, side_name

__all__ = [
    "deal_lines",
    "plain",
    "replay_embed",
    "replay_text",
]


class DealLike(DealPlayed, Protocol):
    """One deal of a replay (``DealReplay``): as the review reads it, and the scores after."""

    @property
    def scores_after(self) -> tuple[int, ...]: ...


class ReplayLike(GamePlayed, Protocol):
    """A whole game from its log (``Replay``): as the review reads it, and the final scores."""

    @property
    def deals(self) -> Sequence[DealLike]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...


# events a page tells in its own words (the hands and discards) or not at all (the next
# deal's dealing, readiness between deals)
_OWN_WORDS = (Dealt, Discarded, ReadyForDeal)
_BREAKDOWN = re.compile(r": [^—]*— (\*\*[0-9]+\*\*)")


def _deal(replay: ReplayLike, number: int) -> DealLike:
    for deal in replay.deals:
        if deal.number == number:
            return deal
    raise ValueError(f"game {replay.game_id} has no deal {number}")


def _scores(scores: Sequence[int], names: Sequence[str], variant: Variant) -> str:
    return " · ".join(
        f"{escape(side_name(side, names, variant))} {score}" for side, score in enumerate(scores)
    )


Section = tuple[str, list[str]]  # (its title, "" for none; its lines)


def deal_lines(
    replay: ReplayLike, number: int, names: Sequence[str], *, breakdowns: bool = True
) -> list[str]:
    """The lines (markdown) of deal ``number``'s page; ``breakdowns=False``: the show's totals
    without the words of each count."""
    return _joined(_sections(replay, number, names, breakdowns=breakdowns))


def _joined(sections: Sequence[Section]) -> list[str]:
    lines: list[str] = []
    for title, part in sections:
        if lines:
            lines.append("")
        lines += ([f"__{title}__"] if title else []) + part
    return lines


def _sections(
    replay: ReplayLike, number: int, names: Sequence[str], *, breakdowns: bool = True
) -> list[Section]:
    """Deal ``number``'s page in sections: who deals (and on the first page the cut for the
    deal), the hands, the starter, the play, the show, the scores after it."""
    deal = _deal(replay, number)
    variant = replay.variant
    head: list[str] = []
    if deal is replay.deals[0]:
        opening = [e for s in replay.opening for e in s.events if not isinstance(e, _OWN_WORDS)]
        head += story_lines(opening, names, variant)
    index = list(replay.deals).index(deal)
    before = replay.deals[index - 1].scores_after if index else (0,) * variant.sides
    dealer = escape(names[deal.dealer])
    head.append(f"**{dealer}** deals · before it: {_scores(before, names, variant)}")
    hands = []
    laid = {s.seat: s.action.cards for s in deal.steps if isinstance(s.action, Discard)}
    for seat, hand in enumerate(deal.hands):
        line = f"**{escape(names[seat])}**: {hand_line(hand)}"
        if seat in laid:
            line += f" → lays away {hand_line(laid[seat])}"
        hands.append(line)
    sections: list[Section] = [("", head), ("The hands as dealt", hands)]
    parts = _parts([e for s in deal.steps for e in s.events if not isinstance(e, _OWN_WORDS)])
    for title, part in zip(("The starter", "The play", "The show"), parts, strict=True):
        told = story_lines(part, names, variant)
        if title == "The show" and not breakdowns:
            told = [_BREAKDOWN.sub(r" — \1", line) for line in told]
        if told:
            sections.append((title, told))
    sections.append(
        ("", [f"After deal {deal.number}: {_scores(deal.scores_after, names, variant)}"])
    )
    return sections


def _parts(events: Sequence[Event]) -> tuple[list[Event], list[Event], list[Event]]:
    """A deal's events in three: the starter (his heels), the play, the show (and the end of
    the game in whichever it came)."""
    parts: tuple[list[Event], list[Event], list[Event]] = ([], [], [])
    at = 0
    for event in events:
        if isinstance(event, Played) and at < 1:
            at = 1
        elif isinstance(event, Shown):
            at = 2
        parts[at].append(event)
    return parts


def replay_embed(replay: ReplayLike, number: int, names: Sequence[str]) -> Embed:
    """Deal ``number``'s page as an embed: "Deal k of n" in the title, within Discord's limits
    (a page too long for the description moves its show to fields, then drops the show's
    breakdowns, and only then is cut)."""
    embed = Embed(
        title=f"🔁 Replay of game #{replay.game_id} · Deal {number} of {len(replay.deals)}",
        colour=FELT,
    )
    final = _scores(replay.scores, names, replay.variant)
    embed = embed.replace(footer=plain(f"{replay.variant.name} · final score {final}"))
    sections = _sections(replay, number, names)
    text = "\n".join(_joined(sections))
    if len(text) <= DESCRIPTION_LIMIT:
        return fit_embed(embed.replace(description=text))
    for breakdowns in (True, False):
        sections = _sections(replay, number, names, breakdowns=breakdowns)
        shows = [part for title, part in sections if title == "The show"]
        rest = [(title, part) for title, part in sections if title != "The show"]
        fields = _packed(shows[0] if shows else [], FIELD_VALUE_LIMIT)
        embed = embed.replace(description="\n".join(_joined(rest)), fields=())
        for i, value in enumerate(fields):
            embed = embed.with_field("The show" if i == 0 else "\u200b", value, inline=False)
        if len(embed) <= TOTAL_LIMIT and len(embed.description or "") <= DESCRIPTION_LIMIT:
            break
    return fit_embed(embed)


def _packed(lines: Sequence[str], limit: int) -> list[str]:
    """``lines`` in as few texts of at most ``limit`` characters as they fit (a line too long
    for one is cut)."""
    packed: list[str] = []
    for line in lines:
        line = truncate(line, limit)
        if packed and len(packed[-1]) + 1 + len(line) <= limit:
            packed[-1] += "\n" + line
        else:
            packed.append(line)
    return packed


def plain(text: str) -> str:
    """Markdown made plain for a terminal or a footer: no bold or underline, no escapes."""
    text = text.replace("**", "").replace("__", "").replace("@\u200b", "@")
    return re.sub(r"\\(.)", r"\1", text)


def replay_text(replay: ReplayLike, names: Sequence[str], *, deal: int | None = None) -> str:
    """The replay in plain words: every deal (or only ``deal``), for ``python -m bot replay``."""
    numbers = [d.number for d in replay.deals] if deal is None else [deal]
    count = len(replay.deals)
    out = [f"Game #{replay.game_id} · {replay.variant.name} · {count} deals"]
    for number in numbers:
        out += ["", f"=== Deal {number} of {count} ===", *deal_lines(replay, number, names)]
    out += ["", f"Final score: {_scores(replay.scores, names, replay.variant)}"]
    return plain("\n".join(out))
