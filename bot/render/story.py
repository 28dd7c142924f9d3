"""The story of a game: what the events did, told as table talk, and packed into messages.

Made only from events (which carry no hidden card), so the story is always safe for the channel.

>>> from bot.engine import Discarded, Played, Variant, parse_cards, score_pegging
>>> pile = parse_cards("7H 8D")
>>> story_lines([Played(0, pile[-1], 15, score_pegging(pile))], ["Alice", "Bob"], Variant())
['**Alice** plays 8♦ — count 15 — fifteen for two']
>>> chunk(["one", "two", "three"], limit=8)
['one\\ntwo', 'three']
>>> story = []
>>> tell(story, [Discarded(0, 2)], ["Alice", "Bob"], Variant())
>>> tell(story, [Discarded(1, 2)], ["Alice", "Bob"], Variant())
>>> story
['Alice and Bob lay their cards away to the crib']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

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
from bot.engine.muggins import pegged_for
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
    the deal share a line. Every line that scores ends with the side's new score ("(now 17)";
    in partnerships the team's names: "(Carol & Alice now 8)"). Only what the events carry is
    shown, so no hidden card ever appears.
    """
    check_names(names, variant)
    story = _Story(names, variant)
    for event in events:
        story.add(event)
    return story.lines


def tell(story: list[str], events: Iterable[Event], names: Sequence[str], variant: Variant) -> None:
    """Add the lines of ``events`` to ``story`` (a deal's lines so far), in place.

    As :func:`story_lines`, but a discard joins the discard line ``story`` ends with: each
    person's discard is told as it comes, and the deal still has one line for all of them.
    """
    check_names(names, variant)
    teller = _Story(names, variant)
    if story:
        teller.resume(story[-1])
    for event in events:
        teller.add(event)
    if teller.resumed:
        story[-1:] = teller.lines
    else:
        story += teller.lines


