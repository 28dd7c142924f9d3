"""A deal's record with three or four players reads in a screenful: the cards of a count on one
line, the show counted with the names players use (double run, triple run, double double run),
a muggins call and the true count on the claim's line. Measured on seeded games told one click
at a time, as the table tells them."""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest

from bot.engine import Card, Dealt, Game, Played, Variant, parse_cards, score_show
from bot.engine.scoring import number_words
from bot.render.story import show_talk, tell

RECORD_LINES = 15
VARIANTS = [
    Variant(players=3),
    Variant(players=4),
    Variant(players=4, partnerships=True),
    Variant(players=3, muggins=True),
    Variant(players=4, muggins=True),
]
NAMES = ["alice", "bob", "carol", "dave"]
CARD = re.compile(r"\*\* (\S+) \(([0-9]+)\)")


def records(variant: Variant, seed: int) -> list[tuple[list[str], list[Played]]]:
    """Each whole deal of a seeded game of random legal moves: its record (told one apply at a
    time) and the cards the events say were laid."""
    names = NAMES[: variant.players]
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed, first_dealer=0)
    story: list[str] = []
    played: list[Played] = []
    deals: list[tuple[list[str], list[Played]]] = []
    tell(story, game.last_events, names, variant)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        for i, event in enumerate(events):
            if isinstance(event, Dealt):  # the deal before ends: its record is complete
                tell(story, events[:i], names, variant)
                played += [e for e in events[:i] if isinstance(e, Played)]
                deals.append((story, played))
                story, played, events = [], [], events[i:]
                break
        tell(story, events, names, variant)
        played += [e for e in events if isinstance(e, Played)]
    return deals[1:]  # (the first is the cut for the deal)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}{' muggins' * v.muggins}")
def test_a_deal_of_three_or_four_reads_in_at_most_fifteen_lines(variant):
    longest = 0
    for seed in range(8):
        for story, played in records(variant, seed):
            longest = max(longest, len(story))
            assert len(story) <= RECORD_LINES, "\n".join(story)
            # every card laid is told once, in order, with the count it made
            text = "\n".join(story)
            assert CARD.findall(text) == [(str(p.card), str(p.count)) for p in played]
            # each line of the play is one count, starting from nothing
            for line in story:
                if line.startswith("Play: "):
                    first = CARD.search(line)
                    assert first and Card.parse(first[1]).value == int(first[2])
    assert longest >= 8  # (whole deals were measured)


def test_last_card_and_go_say_who():
    (story, _), *_ = records(Variant(players=3), seed=1)
    text = "\n".join(story)
    assert re.search(r"last card: one for (alice|bob|carol) \(now [0-9]+\)", text)


@pytest.mark.parametrize(
    ("hand", "starter", "talk"),
    [
        ("3C 4D 4H 5S", "AD", "a double run is eight"),
        (
            "3C 4D 5H 6S",
            "6D",
            "fifteen two, fifteen four, fifteen six, and a double run of four is sixteen",
        ),
        ("3C 3D 4H 4S", "5D", "fifteen two, fifteen four, and a double double run is twenty"),
        (
            "3C 3D 3H 4S",
            "5D",
            "fifteen two, fifteen four, fifteen six, and a triple run is twenty-one",
        ),
        ("AC 2D 3H 5S", "5D", "fifteen two, a pair is four, and a run of three is seven"),
        ("2C 4D 6H 8S", "KD", "nineteen (nothing to count)"),
    ],
)
def test_the_show_is_counted_as_players_count_it(hand, starter, talk):
    assert show_talk(score_show(parse_cards(hand), parse_cards(starter)[0])) == talk


def test_the_names_carry_the_engines_points():
    """Double run of three 8, of four 10; double double run 16; triple run 15: each as the
    engine scores its runs and pairs (hands with nothing else to count)."""
    names = {
        "3C 4D 4H 5S 9C": ("a double run", 8),
        "AC 2D 3H 4S 4D": ("a double run of four", 10),
        "AC AD 2H 2S 3D": ("a double double run", 16),
        "AC AD AH 2S 3D": ("a triple run", 15),
    }
    for cards, (name, points) in names.items():
        *hand, starter = parse_cards(cards)
        breakdown = score_show(hand, starter)
        assert breakdown.total == points
        assert show_talk(breakdown) == f"{name} is {number_words(points)}"


def test_the_running_total_is_the_engines_total_for_every_hand():
    deck = parse_cards("AC 2D 3H 4S 5C 5D 6H 7S 8C 9D 10H JS QC KD 3C 4D")
    rng = random.Random(3)
    for five in rng.sample(list(combinations(deck, 5)), 1500):
        if len(set(five)) < 5:
            continue
        breakdown = score_show(five[:4], five[4])
        talk = show_talk(breakdown)
        if breakdown.total:
            assert talk.endswith(f" {number_words(breakdown.total)}"), talk
