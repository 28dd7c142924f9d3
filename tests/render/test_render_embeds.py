"""Embeds: what they say, and that they always respect Discord's limits."""

from __future__ import annotations

import pytest

from bot.engine import Game, GameOver, Shown, Variant, parse_cards, score_show
from bot.render import (
    fit_embed,
    game_embed,
    help_embed,
    lobby_embed,
    result_embed,
    rules_embed,
    show_embed,
    side_colour_int,
)
from bot.render.embeds import Embed, Field, last_lines, truncate
from bot.render.text import score_bar
from cogs.utils.payloads import to_discord
from tests.support.render import NAMES, embed_text, names_for, play_deal

TWO = Variant(players=2)
PAIRS = Variant(players=4, partnerships=True)


def assert_within_limits(embed: Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name) <= 256
        assert 0 < len(field.value) <= 1024
    assert len(embed.footer or "") <= 2048
    assert len(embed) <= 6000
    assert len(to_discord(embed)) == len(embed)  # Discord counts what the render counts


def test_truncate_and_last_lines():
    assert truncate("hello", 5) == "hello"
    assert truncate("hello world", 6) == "hello…"
    assert len(truncate("x" * 5000, 4096)) == 4096
    lines = [f"line {i}" for i in range(10)]
    assert last_lines(lines, 1024, 3) == "line 7\nline 8\nline 9"
    assert last_lines(lines, 13) == "line 8\nline 9"
    assert last_lines(["y" * 2000], 1024) == "y" * 1023 + "…"


def test_fit_embed_brings_anything_inside_the_limits():
    embed = Embed(
        title="t" * 300,
        description="d" * 5000,
        fields=tuple(Field(f"n{i}" * 200, "v" * 2000) for i in range(30)),
        footer="f" * 3000,
    )
    fitted = fit_embed(embed)
    assert_within_limits(fitted)
    assert fitted.title == "t" * 255 + "…" and fitted.footer == "f" * 2047 + "…"
    assert embed.title == "t" * 300  # an embed is a value: fitting makes a new one


def test_lobby_embed():
    embed = lobby_embed(Variant(players=3), ["Alice", None, "Computer (expert)"], "Alice")
    text = embed_text(embed)
    assert "3 players, to 121" in embed.title
    assert "**1.** Alice (host)" in text and "*open seat*" in text
    assert "Computer (expert)" in text and "**Join**" in text
    assert embed.footer.startswith("1 open seat")
    full = lobby_embed(PAIRS, NAMES, "Bob")
    assert "team A" in embed_text(full) and "click **Start**" in full.description
    assert_within_limits(full)
    with pytest.raises(ValueError):
        lobby_embed(TWO, ["Alice"], "Alice")


def test_game_embed_during_the_play():
    game = Game.new(TWO, seed=39, first_dealer=0)
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    game.apply(1, game.legal_actions(1)[0])
    game.apply(1, game.legal_actions(1)[0])
    embed = game_embed(game, ["Alice", "Bob"], story=["one", "two"], board_image="board.png")
    fields = {f.name: f.value for f in embed.fields}
    assert embed.title == "Cribbage — 2 players, to 121 · deal 1"
    assert fields["Dealer"] == "Alice" and fields["Starter"] == str(game.starter)
    assert fields[f"Count {game.count}"] == " ".join(str(c) for c in game.pile)
    assert fields["Now"] == "Alice to play"  # the count once: in the pile's field
    assert embed_text(embed).count(f"ount {game.count}") == 1
    assert fields["At the table"] == "one\ntwo"
    assert embed.image == "attachment://board.png"
    assert embed.colour == side_colour_int(0)
    # the scores live in the picture, said once in plain words: no bars, no "2/121", no skunk
    assert embed.description == "Score: Alice 0, Bob 0, playing to 121."
    assert "/121" not in embed_text(embed) and "skunk" not in embed_text(embed)
    thumb = game_embed(game, ["Alice", "Bob"], board_image="board.png", thumbnail=True)
    assert thumb.thumbnail == "attachment://board.png" and not thumb.image
    assert thumb.description.startswith("**Alice**")  # a thumbnail is too small to read


