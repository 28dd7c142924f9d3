"""A tournament's texts: the sign-up, a round's announcement, the standings and the placings."""

from __future__ import annotations

from bot.render.embeds import TOTAL_LIMIT
from bot.render.tournament import (
    STANDINGS_PAGE,
    Setup,
    cancelled_embed,
    duration_words,
    ordinal,
    ping_text,
    placings_embed,
    round_embed,
    signup_embed,
    standings_embed,
    thread_name,
)
from bot.tournament import (
    Format,
    Pairing,
    Result,
    Round,
    Scoring,
    Tournament,
    next_round,
    placings,
    standings,
)

NAMES = {"ann": "Ann", "bob": "Bob", "cy": "Cy", "dee": "Dee", "eve": "Eve"}
SWISS = Setup(
    "Friday cribbage",
    Format.SWISS,
    rounds=3,
    cap=8,
    deadline_seconds=2 * 86_400,
    organiser="Olga",
    scoring=Scoring(spread_cap=31, bye_spread=20, forfeit_spread=25),
)


def test_the_sign_up_says_the_settings_who_joined_and_what_to_click():
    embed = signup_embed(SWISS, ["ann", "bob"], NAMES)
    assert embed.title == "🏆 Friday cribbage — sign-up"
    assert embed.description == (
        "Run by **Olga**. Click **Join** to enter, **Leave** to withdraw before it starts."
    )
    fields = {f.name: f.value for f in embed.fields}
    assert fields == {
        "Format": "Swiss, 3 rounds · one game to 121 a pairing",
        "Starts": "when Olga clicks **Start**",
        "Round deadline": "2 days a round; a game not finished by then is lost by whoever "
        "has not played their part",
        "Spread": "A game's margin, at most 31 a game, to the winner and against the loser · "
        "a bye +20 · a forfeit +25",
        "Players (2 of 8)": "Ann, Bob",
    }
    timed = Setup("Cup", Format.SINGLE_ELIMINATION, games_to_win=2, target=61, starts_at=1.7e9)
    fields = {f.name: f.value for f in signup_embed(timed, [], NAMES).fields}
    assert fields["Starts"] == "<t:1700000000:f> (<t:1700000000:R>)"
    assert fields["Format"] == (
        "Single elimination (seeded by rating) · best of 3 games to 61 a pairing"
    )
    assert fields["Players (0 of 64)"] == "Nobody yet: be the first!"


def test_a_full_field_says_so_and_a_closed_sign_up_says_what_happened():
    full = signup_embed(SWISS, list("abcdefgh"), {})
    assert full.description.endswith(
        "The field is full. Click **Leave** if you cannot play after all."
    )
    closed = signup_embed(SWISS, ["ann"], NAMES, closed="Started: round 1 is on.")
    assert closed.title == "🏆 Friday cribbage"
    assert closed.description == "Run by **Olga**. Started: round 1 is on."


def test_names_are_escaped_and_a_long_field_stays_inside_discords_limits():
    names = {str(i): f"**{i:03}_{'x' * 26}**" for i in range(256)}
    embed = signup_embed(SWISS, list(names), names)
    players = embed.fields[-1]
    assert players.name == "Players (256 of 8)"
    assert players.value.startswith("\\*\\*000\\_")
    assert len(players.value) <= 1024 and players.value.endswith("more")
    assert len(embed) <= TOTAL_LIMIT


def test_a_round_names_each_table_its_thread_the_byes_forfeits_and_the_deadline():
    rnd = Round(
        2,
        (Pairing(1, "ann", "bob"), Pairing(2, "cy", "dee")),
        (Result.bye(2, "eve"), Result.forfeit(2, winner="fay", loser="gus")),
    )
    embed = round_embed(SWISS, rnd, NAMES, deadline=1_700_000_000, threads={1: 11, 2: 22})
    assert embed.title == "Friday cribbage — round 2 of 3"
    assert embed.description.split("\n") == [
        "**Table 1**: Ann v Bob · <#11>",
        "**Table 2**: Cy v Dee · <#22>",
        "**Bye**: Eve (a win, spread +20)",
        "**Forfeit**: fay wins against gus, who has left the tournament",
        "Play by <t:1700000000:f> (<t:1700000000:R>).",
    ]
    ko = Setup("Cup", Format.SINGLE_ELIMINATION)
    final = round_embed(ko, Round(3, (Pairing(1, "ann", "bob"),)), NAMES, total=3)
    assert final.title == "Cup — Final"


