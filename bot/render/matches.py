"""Words and embeds for matches, rematches and the spectators' view (public: no hidden card).

A match is anything shaped like :class:`MatchScore` (the session manager's match view is):

>>> from types import SimpleNamespace
>>> from bot.engine import Variant
>>> m = SimpleNamespace(best_of=3, needed=2, wins=(1, 0), game_number=2, status="playing")
>>> match_line(m, ["Alice", "Bob"], Variant())
'Best of 3 · game 2 · **Alice** 1 – 0 **Bob** · first to 2 (a skunk counts two games)'
>>> won = SimpleNamespace(best_of=3, needed=2, wins=(2, 1), status="won", winner_side=0)
>>> match_result_text(won, ["Alice", "Bob"], Variant())
'🏆 **Alice** wins the match, 2 games to 1.'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from bot.engine import Variant

from .embeds import FELT, Embed, fit_embed
from .text import escape, side_name

MATCH_FIELD = "Match"


class MatchScore(Protocol):
    """A match as the players see it: its length, the games each side holds, which game is on
    and how it stands (``status``: forming, playing, won, conceded, abandoned, cancelled)."""

    @property
    def best_of(self) -> int: ...

    @property
    def needed(self) -> int:
        """The games a side needs to win the match."""
        ...

    @property
    def wins(self) -> Sequence[int]:
        """Games held, per side."""
        ...

    @property
    def game_number(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def winner_side(self) -> int | None: ...


class MatchGame(Protocol):
    """A game (or its lobby) that may belong to a match."""

    @property
    def variant(self) -> Variant: ...

    @property
    def match(self) -> MatchScore | None: ...


class Seated(Protocol):
    """Who sits in a seat: a person (``user_id``) or a computer (``None``)."""

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...


class RematchGame(MatchGame, Protocol):
    """A rematch lobby: its seats (``None``: empty) and the match it may continue."""

    @property
    def seats(self) -> Sequence[Seated | None]: ...


class RematchCall(Protocol):
    """A rematch waiting for its players: who has accepted, who deals first (``None``: cut)."""

    @property
    def first_dealer(self) -> int | None: ...

    @property
    def accepted(self) -> Collection[int]: ...


def _sides(match: MatchScore, names: Sequence[str], variant: Variant) -> list[str]:
    return [escape(side_name(side, names, variant)) for side in range(len(match.wins))]


def match_line(match: MatchScore, names: Sequence[str], variant: Variant) -> str:
    """The match score in one line, for the table and the spectators' view."""
    sides = _sides(match, names, variant)
    if not sides:  # a lobby: nobody has played yet
        return f"Best of {match.best_of}: the first to win {match.needed} games wins the match"
    if len(sides) == 2:
        score = f"**{sides[0]}** {match.wins[0]} – {match.wins[1]} **{sides[1]}**"
    else:
        score = " · ".join(f"**{n}** {w}" for n, w in zip(sides, match.wins, strict=True))
    head = f"Best of {match.best_of} · game {match.game_number}"
    return f"{head} · {score} · first to {match.needed} (a skunk counts two games)"


def match_result_text(match: MatchScore, names: Sequence[str], variant: Variant) -> str:
    """What a game's end means for its match: the next game, or the match's result."""
    sides = _sides(match, names, variant)
    if match.status == "won" and match.winner_side is not None:
        winner = sides[match.winner_side]
        verb = "win" if variant.partnerships else "wins"
        others = [w for side, w in enumerate(match.wins) if side != match.winner_side]
        against = " – ".join(str(w) for w in others)
        games = "game" if match.wins[match.winner_side] == 1 else "games"
        return (
            f"🏆 **{winner}** {verb} the match, {match.wins[match.winner_side]} {games} "
            f"to {against}."
        )
    if match.status == "conceded":
        if match.winner_side is not None:
            return f"The match is conceded: **{sides[match.winner_side]}** takes it."
        return "The match is conceded."
    if match.status in ("abandoned", "cancelled"):
        return "The match is over without a winner."
    score = " – ".join(str(w) for w in match.wins)
    return f"Match score {score} (best of {match.best_of}): the next game starts now."


def add_match_field(embed: Embed, view: MatchGame, names: Sequence[str]) -> Embed:
    """Add the match score to an embed of a game that belongs to a match (else unchanged)."""
    match = view.match
    if match is None:
        return embed
    embed = embed.with_field(MATCH_FIELD, match_line(match, names, view.variant), inline=False)
    return fit_embed(embed)


def add_match_result(embed: Embed, view: MatchGame, names: Sequence[str]) -> Embed:
    """Add what a finished game means for its match to the result embed (if in a match)."""
    match = view.match
    if match is None:
        return embed
    text = match_result_text(match, names, view.variant)
    embed = embed.with_field(MATCH_FIELD, f"{match_line(match, names, view.variant)}\n{text}")
    return fit_embed(embed)


def rematch_embed(
    view: RematchGame, rematch: RematchCall, names: Sequence[str], host: str
) -> Embed:
    """A rematch waiting for its players: who has accepted, who deals first."""
    embed = Embed(
        title=f"🔁 Rematch — {view.variant.name}",
        description=f"**{escape(host)}** asks for a rematch: the same seats, "
        + (
            f"**{escape(names[rematch.first_dealer])}** deals first."
            if rematch.first_dealer is not None
            else "cutting for the deal."
        ),
        colour=FELT,
    )
    lines = []
    for seat in view.seats:
        if seat is None:  # a rematch holds the same (full) seats as the game before it
            continue
        name = escape(names[seat.seat])
        if seat.user_id is None:
            lines.append(f"**{seat.seat + 1}.** {name} · ready")
        elif seat.user_id in rematch.accepted:
            lines.append(f"**{seat.seat + 1}.** {name} · ✅ accepted")
        else:
            lines.append(f"**{seat.seat + 1}.** {name} · ⏳ to accept")
    embed = embed.with_field("Seats", "\n".join(lines), inline=False)
    if view.match is not None:
        embed = embed.with_field(MATCH_FIELD, match_line(view.match, names, view.variant))
    embed = embed.replace(footer="The game starts as soon as every player has accepted.")
    return fit_embed(embed)


def rematch_closed_embed(view: MatchGame, names: Sequence[str], text: str) -> Embed:
    """A rematch message once settled: started, or called off."""
    return Embed(title=f"🔁 Rematch — {view.variant.name}", description=text, colour=FELT)


def watch_footer(over: bool) -> str:
    if over:
        return "Spectators' view · the game is over"
    return "Spectators' view · kept up to date as the game goes · no hand is ever shown here"
