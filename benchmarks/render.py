"""Rendering benchmark: board (fresh and cached), private hand, one show, a whole deal's show.

The boards are drawn 800 px wide to be shown 400 px wide (see ``bot.render.board_art``);
``board_png_kb`` is the median size of a board's PNG (what each score change uploads).

Run from the repository root: .venv/bin/python benchmarks/render.py [--repeat N]
Prints one ``name: value unit`` line per figure (median milliseconds per image).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Card, parse_cards, score_show  # noqa: E402
from bot.render.images import render_board, render_hand, render_show, render_shows  # noqa: E402

BUDGET_MS = 30.0


def median_ms(fn, inputs) -> float:
    timings = []
    for item in inputs:
        start = time.perf_counter()
        fn(item)
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    n = args.repeat

    # warm up fonts and suit shapes (process start-up, not per image)
    render_board((("Warm", 0, 1, 0), ("Up", 1, 2, 0)), 121)
    render_hand(tuple(parse_cards("AS 2H 3D 4C")))

    boards = [
        ((("Alice", 0, 3 * i % 121, 2 * i % 121), ("Bob", 1, i % 121, 0)), 121) for i in range(n)
    ]
    four = [
        (tuple((name, k, (i * 7 + k * 13) % 121, 0) for k, name in enumerate("ABCD")), 121)
        for i in range(n)
    ]
    board_ms = median_ms(lambda b: render_board(*b), boards)
    board4_ms = median_ms(lambda b: render_board(*b), four)
    cached_ms = median_ms(lambda b: render_board(*b), boards)
    png_kb = statistics.median(len(render_board(*b)) for b in boards + four) / 1024

    pack = [Card(r, s) for r in range(1, 14) for s in range(4)]
    hands = [tuple(pack[(i * 5 + k * 11) % 52] for k in range(6)) for i in range(n)]
    hand_ms = median_ms(lambda h: render_hand(h, frozenset(h[:1]), "Your hand"), hands)

    shows = []
    for i in range(n):
        cards = [pack[(i * 3 + k * 7) % 52] for k in range(5)]
        hand, starter = cards[:4], cards[4]
        shows.append((tuple(hand), starter, f"Hand {i}", score_show(hand, starter).announce()))
    show_ms = median_ms(lambda s: render_show(*s), shows)
    deals = [
        (tuple((f"Seat {k}'s hand", s[0], 12, "fifteens 8 · runs 4") for k in range(5)), s[1])
        for s in shows
    ]
    deal_show_ms = median_ms(lambda d: render_shows(*d), deals)

    print(f"board_render_ms: {board_ms:.2f} ms")
    print(f"board4_render_ms: {board4_ms:.2f} ms")
    print(f"board_cached_ms: {cached_ms:.4f} ms")
    print(f"board_png_kb: {png_kb:.1f} KB")
    print(f"hand_render_ms: {hand_ms:.2f} ms")
    print(f"show_render_ms: {show_ms:.2f} ms")
    print(f"deal_show_render_ms: {deal_show_ms:.2f} ms")
    slow = [v for v in (board_ms, board4_ms, hand_ms, show_ms, deal_show_ms) if v > BUDGET_MS]
    if slow:
        print(f"warning: over the {BUDGET_MS:.0f} ms budget", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
