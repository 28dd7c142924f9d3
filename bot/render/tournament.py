"""A tournament's texts and embeds: the sign-up, each round, the standings, the placings.

Pure functions over the rules' own values (:mod:`bot.tournament`: a :class:`Round`, the
:class:`Standing` lines, the :class:`Placing` lines) and a :class:`Setup`, the organiser's
settings as plain values. Players are the rules' strings (the app passes Discord ids as text);
``names`` maps each to a display name, plain text (the cog makes it harmless first): it is
escaped here wherever it goes into markdown. A player missing from ``names`` is shown by their
key. Times are Unix seconds, shown with Discord's timestamp markup (``<t:…:R>``: "in 2
hours"), which every reader sees in their own time zone. The bracket's pictures are in
:mod:`.tournament_bracket`.

>>> from bot.tournament import Format, Pairing, Round
>>> setup = Setup("Friday cribbage", Format.SWISS, rounds=3, cap=16)
>>> setup_words(setup)
'Swiss, 3 rounds · one game to 121 a pairing'
>>> rnd = Round(1, (Pairing(1, "1", "2"),))
>>> print(round_embed(setup, rnd, {"1": "Ann", "2": "Bob"}, deadline=1700000000).description)
**Table 1**: Ann v Bob
Play by <t:1700000000:f> (<t:1700000000:R>).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from bot.tournament import Format, Pairing, Placing, Result, Round, Scoring, Standing

from .embeds import FIELD_VALUE_LIMIT, Embed, Field, fit_embed
from .tournament_bracket import round_name
from .words import escape

GOLD = 0xE6B422
TOURNAMENT_COLOUR = 0x8E5A2B  # the board's wood, darker: the tournament's own messages
STANDINGS_PAGE = 20  # lines of the standings on one page
PLACINGS_SHOWN = 16  # places listed in the final placings (the standings list everyone)
THREAD_NAME_LIMIT = 100  # characters of a Discord thread's name
DEADLINE_RULES = {
    "forfeit": "a game not finished by then is lost by whoever has not played their part",
    "score": "a game not finished by then goes to whoever leads it (unstarted: a forfeit)",
}


@dataclass(frozen=True, slots=True)
class Setup:
    """The organiser's settings, as the players are told them.

    ``rounds``: a Swiss's rounds (the other formats' follow from the field); ``games_to_win``:
    1 for one game a pairing, 2 or 3 for a best of 3 or 5; ``cap``: the most players;
    ``starts_at``: when it starts by itself (None: when the organiser clicks Start);
    ``deadline_seconds``: the time a round has; ``deadline_rule``: ``"forfeit"`` or
    ``"score"`` (see :data:`DEADLINE_RULES`); ``organiser``: their display name."""

    name: str
    format: Format
    rounds: int = 0
    target: int = 121
    games_to_win: int = 1
    cap: int = 64
    starts_at: float | None = None
    deadline_seconds: int = 86_400
    deadline_rule: str = "forfeit"
    organiser: str = ""
    scoring: Scoring = field(default_factory=Scoring)


def _name(names: Mapping[str, str], player: str) -> str:
    return escape(names.get(player, player))


def ordinal(n: int) -> str:
    """``'1st'``, ``'2nd'``, ``'3rd'``, ``'11th'``, ``'22nd'``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def signed(n: int) -> str:
    """A spread with its sign: ``'+12'``, ``'-5'``, ``'0'``."""
    return f"+{n}" if n > 0 else str(n)


def duration_words(seconds: int) -> str:
    """``'2 days'``, ``'36 hours'``, ``'90 minutes'``."""
    if seconds % 86_400 == 0:
        days = seconds // 86_400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def when(at: float) -> str:
    """A moment as Discord shows it to each reader: the date and time, and how far off."""
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


def pairing_words(setup: Setup) -> str:
    """``'one game to 121'``, ``'best of 3 games to 61'``."""
    if setup.games_to_win == 1:
        return f"one game to {setup.target}"
    return f"best of {2 * setup.games_to_win - 1} games to {setup.target}"


def setup_words(setup: Setup) -> str:
    """The format and what a pairing plays, on one line."""
    if setup.format is Format.SWISS:
        form = f"Swiss, {setup.rounds} round{'s' if setup.rounds != 1 else ''}"
    elif setup.format is Format.ROUND_ROBIN:
        form = "Round robin (everyone plays everyone)"
    else:
        form = "Single elimination (seeded by rating)"
    return f"{form} · {pairing_words(setup)} a pairing"


def spread_words(scoring: Scoring) -> str:
    """How spread is counted, with the organiser's settings."""
    cap = f", at most {scoring.spread_cap} a game" if scoring.spread_cap else ""
    return (
        f"A game's margin{cap}, to the winner and against the loser · a bye "
        f"{signed(scoring.bye_spread)} · a forfeit {signed(scoring.forfeit_spread)}"
    )


