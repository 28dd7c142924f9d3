"""The standings embeds: lines, the caller's row, provisional players, 29s, history lines."""

from __future__ import annotations

import dataclasses

from bot.render.embeds import TOTAL_LIMIT
from bot.render.standings import (
    best_hand_text,
    history_embed,
    history_line,
    leaderboard_embed,
    stats_embed,
)
from db.leaderboard import (
    PROVISIONAL_GAMES,
    HistoryEntry,
    LeaderboardPage,
    Participant,
    PlayerStats,
    StandingRow,
)
from db.standings import COMPUTER_PLAYERS

NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave", -3: "Computer (expert)"}


def row(rank: int, player: int, games: int = 10, wins: int = 6, skunks: int = 1) -> StandingRow:
    return StandingRow(rank, player, 30.0 - rank, 2.0, games, wins, 0, skunks, 0)


def page(rows, me=None, total=None, number=0, sort="rating", pool="people") -> LeaderboardPage:
    return LeaderboardPage(pool, 0, sort, number, 10, total or len(rows), tuple(rows), me)


def stats(**changes) -> PlayerStats:
    base = PlayerStats(
        user_id=1,
        scope=0,
        games=12,
        wins=7,
        forfeits=1,
        skunks_given=2,
        skunks_taken=1,
        computer_games=2,
        computer_wins=2,
        deals=120,
        pegging=300,
        hand=900,
        crib=240,
        heels=4,
        best_hand=24,
        best_hand_cards="4H 5H 6H 6D|5C",
        best_hand_game=3,
        streak_won=True,
        streak=3,
        rival=2,
        rival_games=8,
        rival_wins=5,
        rating=(27.0, 3.0),
        rated_games=10,
        rank=2,
        ranked_players=9,
    )
    return dataclasses.replace(base, **changes)


def test_leaderboard_lines_and_the_callers_row_below_the_page():
    rows = [row(1, 1), row(2, 2, games=3, wins=3)]
    embed = leaderboard_embed(
        page(rows, me=row(14, 4), total=14),
        NAMES,
        where="Club",
        provisional_games=PROVISIONAL_GAMES,
        owner=4,
    )
    lines = embed.description.splitlines()
    assert lines[0] == "**1.** Alice — **1690** · 10 games · 60% won"
    assert lines[1] == "**2.** Bob — **1660** · 3 games · 100% won · *provisional*"
    assert lines[2:] == ["⋯", "📍 **14.** Dave — **1300** · 10 games · 60% won"]
    assert embed.title == "🏆 Cribbage leaderboard — Club"
    assert embed.footer.startswith("Page 1 of 2 · sorted by rating")


def test_the_callers_row_on_the_page_is_marked_not_repeated():
    rows = [row(1, 1), row(2, 2)]
    embed = leaderboard_embed(
        page(rows, me=rows[1]), NAMES, where="Club", provisional_games=PROVISIONAL_GAMES, owner=2
    )
    assert embed.description.splitlines() == [
        "**1.** Alice — **1690** · 10 games · 60% won",
        "📍 **2.** Bob — **1660** · 10 games · 60% won",
    ]


def test_sorted_boards_show_what_they_sort_on_and_computers_are_named():
    skunks = leaderboard_embed(
        page([row(1, 1, skunks=4)], sort="skunks"),
        NAMES,
        where="x",
        provisional_games=PROVISIONAL_GAMES,
    )
    assert skunks.description.endswith("· 4 skunks")
    wins = leaderboard_embed(
        page([row(1, -3, wins=1)], sort="wins", pool="computers"),
        NAMES,
        where="x",
        provisional_games=PROVISIONAL_GAMES,
    )
    assert wins.description.startswith("**1.** Computer (expert)") and "· 1 win" in wins.description
    assert "vs computers" in wins.title


def test_an_empty_board_invites_a_game():
    embed = leaderboard_embed(page([]), NAMES, where="Club", provisional_games=PROVISIONAL_GAMES)
    assert "/cribbage start" in embed.description


def test_a_long_board_stays_inside_discords_limits():
    names = {p: "𝕏" * 32 for p in range(10)}
    rows = [row(r + 1, r) for r in range(10)]
    embed = leaderboard_embed(
        page(rows, me=row(999, 9), total=999),
        names,
        where="y" * 300,
        provisional_games=PROVISIONAL_GAMES,
    )
    assert len(embed) <= TOTAL_LIMIT and len(embed.title) <= 256


def test_stats_embed_fields():
    embed = stats_embed(
        stats(), "Alice", NAMES, where="everywhere", provisional_games=PROVISIONAL_GAMES
    )
    fields = {f.name: f.value for f in embed.fields}
    assert embed.description == "Rating **1540** · #2 of 9 among people"
    assert fields["Record"] == "7 won · 5 lost (1 forfeit)"
    assert fields["Win rate"] == "**58%**"
    assert fields["Against"] == "people: 5 of 10 won\ncomputers: 2 of 2 won"
    assert fields["Skunks"] == "2 given · 1 taken"
    assert fields["Streak"] == "🔥 3 wins in a row"
    assert fields["Points per deal (120 deals)"].startswith("pegging **2.5** · hand **7.5**")
    assert fields["Best hand"] == "**24** — 4♥ 5♥ 6♥ 6♦ | starter 5♣"
    assert fields["Favourite opponent"] == "Bob — 8 games, 5 won"


