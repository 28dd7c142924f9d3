"""Embeds for ``/cribbage leaderboard``, ``/cribbage stats`` and ``/cribbage history``.

Pure functions over records of the shapes in :mod:`.standing_records` (the store's records
have them). Players are named by ``names``: player id -> markdown-safe text (a mention
``<@id>`` or an escaped display name); computers are negative ids, one per level
(``computer_players``: level -> id, from the store). Players with fewer than
``provisional_games`` games (the store's rule) are provisional. Ratings are shown on the
display scale of :func:`bot.ratings.display_rating`: 1000 for a new player, never below 0.

>>> from types import SimpleNamespace
>>> row = SimpleNamespace(
...     rank=1, player=7, mu=30.0, sigma=2.0, games=12, wins=9, win_rate=0.75, skunks_given=2,
...     provisional=False,
... )
>>> page = SimpleNamespace(
...     pool="people", sort="rating", page=0, pages=1, total=1, rows=(row,), me=row
... )
>>> leaderboard_embed(page, {7: "Alice"}, where="everywhere", provisional_games=5).description
'**1.** Alice — **1720** · 12 games · 75% won'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import card_from_code
from bot.ratings import display_change, display_rating

from .embeds import FELT, Embed, fit_embed
from .standing_records import BoardPage, Participant, PastGame, PlayerRecord, StandingLine
from .text import cards_text

GOLD = 0xE6B422
SORT_NOTES = {
    "rating": "rating",
    "wins": "games won",
    "win rate": "win rate (established players first)",
    "skunks": "skunks given",
}
OUTCOME_MARKS = {
    "won": ("✅", "Won"),
    "lost": ("❌", "Lost"),
    "forfeited": ("🏳️", "Forfeited"),
    "abandoned": ("⏸️", "Abandoned"),
    "aborted": ("⏹️", "Aborted"),
}
RATING_NOTE = "ratings start at 1000"


def shown(mu: float, sigma: float) -> int:
    return display_rating(mu, sigma)


def percent(fraction: float) -> str:
    return f"{round(fraction * 100)}%"


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def player_name(names: Mapping[int, str], player: int) -> str:
    return names.get(player, f"Player {str(player)[-4:]}")


def participant_key(p: Participant, computer_players: Mapping[str, int]) -> int:
    """The player id of a seat: the user, or the computer level's negative id."""
    return p.user_id if p.user_id is not None else computer_players.get(p.computer or "", -2)


# --------------------------------------------------------------------------- the leaderboard


def leaderboard_line(row: StandingLine, names: Mapping[int, str], sort: str) -> str:
    """``**3.** Alice — **1182** · 40 games · 62% won`` (plus what the board is sorted on)."""
    parts = [
        f"**{row.rank}.** {player_name(names, row.player)} — **{shown(row.mu, row.sigma)}**",
        plural(row.games, "game"),
        f"{percent(row.win_rate)} won",
    ]
    if sort == "wins":
        parts.append(plural(row.wins, "win"))
    elif sort == "skunks":
        parts.append(plural(row.skunks_given, "skunk"))
    if row.provisional:
        parts.append("*provisional*")
    return " · ".join(parts)


def leaderboard_embed(
    page: BoardPage,
    names: Mapping[int, str],
    *,
    where: str,
    provisional_games: int,
    owner: int | None = None,
) -> Embed:
    """A page of ten, the owner's row marked (and added below when it ranks elsewhere);
    the footer explains that players under ``provisional_games`` games are provisional."""
    against = {"computers": " vs computers", "all": " (all games)"}.get(page.pool, "")
    embed = Embed(title=f"🏆 Cribbage leaderboard{against} — {where}", colour=GOLD)
    if not page.total:
        embed = embed.replace(
            description="Nobody has finished a game against a computer here yet."
            if page.pool == "computers"
            else "No finished games counted here yet. Start one with `/cribbage start`!"
        )
    else:
        lines = []
        for row in page.rows:
            line = leaderboard_line(row, names, page.sort)
            lines.append(f"📍 {line}" if row.player == owner else line)
        if page.me is not None and page.me not in page.rows:
            lines += ["⋯", f"📍 {leaderboard_line(page.me, names, page.sort)}"]
        embed = embed.replace(description="\n".join(lines))
    embed = embed.replace(
        footer=f"Page {page.page + 1} of {page.pages} · sorted by {SORT_NOTES[page.sort]} · "
        f"{RATING_NOTE} · provisional: under {provisional_games} games"
    )
    return fit_embed(embed)


