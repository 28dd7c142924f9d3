"""The short rules with the scoring chart, and the help message (one Discord message each).

>>> len(rules_text()) < 2000 and len(help_text()) < 2000
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Variant

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
    ("/cribbage start", "open a table here (pick the variant, then others join)"),
    ("/cribbage hand", "your cards in the game (in its thread, or in this channel)"),
    ("/cribbage board", "post the game's table again, at the bottom"),
    ("/cribbage forfeit", "concede your game"),
    ("/cribbage watch", "a live view of a game for spectators (no hands)"),
    ("/cribbage rules", "the short rules and the scoring chart"),
    ("/cribbage leaderboard", "this server's best players"),
    ("/cribbage stats", "your record, points per deal, best hand and streak (or anyone's)"),
    ("/cribbage history", "your last games, their scores and rating changes"),
    ("/cribbage replay", "step through a finished game deal by deal (yours, or any by number)"),
    ("/cribbage notify", "whether the table may ping you for your move"),
    ("/cribbage settings", "this server's cribbage settings (a thread per game, pictures, …)"),
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
        "When the game starts it moves to a thread of its own (unless the server turned threads "
        "off): the table, your hand, every peg and the show are there, and the channel keeps "
        "one line per game with its result. At the table, click **Your hand** to see your cards "
        "(only you can see them), then the card buttons to lay away or play.",
    ]
    return "\n".join(lines)
