"""Helpers shared by the render tests: deterministic games and card spotting in output."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from bot.engine import Card, Cut, Discard, Event, Game, Play, Variant
from bot.render.embeds import Embed
from cogs.utils.payloads import to_discord

NAMES = ["Alice", "Bob", "Carol", "Dave"]
CARD_TOKEN = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")


def names_for(variant: Variant) -> list[str]:
    return NAMES[: variant.players]


def cards_in(text: str) -> set[Card]:
    """Every card written in ``text`` (``"10♥"``, ``"Q♠️"``)."""
    return {Card.parse(rank + suit) for rank, suit in CARD_TOKEN.findall(text)}


def embed_text(embed: Embed) -> str:
    """The embed's JSON as Discord receives it (through the cogs' ``to_discord``)."""
    return json.dumps(to_discord(embed).to_dict(), ensure_ascii=False)


def cut_for_jack(game: Game) -> Cut:
    """A legal cut that turns a jack as the starter, if there is one (else the first cut)."""
    cuts = game.legal_actions(game.to_act[0])
    for cut in cuts:
        if game.pack[cut.depth].rank == 11:
            return cut
    return cuts[0]


def lowest_card(game: Game, seat: int) -> Play:
    return min(game.legal_actions(seat), key=lambda a: a.card)


def play_deal(
    game: Game, *, cut: Callable[[Game], Cut] | None = None, seed: int = 0
) -> list[Event]:
    """Play the current deal to its end (or the game's) with a fixed policy; all events."""
    rng = random.Random(seed)
    events: list[Event] = []
    deal = game.deal_number
    while not game.is_over and game.deal_number == deal:
        seat = game.to_act[0]
        actions = game.legal_actions(seat)
        if isinstance(actions[0], Cut):
            action = cut(game) if cut else rng.choice(actions)
        elif isinstance(actions[0], Discard):
            action = actions[0]
        else:
            action = lowest_card(game, seat)
        events += game.apply(seat, action)
    return events


def random_game(variant: Variant, seed: int) -> Game:
    return Game.new(variant, seed=seed, first_dealer=None)
