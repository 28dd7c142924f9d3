"""Scripted Discord players for end-to-end tests and the e2e benchmark.

They act only on what a person would see: the public table message and their own ephemeral hand
message with its buttons. Nothing here reads the engine's hidden state.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.app.client import CribbageBot
from bot.app.config import Config
from tests.support.emulator import DiscordEmulator

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]


def bot_environment(database: Path) -> dict[str, str]:
    """The environment of ``python -m bot`` in a subprocess on ``database``: our token, and
    none of the caller's own Discord or cribbage settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CRIBBAGE_"))}
    return env | {"DISCORD_TOKEN": TOKEN, "CRIBBAGE_DB": str(database), "PYTHONPATH": str(ROOT)}


@contextlib.asynccontextmanager
async def open_club(
    tmp_path,
    *,
    names=("alice", "bob", "carol", "dave"),
    privacy=True,
    strict=True,
    error_loggers=("discord",),
):
    """A server with a #cribbage channel, these users, and the bot running on a database in
    ``tmp_path``; yields the :class:`Driver` (with ``users``, ``guild``, ``database`` and, with
    ``privacy``, a :class:`PrivacyWatch` on every click). ``strict`` and ``error_loggers``: as
    for :class:`DiscordEmulator` and its ``running``."""
    async with DiscordEmulator(strict=strict) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        users = [emu.add_user(name) for name in names]
        database = tmp_path / "cribbage.db"
        async with emu.running(make_bot(database), error_loggers=error_loggers) as bot:
            driver = Driver(emu, channel, bot)
            driver.users, driver.guild, driver.database = users, guild, database
            if privacy:
                driver.privacy = PrivacyWatch(driver)
            yield driver


def make_bot(database, **options) -> CribbageBot:
    config = Config(token=TOKEN, database=database, guild_id=None)
    return CribbageBot(config, guild_ready_timeout=0.05, **options)


@dataclass
class Seat:
    """One scripted player: a Discord user and their latest hand message."""

    user: object
    hand: object | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    # muggins: the points to claim for (cards, starter, crib), counted from the hand message
    # (default: the exact count, as a careful player counts); whether to call muggins on the
    # claim the table shows (default: let it go)
    claim: Callable | None = None
    call_muggins: Callable | None = None


