"""After a game: its summary as a field of the result, and a player's review as an embed.

The summary (``bot.sessions.summary.GameSummary``, read here through the structural types
below) gives each side two or three lines: where its points came from, its best show and its
biggest peg, how its cards ran against the average; then the skunk lines when they mattered.
The review (``bot.ai.review.Review``) is private to its player: the points given away in each
deal and the three costliest decisions, in the words of :mod:`bot.render.review_text`.

Discord's limits (developer docs, *Embed Limits*): a field's value holds 1024 characters, a
description 4096, an embed 6000 in all. Two sides' summary is about 400 characters, three about
600; beyond 1024 the lines lose their details (best show's cards, the cards' luck) before any
cut (:func:`~bot.render.embeds.fit_embed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.ai.review import Review
from bot.engine import Card, ScoreReason, Variant

from .embeds import DESCRIPTION_LIMIT, FELT, FIELD_VALUE_LIMIT, Embed, fit_embed, truncate
from .review_text import costliest_lines, deal_lines, values_note
from .standings import plural
from .words import escape, hand_line, points_text, side_name

SUMMARY_TITLE = "📊 How the points came"
REVIEW_TITLE = "🔍 Your game #{game}, decision by decision"
SKUNK_NEAR = 10  # a side this close above a skunk line is told (as the summary chooses them)


class ShowLike(Protocol):
    @property
    def points(self) -> int: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def starter(self) -> Card: ...
    @property
    def crib(self) -> bool: ...
    @property
    def deal(self) -> int: ...


class PegLike(Protocol):
    @property
    def points(self) -> int: ...
    @property
    def deal(self) -> int: ...
    @property
    def reason(self) -> ScoreReason: ...
    @property
    def card(self) -> Card | None: ...
    @property
    def count(self) -> int | None: ...


class LuckLike(Protocol):
    @property
    def hands(self) -> int: ...
    @property
    def per_hand(self) -> float: ...


class SideLike(Protocol):
    @property
    def side(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def pegging(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def crib(self) -> int: ...
    @property
    def muggins(self) -> int: ...
    @property
    def best_hand(self) -> ShowLike | None: ...
    @property
    def biggest_peg(self) -> PegLike | None: ...
    @property
    def luck(self) -> LuckLike: ...


class SummaryLike(Protocol):
    @property
    def variant(self) -> Variant: ...
    @property
    def sides(self) -> Sequence[SideLike]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def skunk_lines(self) -> tuple[int, ...]: ...


# --------------------------------------------------------------------------- the summary


def _peg_words(peg: PegLike) -> str:
    """'6 with 7♣ at 21 (deal 3)', '2 for his heels (deal 5)', '1 for the go (deal 2)'."""
    if peg.reason is ScoreReason.HEELS:
        how = "for his heels"
    elif peg.reason is ScoreReason.PLAY and peg.card is not None:
        how = f"with {peg.card} at {peg.count}" if peg.count is not None else f"with {peg.card}"
    else:
        how = f"for {peg.reason.value}"
    return f"{peg.points} {how} (deal {peg.deal})"


def _luck_words(luck: LuckLike) -> str:
    """'the cards ran 1.3 a hand above the average' (or below, or about even)."""
    if not luck.hands:
        return ""
    per = luck.per_hand
    if abs(per) < 0.05:
        return "the cards ran about even"
    return f"the cards ran {abs(per):.1f} a hand {'above' if per > 0 else 'below'} the average"


def side_lines(side: SideLike, names: Sequence[str], variant: Variant, *, full: bool = True) -> str:
    """One side's lines: points by kind; best show and biggest peg; the cards' luck."""
    who = escape(side_name(side.side, names, variant))
    parts = [f"pegging {side.pegging}", f"hands {side.hand}", f"crib {side.crib}"]
    if side.muggins:
        parts.append(f"muggins {side.muggins}")
    lines = [f"**{who}** {side.score} · " + " · ".join(parts)]
    details = []
    best = side.best_hand
    if best is not None:
        show = "crib" if best.crib else "hand"
        cards = f" {hand_line(best.cards)} + {best.starter}" if full else ""
        details.append(f"best {show}{cards} for {best.points} (deal {best.deal})")
    if side.biggest_peg is not None:
        details.append(f"biggest peg {_peg_words(side.biggest_peg)}")
    if details:
        lines.append("  " + " · ".join(details))
    luck = _luck_words(side.luck) if full else ""
    if luck:
        lines.append(f"  {luck}")
    return "\n".join(lines)


def _skunk_words(summary: SummaryLike, names: Sequence[str]) -> list[str]:
    """Per losing side, the skunk lines that mattered: '⚠️ Bob finished below the skunk line
    (91), 4 points above the double skunk line (61)', 'Bob finished 2 points above the skunk
    line (31)' (the summary picks the lines: below them, or less than 10 points above)."""
    variant = summary.variant

    def which(line: int) -> str:
        return "double skunk line" if line == variant.double_skunk_line else "skunk line"

    out = []
    for side in summary.sides:
        if side.won or summary.winner is None:
            continue
        below = [line for line in summary.skunk_lines if side.score < line]
        near = [line for line in summary.skunk_lines if 0 <= side.score - line < SKUNK_NEAR]
        parts = []
        if below:
            lowest = min(below)
            parts.append(f"below the {which(lowest)} ({lowest})")
        for line in near:
            gap = side.score - line
            where = "on" if gap == 0 else f"{points_text(gap)} above"
            parts.append(f"{where} the {which(line)} ({line})")
        if parts:
            who = escape(side_name(side.side, names, variant))
            out.append(("⚠️ " if below else "") + f"{who} finished " + ", ".join(parts))
    return out


