"""The state of the table in words: the text board (scores with bars, whose turn, the count)
for the channel, and the private hand for one player's ephemeral message.

``board_text`` and ``status_text`` read only the public parts of the game; ``hand_text`` is
PRIVATE (it shows the seat's own hand).

Each fact once: the count is on the count's own line (``status_text`` says only who plays),
and the skunk line is not repeated on every table: the bars mark it (``┃``), the board picture
draws and names it, the lobby and the result say it in words.

>>> score_bar(84, 121)
'▰▰▰▰▰▰▰▰▰▰▰▰▰▱▱┃▱▱▱▱▱'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine import Card, Phase, Variant

from .shapes import PublicGame, SeatGame
from .words import (
    card_text,
    cards_text,
    check_names,
    escape,
    hand_line,
    join_and,
    join_or,
    side_name,
    side_names,
)

BAR_CELLS = 20
BAR_FULL, BAR_EMPTY, BAR_SKUNK = "▰", "▱", "┃"


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


def score_words(scores: Sequence[int], names: Sequence[str], variant: Variant) -> str:
    """Every side's score as a sentence a screen reader says plainly (no bars, no slashes):
    ``'Score: alice 84, bob 62, playing to 121.'``"""
    sides = side_names(names, variant)
    said = ", ".join(f"{escape(name)} {score}" for name, score in zip(sides, scores, strict=True))
    return f"Score: {said}, playing to {variant.target}."


def skunk_text(variant: Variant) -> str:
    """``'┃ skunk line 91 (double skunk below 61)'``."""
    text = f"{BAR_SKUNK} skunk line {variant.skunk_line}"
    if variant.double_skunk_line:
        text += f" (double skunk below {variant.double_skunk_line})"
    return text


def _be(who: Sequence[object]) -> str:
    return "is" if len(who) == 1 else "are"


def _dealer(game: PublicGame) -> int:
    """The dealer of the deal in progress (there is one in every phase after the cut)."""
    if game.dealer is None:
        raise ValueError("Nobody deals before the cut for the deal")
    return game.dealer


def status_text(game: PublicGame, names: Sequence[str]) -> str:
    """Who must do what now, in public words (never a hidden card)."""
    check_names(names, game.variant)
    who = [escape(names[s]) for s in game.to_act]
    if game.phase is Phase.CUT_FOR_DEAL:
        return f"Cutting for the deal: waiting for {join_and(who)}"
    if game.phase is Phase.DISCARD:
        dealer = escape(names[_dealer(game)])
        return f"Laying away to {dealer}'s crib: waiting for {join_and(who)}"
    if game.phase is Phase.CUT_FOR_STARTER:
        return f"{join_and(who)} to cut for the starter"
    if game.phase is Phase.PLAY:  # the count is shown beside the pile, once
        return f"{join_and(who)} to play"
    if game.phase is Phase.SHOW:  # muggins: each owner claims a count, opponents may answer
        if not who:  # only an optional muggins answer is open: it closes by itself
            return "The show, counted by the players: the last count stands in a moment"
        return f"The show, counted by the players: waiting for {join_and(who)}"
    if game.phase is Phase.NEXT_DEAL:  # the show stays up until everyone is ready
        return f"The show: the next deal when {join_and(who)} {_be(who)} ready"
    if game.winner is not None:
        name = escape(side_name(game.winner, names, game.variant))
        return f"Game over: {name} {'win' if game.variant.partnerships else 'wins'}"
    return "Game over"


def pile_text(game: PublicGame) -> str:
    """The cards laid since the count was last reset, ``'7♦ 8♣ 7♥ (22)'`` (or ``''``)."""
    pile = game.pile
    return f"{cards_text(pile)} ({game.count})" if pile else ""


def count_text(game: PublicGame) -> str:
    """``'Count 22: 7♦ 8♣ 7♥'`` (``'Count 0'`` before the first card of a count)."""
    pile = cards_text(game.pile)
    return f"Count {game.count}: {pile}" if pile else f"Count {game.count}"


def board_text(game: PublicGame, names: Sequence[str]) -> str:
    """The public text board: scores with bars, the deal, whose turn, the starter, and in the
    play the count with the cards laid since it was last reset. Safe for the channel."""
    check_names(names, game.variant)
    lines = score_lines(game.scores, names, game.variant)
    if game.dealer is not None and game.phase is not Phase.GAME_OVER:
        deal = f"Deal {game.deal_number} · **{escape(names[game.dealer])}** deals"
        if game.starter is not None:
            deal += f" · starter {game.starter}"
        lines.append(deal)
    lines.append(status_text(game, names))
    if game.phase is Phase.PLAY:
        lines.append(count_text(game))
    return "\n".join(lines)


# --------------------------------------------------------------------------- the private hand


def hand_text(game: SeatGame, seat: int, names: Sequence[str], *, emoji: bool = False) -> str:
    """What ``seat`` sees in its ephemeral message: its cards, kept cards, what to do now.

    PRIVATE: shows the seat's own hand. Send it only ephemerally to that player.
    """
    check_names(names, game.variant)
    v = game.variant

    def show(cards: Iterable[Card]) -> str:
        return hand_line(cards, emoji=emoji) or "—"

    lines: list[str] = []
    phase = game.phase
    if phase is Phase.CUT_FOR_DEAL:
        if seat in game.to_act:
            return "Cut the pack for the deal: lowest card deals."
        cutting = join_and([escape(names[s]) for s in game.to_act])
        return f"Waiting for {cutting} to cut for the deal."
    if phase is Phase.GAME_OVER:
        kept = game.kept(seat)
        text = status_text(game, names) + "."
        return text + (f"\nYour last hand: {show(kept)}" if kept else "")

    dealer = _dealer(game)
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

    waiting = join_and([escape(names[s]) for s in game.to_act])
    if phase is Phase.NEXT_DEAL:
        if seat in game.to_act:
            lines.append("The show is over: click **Next deal** when you are ready.")
        else:
            be = _be(game.to_act)
            lines.append(f"You are ready: the next deal when {waiting} {be} ready.")
    elif phase is Phase.DISCARD:
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
            lines.append(f"You can lay {join_or([card_text(c, emoji=emoji) for c in playable])}.")
    elif not holding:
        lines.append(f"You have laid all your cards. Waiting for {waiting}.")
    else:
        lines.append(f"Waiting for {waiting} · the count is {game.count}.")
    return "\n".join(lines)


def discard_prompt(game: PublicGame, seat: int, names: Sequence[str]) -> str:
    """``"Lay away 2 cards to Bob's crib"`` (or ``'your crib'``): the discard instruction."""
    n = game.variant.discards
    dealer = _dealer(game)
    owner = "your" if dealer == seat else f"{escape(names[dealer])}'s"
    return f"Lay away {n} card{'s' if n > 1 else ''} to {owner} crib"