class Driver:
    """Plays games through the emulator by clicking, like people would."""

    def __init__(
        self, emu: DiscordEmulator, channel, bot: CribbageBot | None, *, think: float = 0.0, seed=0
    ) -> None:
        """``bot``: the bot object when it runs in this process; None when it runs in another
        (then the driver learns the game is over from the channel, like a player)."""
        self.emu = emu
        self.channel = channel
        self.bot = bot
        self.think = think  # mean pause before each click, like a person (benchmarks)
        self._pace = random.Random(seed)
        self.clicks = 0
        self.latencies: list[float] = []

    async def slash(self, user, command: str, **options):
        result = await self.emu.slash(user, self.channel, command, **options)
        self.latencies.append(result.latency)
        await self._pause()
        return result

    async def select(self, user, message, values, **kwargs):
        result = await self.emu.select(user, message, values, **kwargs)
        return await self._clicked(result)

    async def click(self, user, message, label=None, **kwargs):
        result = await self.emu.click(user, message, label, **kwargs)
        return await self._clicked(result)

    async def _clicked(self, result):
        self.clicks += 1
        self.latencies.append(result.latency)
        if self.bot is None:
            # another process: the emulator cannot see its handler finish; wait until the
            # bot has gone quiet in this channel (its table edit and hand redraws are in)
            await self.emu.quiet(self.channel)
        await self._pause()
        return result

    async def _pause(self) -> None:
        if self.think:  # a person looks at the result, then decides the next click
            await asyncio.sleep(self._pace.uniform(0.5, 1.5) * self.think)

    def table_message(self):
        """The newest public message with a "Your hand" button: the live table."""
        for message in reversed(self.emu.public_messages(self.channel)):
            if any(b.label == "Your hand" for b in message.buttons):
                return message
        raise LookupError("no table message")

    def game_id(self) -> int:
        view = self.bot.manager.game_in_channel(self.channel.id)
        if view is None:
            raise LookupError("no game")
        return view.game_id

    async def open_lobby(self, host, **options):
        await self.slash(host, "cribbage start", **options)
        return self.emu.last_public(self.channel)

    async def start_game(self, host, others, **options):
        lobby = await self.open_lobby(host, **options)
        for user in others:
            await self.click(user, lobby, "Join")
        await self.click(host, lobby, "Start")
        return lobby

    def whose_move(self) -> list[int]:
        """The users the table message asks to move (its public "Your move" mention)."""
        content = self.table_message().content or ""
        return [int(part[2:-1]) for part in content.split() if part.startswith("<@")]

    async def move(self, seat: Seat) -> str:
        """Open the hand if needed and make one move from what the hand shows."""
        hand = seat.hand
        if hand is None or not self._live(hand):
            result = await self.click(seat.user, self.table_message(), "Your hand")
            hand = seat.hand = result.message
        pickers = [m for m in hand.selects if m.custom_id.startswith("crib:n:")]
        if pickers:  # muggins: count the cards shown and claim
            cards, starter, crib = counted_cards(hand.content)
            points = (seat.claim or exact_claim)(cards, starter, crib)
            picker = next(m for m in pickers if str(points) in m.values)
            await self.select(seat.user, hand, [str(points)], custom_id=picker.custom_id)
            return "claim"
        table = self.table_message()
        if any(b.label == "Let it go" for b in table.buttons):
            call = seat.call_muggins is not None and seat.call_muggins(table)
            await self.click(seat.user, table, "Muggins!" if call else "Let it go")
            return "muggins" if call else "let go"
        buttons = [b for row in hand.components for b in row]
        cuts = [b for b in buttons if b.label and b.label.startswith("Cut")]
        if cuts:
            await self.click(seat.user, hand, seat.rng.choice(cuts).label)
            return "cut"
        picks = [b for b in buttons if b.custom_id.startswith("crib:s:")]
        if picks:
            need = 2 if len(picks) == 6 else 1
            chosen = {b.label for b in seat.rng.sample(picks, need)}
            # the ids change as the selection grows: find the same cards by their labels; pick
            # again if the hand was redrawn meanwhile ("Your hand has changed" clears it)
            for _ in range(3 * need):
                current = self.emu.message(hand.id)
                buttons = [b for row in current.components for b in row]
                confirm = next((b for b in buttons if "Lay away" in (b.label or "")), None)
                if confirm is not None:
                    await self.click(seat.user, current, custom_id=confirm.custom_id)
                    return "discard"
                todo = [
                    b
                    for b in buttons
                    if b.custom_id.startswith("crib:s:")
                    and b.label in chosen
                    and "✔" not in (b.emoji or "")
                ]
                if not todo:
                    break
                await self.click(seat.user, current, custom_id=todo[0].custom_id)
            seat.hand = None
            return "wait"
        plays = [b for b in buttons if b.custom_id.startswith("crib:p:") and not b.disabled]
        if plays:
            await self.click(seat.user, hand, custom_id=seat.rng.choice(plays).custom_id)
            return "play"
        seat.hand = None
        return "wait"

    @staticmethod
    def _live(hand) -> bool:
        return any(b.custom_id.startswith("crib:") for row in hand.components for b in row)

    def game_over(self) -> bool:
        """Whether the game in this channel has ended (with no bot object: the channel shows
        the result, a message with a Rematch button)."""
        if self.bot is not None:
            return self.bot.manager.game_in_channel(self.channel.id) is None
        return any(
            b.label == "Rematch" for m in self.emu.public_messages(self.channel) for b in m.buttons
        )

    async def play_out(self, seats: dict[int, Seat], *, max_moves: int = 2000) -> None:
        """Everyone moves when the table says so, until the game is over."""
        for _ in range(max_moves):
            if self.game_over():
                return
            if self.bot is None:  # another process: its messages and edits may lag
                waiting = await self.emu.wait_for(
                    lambda: self.game_over() or self.whose_move(), what="the table to move on"
                )
                if waiting is True:
                    return
            waiting = self.whose_move()
            if not waiting:
                view = self.bot.manager.game_in_channel(self.channel.id)
                raise AssertionError(f"the table names nobody to move: {view.phase}")
            for user_id in waiting:
                seat = seats[user_id]
                try:
                    if await self.move(seat) == "wait":
                        seat.hand = None
                        await self.move(seat)
                except LookupError:  # the table moved on meanwhile (another process)
                    if self.bot is not None:
                        raise
                    break
        raise AssertionError("the game did not end")


