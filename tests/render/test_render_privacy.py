"""Hands are private: no public output ever names a card still hidden at that moment.

Several whole random games are played; after every action each public renderer (story, text
board, status, game/show/result embeds) is run and every card it writes is compared with the
engine's state at that instant: the cards in any hand, in the crib and in the undealt pack must
not appear, unless this very batch of events showed them before they were dealt again (the cut
for deal, or the show of the deal just ended).
"""

from __future__ import annotations

import random

import pytest

from bot.engine import CutForDeal, Game, GameOver, Shown, Variant
from bot.render import (
    board_text,
    game_embed,
    result_embed,
    show_embed,
    status_text,
    story_lines,
)
from tests.support.render import cards_in, embed_text, names_for

VARIANTS = [
    Variant(players=2),
    Variant(players=3),
    Variant(players=4),
    Variant(players=4, partnerships=True),
    Variant(players=2, target=61),
]


def hidden_cards(game: Game) -> set:
    hidden = set(game.crib) | set(game.pack) | set(game.cut_pack)
    for seat in range(game.players):
        hidden |= set(game.hand(seat))
    return hidden - ({game.starter} if game.starter else set())


def public_outputs(game: Game, events: list, names: list[str]) -> list[str]:
    variant = game.variant
    story = story_lines(events, names, variant)
    outputs = [
        *story,
        board_text(game, names),
        status_text(game, names),
        embed_text(game_embed(game, names, story=story, board_image="board.png")),
    ]
    shows = [e for e in events if isinstance(e, Shown)]
    if shows:
        outputs.append(embed_text(show_embed(shows, names, variant)))
    for event in events:
        if isinstance(event, GameOver):
            outputs.append(embed_text(result_embed(event, names, variant)))
    return outputs


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_public_output_reveals_a_hidden_card(variant, seed):
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed * 1000 + variant.players)
    names = names_for(variant)
    checked = 0
    events = list(game.last_events)
    while True:
        shown = set()  # cut for the deal or counted in the show, then dealt again
        for event in events:
            if isinstance(event, Shown):
                shown |= set(event.cards) | {event.starter}
            elif isinstance(event, CutForDeal):
                shown.add(event.card)
        hidden = hidden_cards(game) - shown
        for output in public_outputs(game, events, names):
            leaked = cards_in(output) & hidden
            assert not leaked, f"{leaked} revealed in: {output}"
            checked += 1
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 100


def test_the_check_would_catch_a_leak():
    """The spotter finds cards however they are written (plain or with emoji suits)."""
    game = Game.new(Variant(players=2), seed=4, first_dealer=0)
    hand = game.hand(1)
    from bot.render import hand_line, hand_text

    assert cards_in(hand_line(hand, emoji=True)) == set(hand)
    assert cards_in(hand_text(game, 1, ["Alice", "Bob"])) & hidden_cards(game) == set(hand)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_story_of_random_games_is_whole(variant):
    """Every apply's events read as complete lines: none empty, no fallback wording."""
    rng = random.Random(variant.players)
    names = names_for(variant)
    for seed in range(3):
        game = Game.new(variant, seed=seed)
        lines = story_lines(game.last_events, names, variant)
        while not game.is_over:
            seat = rng.choice(game.to_act)
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            batch = story_lines(events, names, variant)
            assert batch and all(line.strip() for line in batch)
            lines += batch
        text = "\n".join(lines)
        for fallback in ("(the play)", "(hand)", "(crib)", "for his heels\n", "pegs 2 for his"):
            assert fallback not in text
        assert lines[-1].startswith("🏆 ")
