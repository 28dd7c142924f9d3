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

import re
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
from bot.engine.scoring import Breakdown, ScoreItem, ScoreKind, number_words

from .words import check_names, escape, hand_line, join_and, points_text, side_name

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""


# --------------------------------------------------------------------------- the story


def story_lines(events: Iterable[Event], names: Sequence[str], variant: Variant) -> list[str]:
    """Channel lines (markdown) telling what ``events`` did, grouped to read like a table.

    Two players: one line per card laid, with what it made and what followed (go, the go
    point, last card, the count starting again); three or four: one line per count, its cards
    in turn (``'Play: **Alice** 7♦ (7) · **Bob** 8♣ (15) fifteen for two (now 2) · …'``). One
    line for the starter and his heels; one line per hand shown, in counting order, then the
    crib, its pairs and runs named as players count them (:func:`show_talk`); with muggins the
    claim, any call on it and its true count share the hand's line. One line for the winner.
    Consecutive discards and cuts for the deal share a line. Every line that scores ends with
    the side's new score ("(now 17)"; in partnerships the team's names in seat order, as on the
    board: "(Alice & Carol now 8)"). Only what the events carry is shown, so no hidden card
    ever appears.
    """
    check_names(names, variant)
    story = _Story(names, variant)
    for event in events:
        story.add(event)
    return story.lines


def tell(story: list[str], events: Iterable[Event], names: Sequence[str], variant: Variant) -> None:
    """Add the lines of ``events`` to ``story`` (a deal's lines so far), in place.

    As :func:`story_lines`, but a discard joins the discard line ``story`` ends with (each
    person's discard is told as it comes, and the deal still has one line for all of them), a
    card the count's line, and a muggins call or the true count the claim's line.
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
        self.claim_at: tuple[int, int, bool] | None = None  # (line, seat, crib) of that claim
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
        """Carry on from ``line`` (the end of an earlier story) when it is a discard line, or
        with three or four players the line of the count in progress."""
        if self.grouped and line.startswith(PLAY_HEAD):
            self.start(line, "play")
            self.resumed = True
            return
        for seat in range(len(self.names)):
            for crib in (False, True):
                head = f"{self.bold(seat)}'s {'crib' if crib else 'hand'} "
                if line.startswith(head) and " · claims **" in line and " was worth " not in line:
                    self.start(line)  # a claim whose true count is still to come
                    self.claim_at = (0, seat, crib)
                    self.resumed = True
                    return
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
        """``'(now 17)'``; in partnerships the team, in seat order as on the board:
        ``'(Alice & Carol now 8)'``."""
        if not self.variant.partnerships:
            return f"(now {event.score})"
        return f"({self.side(event.side)} now {event.score})"

    @property
    def grouped(self) -> bool:
        """Three or four players: the cards of one count share a line (a deal of sixteen cards
        laid reads as three or four lines, not sixteen)."""
        return self.variant.players > 2

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
                if leader is not None and not self.grouped:  # (grouped: a new line says it)
                    self.join("the count starts again")
            case Shown():
                self.show(event)
            case Claimed():
                self.claimed(event)
            case MugginsCalled(seat=seat):
                self.muggins_called(seat)
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
        if self.grouped:
            part = f"{self.bold(event.seat)} {event.card} ({event.count})"
            if event.breakdown:
                part += f" {event.breakdown.announce()}"
            first = event.count == event.card.value  # the first card of a count
            if first or self.open not in ("play", "go") or not self.lines:
                self.start(PLAY_HEAD + part, "play")
            else:
                self.append(part)
                self.open = "play"
            return
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
            self.claim_at = (len(self.lines) - 1, event.seat, event.crib)
            return
        talk = show_talk(event.breakdown)
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

    def muggins_called(self, seat: int) -> None:
        """A call on the open claim: on the claim's line when it is the last one."""
        call = f"{self.bold(seat)} calls **Muggins!**"
        if self.claim_at is not None and self.claim_at[0] == len(self.lines) - 1:
            self.append(call)
            self.open = "muggins"
            self.claim_at = (-1, *self.claim_at[1:])  # the call's line: told as a call
            return
        self.start(call, "muggins")

    def settled(self, event: CountSettled) -> None:
        """The true count once its window closes: what it was worth and what was missed (the
        cards are on the claim's line and the show picture; the count is not told again)."""
        whose = "crib" if event.crib else "hand"
        worth = event.breakdown.total
        verdict = settled_verdict(event)
        if self.open == "muggins" and self.lines:  # the call's line tells what it found
            found = verdict if event.missed else f"{verdict}: nothing to take"
            on_claim = self.claim_at == (-1, event.seat, event.crib)  # the claim is on the line
            whose = "it" if on_claim else f"{self.who(event.seat)}'s {whose}"
            if on_claim and event.claimed is not None and event.claimed > worth:
                found = f"over by {event.claimed - worth}"  # the claim said what it pegged
            self.append(f"{whose} was worth {worth} — {found}")
            self.open, self.claim_at = "muggins", None
            return
        if self.claim_at == (len(self.lines) - 1, event.seat, event.crib):
            # on the claim's own line, which still ends with the score the claim pegged
            if event.claimed is not None and event.claimed > worth:
                verdict = f"over by {event.claimed - worth}"  # the claim said what it pegged
            head, score = _score_tail(self.lines[-1])
            self.lines[-1] = f"{head} · it was worth {worth} — {verdict}{score}"
            self.open, self.claim_at = None, None
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
                talk = f"last card: {number_words(event.points)} for {who}"
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


_NOW_TAIL = re.compile(r" \((?:[^()]* )?now [0-9]+\)$")


