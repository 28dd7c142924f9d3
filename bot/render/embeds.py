"""``discord.Embed`` builders: the lobby, the game message, the show, the result, rules, help.

Every builder returns an embed already inside Discord's limits (see :func:`fit_embed`). Images
are referenced, not attached: pass the attachment's file name (``"board.png"``) and send the
PNG bytes alongside as ``discord.File(io.BytesIO(png), filename="board.png")``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import GameOver, Phase, Shown, Variant

from .palette import side_colour_int
from .shapes import PublicGame
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
AUTHOR_LIMIT = 256
TOTAL_LIMIT = 6000

FELT = 0x1D5C3E  # the table's green, for embeds that belong to no side
STORY_LINES = 6


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


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Bring ``embed`` inside every Discord limit, in place (and return it).

    Title 256, description 4096, 25 fields of name 256 and value 1024, footer 2048, author 256,
    6000 in all: long texts are truncated with ``…``; beyond that the description is shortened,
    then the last fields are dropped.
    """
    if embed.title:
        embed.title = truncate(embed.title, TITLE_LIMIT)
    if embed.description:
        embed.description = truncate(embed.description, DESCRIPTION_LIMIT)
    fields = embed.fields[:FIELD_COUNT_LIMIT]
    embed.clear_fields()
    for field in fields:
        embed.add_field(
            name=truncate(field.name or "\u200b", FIELD_NAME_LIMIT) or "\u200b",
            value=truncate(field.value or "\u200b", FIELD_VALUE_LIMIT) or "\u200b",
            inline=bool(field.inline),
        )
    if embed.footer.text:
        embed.set_footer(
            text=truncate(embed.footer.text, FOOTER_LIMIT), icon_url=embed.footer.icon_url
        )
    if embed.author.name:
        embed.set_author(
            name=truncate(embed.author.name, AUTHOR_LIMIT),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    excess = len(embed) - TOTAL_LIMIT
    if excess > 0 and embed.description:
        keep = max(0, len(embed.description) - excess)
        embed.description = truncate(embed.description, keep) or None
    while len(embed) > TOTAL_LIMIT and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    return embed


# --------------------------------------------------------------------------- the lobby


def lobby_embed(
    variant: Variant,
    seats: Sequence[str | None],
    host: str,
    *,
    instructions: str | None = None,
) -> discord.Embed:
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
    embed = discord.Embed(
        title=f"Cribbage — {variant.name}",
        description=f"**{escape(host)}** is opening a table.\n{instructions}",
        colour=FELT,
    )
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    rules = f"{variant.dealt} cards each · lay away {variant.discards} · {skunk_text(variant)[2:]}"
    if variant.partnerships:
        rules += " · partners sit opposite"
    embed.add_field(name="Game", value=rules, inline=False)
    waiting = f"{open_seats} open seat{'s' if open_seats != 1 else ''}" if open_seats else "ready"
    embed.set_footer(text=f"{waiting} · /cribbage rules for the rules")
    return fit_embed(embed)


# --------------------------------------------------------------------------- the game message


def game_embed(
    game: PublicGame,
    names: Sequence[str],
    *,
    story: Sequence[str] = (),
    board_image: str | None = None,
    thumbnail: bool = False,
    story_count: int = STORY_LINES,
) -> discord.Embed:
    """The public game message: dealer, starter, count and pile, whose turn, the last few
    story lines, and the board image (``board_image`` = attachment file name; shown large, or
    small at the side with ``thumbnail=True``). Never shows a hidden card.

    Each fact has one home. The scores: the board picture when it is shown large (its legend
    names every side with its score, its pegs show what was just pegged, it draws the skunk
    lines), else the description (a line per side with a bar, for servers with pictures off).
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
    description = None if picture_scores else "\n".join(score_lines(game.scores, names, v))
    embed = discord.Embed(title=title, description=description, colour=colour)
    if game.dealer is not None and game.phase is not Phase.GAME_OVER:
        embed.add_field(name="Dealer", value=escape(names[game.dealer]), inline=True)
        starter = str(game.starter) if game.starter is not None else "not cut yet"
        embed.add_field(name="Starter", value=starter, inline=True)
    if game.phase is Phase.PLAY:
        pile = cards_text(game.pile) or "—"
        embed.add_field(name=f"Count {game.count}", value=pile, inline=True)
    embed.add_field(name="Now", value=status_text(game, names), inline=False)
    if story:
        embed.add_field(
            name="At the table",
            value=last_lines(story, FIELD_VALUE_LIMIT, story_count),
            inline=False,
        )
    if board_image:
        url = f"attachment://{board_image}"
        if thumbnail:
            embed.set_thumbnail(url=url)
        else:
            embed.set_image(url=url)
    if game.phase is not Phase.GAME_OVER:
        embed.set_footer(text="Click “Your hand” to see your cards (only you will see them).")
    return fit_embed(embed)


# --------------------------------------------------------------------------- the show


def show_embed(
    shows: Sequence[Shown],
    names: Sequence[str],
    variant: Variant,
    *,
    image: str | None = None,
) -> discord.Embed:
    """The show of one deal: a field per hand in counting order, then the crib."""
    if not shows:
        raise ValueError("Nothing was shown")
    starter = shows[0].starter
    dealer = next((s.seat for s in shows if s.crib), shows[-1].seat)
    embed = discord.Embed(
        title="The show",
        description=f"Starter **{starter}** · counted from the dealer's left, crib last",
        colour=side_colour_int(variant.side_of(dealer)),
    )
    for shown in shows[:FIELD_COUNT_LIMIT]:
        whose = "crib" if shown.crib else "hand"
        name = f"{escape(names[shown.seat])}'s {whose} — {shown.breakdown.total}"
        value = f"{hand_line(shown.cards)} + {shown.starter}\n{shown.breakdown.announce()}"
        embed.add_field(name=name, value=value, inline=False)
    if image:
        embed.set_image(url=f"attachment://{image}")
    return fit_embed(embed)


# --------------------------------------------------------------------------- the result


def result_embed(
    over: GameOver,
    names: Sequence[str],
    variant: Variant,
    *,
    image: str | None = None,
) -> discord.Embed:
    """The final result: the winner, every side's score, skunks (and what they count for)."""
    winner = escape(side_name(over.winner, names, variant))
    verb = "win" if variant.partnerships else "wins"
    embed = discord.Embed(
        title=f"🏆 {winner} {verb}!",
        description=game_over_line(over, names, variant),
        colour=side_colour_int(over.winner),
    )
    order = sorted(range(len(over.scores)), key=lambda s: (s != over.winner, -over.scores[s]))
    for side in order:
        skunk = over.skunks[side]
        note = {1: "skunked (counts as two games)", 2: "double skunked (three games)"}.get(
            skunk, "winner" if side == over.winner else ""
        )
        value = f"**{over.scores[side]}**" + (f" · {note}" if note else "")
        embed.add_field(name=escape(side_name(side, names, variant)), value=value, inline=True)
    if image:
        embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=f"{variant.name} · skunk line {variant.skunk_line}")
    return fit_embed(embed)


# --------------------------------------------------------------------------- rules and help


def rules_embed(variant: Variant | None = None) -> discord.Embed:
    """``/cribbage rules`` as an embed (the same text as :func:`text.rules_text`)."""
    return fit_embed(
        discord.Embed(title="Cribbage rules", description=rules_text(variant), colour=FELT)
    )


def help_embed(commands: Sequence[tuple[str, str]] = HELP_COMMANDS) -> discord.Embed:
    """``/cribbage help`` as an embed."""
    return fit_embed(
        discord.Embed(title="Cribbage help", description=help_text(commands), colour=FELT)
    )
