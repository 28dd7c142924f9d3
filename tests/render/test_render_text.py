"""Table talk: cards, the story of a game, chunking, the text board, the private hand, rules."""

from __future__ import annotations

import pytest

from bot.engine import (
    Card,
    CountReset,
    Game,
    GameOver,
    Go,
    Phase,
    Played,
    Scored,
    ScoreReason,
    Shown,
    Variant,
    parse_cards,
    score_pegging,
)
from bot.render import (
    board_text,
    card_text,
    cards_text,
    chunk,
    discard_prompt,
    hand_line,
    hand_text,
    help_text,
    rules_text,
    side_name,
    side_names,
    status_text,
    story_lines,
)
from bot.render.text import escape, score_bar, tell
from tests.support.render import NAMES, cut_for_jack, names_for, play_deal

TWO = Variant(players=2)
PAIRS = Variant(players=4, partnerships=True)


# --------------------------------------------------------------------------- cards


def test_cards_and_hands():
    cards = parse_cards("QS 5H JD 5C 10H")
    assert card_text(Card.parse("10H")) == "10♥"
    assert card_text(Card.parse("10H"), emoji=True) == "10♥\ufe0f"
    assert cards_text(cards) == "Q♠ 5♥ J♦ 5♣ 10♥"
    assert hand_line(cards) == "5♣ 5♥ 10♥ J♦ Q♠"
    assert hand_line(cards, emoji=True).startswith("5♣\ufe0f 5♥\ufe0f")


def test_side_names():
    assert side_names(["Alice", "Bob"], TWO) == ["Alice", "Bob"]
    assert side_names(NAMES, PAIRS) == ["Alice & Carol", "Bob & Dave"]
    assert side_name(1, NAMES, PAIRS) == "Bob & Dave"


def test_names_are_escaped():
    assert escape("*bold*_x_") == "\\*bold\\*\\_x\\_"
    assert "@\u200beveryone" in escape("@everyone")
    pile = parse_cards("7H 8D")
    (line,) = story_lines([Played(0, pile[1], 15, score_pegging(pile))], ["**A**", "B"], TWO)
    assert line.startswith("**\\*\\*A\\*\\***")


# --------------------------------------------------------------------------- the story

SEED_39_DEAL_1 = [
    "__Deal 1__ · **Alice** deals 6 each · lay away 2 cards each to Alice's crib",
    "Alice and Bob lay their cards away to the crib",
    "Bob cuts the J♥ as the starter — two for his heels to Alice (now 2)",
    "**Bob** plays 5♠ — count 5",
    "**Alice** plays 7♠ — count 12",
    "**Bob** plays J♦ — count 22",
    "**Alice** plays 9♣ — count 31 — thirty-one for two (now 4) · the count starts again",
    "**Bob** plays Q♠ — count 10",
    "**Alice** plays 10♠ — count 20",
    "**Bob** plays K♦ — count 30 · Alice says go · Bob pegs 1 for the go (now 1)"
    " · the count starts again",
    "**Alice** plays Q♥ — count 10 · last card: one for Alice (now 5)",
    "**Bob**'s hand 5♠ J♦ Q♠ K♦ + J♥: fifteen two, fifteen four, fifteen six, fifteen eight, "
    "and a double run is sixteen — **16** (now 17)",
    "**Alice**'s hand 7♠ 9♣ 10♠ Q♥ + J♥: a run of four is four — **4** (now 9)",
    "**Alice**'s crib 2♥ 3♦ 3♥ 5♦ + J♥: fifteen two, fifteen four, fifteen six, "
    "and a pair is eight — **8** (now 17)",
    "__Deal 2__ · **Bob** deals 6 each · lay away 2 cards each to Bob's crib",
]


def test_story_of_a_scripted_deal():
    game = Game.new(TWO, seed=39, first_dealer=0)
    events = list(game.last_events) + play_deal(game, cut=cut_for_jack)
    assert story_lines(events, ["Alice", "Bob"], TWO) == SEED_39_DEAL_1


