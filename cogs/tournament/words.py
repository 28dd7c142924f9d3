"""A tournament's values read for the render (:mod:`bot.render.tournament`), and the short
lines the cog writes itself: a pairing's end in its thread, the organiser's changes in the
channel.

The rules' library and the render name a player by text, the place's key: ``str(user_id)`` of
who entered it. ``names`` maps each key to the display name of who plays the place now, plain
text (:class:`~cogs.utils.names.NameBook` made it harmless); the render escapes it wherever it
writes markdown, and so does every line here (:func:`~cogs.utils.names.markdown_name`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.tournament import Setup, when
from bot.render.tournament_bracket import score_words
from bot.sessions.tournament_views import PairingView, TournamentView
from bot.tournament import Format, Pairing, Result, Round, Scoring, Tournament
from cogs.utils.names import markdown_name, plain_name


def setup_of(view: TournamentView, organiser: str) -> Setup:
    """The organiser's settings as the render tells them (``organiser``: their name)."""
    s = view.settings
    return Setup(
        name=plain_name(s.name),
        format=Format(s.format),
        rounds=view.total_rounds or s.rounds,
        target=s.target,
        games_to_win=s.games_to_win,
        cap=s.cap,
        starts_at=s.starts_at,
        deadline_seconds=s.deadline_seconds,
        deadline_rule=s.deadline_rule,
        organiser=organiser,
        scoring=Scoring(s.spread_cap, s.bye_spread, s.forfeit_spread),
    )


def rules_of(view: TournamentView) -> Tournament:
    """The rules' tournament of a started one: its field in seed order, its settings."""
    s = view.settings
    fmt = Format(s.format)
    field = sorted((e for e in view.entrants if e.seed is not None), key=lambda e: e.seed or 0)
    return Tournament(
        fmt,
        tuple(str(e.user_id) for e in field),
        rounds=view.total_rounds if fmt is Format.SWISS else 0,
        target=s.target,
        games_to_win=s.games_to_win,
        scoring=Scoring(s.spread_cap, s.bye_spread, s.forfeit_spread),
    )


def results_until(view: TournamentView, last_round: int) -> list[Result]:
    """The results of rounds 1 to ``last_round`` (a later round's byes left out)."""
    return [p.result for p in view.pairings if p.result is not None and p.round <= last_round]


def dropped_of(view: TournamentView) -> frozenset[str]:
    """The places whose players left (withdrew or were dropped)."""
    return frozenset(str(e.user_id) for e in view.entrants if e.status != "entered")


def round_of(view: TournamentView, number: int) -> Round:
    """Round ``number`` as the render announces it: its pairings to play, then the byes and
    walkovers it settled when it was paired."""
    pairings = tuple(
        Pairing(p.table, str(p.first), str(p.second))
        for p in view.pairings
        if p.round == number and p.second is not None and p.decided_by not in ("bye", "drop")
    )
    settled = tuple(
        p.result
        for p in view.pairings
        if p.round == number and p.result is not None and p.decided_by in ("bye", "drop")
    )
    return Round(number, pairings, settled)


def pairing_of(p: PairingView) -> Pairing:
    """A pairing to play, as the render names it."""
    assert p.second is not None
    return Pairing(p.table, str(p.first), str(p.second))


def _named(names: Mapping[str, str], place: str) -> str:
    return f"**{markdown_name(names.get(place, place))}**"


def pairing_end(p: PairingView, names: Mapping[str, str], view: TournamentView) -> str | None:
    """What the pairing's thread is told once it is decided (None: not decided yet):
    who won and how, and where the standings (or the bracket) and the next round are."""
    result = p.result
    if result is None or result.second is None:
        return None
    winner = _named(names, result.winner)
    loser = _named(names, result.loser or "")
    if result.is_forfeit:
        how = {
            "deadline": f"{loser} had not played their part by the round's deadline",
            "withdrawal": f"{loser} withdrew from the tournament",
            "drop": f"{loser} was dropped from the tournament",
            "organiser": f"the organiser decided it against {loser}",
        }.get(p.decided_by or "", f"{loser} forfeited")
        line = f"🏁 Round {p.round}: {winner} wins this pairing: {how}."
    else:
        stood = " as the score stood at the deadline" if p.decided_by == "deadline" else ""
        line = f"🏁 Round {p.round}: {winner} beats {loser} {score_words(result)}{stood}."
    table = "bracket" if view.settings.format == Format.SINGLE_ELIMINATION.value else "standings"
    if p.round >= view.total_rounds:
        return f"{line} The final {table} and placings are posted in <#{view.channel_id}>."
    return f"{line} The {table} and the next round are posted in <#{view.channel_id}>."


def next_game_line(p: PairingView, names: Mapping[str, str], best_of: int) -> str:
    """What a pairing's thread is told when its next game starts: the game's number and who
    leads the pairing.

    >>> p = PairingView(1, 1, 7, 8, 7, 8, "playing", 5, 12, None, ((11, 61, 40),), None, None)
    >>> next_game_line(p, {"7": "ann", "8": "bob"}, 3)
    '🃏 Game 2 of this best of 3: **ann** leads 1–0.'
    """
    first = sum(1 for _, a, b in p.games if a > b)
    second = len(p.games) - first
    game = f"🃏 Game {len(p.games) + 1} of this best of {best_of}"
    if first == second:
        return f"{game}: level at {first}–{second}."
    leader = _named(names, str(p.first if first > second else p.second))
    return f"{game}: {leader} leads {max(first, second)}–{min(first, second)}."


def organiser_line(news_what: str, view: TournamentView, who: str | None = None) -> str | None:
    """The channel's line for a change the organiser (or a player) made once the tournament
    started (None: nothing to say). ``who``: the person it is about, plain text."""
    name = markdown_name(plain_name(view.settings.name))
    person = f"**{markdown_name(who)}**" if who else "A player"
    deadline = next((p.deadline_at for p in view.current if p.deadline_at is not None), None)
    by = f" Play by {when(deadline)}." if deadline is not None else ""
    lines = {
        "paused": f"⏸️ **{name}** is paused: no deadline passes and no round starts until the "
        "organiser resumes it.",
        "resumed": f"▶️ **{name}** is on again.{by}",
        "extended": f"⏰ Round {view.round} of **{name}** has more time.{by}",
        "dropped": f"🚪 The organiser dropped {person} from **{name}**: they are paired no more.",
        "withdrew": f"🚪 {person} withdrew from **{name}**: they are paired no more.",
    }
    return lines.get(news_what)


def replaced_line(view: TournamentView, gone: str, new: str) -> str:
    name = markdown_name(plain_name(view.settings.name))
    return (
        f"🔁 **{markdown_name(new)}** takes **{markdown_name(gone)}**'s place in **{name}** "
        "from its next game on."
    )
