"""The levels and the expert's configuration: one list of levels, tuning given to a player."""

import dataclasses
import typing

import pytest

from bot.ai import EXPERT, LEVELS, ExpertConfig, Level, Player, choose_action
from bot.engine import Game, Variant


def test_the_levels_keep_their_stored_names_and_every_layer_offers_the_same():
    from bot.app import terminal
    from bot.sessions import views

    assert [str(level) for level in LEVELS] == ["easy", "standard", "expert"]
    assert Level("expert") is Level.EXPERT and Level.EXPERT == "expert"
    assert views.LEVELS == ("easy", "standard", "expert")
    assert all(type(level) is str for level in views.LEVELS)  # stored as text, as before
    assert typing.get_args(views.Level) == views.LEVELS
    assert tuple(terminal.LEVELS) == views.LEVELS


def test_a_player_refuses_an_unknown_level_and_changes_nothing():
    with pytest.raises(ValueError, match="Unknown level 'grandmaster': choose from easy"):
        Player("grandmaster")
    game = Game.new(Variant(players=2), seed=3, first_dealer=0)
    before = game.to_dict()
    with pytest.raises(ValueError, match="Unknown level"):
        choose_action(game, 1, level="grandmaster", seed=1)
    assert game.to_dict() == before


def test_the_configuration_is_frozen_and_a_benchmark_makes_another():
    with pytest.raises(dataclasses.FrozenInstanceError):
        EXPERT.search_worlds = 1  # type: ignore[misc]
    other = dataclasses.replace(EXPERT, dealer_against=0.9)
    assert other.dealer_against == 0.9 and EXPERT.dealer_against == 0.8
    assert ExpertConfig() == EXPERT


def test_a_player_plays_with_the_configuration_it_was_given():
    # A play far from the end: a player made with the shipped configuration plays as the level
    # does (the configured search itself: tests/ai/test_pegging_search.py, the dealer's weight).
    game = Game.new(Variant(players=2), seed=11, first_dealer=0)
    for seat in (1, 0):
        game.apply(seat, choose_action(game, seat, level="standard", seed=seat))
    game.apply(game.to_act[0], choose_action(game, game.to_act[0], level="standard", seed=2))
    seat = game.to_act[0]
    shipped = Player(Level.EXPERT).choose_action(game, seat, seed=5)
    assert shipped == choose_action(game, seat, level="expert", seed=5)
    assert Player(Level.EXPERT, EXPERT) == Player(Level.EXPERT)