def test_story_one_apply_at_a_time_reads_the_same_lines():
    """The cogs render each apply's events on their own: the lines must still make sense."""
    game = Game.new(TWO, seed=39, first_dealer=0)
    lines = story_lines(game.last_events, ["Alice", "Bob"], TWO)
    while game.deal_number == 1:
        seat = game.to_act[0]
        actions = game.legal_actions(seat)
        if game.phase is Phase.CUT_FOR_STARTER:
            action = cut_for_jack(game)
        elif game.phase is Phase.PLAY:
            action = min(actions, key=lambda a: a.card)
        else:
            action = actions[0]
        tell(lines, game.apply(seat, action), ["Alice", "Bob"], TWO)
    # the two discards, applied separately, still share one line
    assert lines == SEED_39_DEAL_1


def test_story_shows_are_in_counting_order_then_the_crib():
    for variant in (Variant(players=3), PAIRS, Variant(players=4)):
        game = Game.new(variant, seed=5, first_dealer=2)
        names = names_for(variant)
        dealer = game.dealer
        lines = story_lines(play_deal(game), names, variant)
        shows = [line for line in lines if line.split("'s ")[0].count(" ") == 0 and " + " in line]
        n = variant.players
        expected = [f"**{names[(dealer + k) % n]}**'s hand" for k in range(1, n + 1)]
        expected.append(f"**{names[dealer]}**'s crib")
        assert [line.split(" ")[0] + " " + line.split(" ")[1] for line in shows] == expected


def test_story_groups_several_goes():
    pile = parse_cards("KH QD")
    events = [
        Played(0, pile[1], 20, score_pegging(pile)),
        Go(1, 20),
        Go(2, 20),
        Go(3, 20),
        Scored(0, 0, 1, ScoreReason.GO, 9),
        CountReset(1),
    ]
    # three or four players: the cards of a count on one line, the next count on the next
    assert story_lines(events, NAMES, Variant(players=4)) == [
        "Play: **Alice** Q♦ (20) · Bob, Carol and Dave say go · Alice pegs 1 for the go (now 9)"
    ]


def test_story_go_without_its_card():
    """A batch may start with a go (the card was announced in an earlier message)."""
    events = [Go(1, 27), Scored(0, 0, 1, ScoreReason.GO, 12), CountReset(1)]
    assert story_lines(events, ["Alice", "Bob"], TWO) == [
        "Bob says go · Alice pegs 1 for the go (now 12) · the count starts again"
    ]
    assert story_lines([CountReset(0)], ["Alice", "Bob"], TWO) == ["The count starts again"]


def test_story_thirty_one_and_last_card():
    pile = parse_cards("10H 10D AS KC")
    events = [
        Played(1, pile[3], 31, score_pegging(pile)),
        Scored(1, 1, 2, ScoreReason.PLAY, 40),
        CountReset(None),
    ]
    assert story_lines(events, ["Alice", "Bob"], TWO) == [
        "**Bob** plays K♣ — count 31 — thirty-one for two (now 40)"
    ]
    pile = parse_cards("5H 5D")
    events = [
        Played(0, pile[1], 10, score_pegging(pile)),
        Scored(0, 0, 2, ScoreReason.PLAY, 30),
        Scored(0, 0, 1, ScoreReason.LAST_CARD, 31),
        CountReset(None),
    ]
    assert story_lines(events, ["Alice", "Bob"], TWO) == [
        "**Alice** plays 5♦ — count 10 — a pair for two · last card: one for Alice (now 31)"
    ]


def test_story_show_line_and_nineteen():
    from bot.engine import score_show

    hand, starter = parse_cards("2C 4D 6H 8S"), Card.parse("KD")
    events = [Shown(1, tuple(hand), starter, False, score_show(hand, starter))]
    assert story_lines(events, ["Alice", "Bob"], TWO) == [
        "**Bob**'s hand 2♣ 4♦ 6♥ 8♠ + K♦: nineteen (nothing to count) — **0**"
    ]


@pytest.mark.parametrize(
    ("scores", "skunks", "line"),
    [
        ((121, 84), (0, 1), "🏆 **Alice** wins with 121, Bob 84 (skunked)"),
        ((121, 60), (0, 2), "🏆 **Alice** wins with 121, Bob 60 (double skunked)"),
        ((100, 121), (0, 0), "🏆 **Bob** wins with 121, Alice 100"),
    ],
)
def test_winner_lines(scores, skunks, line):
    winner = scores.index(121)
    events = [GameOver(winner, scores, skunks)]
    assert story_lines(events, ["Alice", "Bob"], TWO) == [line]