def _score_tail(line: str) -> tuple[str, str]:
    """``line`` without the score it ends with (``' (now 17)'``), and that score (or ``''``)."""
    found = _NOW_TAIL.search(line)
    return (line[: found.start()], found[0]) if found else (line, "")


PLAY_HEAD = "Play: "
"""The start of a count's line with three or four players (``'Play: **Alice** 7♦ (7) · …'``)."""


def show_talk(breakdown: Breakdown) -> str:
    """The show counted aloud as players count it: fifteens, then the pairs and runs by the names
    players use (a double run of three is 8 with its pair, of four 10; a double double run 16; a
    triple run 15), then the flush and his nobs, with running totals.

    >>> from bot.engine import parse_cards, score_show
    >>> show_talk(score_show(parse_cards("3C 4D 4H 5S"), parse_cards("AD")[0]))
    'a double run is eight'
    >>> show_talk(score_show(parse_cards("5S JD QS KD"), parse_cards("JH")[0]))
    'fifteen two, fifteen four, fifteen six, fifteen eight, and a double run is sixteen'
    """
    items = breakdown.items
    if not items:
        return "nineteen (nothing to count)"
    runs = [item for item in items if item.kind is ScoreKind.RUN]
    run_ranks = {card.rank for item in runs for card in item.cards}
    sets = {ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL}
    in_runs = [i for i in items if i.kind in sets and i.cards[0].rank in run_ranks]
    told: list[tuple[str, int]] = []  # (what, points) in the order players count
    told += [("fifteen", item.points) for item in items if item.kind is ScoreKind.FIFTEEN]
    told += [(_set_name(item), item.points) for item in items if item in sets_apart(items, in_runs)]
    if runs:
        told.append((_runs_name(runs, in_runs), sum(i.points for i in runs + in_runs)))
    told += [
        ("a flush" if item.kind is ScoreKind.FLUSH else "his nobs", item.points)
        for item in items
        if item.kind in (ScoreKind.FLUSH, ScoreKind.NOBS)
    ]
    phrases, running = [], 0
    for what, points in told:
        running += points
        total = number_words(running)
        phrases.append(f"fifteen {total}" if what == "fifteen" else f"{what} is {total}")
    if len(phrases) > 1:
        phrases[-1] = "and " + phrases[-1]
    return ", ".join(phrases)


def sets_apart(items: Sequence[ScoreItem], in_runs: Sequence[ScoreItem]) -> list[ScoreItem]:
    """The pairs (and pairs royal) of a show that are not part of its runs."""
    sets = {ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL}
    return [item for item in items if item.kind in sets and item not in in_runs]


def _set_name(item: ScoreItem) -> str:
    return f"a {item.kind.value}"


def _runs_name(runs: Sequence[ScoreItem], pairs: Sequence[ScoreItem]) -> str:
    """'a run of four', 'a double run' (of three), 'a double run of four', 'a double double
    run', 'a triple run': the runs of one stretch of ranks with the pairs inside it."""
    length = len(runs[0].cards)
    of = "" if length == 3 else f" of {number_words(length)}"
    kinds = sorted(item.kind.value for item in pairs)
    if len(runs) == 1:
        return f"a run of {number_words(length)}"
    if len(runs) == 2 and kinds == ["pair"]:
        return f"a double run{of}"
    if len(runs) == 3 and kinds == ["pair royal"]:
        return f"a triple run{of}"
    if len(runs) == 4 and kinds == ["pair", "pair"]:
        return f"a double double run{of}"
    return f"{number_words(len(runs))} runs{of} with their pairs"


def settled_verdict(event: CountSettled) -> str:
    """How a claim compared with the true count: ``'counted right'``, ``'2 missed'``, or for an
    over-claim ``'claimed 14: over by 2, so 2 came off'``."""
    total, claimed = event.breakdown.total, event.claimed
    if claimed is not None and claimed > total:
        return f"claimed {claimed}: over by {claimed - total}, so {event.missed} came off"
    return f"{event.missed} missed" if event.missed else "counted right"


def game_over_line(event: GameOver, names: Sequence[str], variant: Variant) -> str:
    """``'🏆 **Alice** wins with 121, Bob 84 (skunked)'``: the winner's score first, then every
    other side's, highest first, each named (the same form as the channel's line)."""
    labels = [escape(side_name(side, names, variant)) for side in range(len(event.scores))]
    marks = [SKUNK_MARKS.get(skunk, "") for skunk in event.skunks]
    verb = "win" if variant.partnerships else "wins"
    return f"🏆 {result_words(labels, event.scores, event.winner, verb, marks)}"


SKUNK_MARKS = {1: " (skunked)", 2: " (double skunked)"}


def result_words(
    labels: Sequence[str],
    scores: Sequence[int],
    winner: int,
    verb: str = "won",
    marks: Sequence[str] = (),
) -> str:
    """``'**carol** won with 121, alice 108, bob 102'``: the winner in bold with its score, then
    the other sides by score. ``labels``: each side's name as the text needs it (escaped);
    ``marks``: what follows a side's score (``' (skunked)'``).

    >>> result_words(["alice", "bob", "carol"], [108, 102, 121], 2)
    '**carol** won with 121, alice 108, bob 102'
    """
    others = sorted((s for s in range(len(scores)) if s != winner), key=lambda s: -scores[s])
    mark = list(marks) or [""] * len(scores)
    told = [f"{labels[s]} {scores[s]}{mark[s]}" for s in others]
    return f"**{labels[winner]}** {verb} with {scores[winner]}{mark[winner]}, " + ", ".join(told)


def scores_words(labels: Sequence[str], scores: Sequence[int]) -> str:
    """Every side's score, named, in seat order: ``'alice 4, bob 13'``."""
    return ", ".join(f"{label} {score}" for label, score in zip(labels, scores, strict=True))


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
