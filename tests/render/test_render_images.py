"""Images: PNG bytes of the right size, cached, changing with the score; golden boards.

Regenerate the golden images after an intended change of look with::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render_images.py -q

and look at them (tests/render/golden/*.png) before committing.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine import Card, Game, Phase, Shown, Variant, parse_cards, score_show
from bot.render import (
    board_sides,
    game_board_png,
    hand_png,
    render_board,
    render_hand,
    render_show,
    render_shows,
    show_png,
    shows_png,
)
from bot.render.board_art import (
    INK,
    _board_image,
    _board_palette,
    _board_track,
    _BoardLayout,
    _pegs_patch,
    _touching,
)
from bot.render.cards_art import (
    TABLE,
    TABLE_INK,
    _hand_image,
    _hand_palette,
    _shows_image,
    _shows_palette,
)
from bot.render.drawing import SS, encode_png, font, lighten, text_tile
from bot.render.images import HandPicture, game_hand_png, printable
from bot.render.palette import side_colour
from bot.render.text import breakdown_summary
from tests.support.render import NAMES, cut_for_jack, play_deal

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 100_000


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


# --------------------------------------------------------------------------- the board

BOARDS = {
    "board_two_mid_game": ((("Alice", 0, 84, 77), ("Bob", 1, 62, 50)), 121),
    "board_three_at_start": ((("Alice", 0, 0, 0), ("Bob", 1, 0, 0), ("Carol", 2, 0, 0)), 121),
    "board_four_finish": (
        (
            ("Alice", 0, 121, 113),
            ("Bob", 1, 90, 84),
            ("Carol", 2, 60, 60),
            ("Computer (expert)", 3, 31, 0),
        ),
        121,
    ),
    "board_partners_to_61": ((("Alice & Carol", 0, 45, 38), ("Bob & Dave", 1, 30, 29)), 61),
}


@pytest.mark.parametrize("name", BOARDS)
def test_board_is_a_small_png_800_wide(name):
    sides, target = BOARDS[name]
    png = render_board(sides, target)
    image = decode(png)
    assert image.width == 800
    assert 200 <= image.height <= 700
    assert len(png) < MAX_BYTES


def test_board_changes_with_the_score_and_only_then():
    base = (("Alice", 0, 40, 35), ("Bob", 1, 30, 22))
    same = render_board(base, 121)
    moved = render_board((("Alice", 0, 42, 40), ("Bob", 1, 30, 22)), 121)
    back_only = render_board((("Alice", 0, 40, 36), ("Bob", 1, 30, 22)), 121)
    assert same == render_board(tuple(base), 121)
    assert decode(same).tobytes() != decode(moved).tobytes()
    assert decode(same).tobytes() != decode(back_only).tobytes()
    other_colour = render_board((("Alice", 2, 40, 35), ("Bob", 1, 30, 22)), 121)
    assert decode(same).tobytes() != decode(other_colour).tobytes()


def test_board_is_cached():
    sides = (("Cache", 0, 17, 9), ("Test", 1, 12, 4))
    render_board.cache_clear()
    render_board(sides, 121)
    start = time.perf_counter()
    again = render_board(sides, 121)
    assert time.perf_counter() - start < 0.005
    assert render_board.cache_info().hits == 1
    assert again == render_board(sides, 121)


def test_board_renders_fast_enough():
    """The budget is 30 ms an image; allow slack for a busy test machine."""
    render_board((("Warm", 0, 1, 0), ("Up", 1, 2, 0)), 121)
    timings = []
    for score in range(5):
        start = time.perf_counter()
        render_board((("Speed", 0, 50 + score, 40), ("Test", 1, 60, 55)), 121)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 0.1


def test_board_from_a_game_and_its_checks():
    game = Game.new(Variant(players=4, partnerships=True), seed=3, first_dealer=0)
    game.scores = [20, 14]
    png = game_board_png(game, NAMES, previous_scores=[12, 14])
    assert png == render_board((("Alice & Carol", 0, 20, 12), ("Bob & Dave", 1, 14, 14)), 121)
    assert board_sides(["A", "B"], [5, 6]) == (("A", 0, 5, 5), ("B", 1, 6, 6))
    with pytest.raises(ValueError):
        render_board((), 121)
    with pytest.raises(ValueError):
        render_board((("A", 0, 1, 0),), 100)


def test_names_the_font_cannot_draw_are_spelled_plainly():
    assert printable("Zoë — Jürgen") == "Zoe - Jurgen"
    assert printable("李 😀") == "? ?"
    png = render_board((("Zoë", 0, 5, 0), ("李雷 😀", 1, 7, 0)), 121)
    assert len(png) < MAX_BYTES


# --------------------------------------------------------------------------- cards


def test_hand_image():
    cards = tuple(parse_cards("AS 5H 10D JC QH KS"))
    png = render_hand(cards, frozenset(cards[-1:]), "Your hand — lay away 2")
    image = decode(png)
    assert image.width == 2 * 18 + 6 * 104 + 5 * 12
    assert len(png) < MAX_BYTES
    assert hand_png(cards[:4]) == render_hand(cards[:4])
    assert decode(hand_png(cards[:4])).width < image.width
    assert render_hand(cards) != render_hand(cards, frozenset(cards[:1]))
    with pytest.raises(ValueError):
        render_hand(())
    with pytest.raises(ValueError):
        render_hand(cards + (Card.parse("2C"),))


def test_show_image():
    hand, starter = parse_cards("5H 5C 5S JD"), Card.parse("5D")
    shown = Shown(0, tuple(hand), starter, False, score_show(hand, starter))
    png = show_png(shown, ["Alice", "Bob"])
    image = decode(png)
    assert 560 <= image.width <= 800
    assert len(png) < MAX_BYTES
    assert png == render_show(
        tuple(sorted(hand)), starter, "Alice's hand - 29", shown.breakdown.announce()
    )


def test_shows_image_of_a_whole_deal():
    game = Game.new(Variant(players=4), seed=5, first_dealer=2)
    shows = [e for e in play_deal(game) if isinstance(e, Shown)]
    png = shows_png(shows, NAMES)
    image = decode(png)
    assert image.width == 800 and image.height < 700
    assert len(png) < MAX_BYTES
    first = shows[0]
    assert png == render_shows(
        tuple(
            (
                f"{NAMES[s.seat]}'s {'crib' if s.crib else 'hand'}",
                tuple(sorted(s.cards)),
                s.breakdown.total,
                breakdown_summary(s.breakdown),
            )
            for s in shows
        ),
        first.starter,
    )
    with pytest.raises(ValueError):
        shows_png([], NAMES)


def test_breakdown_summary():
    hand, starter = parse_cards("5H 5C 5S JD"), Card.parse("5D")
    assert breakdown_summary(score_show(hand, starter)) == "fifteens 16 · pairs 12 · nobs 1"
    hand, starter = parse_cards("2C 4D 6H 8S"), Card.parse("KD")
    assert breakdown_summary(score_show(hand, starter)) == "nineteen"


def test_private_hand_image_follows_the_deal():
    game = Game.new(Variant(players=2), seed=39, first_dealer=0)
    dealt = tuple(game.hand(1))
    assert game_hand_png(game, 1) == render_hand(dealt, frozenset())
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    assert game_hand_png(game, 1) == render_hand(tuple(game.kept(1)), frozenset())
    game.apply(1, cut_for_jack(game))
    # from the cut to the show: the kept hand and the starter, the same all through the play
    # (the message's text and buttons say what is still held, the turn and the count)
    counted = {s: render_hand(tuple(game.kept(s)), frozenset(), "", game.starter) for s in (0, 1)}
    assert counted[0] != counted[1]
    laid = 0
    while game.phase is Phase.PLAY:
        for s in (0, 1):
            assert game_hand_png(game, s) == counted[s]
        seat = game.to_act[0]
        game.apply(seat, min(game.legal_actions(seat), key=lambda a: a.card))
        laid += 1
    assert laid >= 8  # every card laid, a go or two between


def test_a_hand_picture_names_what_it_shows():
    cards = tuple(parse_cards("AS 5H 10D JC"))
    picture = HandPicture(cards, frozenset(cards[:1]), "Your hand")
    assert picture() == render_hand(cards, frozenset(cards[:1]))  # the heading is text
    same = HandPicture(cards, frozenset(cards[:1]), "Your hand")
    assert same == picture and same.filename == picture.filename
    assert re.fullmatch(r"hand-[0-9a-f]{12}\.png", picture.filename)
    others = {
        HandPicture(cards).filename,
        HandPicture(cards, frozenset(cards[1:2]), "Your hand").filename,
        HandPicture(cards[:3], frozenset(cards[:1]), "Your hand").filename,
    }
    assert picture.filename not in others and len(others) == 3
    # a new heading alone (the text says it) keeps the picture
    assert HandPicture(cards, frozenset(cards[:1]), "You kept").filename == picture.filename


# --------------------------------------------------------------------------- shared palettes


@pytest.mark.parametrize("suit", "SHDC")
def test_hands_drawn_from_the_shared_palette_look_as_if_coloured_alone(suit):
    """Hands take their colours from one palette (fast); any hand must look as it would with
    colours chosen for it alone: ranks, a suit and a title the palette was not made from."""
    cards = tuple(Card.parse(rank + suit) for rank in ("2", "7", "9", "J", "Q", "K"))
    dimmed, title = frozenset(cards[:2]), "Your hand - 3 to play, count 28 (Zoe)"
    shared = decode(render_hand.__wrapped__(cards, dimmed, title))
    alone = decode(encode_png(_hand_image(cards, dimmed, title)))
    assert shared.size == alone.size
    assert differing_fraction(shared, alone) < 0.002


@pytest.mark.parametrize("target", [121, 61])
def test_boards_drawn_from_the_shared_palette_look_as_if_coloured_alone(target):
    sides = (("Wanda", 2, 57, 49), ("Xavier", 0, 13, 5), ("Yolanda", 3, target, 44))
    shared = decode(render_board.__wrapped__(sides, target))
    alone = decode(encode_png(_board_image(sides, target)))
    assert differing_fraction(shared, alone) < 0.002


@pytest.mark.parametrize("suit", "SHDC")
def test_shows_drawn_from_the_shared_palette_look_as_if_coloured_alone(suit):
    cards = tuple(Card.parse(rank + suit) for rank in ("2", "7", "9", "J", "Q", "K"))
    rows = (
        ("Zoe's hand", cards[:4], 14, "fifteens 6 · pairs 2 · runs 6"),
        ("Computer (expert)'s hand", cards[1:5], 3, "claimed 5 · worth 3\nover by 2: 2 off"),
        ("Zoe's crib", cards[2:6], 21, "fifteens 8 · pairs 12 · flush 5 · nobs 1"),
    )
    shared = decode(render_shows.__wrapped__(rows, cards[5]))
    alone = decode(encode_png(_shows_image(rows, cards[5])))
    assert shared.size == alone.size
    assert differing_fraction(shared, alone) < 0.002


# --------------------------------------------------------------------------- tiles


def test_pictures_put_together_from_tiles_are_the_pictures_in_their_palette():
    """A picture is pasted together from tiles already in its palette and its PNG written by
    the renderers: it must decode to the picture put together in RGB, then quantized."""
    sides = (("Alice", 0, 84, 77), ("Bob", 1, 62, 50))
    cards = tuple(parse_cards("AS 5H 10D JC"))
    rows = (
        ("Alice's hand", cards, 12, "fifteens 8 · runs 4"),
        ("Bob's crib", cards, 0, "nineteen"),
    )
    pictures = [
        (render_board.__wrapped__(sides, 121), _board_image(sides, 121), _board_palette()),
        (render_hand.__wrapped__(cards, frozenset(cards[:1])),
         _hand_image(cards, frozenset(cards[:1]), ""), _hand_palette()),
        (render_shows.__wrapped__(rows, cards[0]), _shows_image(rows, cards[0]), _shows_palette()),
    ]  # fmt: skip
    for png, rgb, palette in pictures:
        image = Image.open(io.BytesIO(png))
        assert image.mode == "P" and image.size == rgb.size
        assert image.convert("RGB").tobytes() == decode(encode_png(rgb, palette=palette)).tobytes()


def board_drawn_whole(sides, target):
    """The board drawn in one piece, supersampled, then reduced: what its tiles must add up to."""
    layout = _BoardLayout(len(sides), target)
    image = _board_track(tuple(colour for _, colour, _, _ in sides), target).copy()
    draw = ImageDraw.Draw(image)
    for i, (_, colour, _, _) in enumerate(sides):
        lx, cy = layout.legend_spot(i)
        box = (lx * SS, (cy - 12) * SS, (lx + 24) * SS, (cy + 12) * SS)
        draw.ellipse(box, fill=side_colour(colour), outline=INK, width=SS * 2)
    for label in layout.legend_labels(sides):
        label.draw(draw)
    for lane, (_, colour, score, previous) in enumerate(sides):
        rgb = side_colour(colour)
        if previous != score or score == 0:
            x, y, r = (v * SS for v in layout.peg(lane, previous, back=True))
            ring = lighten(rgb, (255, 255, 255), 0.6)
            draw.ellipse((x - r + SS, y - r + SS, x + r - SS, y + r - SS), ring, rgb, 3 * SS)
        x, y, r = (v * SS for v in layout.peg(lane, score, back=False))
        draw.ellipse((x - r, y - r, x + r, y + r), rgb, INK, 2 * SS)
    return image.reduce(SS)


@pytest.mark.parametrize(
    "sides",
    [
        (("Alice", 0, 5, 4), ("Bob", 1, 5, 3)),  # each lane's pegs touch, and the lanes' too
        (("A", 0, 30, 29), ("B", 1, 31, 30), ("C", 2, 31, 0), ("D", 3, 120, 119)),  # row ends
        (("Alice", 0, 121, 120), ("Bob", 1, 0, 0)),  # the game hole; the start holes
        (("A very long name indeed, cut", 0, 100, 7), ("Bob", 1, 61, 60)),
    ],
)
def test_a_board_put_together_from_tiles_is_the_board_drawn_whole(sides):
    """Pegs close enough to touch share a patch of track, so each is drawn over the other as
    on the whole board; the scores and names sit where the whole board has them."""
    tiled = _board_image(sides, 121)
    whole = board_drawn_whole(sides, 121)
    assert tiled.size == whole.size
    assert differing_fraction(tiled, whole, threshold=8) == 0


@pytest.mark.parametrize("lanes", [2, 4])
def test_touching_pegs_share_a_patch_and_patches_never_overlap(lanes):
    layout = _BoardLayout(lanes, 121)
    colours = tuple(range(lanes))
    pegs = [(0, 4, True), (0, 5, False), (1, 5, False), (1, 60, True), (lanes - 1, 90, False)]
    groups = _touching(layout, pegs)
    assert ((0, 4, True), (0, 5, False)) in groups  # a lane's back and front peg, a hole apart
    assert sorted(peg for group in groups for peg in group) == sorted(pegs)
    boxes = []
    for group in groups:
        patch, left, top = _pegs_patch(colours, 121, group)
        boxes.append((left, top, left + patch.width, top + patch.height))
    for (al, at, ar, ab), (bl, bt, br, bb) in itertools.combinations(boxes, 2):
        assert ar <= bl or br <= al or ab <= bt or bb <= at


def test_a_text_tile_keeps_the_position_s_fraction_of_a_pixel():
    """A text drawn at a position between pixels is the same in its tile as on the whole."""
    for x, y in ((18, 20.72), (31.5, 7.25)):
        make, args, left, top = text_tile("Alice's hand", 28, TABLE_INK, TABLE, x, y, "lt")
        tile, dx, dy = make(*args)
        whole = Image.new("RGB", (300 * SS, 60 * SS), TABLE)
        ImageDraw.Draw(whole).text(
            (x * SS, y * SS), "Alice's hand", font=font(28), fill=TABLE_INK, anchor="lt"
        )
        whole = whole.reduce(SS)
        box = (left + dx, top + dy, left + dx + tile.width, top + dy + tile.height)
        assert tile.tobytes() == whole.crop(box).tobytes()
        assert whole.crop(box).getbbox() is not None


# --------------------------------------------------------------------------- golden images


def golden_pngs() -> dict[str, bytes]:
    pngs = {name: render_board(*args) for name, args in BOARDS.items()}
    pngs["hand_six_cards"] = render_hand(
        tuple(parse_cards("AS 5H 10D JC QH KS")), frozenset(parse_cards("KS")), "Your hand"
    )
    hand, starter = parse_cards("3C 4D 4H 5S"), Card.parse("JS")
    pngs["show_double_run"] = render_show(
        tuple(hand), starter, "Bob's crib - 12", score_show(hand, starter, crib=True).announce()
    )
    game = Game.new(Variant(players=4), seed=5, first_dealer=2)
    shows = [e for e in play_deal(game) if isinstance(e, Shown)]
    pngs["shows_four_hands_and_crib"] = shows_png(shows, NAMES)
    return pngs


def differing_fraction(a: Image.Image, b: Image.Image, threshold: int = 24) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > threshold else 0)
    return diff.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("name", list(golden_pngs()))
def test_golden_image(name, tmp_path):
    png = golden_pngs()[name]
    path = GOLDEN / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"No golden image {path.name}: run with UPDATE_GOLDEN=1 to create it")
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        return
    expected = decode(path.read_bytes())
    actual = decode(png)
    assert actual.size == expected.size, f"{name}: size {actual.size} != {expected.size}"
    if actual.tobytes() == expected.tobytes():
        return
    fraction = differing_fraction(actual, expected)
    if fraction > 0.002:
        (tmp_path / f"{name}.png").write_bytes(png)
        pytest.fail(
            f"{name} differs from the golden image in {fraction:.2%} of its pixels; "
            f"see {tmp_path / name}.png (UPDATE_GOLDEN=1 to accept)"
        )