def test_winner_lines_more_sides_and_partners():
    over = GameOver(2, (95, 80, 121), (0, 1, 0))
    assert story_lines([over], NAMES[:3], Variant(players=3)) == [
        "🏆 **Carol** wins with 121, Alice 95, Bob 80 (skunked)"
    ]
    over = GameOver(1, (58, 121), (2, 0))
    assert story_lines([over], NAMES, PAIRS) == [
        "🏆 **Bob & Dave** win with 121, Alice & Carol 58 (double skunked)"
    ]
    over = GameOver(0, (61, 30), (0, 1))
    assert story_lines([over], ["Alice", "Bob"], Variant(target=61)) == [
        "🏆 **Alice** wins with 61, Bob 30 (skunked)"
    ]


def test_a_whole_game_ends_with_its_winner():
    game = Game.new(TWO, seed=11, first_dealer=1)
    events = list(game.last_events)
    while not game.is_over:
        events += play_deal(game, seed=game.deal_number)
    lines = story_lines(events, ["Alice", "Bob"], TWO)
    winner = game.winner
    loser = 1 - winner
    names = ["Alice", "Bob"]
    told = f"🏆 **{names[winner]}** wins with 121, {names[loser]} {game.scores[loser]}"
    assert lines[-1].startswith(told)
    assert ("skunk" in lines[-1]) == bool(game.skunks[loser])
    assert sum(line.startswith("__Deal ") for line in lines) == game.deal_number
    messages = chunk(lines)
    assert all(len(m) <= 2000 for m in messages)
    assert "\n".join(messages) == "\n".join(lines)


def test_story_needs_a_name_per_seat():
    with pytest.raises(ValueError):
        story_lines([], ["Alice"], TWO)


# --------------------------------------------------------------------------- chunking


def test_chunk_packs_lines_under_the_limit():
    lines = [f"line {i} " + "x" * (i % 97) for i in range(400)]
    messages = chunk(lines)
    assert all(len(m) <= 2000 for m in messages)
    assert "\n".join(messages) == "\n".join(lines)
    assert len(messages) == len(chunk(lines, 2000))
    assert len(messages) <= sum(len(line) + 1 for line in lines) // 2000 + 2


def test_chunk_splits_a_line_too_long_alone():
    long_line = " ".join(["word"] * 1000)  # 4999 characters
    messages = chunk(["short", long_line, "end"], limit=2000)
    assert all(len(m) <= 2000 for m in messages)
    assert " ".join(" ".join(messages).split()) == " ".join(["short", long_line, "end"])
    assert all(len(m) <= 10 for m in chunk(["x" * 35], limit=10))
    assert chunk([]) == []


# --------------------------------------------------------------------------- the board


def test_score_bar():
    assert score_bar(0, 121) == "▱" * 15 + "┃" + "▱" * 5
    assert score_bar(121, 121) == "▰" * 15 + "┃" + "▰" * 5
    assert score_bar(84, 121).count("▰") == 13
    assert score_bar(30, 61).index("┃") == 10


def test_board_text_during_the_play():
    game = Game.new(TWO, seed=39, first_dealer=0)
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    game.apply(1, cut_for_jack(game))
    game.apply(1, min(game.legal_actions(1), key=lambda a: a.card))
    text = board_text(game, ["Alice", "Bob"])
    assert text.splitlines()[0] == f"**Alice** {score_bar(2, 121)} 2/121"
    assert "skunk" not in text  # not on every table: the bars mark it, the lobby says it
    assert "Deal 1 · **Alice** deals · starter J♥" in text
    assert "Alice to play" in text
    assert text.splitlines()[-1] == "Count 5: 5♠"  # the count once, with its cards
    assert text.count("count") + text.count("Count") == 1


def test_board_text_in_partnerships_and_at_the_end():
    game = Game.new(PAIRS, seed=2, first_dealer=3)
    text = board_text(game, NAMES)
    assert "**Alice & Carol**" in text and "**Bob & Dave**" in text
    assert "Laying away to Dave's crib: waiting for Alice, Bob, Carol and Dave" in text
    while not game.is_over:
        play_deal(game, seed=game.deal_number)
    text = board_text(game, NAMES)
    winner = side_name(game.winner, NAMES, PAIRS)
    assert f"Game over: {winner} win" in text