# --------------------------------------------------------------------------- statistics


def hand_cards_text(codes: str | None) -> str:
    """``"5H 5C 5S JD|5D"`` -> ``"5♥ 5♣ 5♠ J♦ | starter 5♦"``."""
    if not codes:
        return ""
    hand, _, starter = codes.partition("|")
    text = cards_text([card_from_code(c) for c in hand.split()])
    return f"{text} | starter {cards_text([card_from_code(starter)])}" if starter else text


def best_hand_text(value: int | None, cards: str | None) -> str:
    if value is None:
        return "none shown yet"
    if value == 29:
        return f"🎉 **29 — the perfect hand!** {hand_cards_text(cards)}"
    return f"**{value}** — {hand_cards_text(cards)}"


def streak_text(stats: PlayerRecord) -> str:
    if stats.streak_won is None:
        return "—"
    if stats.streak_won:
        return f"{'🔥 ' if stats.streak >= 3 else ''}{plural(stats.streak, 'win')} in a row"
    return f"{plural(stats.streak, 'loss', 'losses')} in a row"


def stats_embed(
    stats: PlayerRecord,
    name: str,
    names: Mapping[int, str],
    *,
    where: str,
    provisional_games: int,
) -> Embed:
    """``/cribbage stats``: record, rating, skunks, points per deal, best hand, streak, rival.
    A rating from fewer than ``provisional_games`` games is marked provisional."""
    embed = Embed(title=f"📊 {name} — cribbage stats ({where})", colour=FELT)
    if not stats.games:
        embed = embed.replace(description=f"{name} has not finished a game here yet.")
        return fit_embed(embed)
    if stats.rating is not None:
        provisional = " · *provisional*" if stats.rated_games < provisional_games else ""
        embed = embed.replace(
            description=f"Rating **{shown(*stats.rating)}** · #{stats.rank} of "
            f"{stats.ranked_players} among people{provisional}"
        )
    else:
        embed = embed.replace(
            description="Not rated among people yet (only games against computers)."
        )
    people = stats.games - stats.computer_games
    record = f"{stats.wins} won · {stats.losses} lost"
    if stats.forfeits:
        record += f" ({plural(stats.forfeits, 'forfeit')})"
    embed = embed.with_field("Games", f"**{stats.games}**", inline=True)
    embed = embed.with_field("Record", record, inline=True)
    embed = embed.with_field("Win rate", f"**{percent(stats.win_rate)}**", inline=True)
    against = [f"people: {stats.wins - stats.computer_wins} of {people} won"] if people else []
    if stats.computer_games:
        against.append(f"computers: {stats.computer_wins} of {stats.computer_games} won")
    embed = embed.with_field("Against", "\n".join(against), inline=True)
    embed = embed.with_field(
        name="Skunks", value=f"{stats.skunks_given} given · {stats.skunks_taken} taken", inline=True
    )
    embed = embed.with_field("Streak", streak_text(stats), inline=True)
    embed = embed.with_field(
        name=f"Points per deal ({plural(stats.deals, 'deal')})",
        value=f"pegging **{stats.per_deal(stats.pegging):.1f}** · "
        f"hand **{stats.per_deal(stats.hand):.1f}** · crib **{stats.per_deal(stats.crib):.1f}**"
        + (f" · {plural(stats.heels, 'point')} for his heels" if stats.heels else ""),
        inline=False,
    )
    embed = embed.with_field(
        name="Best hand", value=best_hand_text(stats.best_hand, stats.best_hand_cards), inline=False
    )
    if stats.rival is not None:
        embed = embed.with_field(
            name="Favourite opponent",
            value=f"{player_name(names, stats.rival)} — {plural(stats.rival_games, 'game')}, "
            f"{stats.rival_wins} won",
            inline=False,
        )
    return fit_embed(embed)


