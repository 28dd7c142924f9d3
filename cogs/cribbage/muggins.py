"""Muggins at the table (docs/players/muggins.md): the claim picker, the public muggins
buttons, the timeout.

In a muggins game each player counts their own hand (and the dealer the crib) with a number
picker in their private hand message (two menus, Discord's limit being 25 options:
``crib:n:{game}:{step}:l`` 0 to 14, ``...:h`` 15 to 29); the hand's picture is then the cards
to count and the starter. A claim at or below the count opens a short window in which an
opponent may take the points missed (an over-claim is corrected at once and opens none); the
next count need not wait for it, so several may be open. While any is, the live table carries
**Muggins!** and **Let it go** (``crib:m:{game}:{step}:call|pass``), each answering every
window open to the clicker. No answer is owed: a window closes when every opponent has answered
or, by :class:`MugginsKeeper`'s loop, ``manager.muggins.window`` seconds after it opened, so
the table does not name the opponents as having to move (:func:`owing`), and a click on either
button is acknowledged silently (a deferred update: the table shows what it did). No rule is
decided here: the session manager accepts or refuses every click.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.engine import Action, Claim, LetGo, Muggins, Phase
from bot.engine.muggins import CLAIMS
from bot.render.words import escape, hand_line, join_and
from bot.sessions import GameSessionManager, GameView, Move, PrivateView, Refusal
from cogs.cribbage.buttons import GAME_ID, STEP, Button, Style
from cogs.utils.items import Answerers, CribItem, Role
from cogs.utils.replies import in_time, place_of, say
from cogs.utils.ticker import OutcomeRound, Publisher

log = logging.getLogger(__name__)


class MugginsAnswers(Protocol):
    """Answers a hand's claim pickers, and Muggins! or Let it go on the table."""

    async def claim(
        self, interaction: discord.Interaction, game_id: int, step: int, points: int
    ) -> None: ...

    async def answer(
        self, interaction: discord.Interaction, game_id: int, step: int, verb: str
    ) -> None: ...


MUGGINS: Role[MugginsAnswers] = Role("muggins")


class Mover(Protocol):
    """Makes a move clicked on a hand, and redraws the hand (the hands' answerer)."""

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, step: int
    ) -> None: ...


CLOSE_WINDOWS_EVERY = 5.0  # seconds between two looks for muggins windows nobody answered
Select = discord.ui.Select


class ClaimPicker(
    CribItem[Select], template=rf"crib:n:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<part>[lh])"
):
    """The private number picker: how many points the player claims for the cards counted.

    Discord allows 25 options a menu, so the 30 claims come as two menus: ``l`` (0 to 14) and
    ``h`` (15 to 29)."""

    PARTS = {"l": CLAIMS[:15], "h": CLAIMS[15:]}

    def __init__(self, game_id: int, step: int, part: str, *, crib: bool = False) -> None:
        whose = "crib" if crib else "hand"
        points = self.PARTS[part]
        options = [
            discord.SelectOption(label=f"{n} point{'s' if n != 1 else ''}", value=str(n))
            for n in points
        ]
        super().__init__(
            Select(
                custom_id=f"crib:n:{game_id}:{step}:{part}",
                placeholder=f"Claim for your {whose}: {points[0]} to {points[-1]} points",
                options=options,
            )
        )
        self.game_id, self.step, self.part = game_id, step, part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ClaimPicker:
        return cls(int(match["game"]), int(match["step"]), match["part"])

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        picked = str(self.item.values[0]) if self.item.values else ""  # the option clicked
        points = int(picked) if picked.isascii() and picked.isdigit() else -1
        await answerers.get(MUGGINS).claim(interaction, self.game_id, self.step, points)


def claim_pickers(game_id: int, step: int, *, crib: bool) -> list[ClaimPicker]:
    return [ClaimPicker(game_id, step, part, crib=crib) for part in ClaimPicker.PARTS]


class MugginsButton(
    CribItem[Button],
    template=rf"crib:m:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<verb>call|pass)",
):
    """The public answers to an open claim: call muggins on it, or let it stand."""

    LABELS = {"call": ("Muggins!", Style.danger), "pass": ("Let it go", Style.secondary)}

    def __init__(self, game_id: int, step: int, verb: str) -> None:
        label, style = self.LABELS[verb]
        super().__init__(
            Button(label=label, style=style, custom_id=f"crib:m:{game_id}:{step}:{verb}")
        )
        self.game_id, self.step, self.verb = game_id, step, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MugginsButton:
        return cls(int(match["game"]), int(match["step"]), match["verb"])

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(MUGGINS).answer(interaction, self.game_id, self.step, self.verb)


MUGGINS_ITEMS = (ClaimPicker, MugginsButton)


def muggins_buttons(view: GameView) -> list[MugginsButton]:
    """The table's Muggins! / Let it go buttons while a window is open (else none)."""
    if not view.muggins_waiting:
        return []
    return [MugginsButton(view.game_id, view.step, verb) for verb in ("call", "pass")]


def next_counter(view: GameView) -> int | None:
    """In a muggins show, the seat that may claim a count now: the game's next counter
    (``view.muggins_counter``) when it is to act (None: every count is claimed, or the
    counter waits for a window on its own side's count, as a game of release 0.1.0 does)."""
    if view.phase is not Phase.SHOW or view.muggins_counter not in view.to_act:
        return None
    return view.muggins_counter


