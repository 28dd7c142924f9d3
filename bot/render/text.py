"""Table talk: cards, the story of a game, the text board, the private hand, rules and help.

Everything here is a pure function from engine values to Discord-flavoured markdown strings.
Public renderers (``story_lines``, ``board_text``) never read a hand, the crib or the pack: the
story is made only from events (which carry no hidden card) and the board only from the public
parts of the game (scores, dealer, phase, whose turn, the count, the cards laid, the starter).
``hand_text`` is the one private renderer: its output belongs in an ephemeral message.

>>> from bot.engine import Card, Variant, Played, score_pegging, parse_cards
>>> hand_line(parse_cards("QS 5H JD 5C"))
'5♣ 5♥ J♦ Q♠'
>>> pile = parse_cards("7H 8D")
>>> story_lines([Played(0, pile[-1], 15, score_pegging(pile))], ["Alice", "Bob"], Variant())
['**Alice** plays 8♦ — count 15 — fifteen for two']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.engine import (
    Breakdown,
    Card,
    CountReset,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discarded,
    Event,
    Game,
    GameOver,
    Go,
    Phase,
    Played,
    Scored,
    ScoreKind,
    ScoreReason,
    Shown,
    StarterCut,
    Suit,
    Variant,
)
from bot.engine.scoring import number_words

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""

SUIT_EMOJI: dict[Suit, str] = {
    Suit.CLUBS: "♣️",
    Suit.DIAMONDS: "♦️",
    Suit.HEARTS: "♥️",
    Suit.SPADES: "♠️",
}
"""Suits with the emoji variation selector: Discord draws them as coloured emoji."""

BAR_CELLS = 20
BAR_FULL, BAR_EMPTY, BAR_SKUNK = "▰", "▱", "┃"

# --------------------------------------------------------------------------- names and cards


def escape(name: str) -> str:
    """A display name made safe inside markdown: no formatting, no mentions."""
    return discord.utils.escape_markdown(name).replace("@", "@\u200b")


def _and(words: Sequence[str]) -> str:
    """'Alice', 'Alice and Bob', 'Alice, Bob and Carol'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _or(words: Sequence[str]) -> str:
    """'9♣', '9♣ or 10♠', '2♣, 3♦ or 4♥'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _check_names(names: Sequence[str], variant: Variant) -> None:
    if len(names) != variant.players:
        raise ValueError(f"{variant.players} seats need {variant.players} names, not {len(names)}")


def seat_side(seat: int, variant: Variant) -> int:
    """The side a seat scores for (the same rule as ``Game.side_of``)."""
    return seat % 2 if variant.partnerships else seat


def side_seats(side: int, variant: Variant) -> list[int]:
    return [s for s in range(variant.players) if seat_side(s, variant) == side]


def side_name(side: int, names: Sequence[str], variant: Variant) -> str:
    """A side's plain name: the player's, or both partners' (``"Alice & Carol"``). Not escaped."""
    return " & ".join(names[s] for s in side_seats(side, variant))


def side_names(names: Sequence[str], variant: Variant) -> list[str]:
    """Every side's plain name, by side index."""
    return [side_name(side, names, variant) for side in range(variant.sides)]


def card_text(card: Card, *, emoji: bool = False) -> str:
    """``'10♥'``, or with ``emoji=True`` ``'10♥️'`` (Discord's coloured suit emoji)."""
    text = str(card)
    return text[:-1] + SUIT_EMOJI[card.suit] if emoji else text


def cards_text(cards: Iterable[Card], *, emoji: bool = False, sort: bool = False) -> str:
    """Cards separated by spaces, in the order given (or sorted by rank with ``sort=True``)."""
    cards = sorted(cards) if sort else list(cards)
    return " ".join(card_text(c, emoji=emoji) for c in cards)


def hand_line(cards: Iterable[Card], *, emoji: bool = False) -> str:
    """A hand as a player holds it: sorted by rank (then suit). ``'5♣ 5♥ J♦ Q♠'``."""
    return cards_text(cards, emoji=emoji, sort=True)


_SUMMARY_GROUPS = (
    ("fifteens", {ScoreKind.FIFTEEN}),
    ("thirty-one", {ScoreKind.THIRTY_ONE}),
    ("pairs", {ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL}),
    ("runs", {ScoreKind.RUN}),
    ("flush", {ScoreKind.FLUSH}),
    ("nobs", {ScoreKind.NOBS}),
)