def deadline_words(setup: Setup) -> str:
    return (
        f"{duration_words(setup.deadline_seconds)} a round; {DEADLINE_RULES[setup.deadline_rule]}"
    )


# --------------------------------------------------------------------------- the sign-up


def entrants_text(entrants: Sequence[str], names: Mapping[str, str]) -> str:
    """Who has joined, in order, within one field's 1024 characters (``… and 12 more``)."""
    if not entrants:
        return "Nobody yet: be the first!"
    shown: list[str] = []
    size = 0
    for i, player in enumerate(entrants):
        item = _name(names, player)
        rest = f" … and {len(entrants) - i} more"
        if size + len(item) + 2 + len(rest) > FIELD_VALUE_LIMIT:
            return ", ".join(shown) + rest
        shown.append(item)
        size += len(item) + 2
    return ", ".join(shown)


def signup_embed(
    setup: Setup,
    entrants: Sequence[str],
    names: Mapping[str, str],
    *,
    closed: str | None = None,
) -> Embed:
    """The tournament's message during sign-up: the settings, who has joined, when it starts.

    ``closed``: what the message says once sign-up is over (``"Started: round 1 is on."``,
    ``"Cancelled by the organiser."``); the cog then takes the buttons off."""
    count = f"{len(entrants)} of {setup.cap}"
    if closed is not None:
        how = closed
    elif len(entrants) >= setup.cap:
        how = "The field is full. Click **Leave** if you cannot play after all."
    else:
        how = "Click **Join** to enter, **Leave** to withdraw before it starts."
    starts = (
        when(setup.starts_at)
        if setup.starts_at is not None
        else f"when {escape(setup.organiser) or 'the organiser'} clicks **Start**"
    )
    organiser = f"Run by **{escape(setup.organiser)}**. " if setup.organiser else ""
    return fit_embed(
        Embed(
            title=f"🏆 {escape(setup.name)} — sign-up"
            if closed is None
            else f"🏆 {escape(setup.name)}",
            description=f"{organiser}{how}",
            colour=GOLD,
            fields=(
                Field("Format", setup_words(setup), inline=False),
                Field("Starts", starts, inline=True),
                Field("Round deadline", deadline_words(setup), inline=True),
                Field("Spread", spread_words(setup.scoring), inline=False),
                Field(f"Players ({count})", entrants_text(entrants, names), inline=False),
            ),
            footer="Standings: pairings won, then spread, then head-to-head "
            "(as the American Cribbage Congress ranks them)",
        )
    )


# --------------------------------------------------------------------------- a round


def round_title(setup: Setup, number: int, total: int) -> str:
    if setup.format is Format.SINGLE_ELIMINATION:
        return f"{escape(setup.name)} — {round_name(number, total)}"
    return f"{escape(setup.name)} — round {number} of {total}"


def settled_line(result: Result, names: Mapping[str, str], scoring: Scoring) -> str:
    """A bye or a forfeit the round settles without play."""
    if result.is_bye:
        return f"**Bye**: {_name(names, result.first)} (a win, spread {signed(scoring.bye_spread)})"
    loser = result.loser or ""
    return (
        f"**Forfeit**: {_name(names, result.winner)} wins against {_name(names, loser)}, "
        "who has left the tournament"
    )


def pairing_line(pairing: Pairing, names: Mapping[str, str], thread: int | None = None) -> str:
    """``**Table 1**: Ann v Bob · <#thread>``."""
    line = (
        f"**Table {pairing.table}**: {_name(names, pairing.first)} v {_name(names, pairing.second)}"
    )
    return line + (f" · <#{thread}>" if thread is not None else "")


def round_embed(
    setup: Setup,
    rnd: Round,
    names: Mapping[str, str],
    *,
    total: int | None = None,
    deadline: float | None = None,
    threads: Mapping[int, int] | None = None,
) -> Embed:
    """A round's announcement: each pairing (with its thread, ``threads``: table -> thread
    id), the byes and forfeits it settles, and the deadline."""
    total = total or setup.rounds or rnd.number
    lines = [pairing_line(p, names, (threads or {}).get(p.table)) for p in rnd.pairings]
    lines += [settled_line(r, names, setup.scoring) for r in rnd.settled]
    if deadline is not None:
        lines.append(f"Play by {when(deadline)}.")
    footer = (
        f"{pairing_words(setup).capitalize()} a pairing · each table plays in its own thread · "
        f"after the deadline {DEADLINE_RULES[setup.deadline_rule]}"
    )
    return fit_embed(
        Embed(
            title=round_title(setup, rnd.number, total),
            description="\n".join(lines),
            colour=TOURNAMENT_COLOUR,
            footer=footer,
        )
    )