class _Story:
    def __init__(self, names: Sequence[str], variant: Variant) -> None:
        self.names = names
        self.variant = variant
        self.lines: list[str] = []
        self.open: str | None = None  # kind of the last line, while later events may join it
        self.group: list[int] = []  # the seats that line gathers
        self.cut_cards: list[Card] = []  # on a line of the cut for deal: their cards, in order
        self.go_head: str | None = None  # the play line a run of "go"s hangs on
        self.shown: Shown | None = None  # the count a muggins claim line is about
        self.now: tuple[int, int, str] | None = None  # (line, side, "(now N)") it ends with
        self.resumed = False  # the first line is the last line of an earlier story

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

    def resume(self, line: str) -> None:
        """Carry on from ``line`` (the end of an earlier story) when it is a discard line."""
        if not line.endswith(" away to the crib"):
            return
        seats = range(len(self.names))
        for size in range(1, len(self.names) + 1):
            for group in permutations(seats, size):
                for count in (1, 2):
                    if self.discard_line(list(group), count) == line:
                        self.start(line, "discard", list(group))
                        self.resumed = True
                        return

    def score_now(self, event: Scored) -> str:
        """``'(now 17)'``; in partnerships the team, scorer first: ``'(Carol & Alice now 8)'``."""
        if not self.variant.partnerships:
            return f"(now {event.score})"
        team = [event.seat] + [s for s in self.variant.seats_of(event.side) if s != event.seat]
        return f"({' & '.join(self.who(s) for s in team)} now {event.score})"

    def scored_on_line(self, event: Scored, part: str = "", sep: str = " · ") -> None:
        """End the last line with ``part`` (if any) and the side's new score; a score of that
        side told earlier on the line gives way to the newer one."""
        index = len(self.lines) - 1
        now = self.now
        if now and now[:2] == (index, event.side) and (" " + now[2]) in self.lines[index]:
            head, _, tail = self.lines[index].rpartition(" " + now[2])
            self.lines[index] = head + tail
        if part:
            self.lines[index] += sep + part
        text = self.score_now(event)
        self.lines[index] += " " + text
        self.now = (index, event.side, text)

    def scored_line(self, event: Scored, line: str, kind: str | None = None) -> None:
        self.start(line, kind)
        self.scored_on_line(event)

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
                self.show(event)
            case Claimed():
                self.claimed(event)
            case MugginsCalled(seat=seat):
                self.start(f"{self.bold(seat)} calls **Muggins!**", "muggins")
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

    def discard_line(self, group: list[int], count: int) -> str:
        """``'Bob lays 2 cards away to the crib'``; ``'Alice and Bob lay their cards away…'``."""
        if len(group) == 1:
            cards = f"{count} card{'s' if count > 1 else ''}"
            return f"{self.who(group[0])} lays {cards} away to the crib"
        return f"{join_and([self.who(s) for s in group])} lay their cards away to the crib"

    def discarded(self, seat: int, count: int) -> None:
        if self.open == "discard" and seat not in self.group:
            self.group.append(seat)
        else:
            self.start("", "discard", [seat])
        self.lines[-1] = self.discard_line(self.group, count)

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

    def show(self, event: Shown) -> None:
        whose = "crib" if event.crib else "hand"
        cards = hand_line(event.cards)
        if self.variant.muggins:  # the count is the claimer's until the window closes
            self.shown = event
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
        shown = self.shown
        if shown is not None and shown.seat == event.seat and shown.crib == event.crib:
            # an over-claim comes off at once, and the score shows it: say so
            pegged = pegged_for(event.points, shown.breakdown.total)
            if pegged < event.points:
                part += f" — too many: pegs {pegged}" if pegged else " — too many: pegs nothing"
        if self.open == "claim" and self.lines:
            self.append(part)
        else:
            self.start(f"{self.bold(event.seat)} {part}", "claim")

    def settled(self, event: CountSettled) -> None:
        whose = "crib" if event.crib else "hand"
        total = event.breakdown.total
        worth = f"{total} ({event.breakdown.announce()})" if total else "0"
        verdict = settled_verdict(event)
        if self.open == "muggins" and self.lines:  # the call's line tells what it found
            found = verdict if event.missed else f"{verdict}: nothing to take"
            self.append(f"{self.who(event.seat)}'s {whose} was worth {worth} — {found}")
            self.open = "muggins"
            return
        self.start(f"{self.who(event.seat)}'s {whose} was worth {worth} — {verdict}")

    def scored(self, event: Scored) -> None:
        who = self.who(event.seat)
        match event.reason:
            case ScoreReason.PLAY if self.open in ("play", "go"):
                self.scored_on_line(event)  # the play line already announced the breakdown
            case ScoreReason.HAND | ScoreReason.CRIB if self.open in ("show", "claim"):
                self.scored_on_line(event)  # the line carries the count
                self.open = None
            case ScoreReason.HEELS:
                if self.open == "starter":
                    part = f"{number_words(event.points)} for his heels to {who}"
                    self.scored_on_line(event, part, " — ")
                    self.open = None
                else:
                    self.scored_line(event, f"{who} pegs {event.points} for his heels")
            case ScoreReason.GO:
                self.join(f"{who} pegs {event.points} for the go")
                self.scored_on_line(event)
            case ScoreReason.LAST_CARD:
                talk = f"last card for {number_words(event.points)}"
                if self.open in ("play", "go") and self.lines:
                    self.scored_on_line(event, talk)
                    self.open = "play"
                else:
                    self.scored_line(event, f"{who} pegs {event.points} for the last card")
            case ScoreReason.MUGGINS if self.open == "muggins":
                self.scored_on_line(event, f"{who} takes {points_text(event.points)}")
                self.open = None
            case _:
                self.scored_line(
                    event, f"{who} pegs {points_text(event.points)} ({event.reason.value})"
                )


def settled_verdict(event: CountSettled) -> str:
    """How a claim compared with the true count: ``'counted right'``, ``'2 missed'``, or for an
    over-claim ``'claimed 14: over by 2, so 2 came off'``."""
    total, claimed = event.breakdown.total, event.claimed
    if claimed is not None and claimed > total:
        return f"claimed {claimed}: over by {claimed - total}, so {event.missed} came off"
    return f"{event.missed} missed" if event.missed else "counted right"


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
