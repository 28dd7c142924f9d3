"""The bracket of a single elimination: who meets whom, the results so far, as pictures and words.

**Drawn for where Discord shows it**, like the board (:mod:`.board_art`): 800 px wide, shown
400 px wide, every text at a font size of at least ``MIN_FONT`` = 24 px (12 px once shown),
never taller than 3/4 of its width. Sixteen places fit one picture at that size (four rounds
side by side, sixteen names down), so a bigger bracket is drawn in parts: a 32-place bracket as
its two halves and the final, a 64-place one as its four quarters and the finals (the
semi-finals and the final). Each part is one picture with its own alt text.

Each place is a box: the player's name (cut with an ellipsis when it does not fit; the alt text
and the embeds carry it whole), and once the pairing is decided the winner's score on the right
(the points of a single game, the games won of a match). The winner's box is light, with a
marker pointing on to the next round; the loser's is greyed and struck through, so the colour
is never the only cue. An empty place in the first round says "bye". The tournament's winner is
named in the title and their box is gold.

The alt text (:data:`ALT_LIMIT` characters at most) says the same: every match of the part and
how it ended or that it is still to play, round by round.

>>> from bot.tournament import Format, Result, Tournament
>>> t = Tournament(Format.SINGLE_ELIMINATION, ("ann", "bob", "cy"))
>>> games = [Result.bye(1, "ann"), Result.played(1, "bob", "cy", (121, 97))]
>>> [(m.first, m.second, m.winner) for m in bracket_rounds(t, games)[0]]
[('ann', '', 'ann'), ('bob', 'cy', 'bob')]
>>> alt = bracket_pictures(t, games, {"ann": "Ann", "bob": "Bob", "cy": "Cy"})[0].alt
>>> print(alt.replace(". ", "." + chr(10)))
Single-elimination bracket (3 players).
Semi-finals: Ann has a bye; Bob beat Cy 121-97.
Final: Ann v Bob, to play.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.tournament import Format, Result, Tournament, TournamentError, bracket_order

from .board_art import DISPLAY_HEIGHT, DISPLAY_WIDTH, INK, MIN_FONT, MUTED, WOOD
from .drawing import SS, WIDTH, fit_text, font, to_png

ALT_LIMIT = 1024  # characters of an attachment's description (Discord: Attachment Object)
EMPTY = ""  # a place in the bracket no player fills (the first round's byes)
PART_PLACES = 16  # the most places one picture holds, legibly
MAX_HEIGHT = WIDTH * DISPLAY_HEIGHT // DISPLAY_WIDTH

# type (1x px; shown at half that)
TITLE_FONT = 28
HEAD_FONT = MIN_FONT
NAME_FONT = MIN_FONT
SCORE_FONT = MIN_FONT

# geometry (1x)
MARGIN = 10
TITLE_H = 42
HEAD_H = 34
SLOT_H = 28
MATCH_GAP = 6
LINK_W = 22  # between two rounds' columns: the connector
PAD = 7  # inside a box, left and right

# colours
BOX = (250, 240, 218)  # a place still in play
WON = (255, 251, 240)
LOST = (224, 205, 170)
CHAMPION = (246, 205, 96)
EDGE = (150, 116, 78)
LINK = (120, 88, 56)

Slot = str | None
"""A place in a round: a player, :data:`EMPTY` (nobody), or None (not decided yet)."""


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One pairing of the bracket, decided or not.

    ``first``/``second``: the two places (see :data:`Slot`); ``result``: the recorded result
    when there is one; ``winner``: who goes through (None: not decided yet; :data:`EMPTY`:
    nobody, when both places are empty or both players dropped)."""

    round: int
    first: Slot
    second: Slot
    result: Result | None
    winner: Slot


@dataclass(frozen=True, slots=True)
class BracketPicture:
    """One picture of the bracket: its title, the PNG, its alt text and a file name for it."""

    title: str
    png: bytes
    alt: str
    file_name: str


def _decide(a: Slot, b: Slot, found: Result | None, dropped: Collection[str]) -> Slot:
    """Who goes through from ``a`` v ``b`` (the rules of :mod:`bot.tournament.bracket`)."""
    if found is not None:
        return found.winner
    if a is None or b is None:
        return None
    present = [p for p in (a, b) if p and p not in dropped]
    if a and b and len(present) == 2:
        return None  # to play
    return present[0] if present else EMPTY


