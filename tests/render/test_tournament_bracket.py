"""The bracket picture of a single elimination: legible where Discord shows it (400 px wide),
in parts past 16 places, and told whole in its alt text (within Discord's 1,024 characters)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render import tournament_bracket as tb
from bot.render.board_art import DISPLAY_WIDTH, MIN_FONT
from bot.render.drawing import WIDTH
from bot.render.tournament_bracket import (
    ALT_LIMIT,
    EMPTY,
    bracket_pictures,
    bracket_rounds,
)
from bot.tournament import (
    Format,
    Result,
    Tournament,
    TournamentError,
    elimination_round,
    next_round,
)

LONGEST = "W" * 32  # Discord's longest display name, in its widest letter


def field(n: int) -> Tournament:
    return Tournament(Format.SINGLE_ELIMINATION, tuple(f"p{i}" for i in range(1, n + 1)))


def play(t: Tournament, rounds: int, seed: int = 1) -> list[Result]:
    """``rounds`` rounds played: the first player of each pairing wins 60% of games."""
    rng = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        rnd = next_round(t, results)
        results += rnd.settled
        for p in rnd.pairings:
            low = rng.randrange(60, 121)
            score = (121, low) if rng.random() < 0.6 else (low, 121)
            results.append(Result.played(number, p.first, p.second, score))
    return results


def size_of(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("n", [2, 3, 5, 8, 9, 13, 16, 17, 31, 32, 33, 64])
def test_every_part_is_shown_400_px_wide_and_at_most_three_quarters_as_tall(n):
    t = field(n)
    pictures = bracket_pictures(t, play(t, t.total_rounds), {})
    size = 1 << t.total_rounds
    assert len(pictures) == (1 if size <= 16 else size // 16 + 1)
    for picture in pictures:
        width, height = size_of(picture.png)
        assert width == WIDTH
        assert height <= width * 3 // 4  # taller would be shown narrower than 400 px
        assert len(picture.png) < 100_000
    assert len({p.file_name for p in pictures}) == len(pictures)


def test_every_text_is_at_least_12_px_once_shown_400_px_wide():
    for size in (tb.TITLE_FONT, tb.HEAD_FONT, tb.NAME_FONT, tb.SCORE_FONT):
        assert size >= MIN_FONT
        assert size * DISPLAY_WIDTH / WIDTH >= 12
    # a box holds its name: the name's font fits the box with room above and below
    assert tb.SLOT_H >= tb.NAME_FONT + 4


def test_the_bracket_pairs_whom_the_rules_pair_round_after_round():
    for n in (3, 6, 11, 16, 23, 40):
        t = field(n)
        results = play(t, t.total_rounds, seed=n)
        rounds = bracket_rounds(t, results)
        for number, matches in enumerate(rounds, start=1):
            rule = elimination_round(t, results, number, frozenset())
            paired = {frozenset((m.first, m.second)) for m in matches if m.first and m.second}
            assert paired == {frozenset((p.first, p.second)) for p in rule.pairings}
            byes = {m.first or m.second for m in matches if bool(m.first) != bool(m.second)}
            assert byes == set(rule.byes)


def test_the_alt_text_tells_each_match_and_its_winner():
    t = Tournament(Format.SINGLE_ELIMINATION, ("ann", "bob", "cy", "dee", "eve"))
    names = {"ann": "Ann", "bob": "Bob", "cy": "Cy", "dee": "Dee", "eve": "Eve"}
    results = [
        *next_round(t, []).settled,
        Result.played(1, "dee", "eve", (121, 90)),
        Result.played(2, "ann", "dee", (100, 121)),
    ]
    (picture,) = bracket_pictures(t, results, names, name="Friday")
    assert picture.alt == (
        "Friday bracket (single elimination, 5 players). "
        "Quarter-finals: Ann has a bye; Dee beat Eve 121-90; Bob has a bye; Cy has a bye. "
        "Semi-finals: Dee beat Ann 121-100; Bob v Cy, to play. "
        "Final: Dee v an opponent still to be decided."
    )
    results.append(
        Result.played(
            2,
            "bob",
            "cy",
            (121, 111),
        )
    )
    results.append(Result.played(3, "bob", "dee", (121, 118)))
    (done,) = bracket_pictures(t, results, names)
    assert done.title == "Single-elimination bracket · winner: Bob"
    assert done.alt.startswith("Single-elimination bracket (5 players). Bob won the tournament.")
    assert done.alt.endswith("Final: Bob beat Dee 121-118.")


def test_a_match_says_the_games_and_a_walkover_says_so():
    t = Tournament(Format.SINGLE_ELIMINATION, ("ann", "bob", "cy", "dee"), games_to_win=2)
    results = [
        Result.played(1, "ann", "dee", (121, 90), (80, 121), (121, 100)),
        Result.forfeit(1, winner="cy", loser="bob"),
    ]
    (picture,) = bracket_pictures(t, results, {}, dropped={"bob"})
    assert "ann beat dee 2 games to 1" in picture.alt
    assert "cy beat bob by forfeit" in picture.alt
    assert "Final: ann v cy, to play." in picture.alt


def test_a_dropped_player_not_yet_paired_lets_the_opponent_through():
    t = field(4)
    results = [Result.played(1, "p1", "p4", (121, 90))]
    rounds = bracket_rounds(t, results, dropped={"p2"})
    # p2 v p3 has no result yet, but p2 has left: p3 goes through
    assert rounds[0][1].winner == "p3"
    assert rounds[1][0].first == "p1" and rounds[1][0].second == "p3"
    (picture,) = bracket_pictures(t, results, {}, dropped={"p2"})
    assert "p3 goes through: p2 withdrew" in picture.alt


def test_an_empty_place_is_a_bye_and_a_later_one_waits():
    rounds = bracket_rounds(field(3), [])
    assert [(m.first, m.second, m.winner) for m in rounds[0]] == [
        ("p1", EMPTY, "p1"),
        ("p2", "p3", None),
    ]
    assert (rounds[1][0].first, rounds[1][0].second, rounds[1][0].winner) == ("p1", None, None)


def test_the_longest_names_keep_the_alt_text_within_discords_limit_and_whole_for_short_ones():
    for n in (16, 64):
        t = field(n)
        results = play(t, t.total_rounds)
        long_names = {p: f"{LONGEST[:-3]}{i:03}" for i, p in enumerate(t.players)}
        for picture in bracket_pictures(t, results, long_names):
            assert len(picture.alt) <= ALT_LIMIT
            assert "…" not in picture.alt[-2:]  # names shortened, the story not cut off
        short = {p: f"P{i}" for i, p in enumerate(t.players)}
        winners = {r.winner for r in results if not r.is_bye}
        told = " ".join(p.alt for p in bracket_pictures(t, results, short))
        for player in winners:
            assert f"{short[player]} beat" in told


def test_the_parts_of_a_64_place_bracket_cover_every_match_once():
    t = field(64)
    results = play(t, t.total_rounds)
    pictures = bracket_pictures(t, results, {})
    assert [p.title for p in pictures] == [
        *(
            f"Single-elimination bracket, quarter {i} of 4 · winner: {results[-1].winner}"
            for i in range(1, 5)
        ),
        f"Single-elimination bracket, the finals · winner: {results[-1].winner}",
    ]
    told = " ".join(p.alt for p in pictures)
    for r in results:
        assert told.count(f"{r.winner} beat {r.loser} ") == 1


def test_results_are_drawn_in():
    t = field(8)
    before = bracket_pictures(t, play(t, 1), {})[0].png
    after = bracket_pictures(t, play(t, 2), {})[0].png
    assert before != after


def test_only_an_elimination_has_a_bracket():
    with pytest.raises(TournamentError):
        bracket_rounds(Tournament(Format.SWISS, ("a", "b"), rounds=1), [])


def test_the_docs_pictures_are_the_renderers_own_and_the_pages_describe_them():
    from pathlib import Path

    from bot.render import tournament_samples

    root = Path(__file__).resolve().parents[2]
    images = root / "docs" / "images"
    assert (images / "tournament-bracket.png").read_bytes() == tournament_samples.bracket_sample()
    assert (
        images / "tournament-standings.png"
    ).read_bytes() == tournament_samples.standings_sample()
    page = (root / "docs" / "players" / "tournaments.md").read_text()
    for name, alt in tournament_samples.ALT.items():
        assert f"![{alt}](../images/{name})" in page