def breakdown_summary(breakdown: Breakdown) -> str:
    """Points by kind, compact: ``'fifteens 8 · pairs 2 · runs 6'`` (``'nineteen'`` for 0)."""
    parts = []
    for label, kinds in _SUMMARY_GROUPS:
        points = sum(item.points for item in breakdown.items if item.kind in kinds)
        if points:
            parts.append(f"{label} {points}")
    return " · ".join(parts) if parts else "nineteen"


def points_text(points: int) -> str:
    """'1 point', '2 points'."""
    return f"{points} point" if points == 1 else f"{points} points"


# --------------------------------------------------------------------------- the story


def story_lines(events: Iterable[Event], names: Sequence[str], variant: Variant) -> list[str]:
    """Channel lines (markdown) telling what ``events`` did, grouped to read like a table.

    One line per card laid, with what it made and what followed (go, the go point, last card,
    the count starting again); one line for the starter and his heels; one line per hand shown,
    in counting order, then the crib; one line for the winner. Consecutive discards and cuts for
    the deal share a line. Only what the events carry is shown, so no hidden card ever appears.
    """
    _check_names(names, variant)
    story = _Story(names, variant)
    for event in events:
        story.add(event)
    return story.lines


class _Story:
    def __init__(self, names: Sequence[str], variant: Variant) -> None:
        self.names = names
        self.variant = variant
        self.lines: list[str] = []
        self.open: str | None = None  # kind of the last line, while later events may join it
        self.group: list = []  # the seats or cards that line gathers
        self.go_head: str | None = None  # the play line a run of "go"s hangs on

    # helpers

    def who(self, seat: int) -> str:
        return escape(self.names[seat])

    def bold(self, seat: int) -> str:
        return f"**{self.who(seat)}**"

    def side(self, side: int) -> str:
        return escape(side_name(side, self.names, self.variant))

    def start(self, line: str, kind: str | None = None, group: list | None = None) -> None:
        self.lines.append(line)
        self.open = kind
        self.group = group if group is not None else []

    def append(self, part: str) -> None:
        self.lines[-1] += " · " + part

    # events

    def add(self, event: Event) -> None:
        match event:
            case CutForDeal(seat=seat, card=card):
                self.cut_for_deal(seat, card)
            case CutTied(seats=seats):
                tied = _and([self.who(s) for s in seats])
                self.start(f"{tied} cut equal cards and cut again")
            case DealerChosen(seat=seat):
                self.start(f"{self.bold(seat)} cuts lowest and deals first")
            case Dealt():
                self.dealt(event)
            case Discarded(seat=seat, count=count):
                self.discarded(seat, count)
            case StarterCut(seat=seat, card=card):
                self.start(f"{self.who(seat)} cuts the {card} as the starter", "starter")
            case Played():
                self.played(event)
            case Go(seat=seat):
                self.go(seat)
            case CountReset(leader=leader):
                if leader is not None:
                    self.join("the count starts again")
            case Shown():
                self.shown(event)
            case Scored():
                self.scored(event)
            case GameOver():
                self.start(game_over_line(event, self.names, self.variant))
            case _:  # a newer engine event: say nothing rather than guess
                pass

    def join(self, part: str) -> None:
        """Add to the open play line, or start a line of its own."""
        if self.open in ("play", "go") and self.lines:
            self.append(part)
            self.open = "play"
        else:
            self.start(part[0].upper() + part[1:] if part.startswith("the ") else part, "play")

    def cut_for_deal(self, seat: int, card: Card) -> None:
        if self.open == "cut":
            self.group.append((seat, card))
            cuts = " · ".join(f"{self.who(s)} {c}" for s, c in self.group)
            self.lines[-1] = f"Cutting for the deal: {cuts}"
        else:
            self.start(f"{self.who(seat)} cuts the {card} for the deal", "cut", [(seat, card)])

    def dealt(self, event: Dealt) -> None:
        v = self.variant
        dealer = self.who(event.dealer)
        away = f"{v.discards} card{'s' if v.discards > 1 else ''} each"
        extra = " (and one from the pack)" if v.crib_from_pack else ""
        self.start(
            f"__Deal {event.number}__ · **{dealer}** deals {event.cards_each} each · "
            f"lay away {away} to {dealer}'s crib{extra}"
        )

    def discarded(self, seat: int, count: int) -> None:
        if self.open == "discard":
            self.group.append(seat)
        else:
            self.start("", "discard", [seat])
        verb = "lays" if len(self.group) == 1 else "lay"
        noun = f"{count} card{'s' if count > 1 else ''}" if len(self.group) == 1 else "their cards"
        self.lines[-1] = f"{_and([self.who(s) for s in self.group])} {verb} {noun} away to the crib"

    def played(self, event: Played) -> None:
        line = f"{self.bold(event.seat)} plays {event.card} — count {event.count}"
        if event.breakdown:
            line += f" — {event.breakdown.announce()}"
        self.start(line, "play")

    def go(self, seat: int) -> None:
        if self.open == "go":
            self.group.append(seat)
        else:
            self.go_head = self.lines[-1] if self.open == "play" and self.lines else None
            if self.go_head is None:
                self.lines.append("")
            self.group = [seat]
        verb = "says" if len(self.group) == 1 else "say"
        said = f"{_and([self.who(s) for s in self.group])} {verb} go"
        self.lines[-1] = f"{self.go_head} · {said}" if self.go_head else said
        self.open = "go"

    def shown(self, event: Shown) -> None:
        whose = "crib" if event.crib else "hand"
        cards = hand_line(event.cards)
        talk = event.breakdown.announce()
        self.start(
            f"{self.bold(event.seat)}'s {whose} {cards} + {event.starter}: {talk} "
            f"— **{event.breakdown.total}**",
            "show",
        )

    def scored(self, event: Scored) -> None:
        who = self.who(event.seat)
        match event.reason:
            case ScoreReason.PLAY if self.open in ("play", "go"):
                return  # the play line already announced the breakdown
            case ScoreReason.HAND | ScoreReason.CRIB if self.open == "show":
                self.lines[-1] += f" (now {event.score})"  # the line carries the count
                self.open = None
            case ScoreReason.HEELS:
                if self.open == "starter":
                    self.lines[-1] += f" — {number_words(event.points)} for his heels to {who}"
                    self.open = None
                else:
                    self.start(f"{who} pegs {event.points} for his heels")
            case ScoreReason.GO:
                self.join(f"{who} pegs {event.points} for the go")
            case ScoreReason.LAST_CARD:
                talk = f"last card for {number_words(event.points)}"
                if self.open in ("play", "go") and self.lines:
                    self.append(talk)
                    self.open = "play"
                else:
                    self.start(f"{who} pegs {event.points} for the last card")
            case _:
                self.start(f"{who} pegs {points_text(event.points)} ({event.reason.value})")


