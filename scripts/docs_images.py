"""Draw the documentation's pictures with the bot's own renderer (``make docs-images``).

Each picture comes from a seeded game played by the ``standard`` computer player in every
seat, drawn by :mod:`bot.render.images` exactly as the bot draws it for Discord: the board of a
two-player game and of a partnership game, a player's private hand during the play, and the
show of a deal. The games are seeded, so running this again draws the same pictures; the PNGs
go to ``docs/images/`` and their alt text is :data:`ALT` (the pages use the same words).

    .venv/bin/python scripts/docs_images.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.ai import choose_action  # noqa: E402
from bot.engine import Event, Game, Phase, Shown, Variant  # noqa: E402
from bot.render import tournament_samples  # noqa: E402
from bot.render.images import game_board_png, hand_picture, shows_png  # noqa: E402

NAMES = ["Alice", "Bob", "Carol", "Dave"]

#: Each picture's file name and the alt text the pages give it.
ALT = {
    "board-2p.png": "The board of a two-player game to 121: each side's name, score, front peg "
    "and back peg, and the skunk lines at 91 and 61 in red.",
    "board-partners.png": "The board of a partnership game: one lane per team, each named after "
    "its two partners.",
    "hand-play.png": "The picture on a player's private hand during the play: the four cards "
    "kept and the starter, the hand that player will count.",
    "show.png": "The show of a deal: each hand and the crib with the starter, what each pegged "
    "and how it was counted.",
}


def play_until(game: Game, done: Callable[[Game], bool]) -> list[Event]:
    """Let ``standard`` play every seat until ``done(game)``; the events of the last deal."""
    events: list[Event] = []
    moves = 0
    while not game.is_over and not done(game):
        seat = game.to_act[0]
        moves += 1
        new = game.apply(seat, choose_action(game, seat, level="standard", seed=moves))
        if game.phase is Phase.DISCARD and not any(isinstance(e, Shown) for e in new):
            events = []
        events += new
    return events


def board_two_players() -> bytes:
    game = Game.new(
        Variant(players=2, target=121), seed=2024, first_dealer=0, hold_between_deals=True
    )
    play_until(game, lambda g: max(g.scores) >= 70 and g.phase is Phase.NEXT_DEAL)
    before = list(game.scores)  # the back pegs: the scores before the show of the next deal
    play_until(game, lambda g: g.phase is Phase.NEXT_DEAL and g.scores != before)
    return game_board_png(game, NAMES[:2], before)


def board_partners() -> bytes:
    game = Game.new(
        Variant(players=4, partnerships=True, target=121),
        seed=77,
        first_dealer=0,
        hold_between_deals=True,
    )
    play_until(game, lambda g: max(g.scores) >= 85 and g.phase is Phase.NEXT_DEAL)
    return game_board_png(game, NAMES, None)


def hand_in_play() -> bytes:
    game = Game.new(
        Variant(players=2, target=121), seed=31, first_dealer=0, hold_between_deals=True
    )

    def midway(g: Game) -> bool:  # the seat's turn with two cards laid: the picture is unchanged
        return g.phase is Phase.PLAY and 0 in g.to_act and len(g.hand(0)) == 2

    play_until(game, midway)
    return hand_picture(game, 0)()


def show_of_a_deal() -> bytes:
    game = Game.new(
        Variant(players=2, target=121), seed=11, first_dealer=0, hold_between_deals=True
    )
    events = play_until(game, lambda g: g.phase is Phase.NEXT_DEAL and g.deal_number >= 2)
    return shows_png(events, NAMES[:2])


PICTURES: dict[str, Callable[[], bytes]] = {
    "board-2p.png": board_two_players,
    "board-partners.png": board_partners,
    "hand-play.png": hand_in_play,
    "show.png": show_of_a_deal,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, draw in PICTURES.items():
        path = args.out / name
        path.write_bytes(draw())
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {ALT[name]}")
    for path in tournament_samples.write(args.out):  # the tournament pages' pictures
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