def bracket_rounds(
    tournament: Tournament, results: Sequence[Result], dropped: Collection[str] = frozenset()
) -> tuple[tuple[BracketMatch, ...], ...]:
    """Every round of the bracket, each a tuple of its pairings from the top of the bracket
    down: the first round from the seeds, each later one from the winners before it (a
    place not decided yet is None)."""
    if tournament.format is not Format.SINGLE_ELIMINATION:
        raise TournamentError("A bracket is drawn for a single elimination")
    players = tournament.players
    size = 1 << tournament.total_rounds
    slots: list[Slot] = [
        players[s - 1] if s <= len(players) else EMPTY for s in bracket_order(size)
    ]
    found = {(r.round, frozenset(r.players)): r for r in results if r.second is not None}
    rounds: list[tuple[BracketMatch, ...]] = []
    for number in range(1, tournament.total_rounds + 1):
        matches = []
        for k in range(0, len(slots), 2):
            a, b = slots[k], slots[k + 1]
            result = found.get((number, frozenset((a, b)))) if a and b else None
            matches.append(BracketMatch(number, a, b, result, _decide(a, b, result, dropped)))
        rounds.append(tuple(matches))
        slots = [m.winner for m in matches]
    return tuple(rounds)


def round_name(number: int, total: int) -> str:
    """``'Final'``, ``'Semi-finals'``, ``'Quarter-finals'``, else ``'Round 2'``."""
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(
        total - number, f"Round {number}"
    )


# --------------------------------------------------------------------------- words


def _name(names: Mapping[str, str], player: str, limit: int | None) -> str:
    name = names.get(player, player)
    if limit is not None and len(name) > limit:
        return name[: max(1, limit - 1)].rstrip() + "…"
    return name


def score_words(result: Result) -> str:
    """The score of a decided pairing, the winner's side first: ``'121-97'`` for a game,
    ``'2 games to 1'`` for a match, ``'by forfeit'``."""
    if result.is_forfeit:
        return "by forfeit"
    winner = result.winner
    if len(result.games) == 1:
        game = result.games[0]
        high, low = (
            (game.first, game.second)
            if winner == result.first
            else (
                game.second,
                game.first,
            )
        )
        return f"{high}-{low}"
    won = result.games_won(winner)
    return f"{won} games to {len(result.games) - won}"


def match_words(match: BracketMatch, names: Mapping[str, str], limit: int | None = None) -> str:
    """One pairing in words (empty when there is nothing to say: two empty places).

    ``'Ann beat Bob 121-97'``, ``'Ann has a bye'``, ``'Ann v Bob, to play'``, ``'Ann v an
    opponent still to be decided'``."""
    a, b = match.first, match.second
    if not a and not b:
        return ""  # nobody here, or neither place decided yet
    if a is None or b is None:
        known = a or b
        if not known:
            return ""
        return f"{_name(names, known, limit)} v an opponent still to be decided"
    if not a or not b:
        alone = a or b
        if match.winner == EMPTY:
            return f"{_name(names, alone, limit)} withdrew"
        return f"{_name(names, alone, limit)} has a bye"
    first, second = _name(names, a, limit), _name(names, b, limit)
    if match.result is not None:
        winner = match.result.winner
        loser = b if winner == a else a
        return (
            f"{_name(names, winner, limit)} beat {_name(names, loser, limit)} "
            f"{score_words(match.result)}"
        )
    if match.winner == EMPTY:
        return f"{first} and {second} both withdrew"
    if match.winner is not None:
        loser = b if match.winner == a else a
        going, gone = _name(names, match.winner, limit), _name(names, loser, limit)
        return f"{going} goes through: {gone} withdrew"
    return f"{first} v {second}, to play"


def _alt_text(
    header: str,
    rounds: Sequence[Sequence[BracketMatch]],
    total: int,
    names: Mapping[str, str],
    limit: int | None,
) -> str:
    parts = [header]
    for matches in rounds:
        said = [w for m in matches if (w := match_words(m, names, limit))]
        name = round_name(matches[0].round, total)
        parts.append(f"{name}: {'; '.join(said)}." if said else f"{name}: still to be decided.")
    return " ".join(parts)