def owing_seats(view: GameView) -> tuple[int, ...]:
    """The seats whose move the game waits for: ``to_act`` without the opponents who may only
    answer an open muggins window (they owe nothing: it closes by itself)."""
    if view.phase is not Phase.SHOW or view.muggins_claimer is None:
        return tuple(view.to_act)
    counter = next_counter(view)
    return tuple(s for s in view.to_act if s == counter or s not in view.muggins_waiting)


def owing(view: GameView) -> tuple[int, ...]:
    """The Discord users whose move the game waits for (see :func:`owing_seats`): the ones to
    name under "Your move" and, if anyone, to ping."""
    return tuple(u for seat in owing_seats(view) if (u := view.seat_user(seat)) is not None)


def muggins_line(view: GameView, names: Sequence[str], closes_at: float | None) -> str:
    """The table's note on the open windows: the latest claim open to a call, what an opponent
    may do, and when that count stands by itself (nobody has to answer)."""
    if view.muggins_claimer is None or not view.muggins_waiting:
        return ""
    whose = "crib" if view.muggins_crib else "hand"
    who = escape(names[view.muggins_claimer])
    when = f" <t:{int(closes_at)}:R>" if closes_at is not None else " shortly"
    return (
        f"**Muggins?** {who}'s {whose} is claimed. Points left uncounted? An opponent may "
        f"call **Muggins!** to take them (one call answers every count open to them); "
        f"otherwise the count stands{when}."
    )


def may_claim(private: PrivateView) -> bool:
    return private.must_act and any(isinstance(a, Claim) for a in private.legal_actions)


def show_text(view: GameView, private: PrivateView, names: Sequence[str]) -> str:
    """PRIVATE: the hand message in a muggins show: the cards to count, or what is awaited."""
    starter = f"starter {view.starter}" if view.starter is not None else "no starter"
    lines = []
    if private.counting:
        whose = "crib" if private.counting_crib else "hand"
        lines.append(f"**Count your {whose}:** {hand_line(private.counting)} · {starter}")
        if may_claim(private):
            lines.append(
                "Pick the points you claim below. Claim too few and an opponent may call "
                "muggins on the rest; claim too many and the excess comes off (nobody gets "
                "it)."
            )
    else:
        lines.append(f"**You kept:** {hand_line(private.kept) or '—'} · {starter}")
    if private.seat in view.muggins_waiting and view.muggins_claimer is not None:
        who = escape(names[view.muggins_claimer])
        whose = "crib" if view.muggins_crib else "hand"
        lines.append(
            f"{who} has claimed their {whose}. If you see points left uncounted, **Muggins!** "
            "on the table takes them; if not, nothing to do: the count stands by itself."
        )
    elif not may_claim(private):
        owed = owing_seats(view)
        if owed:
            lines.append(f"Waiting for {join_and([escape(names[s]) for s in owed])}.")
        elif view.muggins_claimer is not None:
            who = escape(names[view.muggins_claimer])
            lines.append(
                f"The count of {who}'s {'crib' if view.muggins_crib else 'hand'} "
                "stands in a moment, unless an opponent calls muggins."
            )
    return "\n".join(lines)


class MugginsKeeper:
    """The muggins clicks and the loop that lets unanswered windows go."""

    def __init__(
        self,
        client: discord.Client,
        manager: GameSessionManager,
        table: Publisher,
        hands: Mover,
    ) -> None:
        """``table`` shows the outcomes; ``hands`` makes a move clicked on a hand and redraws
        the hand (the hands' answerer)."""
        self.manager = manager
        self.table = table
        self.hands = hands
        self.windows = OutcomeRound(  # lets go the windows open too long, and shows it
            client,
            manager.muggins.close_due,
            table,
            seconds=CLOSE_WINDOWS_EVERY,
            failure="Closing the muggins windows failed",
            shown="a closed muggins window",
            logger=log,
        )

    def start(self) -> None:
        self.windows.start()

    def stop(self) -> None:
        self.windows.stop()

    async def tick(self, now: float | None = None) -> int:
        """Let go every window open too long; publish each; how many closed."""
        return await self.windows.tick(now)

    async def claim(
        self, interaction: discord.Interaction, game_id: int, step: int, points: int
    ) -> None:
        """The points picked in the hand's claim picker: a move like any other."""
        await self.hands.act(interaction, game_id, Claim(points), step)

    async def answer(
        self, interaction: discord.Interaction, game_id: int, step: int, verb: str
    ) -> None:
        """A click on Muggins! or Let it go on the table: no message answers it (a deferred
        update, Discord's response type 6, "the user does not see a loading state"); the table
        shows what it did. A refusal is told privately."""
        action = Muggins() if verb == "call" else LetGo()
        move = Move(game_id, interaction.user.id, action, step=step, where=place_of(interaction))
        work = self.manager.play.act(move)
        outcome = await in_time(interaction, work)  # late: a deferred update, silent too
        if isinstance(outcome, Refusal):
            await say(interaction, outcome.message)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()  # a component's defer: DEFERRED_UPDATE_MESSAGE
        await self.table.publish(outcome)  # the clicker's open hand is redrawn too