# --------------------------------------------------------------------------- the private hand


def test_hand_text_through_a_deal():
    game = Game.new(TWO, seed=39, first_dealer=0)
    names = ["Alice", "Bob"]
    text = hand_text(game, 1, names)
    assert text.startswith(f"**Your hand:** {hand_line(game.hand(1))}")
    assert "Lay away 2 cards to Alice's crib." in text
    assert "Lay away 2 cards to your crib." in hand_text(game, 0, names)
    assert discard_prompt(game, 1, names) == "Lay away 2 cards to Alice's crib"
    game.apply(1, game.legal_actions(1)[0])
    text = hand_text(game, 1, names)
    assert f"**You kept:** {hand_line(game.kept(1))}" in text
    assert "Waiting for Alice to lay away." in text
    game.apply(0, game.legal_actions(0)[0])
    assert "Your cut: cut the pack for the starter." in hand_text(game, 1, names)
    assert "Waiting for Bob to cut for the starter." in hand_text(game, 0, names)
    game.apply(1, cut_for_jack(game))
    assert "**Your turn:** the count is 0." in hand_text(game, 1, names)
    assert "Starter: J♥" in hand_text(game, 1, names)
    game.apply(1, min(game.legal_actions(1), key=lambda a: a.card))
    text = hand_text(game, 0, names)
    assert "**Your turn:** the count is 5 (5♠)." in text
    assert "Waiting for Alice · the count is 5." in hand_text(game, 1, names)
    assert f"Kept for the show: {hand_line(game.kept(1))}" in hand_text(game, 1, names)
    game.apply(0, min(game.legal_actions(0), key=lambda a: a.card))
    game.apply(1, min(game.legal_actions(1), key=lambda a: a.card))
    text = hand_text(game, 0, names)
    assert "**Your turn:** the count is 22 (5♠ 7♠ J♦).\nYou can lay 9♣." in text


def test_hand_text_cut_for_deal_and_game_over():
    game = Game.new(TWO, seed=3)
    assert game.phase is Phase.CUT_FOR_DEAL
    assert hand_text(game, 0, ["Alice", "Bob"]).startswith("Cut the pack for the deal")
    game.apply(0, game.legal_actions(0)[0])
    assert hand_text(game, 0, ["Alice", "Bob"]) == "Waiting for Bob to cut for the deal."
    assert status_text(game, ["Alice", "Bob"]) == "Cutting for the deal: waiting for Bob"


# --------------------------------------------------------------------------- rules and help


def test_rules_and_help_fit_a_message():
    for variant in (None, TWO, Variant(players=3), PAIRS, Variant(target=61)):
        text = rules_text(variant)
        assert len(text) <= 2000
        assert "thirty-one" in text and "his nobs" in text and "his heels" in text
        assert text.count("```") % 2 == 0
    assert "/cribbage start" in help_text()
    assert len(help_text()) <= 2000
    assert help_text([("/x", "does x")]).count("`/x` — does x") == 1


def test_status_and_hand_text_while_the_show_stays_up():
    """NEXT_DEAL: the table waits for everyone's Next deal; nobody is told it is their turn."""
    from bot.engine import NextDeal

    game = Game.new(TWO, seed=39, first_dealer=0, hold_between_deals=True)
    while game.phase is not Phase.NEXT_DEAL:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.phase is Phase.NEXT_DEAL
    names = ["Alice", "Bob"]
    assert status_text(game, names) == "The show: the next deal when Alice and Bob are ready"
    text = hand_text(game, 0, names)
    assert "The show is over: click **Next deal** when you are ready." in text
    assert "Your turn" not in text and "count" not in text
    game.apply(0, NextDeal())
    assert status_text(game, names) == "The show: the next deal when Bob is ready"
    assert "You are ready: the next deal when Bob is ready." in hand_text(game, 0, names)


def test_a_name_cannot_form_a_mention_a_channel_link_a_timestamp_or_an_emoji():
    from bot.render.words import escape

    for name in ("<@123>", "<#123>", "<t:1700000000:R>", "<:crib:123>", "**bold**"):
        shown = escape(name)
        assert "<" not in shown.replace("\\<", "")
        assert "**" not in shown.replace("\\*", "")
