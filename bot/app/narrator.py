"""Plain-text table talk for ``python -m bot play`` (:mod:`bot.app.terminal`): one line or two
per event of a game, as a player at the table would hear it."""

from __future__ import annotations

from typing import TextIO

from bot.engine import (
    CountReset,
    CutForDeal,
    CutTied,
    DealerChosen,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    Played,
    Scored,
    ScoreReason,
    Shown,
    StarterCut,
    Variant,
)
from bot.engine.scoring import number_words


class Narrator:
    """Plain-text table talk for the events of a game (no hidden card is ever in an event)."""

    def __init__(self, names: list[str], variant: Variant, out: TextIO) -> None:
        self.names = names
        self.variant = variant
        self.out = out

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def side(self, side: int) -> str:
        return " & ".join(self.names[s] for s in self.variant.seats_of(side))

    def tell(self, event: Event) -> None:
        n = self.names
        match event:
            case CutForDeal(seat=seat, card=card):
                self.say(f"{n[seat]} cuts {card} for the deal.")
            case CutTied():
                self.say("Equal cards: cut again.")
            case DealerChosen(seat=seat):
                self.say(f"{n[seat]} deals first.")
            case Dealt(dealer=dealer, number=number, cards_each=each):
                self.say()
                self.say(f"=== Deal {number}: {n[dealer]} deals {each} cards each ===")
            case Discarded(seat=seat, count=count):
                self.say(f"{n[seat]} lays {count} away to the crib.")
            case StarterCut(seat=seat, card=card):
                self.say(f"{n[seat]} cuts; the starter is {card}.")
            case Played(seat=seat, card=card, count=count, breakdown=breakdown):
                talk = f" - {breakdown.announce()}" if breakdown else ""
                self.say(f"{n[seat]} plays {card}, count {count}{talk}")
            case Go(seat=seat):
                self.say(f"{n[seat]}: go.")
            case CountReset(leader=leader):
                if leader is not None:
                    self.say("The count starts again at 0.")
            case Shown(seat=seat, cards=cards, starter=starter, crib=crib, breakdown=breakdown):
                whose = "crib" if crib else "hand"
                shown = " ".join(str(c) for c in cards)
                self.say(
                    f"{n[seat]}'s {whose}: {shown} + {starter}: {breakdown.announce()}"
                    f" = {breakdown.total}"
                )
            case Scored(seat=seat, points=points, reason=reason, score=score):
                self.scored(seat, points, reason, score)
            case GameOver(winner=winner, scores=scores, skunks=skunks):
                order = [winner] + [s for s in range(len(scores)) if s != winner]
                final = " - ".join(str(scores[s]) for s in order)
                skunk = {1: " (a skunk!)", 2: " (a double skunk!)"}.get(max(skunks), "")
                self.say()
                self.say(f"*** {self.side(winner)} won {final}{skunk} ***")

    def scored(self, seat: int, points: int, reason: ScoreReason, score: int) -> None:
        who = self.names[seat]
        words = number_words(points)
        if reason is ScoreReason.HEELS:
            self.say(f"  {words} for his heels to {who} (now {score})")
        elif reason is ScoreReason.GO:
            self.say(f"  go for {words} to {who} (now {score})")
        elif reason is ScoreReason.LAST_CARD:
            self.say(f"  last card for {words} to {who} (now {score})")
        elif reason is ScoreReason.PLAY:
            self.say(f"  ({who} now {score})")
        else:
            self.say(f"  {who} pegs {points} (now {score})")
