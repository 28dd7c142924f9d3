"""The story of a game: what the events did, told as table talk, and packed into messages.

Made only from events (which carry no hidden card), so the story is always safe for the channel.

>>> from bot.engine import Played, Variant, parse_cards, score_pegging
>>> pile = parse_cards("7H 8D")
>>> story_lines([Played(0, pile[-1], 15, score_pegging(pile))], ["Alice", "Bob"], Variant())
['**Alice** plays 8♦ — count 15 — fifteen for two']
>>> chunk(["one", "two", "three"], limit=8)
['one\\ntwo', 'three']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine import (
    Card,
    Claimed,
    CountReset,
    CountSettled,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    MugginsCalled,
    Played,
    Scored,
    ScoreReason,
    Shown,
    StarterCut,
    Variant,
)
from bot.engine.scoring import number_words

from .words import check_names, escape, hand_line, join_and, points_text, side_name

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""


# --------------------------------------------------------------------------- the story


def story_lines(events: Iterable[Event], names: Sequence[str], variant: Variant) -> list[str]:
    """Channel lines (markdown) telling what ``events`` did, grouped to read like a table.

    One line per card laid, with what it made and what followed (go, the go point, last card,
    the count starting again); one line for the starter and his heels; one line per hand shown,
    in counting order, then the crib; one line for the winner. Consecutive discards and cuts for
    the deal share a line. Only what the events carry is shown, so no hidden card ever appears.
    """
    check_names(names, variant)
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
        self.group: list[int] = []  # the seats that line gathers
        self.cut_cards: list[Card] = []  # on a line of the cut for deal: their cards, in order
        self.go_head: str | None = None  # the play line a run of "go"s hangs on

    # helpers

    def who(self, seat: int) -> str:
        return escape(self.names[seat])

    def bold(self, seat: int) -> str:
        return f"**{self.who(seat)}**"

    def side(self, side: int) -> str:
        return escape(side_name(side, self.names, self.variant))

    def start(self, line: str, kind: str | None = None, group: list[int] | None = None) -> None:
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
                tied = join_and([self.who(s) for s in seats])
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
            case Claimed():
                self.claimed(event)
            case MugginsCalled(seat=seat):
                self.start(f"{self.bold(seat)} calls **Muggins!**")
            case CountSettled():
                self.settled(event)
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
            self.group.append(seat)
            self.cut_cards.append(card)
            cuts = " · ".join(
                f"{self.who(s)} {c}" for s, c in zip(self.group, self.cut_cards, strict=True)
            )
            self.lines[-1] = f"Cutting for the deal: {cuts}"
        else:
            self.start(f"{self.who(seat)} cuts the {card} for the deal", "cut", [seat])
            self.cut_cards = [card]

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
        who = join_and([self.who(s) for s in self.group])
        self.lines[-1] = f"{who} {verb} {noun} away to the crib"

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
        said = f"{join_and([self.who(s) for s in self.group])} {verb} go"
        self.lines[-1] = f"{self.go_head} · {said}" if self.go_head else said
        self.open = "go"

    def shown(self, event: Shown) -> None:
        whose = "crib" if event.crib else "hand"
        cards = hand_line(event.cards)
        if self.variant.muggins:  # the count is the claimer's until the window closes
            self.start(f"{self.bold(event.seat)}'s {whose} {cards} + {event.starter}", "claim")
            return
        talk = event.breakdown.announce()
        self.start(
            f"{self.bold(event.seat)}'s {whose} {cards} + {event.starter}: {talk} "
            f"— **{event.breakdown.total}**",
            "show",
        )

    def claimed(self, event: Claimed) -> None:
        part = f"claims **{event.points}**"
        if self.open == "claim" and self.lines:
            self.append(part)
        else:
            self.start(f"{self.bold(event.seat)} {part}", "claim")

    def settled(self, event: CountSettled) -> None:
        whose = "crib" if event.crib else "hand"
        talk = event.breakdown.announce()
        line = f"{self.who(event.seat)}'s {whose} was worth {event.breakdown.total}"
        line += f" ({talk})" if event.breakdown.total else ""
        line += f" — {event.missed} missed" if event.missed else " — counted right"
        self.start(line)

    def scored(self, event: Scored) -> None:
        who = self.who(event.seat)
        match event.reason:
            case ScoreReason.PLAY if self.open in ("play", "go"):
                return  # the play line already announced the breakdown
            case ScoreReason.HAND | ScoreReason.CRIB if self.open in ("show", "claim"):
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
