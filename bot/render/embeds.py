"""Embed builders: the lobby, the game message, the show, the result, rules, help.

An :class:`Embed` is the render's own description of a Discord embed (a frozen value: title,
description, colour, fields, footer, image, thumbnail); the cogs turn it into a
``discord.Embed`` in one place (``cogs.utils.payloads.to_discord``), so nothing here depends on
discord.py. Every builder returns an embed already inside Discord's limits (see
:func:`fit_embed`). Images are referenced, not attached: pass the attachment's file name
(``"board.png"``) and send the PNG bytes alongside as a file of that name.

>>> embed = Embed(title="Cribbage").with_field("Seats", "1. Alice", inline=False)
>>> embed.fields[0].name, len(embed)
('Seats', 21)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import GameOver, Phase, Shown, Variant

from .palette import side_colour_int
from .shapes import PublicGame
from .table_text import score_words
from .text import (
    HELP_COMMANDS,
    cards_text,
    escape,
    game_over_line,
    hand_line,
    help_text,
    rules_text,
    score_lines,
    side_name,
    skunk_text,
    status_text,
)

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FIELD_COUNT_LIMIT = 25
FOOTER_LIMIT = 2048
TOTAL_LIMIT = 6000

FELT = 0x1D5C3E  # the table's green, for embeds that belong to no side
STORY_LINES = 6


@dataclass(frozen=True)
class Field:
    """One field of an embed: a name over a value; ``inline`` fields sit side by side."""

    name: str
    value: str
    inline: bool = True


@dataclass(frozen=True)
class Embed:
    """What a Discord embed shows. ``colour``: 0xRRGGBB; ``image``/``thumbnail``: their URLs
    (``attachment://board.png`` for a file sent with the message); ``None`` is left out."""

    title: str | None = None
    description: str | None = None
    colour: int | None = None
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    image: str | None = None
    thumbnail: str | None = None

    def __len__(self) -> int:
        """The characters Discord counts against its 6000 (title, description, the fields'
        names and values, the footer), as ``len(discord.Embed)`` does."""
        return (
            len(self.title or "")
            + len(self.description or "")
            + sum(len(f.name) + len(f.value) for f in self.fields)
            + len(self.footer or "")
        )

    def with_field(self, name: str, value: str, *, inline: bool = True) -> Embed:
        """The same embed with one more field at the end."""
        return dataclasses.replace(self, fields=(*self.fields, Field(name, value, inline)))

    def replace(self, **changes: Any) -> Embed:
        """The same embed with ``changes`` (any of its attributes) made."""
        return dataclasses.replace(self, **changes)


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with ``…`` when cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…" if limit > 0 else ""


def last_lines(lines: Sequence[str], limit: int, count: int | None = None) -> str:
    """The last ``count`` lines that fit in ``limit`` characters whole (newest last).

    A single line too long on its own is truncated rather than dropped."""
    chosen: list[str] = []
    size = 0
    for line in reversed(lines[-count:] if count else lines):
        extra = len(line) + (1 if chosen else 0)
        if size + extra > limit:
            if not chosen:
                chosen.append(truncate(line, limit))
            break
        chosen.append(line)
        size += extra
    return "\n".join(reversed(chosen))


def fit_embed(embed: Embed) -> Embed:
    """``embed`` brought inside every Discord limit.

    Title 256, description 4096, 25 fields of name 256 and value 1024, footer 2048, 6000 in
    all: long texts are truncated with ``…``; beyond that the description is shortened, then
    the last fields are dropped.
    """
    fitted = embed.replace(
        title=truncate(embed.title, TITLE_LIMIT) if embed.title else embed.title,
        description=(
            truncate(embed.description, DESCRIPTION_LIMIT)
            if embed.description
            else embed.description
        ),
        fields=tuple(
            Field(
                name=truncate(field.name or "\u200b", FIELD_NAME_LIMIT) or "\u200b",
                value=truncate(field.value or "\u200b", FIELD_VALUE_LIMIT) or "\u200b",
                inline=field.inline,
            )
            for field in embed.fields[:FIELD_COUNT_LIMIT]
        ),
        footer=truncate(embed.footer, FOOTER_LIMIT) if embed.footer else embed.footer,
    )
    excess = len(fitted) - TOTAL_LIMIT
    if excess > 0 and fitted.description:
        keep = max(0, len(fitted.description) - excess)
        fitted = fitted.replace(description=truncate(fitted.description, keep) or None)
    while len(fitted) > TOTAL_LIMIT and fitted.fields:
        fitted = fitted.replace(fields=fitted.fields[:-1])
    return fitted


# --------------------------------------------------------------------------- the lobby


def lobby_embed(
    variant: Variant,
    seats: Sequence[str | None],
    host: str,
    *,
    instructions: str | None = None,
) -> Embed:
    """The table before the game: variant, seats (``None`` = open), host, what to click."""
    if len(seats) != variant.players:
        raise ValueError(f"{variant.players} seats expected, not {len(seats)}")
    open_seats = sum(1 for s in seats if s is None)
    lines = []
    for i, name in enumerate(seats):
        team = f" · team {'AB'[variant.side_of(i)]}" if variant.partnerships else ""
        who = escape(name) if name is not None else "*open seat*"
        mark = " (host)" if name is not None and name == host else ""
        lines.append(f"**{i + 1}.** {who}{mark}{team}")
    if instructions is None:
        if open_seats:
            instructions = (
                "Click **Join** to take a seat, or **Add computer** to fill one. "
                f"{escape(host)} clicks **Start** when the table is full."
            )
        else:
            instructions = f"The table is full: {escape(host)}, click **Start**."
    rules = f"{variant.dealt} cards each · lay away {variant.discards} · {skunk_text(variant)[2:]}"
    if variant.partnerships:
        rules += " · partners sit opposite"
    waiting = f"{open_seats} open seat{'s' if open_seats != 1 else ''}" if open_seats else "ready"
    return fit_embed(
        Embed(
            title=f"Cribbage — {variant.name}",
            description=f"**{escape(host)}** is opening a table.\n{instructions}",
            colour=FELT,
            fields=(
                Field("Seats", "\n".join(lines), inline=False),
                Field("Game", rules, inline=False),
            ),
            footer=f"{waiting} · /cribbage rules for the rules",
        )
    )


# --------------------------------------------------------------------------- the game message


def game_embed(
    game: PublicGame,
    names: Sequence[str],
    *,
    story: Sequence[str] = (),
    board_image: str | None = None,
    thumbnail: bool = False,
    story_count: int = STORY_LINES,
) -> Embed:
    """The public game message: dealer, starter, count and pile, whose turn, the last few
    story lines, and the board image (``board_image`` = attachment file name; shown large, or
    small at the side with ``thumbnail=True``). Never shows a hidden card.

    Each fact has one home. The scores: the board picture when it is shown large (its legend
    names every side with its score, its pegs show what was just pegged, it draws the skunk
    lines), with the same scores said once in plain words in the description for a screen
    reader or a client with pictures off; else the description alone (a line per side with a
    bar, for servers with pictures off).
    The count: the name of the pile's field, nowhere else. No skunk sentence: the lobby and the
    result say it; the picture or the bars (``┃``) mark it.
    """
    v = game.variant
    title = f"Cribbage — {v.name}"
    if game.deal_number:
        title += f" · deal {game.deal_number}"
    if game.phase is Phase.GAME_OVER and game.winner is not None:
        colour = side_colour_int(game.winner)
    elif game.to_act and game.phase is not Phase.DISCARD:
        colour = side_colour_int(game.variant.side_of(game.to_act[0]))
    else:
        colour = FELT
    picture_scores = bool(board_image) and not thumbnail  # a thumbnail is too small to read
    description = (
        score_words(game.scores, names, v)
        if picture_scores
        else "\n".join(score_lines(game.scores, names, v))
    )
    fields = []
    if game.dealer is not None and game.phase is not Phase.GAME_OVER:
        fields.append(Field("Dealer", escape(names[game.dealer]), inline=True))
        starter = str(game.starter) if game.starter is not None else "not cut yet"
        fields.append(Field("Starter", starter, inline=True))
    if game.phase is Phase.PLAY:
        pile = cards_text(game.pile) or "—"
        fields.append(Field(f"Count {game.count}", pile, inline=True))
    fields.append(Field("Now", status_text(game, names), inline=False))
    if story:
        fields.append(
            Field("At the table", last_lines(story, FIELD_VALUE_LIMIT, story_count), inline=False)
        )
    url = f"attachment://{board_image}" if board_image else None
    footer = None
    if game.phase is not Phase.GAME_OVER:
        footer = "Click “Your hand” to see your cards (only you will see them)."
    return fit_embed(
        Embed(
            title=title,
            description=description,
            colour=colour,
            fields=tuple(fields),
            footer=footer,
            image=None if thumbnail else url,
            thumbnail=url if thumbnail else None,
        )
    )


# --------------------------------------------------------------------------- the show


def show_embed(
    shows: Sequence[Shown],
    names: Sequence[str],
    variant: Variant,
    *,
    image: str | None = None,
) -> Embed:
    """The show of one deal: a field per hand in counting order, then the crib."""
    if not shows:
        raise ValueError("Nothing was shown")
    starter = shows[0].starter
    dealer = next((s.seat for s in shows if s.crib), shows[-1].seat)
    fields = []
    for shown in shows[:FIELD_COUNT_LIMIT]:
        whose = "crib" if shown.crib else "hand"
        name = f"{escape(names[shown.seat])}'s {whose} — {shown.breakdown.total}"
        value = f"{hand_line(shown.cards)} + {shown.starter}\n{shown.breakdown.announce()}"
        fields.append(Field(name, value, inline=False))
    return fit_embed(
        Embed(
            title="The show",
            description=f"Starter **{starter}** · counted from the dealer's left, crib last",
            colour=side_colour_int(variant.side_of(dealer)),
            fields=tuple(fields),
            image=f"attachment://{image}" if image else None,
        )
    )


# --------------------------------------------------------------------------- the result


def result_embed(
    over: GameOver,
    names: Sequence[str],
    variant: Variant,
    *,
    image: str | None = None,
) -> Embed:
    """The final result: the winner, every side's score, skunks (and what they count for)."""
    winner = escape(side_name(over.winner, names, variant))
    verb = "win" if variant.partnerships else "wins"
    order = sorted(range(len(over.scores)), key=lambda s: (s != over.winner, -over.scores[s]))
    fields = []
    for side in order:
        skunk = over.skunks[side]
        note = {1: "skunked (counts as two games)", 2: "double skunked (three games)"}.get(
            skunk, "winner" if side == over.winner else ""
        )
        value = f"**{over.scores[side]}**" + (f" · {note}" if note else "")
        fields.append(Field(escape(side_name(side, names, variant)), value, inline=True))
    return fit_embed(
        Embed(
            title=f"🏆 {winner} {verb}!",
            description=game_over_line(over, names, variant),
            colour=side_colour_int(over.winner),
            fields=tuple(fields),
            footer=f"{variant.name} · skunk line {variant.skunk_line}",
            image=f"attachment://{image}" if image else None,
        )
    )


# --------------------------------------------------------------------------- rules and help


def rules_embed(variant: Variant | None = None) -> Embed:
    """``/cribbage rules`` as an embed (the same text as :func:`text.rules_text`)."""
    return fit_embed(Embed(title="Cribbage rules", description=rules_text(variant), colour=FELT))


def help_embed(commands: Sequence[tuple[str, str]] = HELP_COMMANDS) -> Embed:
    """``/cribbage help`` as an embed."""
    return fit_embed(Embed(title="Cribbage help", description=help_text(commands), colour=FELT))