def bracket_alt(
    header: str,
    rounds: Sequence[Sequence[BracketMatch]],
    total: int,
    names: Mapping[str, str],
) -> str:
    """``header``, then each round's pairings in words, within :data:`ALT_LIMIT` characters:
    long names are shortened (every name to the same length) before anything is left out."""
    text = _alt_text(header, rounds, total, names, None)
    limit = max((len(n) for n in names.values()), default=0)
    while len(text) > ALT_LIMIT and limit > 4:
        limit -= 2
        text = _alt_text(header, rounds, total, names, limit)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


# --------------------------------------------------------------------------- the picture


@dataclass(frozen=True, slots=True)
class _Part:
    """A part of the bracket drawn as one picture: ``first_round``'s places ``start`` to
    ``start + places`` and the rounds that follow from them, up to ``last_round``."""

    title: str
    first_round: int
    last_round: int
    start: int
    places: int


def _parts(total: int, label: str) -> list[_Part]:
    size = 1 << total
    if size <= PART_PLACES:
        return [_Part(label, 1, total, 0, size)]
    count = size // PART_PLACES
    rounds = int(math.log2(PART_PLACES))
    kind = {2: "half", 4: "quarter"}.get(count, "part")
    parts = [
        _Part(f"{label}, {kind} {i + 1} of {count}", 1, rounds, i * PART_PLACES, PART_PLACES)
        for i in range(count)
    ]
    finals = "the final" if count == 2 else "the finals"
    parts.append(_Part(f"{label}, {finals}", rounds + 1, total, 0, count))
    return parts