def game_over_line(event: GameOver, names: Sequence[str], variant: Variant) -> str:
    """``'🏆 **Alice** wins 121–84 — a skunk!'``; with more sides every loser is named."""
    winner = escape(side_name(event.winner, names, variant))
    verb = "win" if variant.partnerships else "wins"
    losers = sorted(
        (s for s in range(len(event.scores)) if s != event.winner),
        key=lambda s: -event.scores[s],
    )
    if len(losers) == 1:
        (loser,) = losers
        line = f"🏆 **{winner}** {verb} {event.scores[event.winner]}–{event.scores[loser]}"
        skunk = event.skunks[loser]
        if skunk:
            line += " — a double skunk!" if skunk == 2 else " — a skunk!"
        return line
    others = []
    for side in losers:
        mark = {1: " (skunked)", 2: " (double skunked)"}.get(event.skunks[side], "")
        others.append(f"{escape(side_name(side, names, variant))} {event.scores[side]}{mark}")
    return f"🏆 **{winner}** {verb} with {event.scores[event.winner]} — " + ", ".join(others)


# --------------------------------------------------------------------------- chunking


def chunk(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Pack lines into as few messages as possible, each at most ``limit`` characters.

    Lines are never split unless one alone is longer than ``limit``; then it is cut at spaces
    (or hard, as a last resort).
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    messages: list[str] = []
    current = ""
    for line in lines:
        for piece in _split_long(line, limit):
            if not current:
                current = piece
            elif len(current) + 1 + len(piece) <= limit:
                current += "\n" + piece
            else:
                messages.append(current)
                current = piece
    if current:
        messages.append(current)
    return messages


def _split_long(line: str, limit: int) -> list[str]:
    pieces = []
    while len(line) > limit:
        cut = line.rfind(" ", 0, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    pieces.append(line)
    return [p for p in pieces if p] or [""]


# --------------------------------------------------------------------------- the board


def score_bar(score: int, target: int, cells: int = BAR_CELLS) -> str:
    """``'▰▰▰▰▰▰▰▰▰▰▰▰▰▱▱┃▱▱▱▱▱'``: progress to ``target`` with the skunk line marked."""
    skunk_line = 91 if target == 121 else 31
    filled = min(cells, score * cells // target)
    mark = round(skunk_line * cells / target)
    bar = BAR_FULL * filled + BAR_EMPTY * (cells - filled)
    return bar[:mark] + BAR_SKUNK + bar[mark:]


def score_lines(scores: Sequence[int], names: Sequence[str], variant: Variant) -> list[str]:
    """One line per side: ``'**Alice** ▰▰▰▰▰▰▰▰▰▰▰▰▰▰▱▱┃▱▱▱▱ 84/121'``."""
    return [
        f"**{escape(name)}** {score_bar(score, variant.target)} {score}/{variant.target}"
        for name, score in zip(side_names(names, variant), scores, strict=True)
    ]


def skunk_text(variant: Variant) -> str:
    """``'┃ skunk line 91 (double skunk below 61)'``."""
    text = f"{BAR_SKUNK} skunk line {variant.skunk_line}"
    if variant.double_skunk_line:
        text += f" (double skunk below {variant.double_skunk_line})"
    return text


def status_text(game: Game, names: Sequence[str]) -> str:
    """Who must do what now, in public words (never a hidden card)."""
    _check_names(names, game.variant)
    who = [escape(names[s]) for s in game.to_act]
    if game.phase is Phase.CUT_FOR_DEAL:
        return f"Cutting for the deal: waiting for {_and(who)}"
    if game.phase is Phase.DISCARD:
        dealer = escape(names[game.dealer])
        return f"Laying away to {dealer}'s crib: waiting for {_and(who)}"
    if game.phase is Phase.CUT_FOR_STARTER:
        return f"{_and(who)} to cut for the starter"
    if game.phase is Phase.PLAY:
        return f"{_and(who)} to play · count {game.count}"
    if game.winner is not None:
        name = escape(side_name(game.winner, names, game.variant))
        return f"Game over: {name} {'win' if game.variant.partnerships else 'wins'}"
    return "Game over"


def pile_text(game: Game) -> str:
    """The cards laid since the count was last reset, ``'7♦ 8♣ 7♥ (22)'`` (or ``''``)."""
    pile = game.pile
    return f"{cards_text(pile)} ({game.count})" if pile else ""


def board_text(game: Game, names: Sequence[str]) -> str:
    """The public text board: scores with bars and the skunk line, the deal, whose turn,
    the starter, the count and the pile. Safe for the channel."""
    _check_names(names, game.variant)
    lines = score_lines(game.scores, names, game.variant)
    lines.append(skunk_text(game.variant))
    if game.dealer is not None and game.phase is not Phase.GAME_OVER:
        deal = f"Deal {game.deal_number} · **{escape(names[game.dealer])}** deals"
        if game.starter is not None:
            deal += f" · starter {game.starter}"
        lines.append(deal)
    lines.append(status_text(game, names))
    if game.phase is Phase.PLAY and game.pile:
        lines.append(f"Pile: {pile_text(game)}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the private hand


def hand_text(game: Game, seat: int, names: Sequence[str], *, emoji: bool = False) -> str:
    """What ``seat`` sees in its ephemeral message: its cards, kept cards, what to do now.

    PRIVATE: shows the seat's own hand. Send it only ephemerally to that player.
    """
    _check_names(names, game.variant)
    v = game.variant

    def show(cards: Iterable[Card]) -> str:
        return hand_line(cards, emoji=emoji) or "—"

    lines: list[str] = []
    phase = game.phase
    if phase is Phase.CUT_FOR_DEAL:
        if seat in game.to_act:
            return "Cut the pack for the deal: lowest card deals."
        return f"Waiting for {_and([escape(names[s]) for s in game.to_act])} to cut for the deal."
    if phase is Phase.GAME_OVER:
        kept = game.kept(seat)
        text = status_text(game, names) + "."
        return text + (f"\nYour last hand: {show(kept)}" if kept else "")

    dealer = game.dealer
    crib_owner = "your" if dealer == seat else f"{escape(names[dealer])}'s"
    if phase is Phase.DISCARD and seat in game.to_act:
        lines.append(f"**Your hand:** {show(game.hand(seat))}")
        n = v.discards
        lines.append(f"Lay away {n} card{'s' if n > 1 else ''} to {crib_owner} crib.")
        return "\n".join(lines)

    kept = game.kept(seat)
    holding = game.hand(seat)
    if phase is Phase.PLAY:
        lines.append(f"**In your hand:** {show(holding)}")
        if len(holding) < len(kept):
            lines.append(f"Kept for the show: {show(kept)}")
    else:
        lines.append(f"**You kept:** {show(kept)} · {crib_owner} crib")
    if game.starter is not None:
        lines.append(f"Starter: {card_text(game.starter, emoji=emoji)}")

    waiting = _and([escape(names[s]) for s in game.to_act])
    if phase is Phase.DISCARD:
        lines.append(f"Waiting for {waiting} to lay away.")
    elif phase is Phase.CUT_FOR_STARTER:
        if seat in game.to_act:
            lines.append("Your cut: cut the pack for the starter.")
        else:
            lines.append(f"Waiting for {waiting} to cut for the starter.")
    elif seat in game.to_act:
        pile = f" ({cards_text(game.pile, emoji=emoji)})" if game.pile else ""
        lines.append(f"**Your turn:** the count is {game.count}{pile}.")
        playable = [c for c in holding if game.count + c.value <= 31]
        if len(playable) < len(holding):
            lines.append(f"You can lay {_or([card_text(c, emoji=emoji) for c in playable])}.")
    elif not holding:
        lines.append(f"You have laid all your cards. Waiting for {waiting}.")
    else:
        lines.append(f"Waiting for {waiting} · the count is {game.count}.")
    return "\n".join(lines)


def discard_prompt(game: Game, seat: int, names: Sequence[str]) -> str:
    """``"Lay away 2 cards to Bob's crib"`` (or ``'your crib'``): the discard instruction."""
    n = game.variant.discards
    owner = "your" if game.dealer == seat else f"{escape(names[game.dealer])}'s"
    return f"Lay away {n} card{'s' if n > 1 else ''} to {owner} crib"


# --------------------------------------------------------------------------- rules and help

RULES_TEXT = """\
**Cribbage in short** (American Cribbage Congress rules)
• **Deal.** Lowest cut deals first, then the deal passes left. Two players get 6 cards and lay \
2 away; three or four get 5 and lay 1 away (three-handed, one card from the pack joins them). \
The cards laid away are the **crib**: it scores for the dealer.
• **Starter.** The player left of the dealer cuts and a card is turned. A jack gives the dealer \
**two for his heels**.
• **The play.** From the dealer's left, lay cards in turn and call the count, never past 31. \
Can't lay? Say **go**. The last to lay pegs **1 for the go** (2 for exactly **31**) and the count \
starts again. The very last card pegs 1.
• **The show.** Each hand counts with the starter, from the dealer's left; the dealer counts \
last, then the crib. Counting is automatic.
• **Winning.** The first side to the target wins at once, even mid-show. Partners share one \
score. Below 91 at the end is a **skunk** (two games), below 61 a double skunk (three); in a \
game to 61 the skunk line is 31.

**Pegging** (as each card is laid)
```
count of 15 (fifteen)      2
count of 31 (thirty-one)   2
pair                       2
three of a kind            6
four of a kind            12
run of 3+ (any order)      1 a card
go                         1
last card                  1
```
**The show** (hand or crib, with the starter)
```
each combination of 15     2
each pair                  2
three / four of a kind  6 / 12
each run of 3+             1 a card
flush in the hand          4 (5 with the starter)
flush in the crib          5 (all five only)
his nobs                   1 (jack of the starter's suit)
```
Best hand: 29. Nothing to count is called "nineteen".
"""

HELP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("/cribbage start", "open a table in this channel (pick the variant, then others join)"),
    ("/cribbage rules", "the short rules and the scoring chart"),
    ("/cribbage leaderboard", "this server's best players"),
    ("/cribbage help", "this message"),
)


def rules_text(variant: Variant | None = None) -> str:
    """The short rules and the scoring chart (under 2000 characters, one message)."""
    if variant is None:
        return RULES_TEXT.rstrip()
    head = f"This table: {variant.name}; {variant.dealt} cards each, lay away {variant.discards}."
    return head + "\n\n" + RULES_TEXT.rstrip()


def help_text(commands: Sequence[tuple[str, str]] = HELP_COMMANDS) -> str:
    """How to play here: the commands, then the buttons."""
    lines = ["**Cribbage** — play a full game with friends or the computer.", ""]
    lines += [f"`{name}` — {what}" for name, what in commands]
    lines += [
        "",
        "At the table, click **Your hand** to see your cards (only you can see them), then the "
        "card buttons to lay away or play. The channel shows the count, every peg and the show.",
    ]
    return "\n".join(lines)
