"""Muggins told right: over-claims named as over-claims, every score with its
"(now N)", the show picture printing what each hand pegged and what muggins took, and the hand
picture showing the cards being counted (the crib when the dealer counts the crib) and the
starter."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.engine import (
    Claim,
    Claimed,
    CountSettled,
    Game,
    LetGo,
    Muggins,
    MugginsCalled,
    Phase,
    Scored,
    ScoreReason,
    Shown,
    Variant,
    parse_cards,
    score_show,
)
from bot.engine.muggins import breakdown_of, counted_cards, counter
from bot.render.cards_art import SHOW_DETAIL, SHOW_POINTS, SHOW_TITLE
from bot.render.images import HandPicture, hand_picture, show_events, show_rows, shows_png
from bot.render.story import story_lines, tell

NAMES = ["Alice", "Bob"]
MUGGINS = Variant(muggins=True)
BENCH = Path("/work/bench/words13")

HAND, STARTER = parse_cards("4C 5D 6H 6S"), parse_cards("KD")[0]
WORTH = score_show(HAND, STARTER)


def shown(seat: int = 0, crib: bool = False) -> Shown:
    return Shown(seat, tuple(HAND), STARTER, crib, WORTH)


def test_an_over_claim_is_named_as_one_when_claimed_and_when_settled():
    total = WORTH.total
    claim = total + 2
    lines = story_lines(
        [shown(), Claimed(0, claim, False), Scored(0, 0, total - 2, ScoreReason.HAND, 50)],
        NAMES,
        MUGGINS,
    )
    assert lines == [
        f"**Alice**'s hand 4♣ 5♦ 6♥ 6♠ + K♦ · claims **{claim}** — too many: pegs {total - 2}"
        " (now 50)"
    ]
    (settled,) = story_lines([CountSettled(0, False, WORTH, 2, claim)], NAMES, MUGGINS)
    assert settled.startswith(f"Alice's hand was worth {total} — ")  # no breakdown again
    assert settled.endswith(f"— claimed {claim}: over by 2, so 2 came off")
    assert "missed" not in settled  # not read as a miss
    # an under-claim is a miss; an exact one counted right
    (under,) = story_lines([CountSettled(0, False, WORTH, 2, total - 2)], NAMES, MUGGINS)
    assert under.endswith("— 2 missed")
    (right,) = story_lines([CountSettled(0, False, WORTH, 0, total)], NAMES, MUGGINS)
    assert right.endswith("— counted right")


def test_a_muggins_call_reads_as_one_line_with_the_new_score():
    events = [
        MugginsCalled(1, 2),
        CountSettled(0, False, WORTH, 2, WORTH.total - 2),
        Scored(1, 1, 2, ScoreReason.MUGGINS, 57),
    ]
    (line,) = story_lines(events, NAMES, MUGGINS)
    assert line.startswith("**Bob** calls **Muggins!** · Alice's hand was worth ")
    assert line.endswith("— 2 missed · Bob takes 2 points (now 57)")
    # a call on a count that was right takes nothing, and says so
    events = [MugginsCalled(1, 0), CountSettled(0, False, WORTH, 0, WORTH.total)]
    (line,) = story_lines(events, NAMES, MUGGINS)
    assert line.endswith("— counted right: nothing to take")
    # muggins points told on their own still carry the score
    (alone,) = story_lines([Scored(1, 1, 2, ScoreReason.MUGGINS, 57)], NAMES, MUGGINS)
    assert alone == "Bob pegs 2 points (muggins) (now 57)"


def test_in_partnerships_muggins_names_the_team_beside_its_score():
    pairs = Variant(players=4, partnerships=True, muggins=True)
    names = ["Alice", "Bob", "Carol", "Dave"]
    events = [MugginsCalled(3, 2), CountSettled(0, False, WORTH, 2, 14)]
    events.append(Scored(3, 1, 2, ScoreReason.MUGGINS, 57))
    (line,) = story_lines(events, names, pairs)
    assert line.endswith("Dave takes 2 points (Bob & Dave now 57)")  # seat order, as the board


# --------------------------------------------------------------------------- a real show


def to_show(variant: Variant, seed: int, min_points: int) -> Game:
    """A game at the first claim of a show whose pone's hand and crib are worth min_points."""
    for s in range(seed, seed + 300):
        rng = random.Random(s)
        game = Game.new(variant, seed=s, first_dealer=0)
        while game.phase is not Phase.SHOW and not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        pone, dealer = game.pone, game.dealer
        if (
            game.phase is Phase.SHOW
            and breakdown_of(game, pone, False).total >= min_points
            and breakdown_of(game, dealer, True).total >= min_points
        ):
            return game
    raise AssertionError("no such game")


def muggins_show() -> tuple[tuple[int, int], list[list], dict[str, int]]:
    """A 2-player muggins show, one batch of events per action: the pone over-claims by 2 (put
    right at once, no window); the dealer counts his hand right and, with its window still
    open, under-claims his crib by 2; the pone calls muggins once, on both."""
    game = to_show(MUGGINS, 3, 4)
    pone, dealer = game.pone, game.dealer
    worth = {
        "pone": breakdown_of(game, pone, False).total,
        "dealer": breakdown_of(game, dealer, False).total,
        "crib": breakdown_of(game, dealer, True).total,
    }
    batches = [game.apply(pone, Claim(worth["pone"] + 2))]
    batches.append(game.apply(dealer, Claim(worth["dealer"])))
    assert counter(game) == (dealer, True)
    batches.append(game.apply(dealer, Claim(worth["crib"] - 2)))
    batches.append(game.apply(pone, Muggins()))
    assert game.phase is not Phase.SHOW
    return (pone, dealer), batches, worth