def test_a_pairings_thread_and_its_one_ping():
    assert thread_name(1, Pairing(2, "ann", "bob"), NAMES) == "R1 T2 · Ann v Bob"
    long = {"a": "A" * 80, "b": "B" * 80}
    name = thread_name(3, Pairing(12, "a", "b"), long)
    assert len(name) <= 100 and name.startswith("R3 T12 · AAA") and " v BBB" in name
    assert ping_text(2, [1, 2], 33, deadline=1_700_000_000.5) == (
        "<@1> <@2> round 2: your game is in <#33>. Play by <t:1700000000:R>."
    )


def test_the_standings_show_place_record_and_spread_as_ranked():
    t = Tournament(Format.SWISS, tuple(NAMES), rounds=3, seed=1, scoring=Scoring(bye_spread=20))
    first = next_round(t, [])
    results = [
        *first.settled,
        Result.played(1, "ann", "eve", (121, 98)),
        Result.played(1, "dee", "bob", (110, 121)),
    ]
    lines = standings(t, results)
    embed = standings_embed(SWISS, lines, NAMES, after_round=1, total=3, dropped={"eve"})
    assert embed.title == "Friday cribbage — standings, after round 1 of 3"
    assert embed.description.split("\n") == [
        "**1.** Ann — 1–0 · spread +23",
        "**2.** Cy — 1–0 · spread +20 · 1 bye",
        "**3.** Bob — 1–0 · spread +11",
        "**4.** Dee — 0–1 · spread -11",
        "**5.** Eve — 0–1 · spread -23 · *left*",
    ]
    assert embed.footer == "W–L: pairings won and lost · ties: spread, then head-to-head"
    final = standings_embed(SWISS, lines, NAMES, after_round=3, total=3)
    assert final.title == "Friday cribbage — standings, final"


def test_a_big_field_is_paged_and_a_match_shows_its_games():
    players = tuple(f"p{i}" for i in range(45))
    t = Tournament(Format.ROUND_ROBIN, players, games_to_win=2)
    lines = standings(t, [Result.played(1, "p0", "p1", (121, 100), (121, 90))])
    setup = Setup("League", Format.ROUND_ROBIN, games_to_win=2)
    last = standings_embed(setup, lines, {}, after_round=1, total=45, page=9)
    assert last.footer.startswith("Page 3 of 3 · ")
    assert len(last.description.split("\n")) == 45 - 2 * STANDINGS_PAGE
    top = standings_embed(setup, lines, {}, after_round=1, total=45)
    assert top.description.split("\n")[0] == "**1.** p0 — 1–0 · games 2–0 · spread +52"


def test_the_placings_name_the_winner_and_share_places():
    t = Tournament(Format.SINGLE_ELIMINATION, ("ann", "bob", "cy", "dee"))
    games = [
        Result.played(1, "ann", "dee", (121, 90)),
        Result.played(1, "bob", "cy", (80, 121)),
        Result.played(2, "ann", "cy", (121, 115)),
    ]
    embed = placings_embed(SWISS, placings(t, games), NAMES)
    assert embed.title == "🏆 Ann wins Friday cribbage!"
    assert embed.description.split("\n") == [
        "🥇 **1st** Ann",
        "🥈 **2nd** Cy",
        "🥉 **3rd=** Bob, Dee",
    ]
    many = [(i + 1, f"p{i}") for i in range(40)]
    listed = placings_embed(SWISS, many, {}).description.split("\n")
    assert listed[-1] == "… and 24 more: see the standings."
    assert listed[3] == "**4th** p3"


def test_small_words():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    assert duration_words(86_400) == "1 day"
    assert duration_words(36 * 3600) == "36 hours"
    assert duration_words(5400) == "90 minutes"
    assert cancelled_embed(SWISS, 2).description.startswith(
        "The organiser cancelled the tournament during round 2."
    )