def summary_text(summary: SummaryLike, names: Sequence[str]) -> str:
    """The summary's lines, within a field's 1024 characters (details dropped first)."""
    variant = summary.variant
    for full in (True, False):
        order = sorted(summary.sides, key=lambda s: (not s.won, -s.score))
        lines = [side_lines(s, names, variant, full=full) for s in order]
        lines += _skunk_words(summary, names)
        text = "\n".join(lines)
        if len(text) <= FIELD_VALUE_LIMIT:
            return text
    return truncate(text, FIELD_VALUE_LIMIT)


def add_summary(embed: Embed, summary: SummaryLike, names: Sequence[str]) -> Embed:
    """A result embed with the summary as its last field (not inline: under the scores)."""
    return fit_embed(
        embed.with_field(SUMMARY_TITLE, summary_text(summary, names), inline=False)
    )


# --------------------------------------------------------------------------- the review


def review_embed(review: Review, names: Sequence[str]) -> Embed:
    """A player's review: the points given away (whole game, per deal) and, near the end of a
    two-player game, the chance to win given away; the three costliest decisions in table talk;
    and what the values are."""
    deals = len(review.deals)
    decisions = review.decisions
    chance = (
        f", and **{100.0 * review.chance_given_away:.1f}** percentage points of chance to win "
        "near the end"
        if review.chance_given_away > 0.0005
        else ""
    )
    lines = [
        f"Over {plural(deals, 'deal')} you gave away **{review.given_away:.1f}** points "
        f"against the expert{chance}, in {plural(len(decisions), 'decision')} "
        f"({sum(d.forced for d in decisions)} forced).",
        "",
    ]
    costly = costliest_lines(review)
    if costly:
        lines.append("__The three costliest__" if len(costly) == 3 else "__The costliest__")
        lines += [f"{i}. {escape(line)}" for i, line in enumerate(costly, 1)]
    else:
        lines.append("Nothing cost anything: every decision was the expert's, or as good.")
    description = truncate("\n".join(lines), DESCRIPTION_LIMIT)
    embed = Embed(
        title=REVIEW_TITLE.format(game=review.game_id), description=description, colour=FELT
    )
    per_deal = [escape(line) for line in deal_lines(review, names)]
    for start in range(0, len(per_deal), 12):  # a field a dozen deals: well under 1024
        name = "Given away, deal by deal" if start == 0 else "\u200b"
        embed = embed.with_field(name, "\n".join(per_deal[start : start + 12]), inline=False)
    embed = embed.replace(footer=values_note(review.variant.players))
    return fit_embed(embed)
