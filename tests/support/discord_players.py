"""Scripted Discord players for end-to-end tests and the e2e benchmark.

They act only on what a person would see: the public table message and their own ephemeral hand
message with its buttons. Nothing here reads the engine's hidden state.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import discord

from bot.app.client import CribbageBot
from bot.app.config import Config
from bot.sessions import SETTING_NAMES
from cogs.cribbage.buttons import HAND_CLICK
from discord_emulator import DiscordEmulator, EmulatorError
from discord_emulator.emulator import DISCORD_EPOCH_MS
from tests.support.counting import counted_cards, exact_claim
from tests.support.privacy_watch import PrivacyWatch, hidden_cards  # noqa: F401 (re-exported)

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
    threads=False,
    rate_limits=False,
    **driving,
):
    """A server with a #cribbage channel, these users, and the bot running on a database in
    ``tmp_path``; yields the :class:`Driver` (with ``users``, ``guild``, ``database`` and, with
    ``privacy``, a :class:`PrivacyWatch` on every click). ``strict`` and ``error_loggers``: as
    for :class:`DiscordEmulator` and its ``running``; ``threads``: the server's setting (off
    here: a game stays in #cribbage); ``driving``: the :class:`Driver`'s options.
    ``rate_limits``: Discord's rate limits (the emulator's default is on); off here because the
    scripted players click at machine speed, a hundred times a person's pace, so a whole game
    in one channel would only wait out the per-channel buckets (limit tests turn them on)."""
    async with DiscordEmulator(strict=strict, rate_limits=rate_limits) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        users = [emu.add_user(name) for name in names]
        database = tmp_path / "cribbage.db"
        async with emu.running(make_bot(database), error_loggers=error_loggers) as bot:
            if "threads" in SETTING_NAMES:
                await bot.manager.settings.update_server(guild.id, threads=threads)
            driver = Driver(emu, channel, bot, **driving)
            driver.users, driver.guild, driver.database = users, guild, database
            if privacy:
                driver.privacy = PrivacyWatch(driver)
            yield driver


def make_bot(database, **options) -> CribbageBot:
    config = Config(token=TOKEN, database=database, guild_id=None)
    return CribbageBot(config, guild_ready_timeout=0.05, **options)


@dataclass
class Seat:
    """One scripted player: a Discord user and the hand message it last acted on."""

    user: object
    hand: object | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    # muggins: the points to claim for (cards, starter, crib), counted from the hand message
    # (default: the exact count, as a careful player counts); whether to call muggins on the
    # claim the table shows (default: let it go)
    claim: Callable | None = None
    call_muggins: Callable | None = None


def follow_the_emulated_clock(driver: Driver) -> None:
    """Make ``emu.advance_clock`` age tokens as real time would, for Discord and the bot: the
    clocks of the bot's open hands and table tokens move with the emulator's, and so do new
    snowflakes (an interaction's age is read from its id: Discord's docs, "Snowflakes"), so the
    interactions made before a jump look old and the new ones new."""
    emu = driver.emu
    table = driver.bot.get_cog("Cribbage").table

    def now() -> dt.datetime:
        return discord.utils.utcnow() + dt.timedelta(seconds=emu.clock_offset)

    def next_id() -> int:
        candidate = (int((time.time() + emu.clock_offset) * 1000) - DISCORD_EPOCH_MS) << 22
        emu._last_id = max(emu._last_id + 1, candidate)
        return emu._last_id

    table.hands.clock = table.courier.clock = now
    emu._next_id = next_id


NEXT_DEAL_WAYS = ("hand", "table", "wait")  # click Next deal on the hand, on the table, or not
DISCARD_WAYS = ("menu", "buttons")  # lay away with the menu (one click) or card by card


class Driver:
    """Plays games through the emulator by clicking, like people would.

    A seat's hand is its newest ephemeral message with the game's hand items (:meth:`hand_of`);
    "Your hand" is clicked only when it has none it can use. ``next_deal``, ``discard``: see
    :data:`NEXT_DEAL_WAYS` ("wait" needs the bot in this process), :data:`DISCARD_WAYS`.
    Clicks: ``clicks``, ``clicks_by_kind`` (open, discard, pick, cut, play, next deal, claim,
    muggins, lobby, other), ``clicks_by_user``.
    """

    def __init__(
        self,
        emu: DiscordEmulator,
        channel,
        bot: CribbageBot | None,
        *,
        think: float = 0.0,
        seed=0,
        next_deal: str = "hand",
        discard: str = "menu",
    ) -> None:
        """``bot``: the bot when it runs in this process; None: in another (see the channel)."""
        assert next_deal in NEXT_DEAL_WAYS and discard in DISCARD_WAYS
        self.emu = emu
        self.channel = channel
        self.home = channel  # the lobby's channel (a game may move to a thread of it)
        self.bot = bot
        self.think = think  # mean pause before each click, like a person (benchmarks)
        self.next_deal = next_deal
        self.discard = discard
        self._pace = random.Random(seed)
        self.clicks = 0
        self.clicks_by_kind: Counter[str] = Counter()
        self.clicks_by_user: Counter[int] = Counter()
        self.latencies: list[float] = []

    async def slash(self, user, command: str, **options):
        result = await self.emu.slash(user, self.channel, command, **options)
        self.latencies.append(result.latency)
        await self._pause()
        return result

    async def select(self, user, message, values, *, kind: str = "other", **kwargs):
        result = await self.emu.select(user, message, values, **kwargs)
        return await self._clicked(result, user, kind)

    async def click(self, user, message, label=None, *, kind: str = "other", **kwargs):
        result = await self.emu.click(user, message, label, **kwargs)
        return await self._clicked(result, user, kind)

    async def _clicked(self, result, user, kind: str):
        self.clicks += 1
        self.clicks_by_kind[kind] += 1
        self.clicks_by_user[user.id] += 1
        self.latencies.append(result.latency)
        if self.bot is None:  # another process: wait until it has gone quiet in the channel
            await self.emu.quiet(self.channel)
        await self._pause()
        return result

    async def _pause(self) -> None:
        if self.think:  # a person looks at the result, then decides the next click
            await asyncio.sleep(self._pace.uniform(0.5, 1.5) * self.think)

    # ------------------------------------------------------------------ what people see

    def table_message(self):
        """The newest public message with "Your hand" or "Next deal": the live table."""
        for message in reversed(self.emu.public_messages(self.channel)):
            if any(b.label in ("Your hand", "Next deal") for b in message.buttons):
                return message
        raise LookupError("no table message")

    def game_id(self) -> int:
        view = self.bot.manager.live.in_channel(self.channel.id)
        if view is None:
            raise LookupError("no game")
        return view.game_id

    def shown_game_id(self) -> int | None:
        """The game the table shows (from its buttons' ids), as a person's client knows it."""
        try:
            table = self.table_message()
        except LookupError:
            return None
        for button in table.buttons:
            found = re.fullmatch(r"crib:[hx]:([0-9]+)", button.custom_id or "")
            if found:
                return int(found[1])
        return None

    def hand_of(self, seat: Seat):
        """The seat's hand: its newest ephemeral message here that shows (or showed: a hand
        waiting for others has no buttons) this game's hand items."""
        game = self.shown_game_id()

        def of_this_game(version) -> bool:
            for item in (*version.buttons, *version.selects):
                found = HAND_CLICK.match(item.custom_id or "")
                if found and (game is None or int(found["game"]) == game):
                    return True
            return False

        for message in reversed(self.emu.ephemerals_for(seat.user, self.channel)):
            if any(of_this_game(version) for version in reversed(message.versions)):
                return message
        return None

    def whose_move(self) -> list[int]:
        """The users the table message asks to move (its public "Your move" mention)."""
        content = self.table_message().content or ""
        return [int(part) for part in re.findall(r"<@!?([0-9]+)>", content)]

    def between_deals(self) -> bool:  # the table (the deal's record) shows Next deal
        try:
            return any(b.label == "Next deal" for b in self.table_message().buttons)
        except LookupError:
            return False

    def _ready(self, seat: Seat) -> bool:  # its hand says it is ready for the next deal
        hand = self.hand_of(seat)
        return hand is not None and "You're ready" in hand.text

    @staticmethod
    def _live(hand) -> bool:
        """Whether the hand offers something to do now (an enabled button or a menu)."""
        items = [*hand.buttons, *hand.selects]
        return (
            any((i.custom_id or "").startswith("crib:") and not i.disabled for i in items)
            and not hand.deleted
        )

    # ------------------------------------------------------------------ the lobby

    async def open_lobby(self, host, **options):
        await self.slash(host, "cribbage start", **options)
        return self.emu.last_public(self.channel)

    async def start_game(self, host, others, **options):
        lobby = await self.open_lobby(host, **options)
        for user in others:
            await self.click(user, lobby, "Join", kind="lobby")
        await self.click(host, lobby, "Start", kind="lobby")
        await self.follow()
        return lobby

    async def follow(self) -> None:
        """Play where the game's table is: the lobby's channel, or a thread the game moved to
        (the bot elsewhere: once its table shows)."""

        def tables() -> list:
            places = (*reversed(self.emu.threads_in(self.home)), self.home)
            return [p for p in places if any(map(self._has_table, self.emu.public_messages(p)))]

        if self.bot is None:
            await self.emu.wait_for(tables, what="the table")
        self.channel = next(iter(tables()), self.channel)

    @staticmethod
    def _has_table(message) -> bool:
        return any(b.label == "Your hand" for b in message.buttons)

    # ------------------------------------------------------------------ moves

    async def move(self, seat: Seat) -> str:
        """One move of ``seat``, from what its hand and the table show. The hand is opened
        ("Your hand") only when the seat has none it can use. Returns what was done: open,
        claim, muggins, let go, next deal, pause (a Next deal left to the pause), cut,
        discard, play, or wait (nothing to do)."""
        for _ in range(3):
            hand = self.hand_of(seat)
            if hand is None or not self._live(hand):
                if self.between_deals():  # no hand at hand: Next deal on the table (or wait)
                    return await self._next_deal(seat, None)
                table = self.table_message()
                if any(b.label == "Let it go" for b in table.buttons):
                    return await self._answer_claim(seat, table)
                deal_cut = next(
                    (b for b in table.buttons if (b.custom_id or "").startswith("crib:dc:")), None
                )
                if deal_cut is not None:  # the cut for the deal is on the table
                    result = await self.click(
                        seat.user, table, custom_id=deal_cut.custom_id, kind="cut"
                    )
                    return self._done(result, "cut")
                if not any(b.label == "Your hand" for b in table.buttons):
                    return "wait"
                result = await self.click(seat.user, table, "Your hand", kind="open")
                hand = result.message
            seat.hand = hand
            try:
                done = await self._act_on(seat, hand)
            except EmulatorError:
                if not hand.deleted:
                    raise
                continue  # replaced meanwhile (a new deal's hand arrived): the new one
            if done != "again":
                return done
        return "wait"

    async def _act_on(self, seat: Seat, hand) -> str:
        """Act on an open hand; "again" when the click met an out-of-date button."""
        pickers = [m for m in hand.selects if m.custom_id.startswith("crib:n:")]
        if pickers:  # muggins: count the cards shown and claim
            cards, starter, crib = counted_cards(hand.content)
            points = (seat.claim or exact_claim)(cards, starter, crib)
            picker = next(m for m in pickers if str(points) in m.values)
            result = await self.select(
                seat.user, hand, [str(points)], custom_id=picker.custom_id, kind="claim"
            )
            return self._done(result, "claim")
        table = self.table_message()
        if any(b.label == "Let it go" for b in table.buttons):
            return await self._answer_claim(seat, table)
        buttons = [b for b in hand.buttons if not b.disabled]
        if any(b.custom_id.startswith("crib:x:") for b in buttons):
            return await self._next_deal(seat, hand)
        cut = next((b for b in buttons if b.custom_id.startswith("crib:c:")), None)
        if cut is not None:
            result = await self.click(seat.user, hand, custom_id=cut.custom_id, kind="cut")
            return self._done(result, "cut")
        menu = next((m for m in hand.selects if m.custom_id.startswith("crib:a:")), None)
        if menu is not None and self.discard == "menu":
            chosen = seat.rng.sample(menu.values, menu.min_values)
            result = await self.select(
                seat.user, hand, chosen, custom_id=menu.custom_id, kind="discard"
            )
            return self._done(result, "discard")
        if any(b.custom_id.startswith("crib:s:") for b in buttons):
            return await self._discard_by_buttons(seat, hand)
        plays = [b for b in buttons if b.custom_id.startswith("crib:p:")]
        if plays:
            card = seat.rng.choice(plays)
            result = await self.click(seat.user, hand, custom_id=card.custom_id, kind="play")
            return self._done(result, "play")
        return "wait"

    @staticmethod
    def _done(result, kind: str) -> str:
        message = result.message
        stale = message is not None and "out of date" in (message.content or "")
        return "again" if stale and not message.deleted else kind

    async def _answer_claim(self, seat: Seat, table) -> str:
        call = seat.call_muggins is not None and seat.call_muggins(table)
        await self.click(seat.user, table, "Muggins!" if call else "Let it go", kind="muggins")
        return "muggins" if call else "let go"

    async def _window(self, seats: dict[int, Seat]) -> str:
        """A muggins window nobody owes an answer to: a seat that wants to calls Muggins!;
        else it closes by itself (or, the bot elsewhere, each seat lets it go)."""
        table = self.table_message()
        for seat in seats.values():
            if seat.call_muggins is not None and seat.call_muggins(table):
                result = await self.click(seat.user, table, "Muggins!", kind="muggins")
                if result.response_type == 6:  # taken (the claimer's own call is refused)
                    return "muggins"
        if self.bot is not None:
            await self.bot.get_cog("Cribbage").muggins.tick(time.time() + 3600)
            return "wait"
        for seat in seats.values():
            if any(b.label == "Let it go" for b in self.table_message().buttons):
                await self.click(seat.user, self.table_message(), "Let it go", kind="muggins")
        return "let go"

    async def _next_deal(self, seat: Seat, hand) -> str:
        """Ready for the next deal: on the hand, on the table, or not at all (the pause)."""
        if self.next_deal == "wait":
            return "pause"
        button = (
            None
            if hand is None or self.next_deal == "table"
            else next((b for b in hand.buttons if b.custom_id.startswith("crib:x:")), None)
        )  # (an older hand may carry it; the bot's hands now leave it to the table)
        if button is None:
            table = self.table_message()
            result = await self.click(seat.user, table, "Next deal", kind="next deal")
        else:
            result = await self.click(seat.user, hand, custom_id=button.custom_id, kind="next deal")
        return self._done(result, "next deal")

    async def _discard_by_buttons(self, seat: Seat, hand) -> str:
        """The discard card by card: pick each (the ids change as the selection grows: the
        same cards are found by their labels), then Lay away."""
        picks = [b for b in hand.buttons if b.custom_id.startswith("crib:s:")]
        need = 2 if len(picks) == 6 else 1
        chosen = {b.label for b in seat.rng.sample(picks, need)}
        for _ in range(3 * need):
            ready = [b for b in hand.buttons if "Lay away" in (b.label or "") and not b.disabled]
            if ready:
                await self.click(seat.user, hand, custom_id=ready[0].custom_id, kind="discard")
                return "discard"
            todo = [b for b in hand.buttons if b.custom_id.startswith("crib:s:")]
            todo = [b for b in todo if b.label in chosen and "✔" not in (b.emoji or "")]
            if not todo:
                break
            await self.click(seat.user, hand, custom_id=todo[0].custom_id, kind="pick")
        return "again"

    async def due_deals(self) -> int:
        """Every pause between deals runs out now, as the cog's loop would see it (the bot in
        this process): the deals start; how many games moved on."""
        cog = self.bot.get_cog("Cribbage")
        outcomes = await self.bot.manager.deals.start_due(time.time() + 3600)
        for outcome in outcomes:
            await cog.table.publish(outcome)
        return len(outcomes)

    def game_over(self) -> bool:
        """Whether the game here has ended (the bot elsewhere: a Rematch button shows it)."""
        if self.bot is not None:
            return self.bot.manager.live.in_channel(self.channel.id) is None
        return any(
            b.label == "Rematch" for m in self.emu.public_messages(self.channel) for b in m.buttons
        )

    async def round(self, seats: dict[int, Seat]) -> list[str]:
        """Everyone the table waits for makes a move (between deals: each person says ready
        as ``next_deal`` says, or the pause runs out); what each did (see :meth:`move`)."""
        waiting = self.whose_move()
        if not waiting and self.between_deals():  # each person not yet ready (their hand says)
            waiting = [u for u, seat in seats.items() if not self._ready(seat)]
            if not waiting and self.bot is not None:
                await self.due_deals()
                return ["pause"]
        if not waiting and any(b.label == "Let it go" for b in self.table_message().buttons):
            return [await self._window(seats)]  # a muggins claim only opponents may answer
        if not waiting:
            view = self.bot.manager.live.in_channel(self.channel.id)
            raise AssertionError(f"the table names nobody to move: {view.phase}")
        done = []
        for user_id in waiting:
            seat = seats.get(user_id)
            if seat is None:
                continue
            try:
                done.append(await self.move(seat))
            except LookupError:  # the table moved on meanwhile (another process)
                if self.bot is not None:
                    raise
                break
        if done and all(d in ("pause", "wait") for d in done) and self.between_deals():
            if self.bot is not None:
                await self.due_deals()
            else:  # the bot in another process: its pause cannot be hurried; say ready
                for user_id in waiting:
                    if user_id in seats and self.between_deals():
                        table = self.table_message()
                        if any(b.label == "Next deal" for b in table.buttons):
                            await self.click(
                                seats[user_id].user, table, "Next deal", kind="next deal"
                            )
        return done

    async def play_until(self, seats: dict[int, Seat], done, *, max_moves: int = 500) -> None:
        """Play rounds until ``done()`` (a position the test wants)."""
        for _ in range(max_moves):
            if done():
                return
            await self.round(seats)
        raise AssertionError("never reached the position")

    async def play_out(self, seats: dict[int, Seat], *, max_moves: int = 2000) -> None:
        """Everyone moves when the table says so, until the game is over."""
        for _ in range(max_moves):
            if self.game_over():
                return
            if self.bot is None:  # another process: its messages and edits may lag
                waiting = await self.emu.wait_for(
                    lambda: self.game_over() or self.whose_move() or self.between_deals(),
                    what="the table to move on",
                )
                if waiting is True and self.game_over():
                    return
            await self.round(seats)
        raise AssertionError("the game did not end")