# --------------------------------------------------------------------------- history


def _sides_text(
    people: Sequence[Participant], names: Mapping[int, str], computer_players: Mapping[str, int]
) -> list[tuple[str, int]]:
    """Seats grouped by side: ("Bob & Dave", 61)."""
    by_side: dict[int, list[Participant]] = {}
    for p in people:
        by_side.setdefault(p.side, []).append(p)
    return [
        (
            " & ".join(player_name(names, participant_key(p, computer_players)) for p in seats),
            seats[0].score,
        )
        for _, seats in sorted(by_side.items())
    ]


def history_line(
    entry: PastGame,
    names: Mapping[int, str],
    computer_players: Mapping[str, int],
    name: str = "they",
) -> str:
    """``✅ **Won** 121–98 vs Bob · game #5 · to 121 · <t:…:d> · rating +12``; ``name``: the
    player's own (for an aborted game that they left)."""
    aborted = entry.end_reason == "aborted"
    mark, word = OUTCOME_MARKS.get("aborted" if aborted else entry.outcome, ("•", entry.outcome))
    opponents = _sides_text(entry.opponents, names, computer_players)
    scores = "–".join(str(s) for s in [entry.score, *(score for _, score in opponents)])
    line = f"{mark} **{word}** {scores} vs {', '.join(n for n, _ in opponents) or 'nobody'}"
    if entry.partners:
        partners = " & ".join(
            player_name(names, participant_key(p, computer_players)) for p in entry.partners
        )
        line += f" (with {partners})"
    notes = [f"game #{entry.game_id}", f"to {entry.target}"]
    if aborted:
        leaver = _leaver(entry, names, computer_players, name)
        notes.append(f"{leaver} left before the first show: not counted")
    elif entry.skunk_taken:
        notes.append("double skunked" if entry.skunk_taken == 2 else "skunked")
    elif entry.skunk_given and entry.outcome == "won":
        notes.append("double skunk!" if entry.skunk_given == 2 else "skunk!")
    if entry.outcome != "forfeited" and entry.end_reason == "forfeit":
        notes.append("by forfeit")
    notes.append(f"<t:{int(entry.ended_at)}:d>")
    if entry.rating_before is not None and entry.rating_after is not None:
        notes.append(f"rating {display_change(entry.rating_before, entry.rating_after):+d}")
    return f"{line} · {' · '.join(notes)}"


def _leaver(
    entry: PastGame, names: Mapping[int, str], computer_players: Mapping[str, int], name: str
) -> str:
    """Who left an aborted game: the player themself (``name``) or another seat."""
    if entry.forfeit_seat is None or entry.forfeit_seat == entry.seat:
        return name
    for p in (*entry.partners, *entry.opponents):
        if p.seat == entry.forfeit_seat:
            return player_name(names, participant_key(p, computer_players))
    return "a player"


def history_embed(
    entries: Sequence[PastGame],
    name: str,
    names: Mapping[int, str],
    *,
    where: str,
    computer_players: Mapping[str, int],
) -> Embed:
    """``/cribbage history``: the latest ended games, newest first (computers named by their
    level's id in ``computer_players``)."""
    embed = Embed(title=f"📜 {name} — last games ({where})", colour=FELT)
    if not entries:
        embed = embed.replace(description=f"{name} has no ended games here yet.")
    else:
        embed = embed.replace(
            description="\n".join(history_line(e, names, computer_players, name) for e in entries)
        )
        replay = "/cribbage replay game:<number> steps through one"
        embed = embed.replace(footer=f"Newest first · {RATING_NOTE} · {replay}")
    return fit_embed(embed)


def history_players(entries: Sequence[PastGame], computer_players: Mapping[str, int]) -> set[int]:
    """Every player id a history names (to look their names up first)."""
    return {
        participant_key(p, computer_players) for e in entries for p in (*e.partners, *e.opponents)
    }
