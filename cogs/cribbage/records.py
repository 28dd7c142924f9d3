"""The deal's record, and the words for a game that ended without a winner at the board.

When a deal has been shown, the live table message becomes that deal's *record*: its whole
story (every discard, play and count), the scores, and the show picture. With a pause between
deals (``ServerSettings.next_deal_seconds``), the record is also where the table waits: it
carries **Your hand**, **Next deal** (:class:`~cogs.cribbage.buttons.NextDealButton`) and "Next
deal <t:…:R>" (Discord shows a relative time that counts down by itself), naming who has not
clicked yet (``<@id>`` sent with no allowed mentions: a name, never a notification). When the
deal starts, the record loses its buttons and its note, and the new table is posted below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import Event, Variant
from bot.render.images import shows_alt, shows_picture
from bot.render.story import scores_words
from bot.render.text import chunk, score_lines
from bot.render.words import escape, side_name
from bot.sessions import GameView, Outcome
from cogs.cribbage.buttons import HandButton, NextDealButton
from cogs.utils.items import view_of
from cogs.utils.pictures import attachment

RECORD_LIMIT = 4000  # characters of story in a record (an embed description holds 4096)


@dataclass(frozen=True)
class Pause:
    """The pause before the next deal: when it ends (epoch seconds; None if not known) and the
    people it still waits for."""

    game_id: int
    ends_at: float | None
    waiting: tuple[int, ...]


def pause_line(pause: Pause) -> str:
    """``'**Next deal** <t:…:R>, or when everyone has clicked **Next deal** (waiting for:
    <@1> <@2>).'``: the names are space-separated mentions, sent with no allowed mentions."""
    when = "**Next deal**" if pause.ends_at is None else f"**Next deal** <t:{int(pause.ends_at)}:R>"
    if not pause.waiting:
        return f"{when}."
    joiner = ", or" if pause.ends_at is not None else ""
    return (
        f"{when}{joiner} when everyone has clicked **Next deal** "
        f"(waiting for: {' '.join(f'<@{u}>' for u in pause.waiting)})."
    )


async def record_payload(
    names: Sequence[str],
    images: bool,
    *,
    deal: int,
    story: Sequence[str],
    shows: Sequence[Event],
    scores: tuple[int, ...] = (),
    variant: Variant | None = None,
    pause: Pause | None = None,
) -> dict[str, Any]:
    """The record of a deal (``pause``: while the next deal waits, its note and buttons)."""
    pages = chunk(story, limit=RECORD_LIMIT)
    embed = discord.Embed(
        title=f"Deal {deal} — the story" if deal else "The cut for the deal",
        description=pages[-1] if pages else "",
        colour=discord.Colour.dark_green(),
    )
    if scores and variant is not None and deal:
        embed.add_field(name="Scores", value="\n".join(score_lines(scores, names, variant)))
    files = []
    if shows and images:
        alt = shows_alt(shows, names)
        files.append(await attachment(shows_picture(shows, names), "show.png", description=alt))
        embed.set_image(url="attachment://show.png")
    return {"embed": embed, "attachments": files, **pause_fields(pause)}


def pause_fields(pause: Pause | None) -> dict[str, Any]:
    """The record's note and buttons: while the next deal waits, or none."""
    if pause is None:
        return {"content": None, "view": None}
    buttons = view_of(HandButton(pause.game_id), NextDealButton(pause.game_id))
    return {"content": pause_line(pause), "view": buttons}


def ending_text(view: GameView, names: Sequence[str], outcome: Outcome | None) -> str:
    """The result's words for a game that ended without a winner at the board."""
    finished = outcome.finished if outcome is not None else None
    reason = finished.reason if finished is not None else view.end_reason
    labels = [escape(side_name(side, names, view.variant)) for side in range(len(view.scores))]
    scores = scores_words(labels, view.scores)  # "alice 4, bob 13": whose score is whose
    seat = finished.forfeit_seat if finished is not None else None
    if reason == "aborted":
        called_off = "the game was called off before the first show: not rated."
        if seat is None:
            return called_off[0].upper() + called_off[1:]
        return f"**{escape(names[seat])}** forfeited; {called_off}"
    if reason == "forfeit" and seat is not None:
        return f"**{escape(names[seat])}** forfeited. Final scores: {scores}."
    if reason == "abandoned":
        return f"The game was abandoned after a long wait. Scores: {scores}."
    return f"The game ended. Scores: {scores}."