_COUNT_LINE = re.compile(r"\*\*Count your (hand|crib):\*\* (.+?) · starter (\S+)")


def counted_cards(text: str) -> tuple[list, object, bool]:
    """The cards a muggins hand message asks its player to count: (cards, starter, crib)."""
    from bot.engine import FULL_PACK

    by_name = {str(c): c for c in FULL_PACK}
    found = _COUNT_LINE.search(text)
    if found is None:
        raise LookupError(f"no cards to count in the hand message:\n{text}")
    cards = [by_name[name] for name in found[2].split()]
    return cards, by_name[found[3]], found[1] == "crib"


def exact_claim(cards, starter, crib: bool) -> int:
    """What a player who counts right claims."""
    from bot.engine import score_show

    return score_show(cards, starter, crib=crib).total


def hidden_cards(bot: CribbageBot, game_id: int) -> set:
    """Every card no player may see publicly now (test-only peek at the engine's state)."""
    from bot.engine import FULL_PACK

    session = bot.manager._tables.sessions.get(game_id)
    game = session.game if session is not None else None
    if game is None or game.is_over:
        return set()
    public = {c for _, c in game.played} | set(game.cut_cards.values())
    if game.starter is not None:
        public.add(game.starter)
    return set(FULL_PACK) - public


class PrivacyWatch:
    """Checks every public message version a click produces against the engine's hidden cards."""

    def __init__(self, driver: Driver) -> None:
        from bot.engine import CutForDeal, Dealt, Played, Shown, StarterCut

        self.driver = driver
        self.revealing = (CutForDeal, Played, Shown, StarterCut)
        self.dealt = Dealt
        # cards shown since the last deal (a tie in the cut for deal puts cut cards back into a
        # fresh pack: they were seen, so showing them again reveals nothing)
        self.seen_this_deal: set = set()
        self.outcomes: list = []
        self.checked_versions = 0
        table = driver.bot.get_cog("Cribbage").table
        publish = table.publish

        async def recording(outcome, **kwargs):
            self.outcomes.append(outcome)
            await publish(outcome, **kwargs)

        table.publish = recording

        def watched(original):
            async def act(user, message, *args, **kwargs):
                try:
                    game_id = driver.game_id()
                except LookupError:
                    return await original(user, message, *args, **kwargs)
                before = hidden_cards(driver.bot, game_id) - self.seen_this_deal
                seen = {m.id: len(m.versions) for m in driver.emu.public_messages(driver.channel)}
                self.outcomes.clear()
                result = await original(user, message, *args, **kwargs)
                self._follow_deals()
                after = hidden_cards(driver.bot, game_id) - self.seen_this_deal
                self.check(before, after, seen)
                return result

            return act

        driver.click = watched(driver.click)
        driver.select = watched(driver.select)  # muggins claims are picked, not clicked

    def _follow_deals(self) -> None:
        for outcome in self.outcomes:
            for step_event in outcome.events:
                event = step_event.event
                if isinstance(event, self.dealt):
                    self.seen_this_deal = set()
                elif isinstance(event, self.revealing):
                    self.seen_this_deal |= set(getattr(event, "cards", ()) or (event.card,))

    def _revealed(self) -> set:
        cards = set()
        for outcome in self.outcomes:
            for step_event in outcome.events:
                event = step_event.event
                if isinstance(event, self.revealing):
                    cards |= set(getattr(event, "cards", ()) or (event.card,))
        return cards

    def check(self, before: set, after: set, seen: dict) -> None:
        secret = (before & after) - self._revealed()
        for message in self.driver.emu.public_messages(self.driver.channel):
            live_table = any(b.label == "Your hand" for b in message.buttons)
            for version in message.versions[seen.get(message.id, 0) :]:
                self.checked_versions += 1
                text = version.text
                leaked = [str(c) for c in (after if live_table else secret) if str(c) in text]
                assert not leaked, f"public message shows hidden cards {leaked}:\n{text}"
