"""The documentation's tournament pictures, drawn by the bot's own renderer from seeded events.

* ``tournament-bracket.png``: the bracket of an eight-player single elimination after its
  semi-finals (with a bye-free field, every result filled in so far), exactly as
  :func:`bot.render.tournament_bracket.bracket_pictures` draws it for Discord;
* ``tournament-standings.png``: the standings embed of a six-player Swiss after round 2 of 3,
  its text from :func:`bot.render.tournament.standings_embed`, drawn as Discord shows an embed
  (a dark card with the tournament's colour down its left edge).

The events are seeded, so running this again draws the same pictures::

    .venv/bin/python -m bot.render.tournament_samples docs/images
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from bot.tournament import Format, Result, Scoring, Tournament, next_round, standings

from .drawing import SS, fit_text, font, to_png
from .tournament import Setup, standings_embed
from .tournament_bracket import bracket_pictures

NAMES = {
    "p1": "Alice",
    "p2": "Bartholomew the Bold",
    "p3": "Carol",
    "p4": "Dave",
    "p5": "Evangeline",
    "p6": "Frank",
    "p7": "Gus",
    "p8": "Hana",
}

#: Each picture's file name and the alt text the pages give it.
ALT = {
    "tournament-bracket.png": "The bracket of an eight-player single elimination after the "
    "semi-finals: each match's two players, the winner's box light with the score, the "
    "loser's greyed and struck through; the final still to play.",
    "tournament-standings.png": "The standings after round 2 of a three-round Swiss: each "
    "player's place, pairings won and lost, and spread.",
}

# Discord's dark theme, for the embed's card
_CARD = (43, 45, 49)
_TEXT = (219, 222, 225)
_MUTED = (181, 186, 193)


def _play(t: Tournament, rounds: int, seed: int) -> list[Result]:
    rng = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        rnd = next_round(t, results)
        results += rnd.settled
        for p in rnd.pairings:
            low = rng.randrange(70, 119)
            score = (121, low) if rng.random() < 0.6 else (low, 121)
            results.append(Result.played(number, p.first, p.second, score))
    return results


def bracket_sample() -> bytes:
    t = Tournament(Format.SINGLE_ELIMINATION, tuple(NAMES))
    (picture,) = bracket_pictures(t, _play(t, 2, seed=7), NAMES, name="Friday cup")
    return picture.png


def standings_sample() -> bytes:
    field = tuple(list(NAMES)[:6])
    scoring = Scoring(spread_cap=31, bye_spread=15)
    t = Tournament(Format.SWISS, field, rounds=3, seed=3, scoring=scoring)
    lines = standings(t, _play(t, 2, seed=11))
    setup = Setup("Friday cribbage", Format.SWISS, rounds=3, scoring=scoring)
    embed = standings_embed(setup, lines, NAMES, after_round=2, total=3)
    return _embed_card(embed.title or "", (embed.description or "").split("\n"), embed.footer)


def _embed_card(title: str, lines: list[str], footer: str | None) -> bytes:
    """An embed as Discord shows it (title, lines, footer), 800 px wide; bold markers dropped."""
    width, pad, line_h = 800, 24, 40
    height = pad + 48 + line_h * len(lines) + (44 if footer else 0) + pad
    image = Image.new("RGB", (width * SS, height * SS), _CARD)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 8 * SS, height * SS), fill=(0x8E, 0x5A, 0x2B))
    y = pad + 18
    draw.text((pad * SS, y * SS), fit_text(title, 30, width - 2 * pad), font=font(30),
              fill=(255, 255, 255), anchor="lm")  # fmt: skip
    y += 48
    for line in lines:
        text = fit_text(line.replace("**", "").replace("*", ""), 26, width - 2 * pad)
        draw.text((pad * SS, y * SS), text, font=font(26), fill=_TEXT, anchor="lm")
        y += line_h
    if footer:
        text = fit_text(footer, 24, width - 2 * pad)
        draw.text((pad * SS, (y + 8) * SS), text, font=font(24), fill=_MUTED, anchor="lm")
    return to_png(image)


def write(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in (
        ("tournament-bracket.png", bracket_sample),
        ("tournament-standings.png", standings_sample),
    ):
        path = out / name
        path.write_bytes(draw())
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(path)