def test_a_29_is_celebrated():
    text = best_hand_text(29, "5H 5C 5S JD|5D")
    assert text.startswith("🎉 **29 — the perfect hand!**") and "J♦ | starter 5♦" in text


def test_stats_without_games_or_rating():
    assert (
        "not finished a game"
        in stats_embed(
            stats(games=0), "Eve", NAMES, where="x", provisional_games=PROVISIONAL_GAMES
        ).description
    )
    unrated = stats_embed(
        stats(rating=None, rank=None), "Eve", NAMES, where="x", provisional_games=PROVISIONAL_GAMES
    )
    assert "Not rated among people" in unrated.description
    losing = stats_embed(
        stats(streak_won=False, streak=1),
        "Eve",
        NAMES,
        where="x",
        provisional_games=PROVISIONAL_GAMES,
    )
    assert {f.name: f.value for f in losing.fields}["Streak"] == "1 loss in a row"


def entry(**changes) -> HistoryEntry:
    base = HistoryEntry(
        game_id=5,
        ended_at=1_700_000_000.0,
        status="finished",
        end_reason="won",
        players=2,
        partnerships=False,
        target=121,
        forfeit_seat=None,
        seat=0,
        side=0,
        outcome="won",
        score=121,
        skunk_given=1,
        skunk_taken=0,
        partners=(),
        opponents=(Participant(1, 1, 2, None, 88),),
        rating_before=(25.0, 8.0),
        rating_after=(27.0, 7.5),
    )
    return dataclasses.replace(base, **changes)


def test_history_lines():
    assert history_line(entry(), NAMES, COMPUTER_PLAYERS) == (
        "✅ **Won** 121–88 vs Bob · game #5 · to 121 · skunk! · <t:1700000000:d> · rating +105"
    )
    team = entry(
        players=4,
        partnerships=True,
        outcome="lost",
        score=50,
        skunk_given=0,
        skunk_taken=1,
        partners=(Participant(2, 0, 3, None, 50),),
        opponents=(Participant(1, 1, 2, None, 61), Participant(3, 1, None, "expert", 61)),
        target=61,
        rating_before=None,
        rating_after=None,
    )
    assert history_line(team, NAMES, COMPUTER_PLAYERS) == (
        "❌ **Lost** 50–61 vs Bob & Computer (expert) (with Carol) · game #5 · to 61 · skunked · "
        "<t:1700000000:d>"
    )
    conceded = entry(end_reason="forfeit", outcome="won", skunk_given=0)
    assert "· by forfeit ·" in history_line(conceded, NAMES, COMPUTER_PLAYERS)
    forfeited = entry(end_reason="forfeit", outcome="forfeited", skunk_given=0, score=40)
    assert history_line(forfeited, NAMES, COMPUTER_PLAYERS).startswith(
        "🏳️ **Forfeited** 40–88 vs Bob"
    )


def test_an_aborted_game_in_the_history_names_who_left_and_counts_nothing():
    """A forfeit before the first show is aborted: in the history it is "Aborted",
    says who left, and carries no rating change and no result."""
    aborted = dict(
        status="abandoned",
        end_reason="aborted",
        outcome="abandoned",
        score=0,
        skunk_given=0,
        rating_before=None,
        rating_after=None,
        opponents=(Participant(1, 1, 2, None, 0),),
    )
    they_left = history_line(entry(forfeit_seat=1, **aborted), NAMES, COMPUTER_PLAYERS, "Alice")
    assert they_left == (
        "⏹️ **Aborted** 0–0 vs Bob · game #5 · to 121 · Bob left before the first show: "
        "not counted · <t:1700000000:d>"
    )
    i_left = history_line(entry(forfeit_seat=0, **aborted), NAMES, COMPUTER_PLAYERS, "Alice")
    assert "Alice left before the first show: not counted" in i_left
    assert "rating" not in i_left and "Won" not in i_left and "Lost" not in i_left


def test_a_rating_change_is_shown_on_the_display_scale_and_never_below_zero():
    drop = entry(outcome="lost", skunk_given=0, rating_before=(25.0, 8.0), rating_after=(23.0, 7.8))
    assert history_line(drop, NAMES, COMPUTER_PLAYERS).endswith("· rating -42")
    floor = entry(outcome="lost", skunk_given=0, rating_before=(-40, 4), rating_after=(-41, 4))
    assert history_line(floor, NAMES, COMPUTER_PLAYERS).endswith("· rating +0")
    low = stats_embed(
        stats(rating=(-30.0, 3.0)), "Eve", NAMES, where="x", provisional_games=PROVISIONAL_GAMES
    )
    assert low.description.startswith("Rating **0** ·")


def test_history_embed():
    embed = history_embed(
        [entry(), entry(outcome="abandoned")],
        "Alice",
        NAMES,
        where="Club",
        computer_players=COMPUTER_PLAYERS,
    )
    assert embed.title == "📜 Alice — last games (Club)"
    assert embed.description.splitlines()[1].startswith("⏸️ **Abandoned**")
    assert (
        "no ended games"
        in history_embed(
            [], "Alice", NAMES, where="Club", computer_players=COMPUTER_PLAYERS
        ).description
    )