def thread_name(number: int, pairing: Pairing, names: Mapping[str, str]) -> str:
    """A pairing's thread: ``'R1 T2 · Ann v Bob'``, at most 100 characters (names plain: a
    thread's name is not markdown)."""
    first, second = (
        names.get(pairing.first, pairing.first),
        names.get(pairing.second, pairing.second),
    )
    head = f"R{number} T{pairing.table} · "
    room = (THREAD_NAME_LIMIT - len(head) - 3) // 2
    if len(first) + len(second) + len(head) + 3 > THREAD_NAME_LIMIT:
        first, second = (n if len(n) <= room else n[: room - 1] + "…" for n in (first, second))
    return f"{head}{first} v {second}"


def ping_text(
    number: int, players: Sequence[int], thread: int, deadline: float | None = None
) -> str:
    """The one ping of a round for a pairing's players (their user ids): where to play, by
    when."""
    who = " ".join(f"<@{p}>" for p in players)
    by = f" Play by <t:{int(deadline)}:R>." if deadline is not None else ""
    return f"{who} round {number}: your game is in <#{thread}>.{by}"


# --------------------------------------------------------------------------- standings


def standing_line(
    line: Standing, names: Mapping[str, str], *, games: bool = False, gone: bool = False
) -> str:
    """``**1.** Ann — 3–0 · spread +45`` (``games``: the games won and lost too, for
    best-of-n pairings; ``gone``: marked as out of the tournament)."""
    parts = [f"**{line.place}.** {_name(names, line.player)} — {line.wins}–{line.losses}"]
    if games:
        parts.append(f"games {line.games_won}–{line.games_lost}")
    parts.append(f"spread {signed(line.spread)}")
    if line.byes:
        parts.append(f"{line.byes} bye{'s' if line.byes != 1 else ''}")
    if gone:
        parts.append("*left*")
    return " · ".join(parts)


def standings_embed(
    setup: Setup,
    lines: Sequence[Standing],
    names: Mapping[str, str],
    *,
    after_round: int,
    total: int,
    dropped: Collection[str] = frozenset(),
    page: int = 0,
) -> Embed:
    """The standings after ``after_round`` of ``total`` rounds (``total`` when it is over),
    :data:`STANDINGS_PAGE` lines a page: place, player, pairings won–lost, spread."""
    pages = max(1, -(-len(lines) // STANDINGS_PAGE))
    page = min(max(page, 0), pages - 1)
    chosen = lines[page * STANDINGS_PAGE : (page + 1) * STANDINGS_PAGE]
    games = setup.games_to_win > 1
    text = "\n".join(standing_line(s, names, games=games, gone=s.player in dropped) for s in chosen)
    if not after_round:
        state = "before round 1"
    elif after_round >= total:
        state = "final"
    else:
        state = f"after round {after_round} of {total}"
    footer = "W–L: pairings won and lost · ties: spread, then head-to-head"
    if pages > 1:
        footer = f"Page {page + 1} of {pages} · {footer}"
    return fit_embed(
        Embed(
            title=f"{escape(setup.name)} — standings, {state}",
            description=text or "Nobody has entered.",
            colour=TOURNAMENT_COLOUR,
            footer=footer,
        )
    )


# --------------------------------------------------------------------------- the end


def placings_embed(
    setup: Setup,
    places: Sequence[tuple[int, str]] | Sequence[Placing],
    names: Mapping[str, str],
) -> Embed:
    """The final placings, posted when the tournament ends: the winner in the title, then
    each place with who holds it (shared places on one line), the first
    :data:`PLACINGS_SHOWN` players. ``places``: (place, player) pairs in order, or an
    elimination's :class:`Placing` lines."""
    pairs = [(p.place, p.player) if isinstance(p, Placing) else p for p in places]
    lines = []
    listed = 0
    for place, group in groupby(pairs, key=lambda pair: pair[0]):
        players = [player for _, player in group]
        if listed >= PLACINGS_SHOWN:
            lines.append(f"… and {len(pairs) - listed} more: see the standings.")
            break
        medal = {1: "🥇 ", 2: "🥈 ", 3: "🥉 "}.get(place, "")
        shared = "=" if len(players) > 1 else ""
        who = ", ".join(_name(names, p) for p in players)
        lines.append(f"{medal}**{ordinal(place)}{shared}** {who}")
        listed += len(players)
    winners = [player for place, player in pairs if place == 1]
    if len(winners) == 1:
        title = f"🏆 {_name(names, winners[0])} wins {escape(setup.name)}!"
    else:
        title = f"🏆 {escape(setup.name)} is over"
    return fit_embed(
        Embed(
            title=title,
            description="\n".join(lines) or "Nobody finished.",
            colour=GOLD,
            footer=f"{setup_words(setup)} · thank you for playing!",
        )
    )


def cancelled_embed(setup: Setup, after_round: int) -> Embed:
    """The tournament's message once the organiser cancels it."""
    when_text = "before it started" if not after_round else f"during round {after_round}"
    return fit_embed(
        Embed(
            title=f"{escape(setup.name)} — cancelled",
            description=f"The organiser cancelled the tournament {when_text}. "
            "Games already finished still count for ratings and statistics.",
            colour=TOURNAMENT_COLOUR,
        )
    )
