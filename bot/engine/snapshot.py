"""A game as plain JSON data, and back: how the store snapshots games.

The seed is in it (it never leaves the server); every card is its short code (``"10H"``).
"""

from __future__ import annotations

from typing import Any, Protocol

from . import muggins, muggins_rulebook, nextdeal
from .cards import Card, card_from_code
from .phase import Phase


class StoredGame(muggins.MugginsGame, Protocol):
    """What a snapshot reads of a game and restores into one (a :class:`~bot.engine.Game`)."""

    seed: int
    first_dealer: int | None
    deal_number: int
    scores: list[int]
    winner: int | None
    cut_round: int
    cut_pack: list[Card]
    cutting: list[int]
    cut_cards: dict[int, Card]
    pack: list[Card]
    _hands: list[list[Card]]
    _kept: list[list[Card]]
    _crib: list[Card]
    discarded: set[int]
    _laid_away: list[list[Card]]
    starter: Card | None
    count: int
    _pile: list[Card]
    played: list[tuple[int, Card]]
    gone: set[int]

STATE_VERSION = 1


def _codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: list[str]) -> list[Card]:
    return [card_from_code(c) for c in codes]


def game_state(game: StoredGame) -> dict[str, Any]:
    """Everything a game is, as plain JSON data."""
    state = {
        "version": STATE_VERSION,
        "variant": game.variant.to_dict(),
        "seed": str(game.seed),
        "phase": game.phase.value,
        "dealer": game.dealer,
        "first_dealer": game.first_dealer,
        "deal_number": game.deal_number,
        "scores": list(game.scores),
        "winner": game.winner,
        "cut_round": game.cut_round,
        "cutting": list(game.cutting),
        "cut_cards": {str(s): c.code for s, c in sorted(game.cut_cards.items())},
        "cut_pack": _codes(game.cut_pack),
        "pack": _codes(game.pack),
        "hands": [_codes(h) for h in game._hands],
        "kept": [_codes(k) for k in game._kept],
        "crib": _codes(game._crib),
        "discarded": sorted(game.discarded),
        "laid_away": [_codes(d) for d in game._laid_away],
        "starter": game.starter.code if game.starter else None,
        "count": game.count,
        "pile": _codes(game._pile),
        "played": [[s, c.code] for s, c in game.played],
        "turn": game.turn,
        "gone": sorted(game.gone),
    }
    if game.variant.muggins:  # absent otherwise: snapshots without muggins are unchanged
        state.update(muggins_rulebook.state(game))  # with the rules it is played under
    state.update(nextdeal.state(game))  # the hold between deals: absent when it is off
    return state


def check_version(data: dict[str, Any]) -> dict[str, Any]:
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"Unsupported game state version: {data.get('version')!r}")
    return data


def restore(game: StoredGame, data: dict[str, Any]) -> None:
    """Fill a fresh game (of the right variant and seed) from :func:`game_state` data."""
    check_version(data)
    game.phase = Phase(data["phase"])
    game.dealer = data["dealer"]
    game.first_dealer = data["first_dealer"]
    game.deal_number = data["deal_number"]
    game.scores = list(data["scores"])
    game.winner = data["winner"]
    game.cut_round = data["cut_round"]
    game.cutting = list(data["cutting"])
    game.cut_cards = {int(s): card_from_code(c) for s, c in data["cut_cards"].items()}
    game.cut_pack = _cards(data["cut_pack"])
    game.pack = _cards(data["pack"])
    game._hands = [_cards(h) for h in data["hands"]]
    game._kept = [_cards(k) for k in data["kept"]]
    game._crib = _cards(data["crib"])
    game.discarded = set(data["discarded"])
    if "laid_away" in data:  # snapshots written before it was kept have none
        game._laid_away = [_cards(d) for d in data["laid_away"]]
    game.starter = card_from_code(data["starter"]) if data["starter"] else None
    game.count = data["count"]
    game._pile = _cards(data["pile"])
    game.played = [(s, card_from_code(c)) for s, c in data["played"]]
    game.turn = data["turn"]
    game.gone = set(data["gone"])
    if game.variant.muggins:
        muggins_rulebook.restore(game, data)
    nextdeal.restore(game, data)