def test_game_embed_without_pictures_has_the_scores_in_words():
    """A server with pictures off (``images=False``): the text is the scores' one home."""
    game = Game.new(TWO, seed=39, first_dealer=0)
    game.scores = [84, 62]
    embed = game_embed(game, ["Alice", "Bob"], story=["one"])
    assert embed.description.splitlines() == [
        f"**Alice** {score_bar(84, 121)} 84/121",
        f"**Bob** {score_bar(62, 121)} 62/121",
    ]
    assert "skunk" not in embed_text(embed) and not embed.image


def test_game_embed_keeps_the_newest_story_within_limits():
    game = Game.new(PAIRS, seed=1, first_dealer=0)
    names = ["N" * 300 + str(i) for i in range(4)]
    story = [f"{i} " + "x" * 400 for i in range(50)]
    embed = game_embed(game, names, story=story)
    assert_within_limits(embed)
    table = next(f.value for f in embed.fields if f.name == "At the table")
    assert table.endswith(story[-1])


def test_show_embed():
    starter = parse_cards("5D")[0]
    hands = [parse_cards("5H 5C JD QS"), parse_cards("2C 4D 6H 8S"), parse_cards("AC 2D 3H KS")]
    shows = [
        Shown(1, tuple(hands[0]), starter, False, score_show(hands[0], starter)),
        Shown(0, tuple(hands[1]), starter, False, score_show(hands[1], starter)),
        Shown(0, tuple(hands[2]), starter, True, score_show(hands[2], starter, crib=True)),
    ]
    embed = show_embed(shows, ["Alice", "Bob"], TWO, image="show.png")
    names = [f.name for f in embed.fields]
    assert names == ["Bob's hand — 21", "Alice's hand — 7", "Alice's crib — 7"]
    assert embed.fields[0].value.startswith("5♣ 5♥ J♦ Q♠ + 5♦\nfifteen two")
    assert "Starter **5♦**" in embed.description
    assert embed.image == "attachment://show.png"
    assert_within_limits(embed)


def test_result_embed():
    embed = result_embed(GameOver(0, (121, 84), (0, 1)), ["Alice", "Bob"], TWO)
    assert embed.title == "🏆 Alice wins!"
    assert embed.description == "🏆 **Alice** wins with 121, Bob 84 (skunked)"
    assert [(f.name, f.value) for f in embed.fields] == [
        ("Alice", "**121** · winner"),
        ("Bob", "**84** · skunked (counts as two games)"),
    ]
    team = result_embed(GameOver(1, (50, 121), (2, 0)), NAMES, PAIRS)
    assert team.title == "🏆 Bob & Dave win!"
    assert "double skunked" in embed_text(team)
    assert team.colour == side_colour_int(1)


def test_rules_and_help_embeds():
    assert_within_limits(rules_embed(PAIRS))
    assert_within_limits(help_embed())


@pytest.mark.parametrize("variant", [TWO, Variant(players=3), PAIRS, Variant(players=4, target=61)])
def test_every_game_embed_of_a_game_is_within_limits(variant):
    game = Game.new(variant, seed=8, first_dealer=0)
    names = [n * 40 for n in names_for(variant)]  # long names
    story: list[str] = []
    from bot.render import story_lines

    while not game.is_over:
        events = play_deal(game, seed=game.deal_number)
        story += story_lines(events, names, variant)
        assert_within_limits(game_embed(game, names, story=story, board_image="b.png"))
        shows = [e for e in events if isinstance(e, Shown)]
        if shows:
            assert_within_limits(show_embed(shows, names, variant))
    over = next(e for e in game.last_events if isinstance(e, GameOver))
    assert_within_limits(result_embed(over, names, variant))