def every(batches: list[list]) -> list:
    return [event for batch in batches for event in batch]


def test_the_story_of_a_muggins_show_has_every_score():
    (pone, dealer), batches, _ = muggins_show()
    lines = story_lines(every(batches), NAMES, MUGGINS)
    text = "\n".join(lines)
    assert "too many: pegs" in text and "— over by 2" in text
    assert text.count("calls **Muggins!**") == 2 and "takes 2 points (now " in text
    # a call joins the latest claim it answers: one line per hand or crib shown, and a line
    # for the call on the dealer's hand, made after his crib's claim
    shows = [line for line in lines if " + " in line and "claims **" in line]
    assert len(shows) == 3
    (late,) = [line for line in lines if line.startswith(f"**{NAMES[pone]}** calls")]
    assert [line for line in lines if "was worth" in line or "calls **" in line] == [
        shows[0],  # the over-claim, put right on its own line
        shows[2],  # the call on the crib, on the crib's line
        late,  # the same call on the dealer's hand, after the crib's claim
    ]
    assert f"{NAMES[dealer]}'s hand was worth" in late and "nothing to take" in late
    for line in lines:  # every line that pegs points ends with the new score
        if "claims **" in line and "pegs nothing" not in line or " takes " in line:
            assert line.endswith(")") and "(now " in line, line


def test_the_show_picture_prints_what_each_hand_pegged_and_what_muggins_took():
    (pone, dealer), batches, worth = muggins_show()
    events = every(batches)
    rows = show_rows(show_events(events), NAMES)
    by_title = {row[0]: row for row in rows}
    pone_row = by_title[f"{NAMES[pone]}'s hand"]
    dealer_row = by_title[f"{NAMES[dealer]}'s hand"]
    crib_row = by_title[f"{NAMES[dealer]}'s crib"]
    assert pone_row[2] == worth["pone"] - 2  # pegged, not the count
    assert pone_row[3] == f"claimed {worth['pone'] + 2} · worth {worth['pone']}\nover by 2: 2 off"
    assert dealer_row[2] == worth["dealer"]
    assert dealer_row[3] == f"claimed {worth['dealer']} · worth {worth['dealer']}\ncounted right"
    assert crib_row[2] == worth["crib"] - 2
    assert crib_row[3].endswith(f"muggins: {NAMES[pone]} took 2")
    png = shows_png(show_events(events), NAMES)
    image = Image.open(io.BytesIO(png))
    assert image.width == 800 and image.height < 420
    # legible where Discord shows it, about 400 px wide: text at least 12 px tall there
    assert min(SHOW_TITLE, SHOW_DETAIL, SHOW_POINTS) * 400 / image.width >= 12
    BENCH.mkdir(parents=True, exist_ok=True)
    image.save(BENCH / "muggins_show.png")
    small = image.resize((400, round(image.height * 400 / image.width)), Image.LANCZOS)
    small.save(BENCH / "muggins_show_400.png")


def test_an_open_window_keeps_the_true_count_off_the_picture():
    events = [shown(), Claimed(0, 10, False), Scored(0, 0, 10, ScoreReason.HAND, 30)]
    (row,) = show_rows(events, NAMES)
    assert row[2] == 10 and row[3] == "claimed 10\nopen to muggins"
    assert str(WORTH.total) not in row[3]


def test_the_hand_picture_shows_the_cards_counted_and_the_starter():
    game = to_show(MUGGINS, 3, 4)
    pone, dealer = game.pone, game.dealer
    starter = game.starter
    mine = hand_picture(game, pone, counting=counted_cards(game, pone, False))
    assert mine == HandPicture(
        tuple(game.kept(pone)), frozenset(), "Count your hand + the starter", starter
    )
    game.apply(pone, Claim(breakdown_of(game, pone, False).total))
    game.apply(dealer, Claim(breakdown_of(game, dealer, False).total))
    game.apply(pone, LetGo())
    crib = tuple(sorted(counted_cards(game, dealer, True)))
    picture = hand_picture(game, dealer, counting=crib, crib=True)
    assert picture.cards == crib and set(crib).isdisjoint(game.kept(dealer))
    assert picture.starter == starter and picture.title == "Count your crib + the starter"
    # not counting: the kept hand and the starter
    waiting = hand_picture(game, pone)
    assert waiting.cards == tuple(game.kept(pone)) and waiting.starter == starter
    png = picture()
    image = Image.open(io.BytesIO(png))
    assert image.width > Image.open(io.BytesIO(HandPicture(crib)())).width  # the starter too
    BENCH.mkdir(parents=True, exist_ok=True)
    image.save(BENCH / "count_your_crib.png")


def test_the_show_of_one_apply_at_a_time_tells_the_same_story():
    """The table tells each click's events as they come (``tell``): same lines as at once."""
    _, batches, _ = muggins_show()
    story: list[str] = []
    for batch in batches:
        tell(story, batch, NAMES, MUGGINS)
    assert story == story_lines(every(batches), NAMES, MUGGINS)