def _part_rounds(
    rounds: Sequence[Sequence[BracketMatch]], part: _Part
) -> list[tuple[BracketMatch, ...]]:
    chosen = []
    places = part.places
    start = part.start
    for number in range(part.first_round, part.last_round + 1):
        first = start // 2
        chosen.append(tuple(rounds[number - 1][first : first + places // 2]))
        start //= 2
        places //= 2
    return chosen


def _slot_score(match: BracketMatch, player: str) -> str:
    result = match.result
    if result is None or result.is_forfeit:
        return ""
    if len(result.games) == 1:
        game = result.games[0]
        return str(game.first if player == result.first else game.second)
    return str(result.games_won(player))


def part_size(places: int, rounds: int) -> tuple[int, int]:
    """(width, height) at 1x of a picture of ``places`` first-round places over ``rounds``."""
    matches = places // 2
    height = MARGIN + TITLE_H + HEAD_H + matches * (2 * SLOT_H + MATCH_GAP) + MARGIN
    return WIDTH, height


def _draw_part(
    title: str,
    rounds: Sequence[Sequence[BracketMatch]],
    total: int,
    names: Mapping[str, str],
    champion: str | None,
) -> Image.Image:
    places = 2 * len(rounds[0])
    width, height = part_size(places, len(rounds))
    image = Image.new("RGB", (width * SS, height * SS), WOOD)
    draw = ImageDraw.Draw(image)

    def px(v: float) -> float:
        return v * SS

    def text(
        x: float, y: float, words: str, size: int, fill: tuple[int, int, int], anchor: str
    ) -> None:
        draw.text((px(x), px(y)), words, font=font(size), fill=fill, anchor=anchor)

    text(
        MARGIN,
        MARGIN + TITLE_H / 2,
        fit_text(title, TITLE_FONT, width - 2 * MARGIN),
        TITLE_FONT,
        INK,
        "lm",
    )
    columns = len(rounds)
    column_w = (width - 2 * MARGIN - (columns - 1) * LINK_W) / columns
    top = MARGIN + TITLE_H + HEAD_H
    # the centre of each place of the first round; each later place sits between its two
    centres = [
        top + (i // 2) * (2 * SLOT_H + MATCH_GAP) + (i % 2) * SLOT_H + SLOT_H / 2
        for i in range(places)
    ]
    for c, matches in enumerate(rounds):
        left = MARGIN + c * (column_w + LINK_W)
        right = left + column_w
        head = round_name(matches[0].round, total)
        text(
            left + column_w / 2,
            MARGIN + TITLE_H + HEAD_H / 2,
            fit_text(head, HEAD_FONT, column_w),
            HEAD_FONT,
            MUTED,
            "mm",
        )
        next_centres = []
        for k, match in enumerate(matches):
            ya, yb = centres[2 * k], centres[2 * k + 1]
            for slot, y in ((match.first, ya), (match.second, yb)):
                fill, ink = BOX, INK
                if slot and match.winner is not None and match.first and match.second:
                    if slot != match.winner:
                        fill, ink = LOST, MUTED
                    elif slot == champion and match.round == total:
                        fill = CHAMPION
                    else:
                        fill = WON
                box = (px(left), px(y - SLOT_H / 2), px(right), px(y + SLOT_H / 2))
                draw.rectangle(box, fill=fill, outline=EDGE, width=SS)
                if slot is None:
                    continue
                if slot == EMPTY:
                    if c == 0:
                        text(left + PAD, y, "bye", NAME_FONT, MUTED, "lm")
                    continue
                score = _slot_score(match, slot)
                score_w = font(SCORE_FONT).getlength(score) / SS + PAD if score else 0
                name = fit_text(names.get(slot, slot), NAME_FONT, column_w - 2 * PAD - score_w)
                text(left + PAD, y, name, NAME_FONT, ink, "lm")
                if score:
                    text(right - PAD, y, score, SCORE_FONT, ink, "rm")
                if ink == MUTED and match.winner:  # struck through: lost
                    length = font(NAME_FONT).getlength(name) / SS
                    draw.line(
                        (px(left + PAD), px(y), px(left + PAD + length), px(y)),
                        fill=MUTED,
                        width=round(px(2)),
                    )
                if slot == match.winner and match.first and match.second:  # the marker: goes on
                    draw.polygon(
                        [
                            (px(right + 1), px(y - 7)),
                            (px(right + 10), px(y)),
                            (px(right + 1), px(y + 7)),
                        ],
                        fill=LINK,
                    )
            middle = (ya + yb) / 2
            next_centres.append(middle)
            if c < columns - 1:  # the connector into the next round
                x = right + LINK_W / 2
                for y in (ya, yb):
                    draw.line((px(right), px(y), px(x), px(y)), fill=LINK, width=round(px(2)))
                draw.line((px(x), px(ya), px(x), px(yb)), fill=LINK, width=round(px(2)))
                draw.line(
                    (px(x), px(middle), px(right + LINK_W), px(middle)),
                    fill=LINK,
                    width=round(px(2)),
                )
        centres = next_centres
    return image


def bracket_pictures(
    tournament: Tournament,
    results: Sequence[Result],
    names: Mapping[str, str],
    dropped: Collection[str] = frozenset(),
    *,
    name: str | None = None,
) -> tuple[BracketPicture, ...]:
    """The bracket as pictures: one for a field of up to 16, else one per part (see the
    module). ``names``: player -> display name (plain text; the picture draws what the font
    can, the alt text says it whole); ``name``: the tournament's, for the titles."""
    rounds = bracket_rounds(tournament, results, dropped)
    total = tournament.total_rounds
    final = rounds[-1][0]
    champion = final.winner if final.winner else None
    n = len(tournament.players)
    label = f"{name} bracket" if name else "Single-elimination bracket"
    pictures = []
    parts = _parts(total, label)
    for i, part in enumerate(parts):
        chosen = _part_rounds(rounds, part)
        title = part.title
        if champion is not None:
            title += f" · winner: {names.get(champion, champion)}"
        kind = "single elimination, " if name else ""
        header = f"{part.title} ({kind}{n} players)."
        if champion is not None:
            header += f" {names.get(champion, champion)} won the tournament."
        alt = bracket_alt(header, chosen, total, names)
        png = to_png(_draw_part(title, chosen, total, names, champion))
        file_name = "bracket.png" if len(parts) == 1 else f"bracket-{i + 1}.png"
        pictures.append(BracketPicture(title, png, alt, file_name))
    return tuple(pictures)
