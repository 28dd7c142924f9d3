"""How a table flows for the people at it: pings, messages, clicks and where the hand sits.

Run from the repository root: .venv/bin/python benchmarks/table.py [--games 2] [--sizes 2 4]

Whole 2-player and 4-player games to 121 are played in the Discord emulator by the scripted
players of ``tests/support/discord_players.py`` (people who keep their hands open and click what
their hand offers), the bot in this process. Every figure is printed as ``name: value unit``,
for each table size (``_2p``, ``_4p``):

- ``pings_per_player_per_game``: notifications a player got (Discord's allowed-mentions rules,
  as the emulator applies them: ``discord_emulator/pings.py``), mean over players;
- ``ghost_pings_per_game``: pings whose message was deleted afterwards;
- ``public_created_per_deal`` / ``public_edited_per_deal``: the bot's public messages created
  and edited (the channel and the game's thread), per deal;
- ``clicks_per_player_per_deal``: buttons and menus used, Next deal excluded, per deal;
- ``below_hand_mean`` / ``below_hand_max``: public messages below a person's hand at their
  first click of each deal (what they scroll past to reach it; their hand is the message they
  click in, else their newest private hand message there);
- ``channel_lines_per_game``: public messages the game leaves in the channel where its lobby
  was opened (1 when it played in a thread of its own: the game's line);
- ``bot_token_requests_per_click`` / ``http_429``: requests made with the bot token per click
  (every click, Next deal included; the interaction callback and webhooks are exempt from
  Discord's global limit and not counted) and the 429s the emulator answered;
- ``private_in_channel_per_game``: private messages (hands) that landed in that channel while
  the game played elsewhere (a follow-up goes where its interaction was: should be 0);
- ``board_uploads_per_deal`` / ``hand_uploads_per_player_per_deal`` /
  ``show_uploads_per_deal``: picture files the bot uploaded (a multipart ``files[n]`` part of a
  message create or edit, by its file name: ``board.png``, ``hand-*.png``, ``show.png``) per
  deal; an edit that keeps its attachment (``attachments: [{id}]``) uploads nothing.

The goals: 0 ghost pings; at most 2 pings per player per game with hands open;
at most 5.5 clicks per player per deal in 2-player games; 0 messages below the hand at each
deal's first click; public edits per deal no more than 12.4; at most 1.2 board uploads a deal
in 2-player games.

It runs on older trees too (for a baseline: copy ``discord_emulator`` and this
file into a worktree of the older commit): it needs only ``Driver.start_game``/``play_out``,
``make_bot`` and the table's ``publish``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Dealt  # noqa: E402
from discord_emulator import DiscordEmulator  # noqa: E402
from tests.support.discord_players import Driver, Seat, make_bot  # noqa: E402

NEXT_DEAL = re.compile(r"crib:x:")  # the Next deal button (hand or table)
NAMES = ("alice", "bob", "carol", "dave")


@dataclass
class Game:
    """What one game showed its players."""

    players: int
    users: list[Any]
    deal: int = 0  # the current deal (0: the cut for the deal)
    clicks: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    first_click: set[tuple[int, int]] = field(default_factory=set)  # (user id, deal)
    below: list[int] = field(default_factory=list)
    created: int = 0
    edited: int = 0
    pings: dict[int, int] = field(default_factory=dict)
    ghosts: int = 0
    channel_lines: int = 0
    private_in_channel: int = 0
    seconds: float = 0.0
    uploads: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # by picture


def picture_kind(filename: str) -> str:
    """Which picture a file is: ``board``, ``hand``, ``show`` (else its own name)."""
    stem = filename.rsplit(".", 1)[0]
    return stem.split("-", 1)[0]


class Meter:
    """Watches the emulator and the bot while games are played (one game at a time)."""

    def __init__(self, emu: DiscordEmulator, bot: Any) -> None:
        self.emu = emu
        self.game: Game | None = None
        self.clicks_total = 0  # every click and menu, Next deal included (requests per click)
        self.all_clicks = 0  # the same, over every size
        table = bot.get_cog("Cribbage").table
        publish = table.publish

        async def counting(outcome: Any, *args: Any, **kwargs: Any) -> None:
            for step_event in outcome.events:
                if isinstance(step_event.event, Dealt) and self.game is not None:
                    self.game.deal = max(self.game.deal, step_event.event.number)
            await publish(outcome, *args, **kwargs)

        table.publish = counting
        for name in ("click", "select"):
            setattr(emu, name, self._watch(getattr(emu, name)))
        attachments = emu._attachments  # every create and edit builds its attachments here

        def counting_uploads(body: Any, uploads: list[Any], existing: Any) -> Any:
            if self.game is not None:
                for upload in uploads:
                    self.game.uploads[picture_kind(upload.filename)] += 1
            return attachments(body, uploads, existing)

        emu._attachments = counting_uploads

    def _watch(self, act: Any) -> Any:
        async def watched(user: Any, message: Any, *args: Any, **kwargs: Any) -> Any:
            self._clicked(user, self.emu._as_message(message), args, kwargs)
            return await act(user, message, *args, **kwargs)

        return watched

    def _clicked(self, user: Any, message: Any, args: tuple, kwargs: dict) -> None:
        self.clicks_total += 1
        self.all_clicks += 1
        game = self.game
        if game is None:
            return
        custom_id = kwargs.get("custom_id") or ""
        if not custom_id and args and isinstance(args[0], str):  # a button by its label
            found = [b for b in message.buttons if b.label == args[0]]
            custom_id = (found[0].custom_id or "") if found else ""
        if NEXT_DEAL.match(custom_id):
            return
        game.clicks[user.id] += 1
        if game.deal < 1 or (user.id, game.deal) in game.first_click:
            return
        game.first_click.add((user.id, game.deal))
        hand = message if message.ephemeral and message.visible_to is user else None
        if hand is None:
            hands = [
                m
                for m in self.emu.ephemerals_for(user, message.channel)
                if any((b.custom_id or "").startswith("crib:") for b in m.buttons) or m.selects
            ]
            hand = hands[-1] if hands else None
        if hand is not None:
            game.below.append(len(self.emu.messages_below(hand)))


def follow_into_thread(emu: DiscordEmulator, driver: Driver, home: Any) -> None:
    """A game that moved into a thread of its lobby's channel is played there."""
    threads_in = getattr(emu, "threads_in", None)
    if threads_in is None or driver.channel is not home:
        return
    threads = threads_in(home)
    if threads and driver.bot.manager.live.in_channel(threads[-1].id) is not None:
        driver.channel = threads[-1]


async def play(
    emu: DiscordEmulator, guild: Any, bot: Any, meter: Meter, players: int, index: int
) -> Game:
    channel = emu.add_text_channel(guild, f"table-{players}p-{index}")
    users = [emu.add_user(f"{NAMES[i]}{players}{index}") for i in range(players)]
    driver = Driver(emu, channel, bot, seed=index)
    game = meter.game = Game(players, users)
    start_seq = emu.transcript._seq
    pings_before = {u.id: len(emu.pings_for(u)) for u in users}
    ghosts_before = len(emu.ghost_pings)
    started = time.perf_counter()
    lobby = await driver.start_game(users[0], users[1:], players=players)
    follow_into_thread(emu, driver, channel)
    seats = {u.id: Seat(u) for u in users}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(index * 10 + i)
    await driver.play_out(seats, max_moves=20000)
    game.seconds = time.perf_counter() - started
    meter.game = None
    for record in emu.transcript.records:
        if record["seq"] <= start_seq or record["kind"] != "message":
            continue
        if record.get("visibility") != "public" or record.get("author") != emu.bot_user.name:
            continue
        if record["action"] == "create":
            game.created += 1
        elif record["action"] == "edit":
            game.edited += 1
    game.channel_lines = len(emu.public_messages(channel))
    if driver.channel is not channel:  # the game moved to a thread: hands belong there
        game.private_in_channel = sum(
            1 for u in users for m in emu.ephemerals_for(u, channel) if m.id > lobby.id
        )
    game.pings = {u.id: len(emu.pings_for(u)) - pings_before[u.id] for u in users}
    game.ghosts = len(emu.ghost_pings) - ghosts_before
    return game


def report(label: str, games: list[Game]) -> None:
    deals = [max(g.deal, 1) for g in games]
    per_player_pings = [n for g in games for n in g.pings.values()]
    clicks = [g.clicks[u.id] / d for g, d in zip(games, deals, strict=True) for u in g.users]
    below = [n for g in games for n in g.below]
    print(f"games_{label}: {len(games)} games")
    print(f"deals_per_game_{label}: {statistics.mean(deals):.1f} deals")
    print(f"pings_per_player_per_game_{label}: {statistics.mean(per_player_pings):.2f} pings")
    print(f"pings_per_player_max_{label}: {max(per_player_pings)} pings")
    print(f"ghost_pings_per_game_{label}: {statistics.mean(g.ghosts for g in games):.2f} pings")
    created = statistics.mean(g.created / d for g, d in zip(games, deals, strict=True))
    edited = statistics.mean(g.edited / d for g, d in zip(games, deals, strict=True))
    print(f"public_created_per_deal_{label}: {created:.2f} messages")
    print(f"public_edited_per_deal_{label}: {edited:.2f} edits")
    print(f"clicks_per_player_per_deal_{label}: {statistics.mean(clicks):.2f} clicks")
    print(f"below_hand_mean_{label}: {statistics.mean(below) if below else 0:.2f} messages")
    print(f"below_hand_max_{label}: {max(below) if below else 0} messages")
    lines = statistics.mean(g.channel_lines for g in games)
    print(f"channel_lines_per_game_{label}: {lines:.1f} messages")
    private = statistics.mean(g.private_in_channel for g in games)
    print(f"private_in_channel_per_game_{label}: {private:.1f} messages")
    board = statistics.mean(g.uploads["board"] / d for g, d in zip(games, deals, strict=True))
    hands = statistics.mean(
        g.uploads["hand"] / d / g.players for g, d in zip(games, deals, strict=True)
    )
    shows = statistics.mean(g.uploads["show"] / d for g, d in zip(games, deals, strict=True))
    print(f"board_uploads_per_deal_{label}: {board:.2f} uploads")
    print(f"hand_uploads_per_player_per_deal_{label}: {hands:.2f} uploads")
    print(f"show_uploads_per_deal_{label}: {shows:.2f} uploads")
    print(f"game_seconds_{label}: {statistics.mean(g.seconds for g in games):.2f} s")


async def main(games: int, sizes: list[int], strict: bool, rate_limits: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # the scripted players click at machine speed: Discord's limits would only add waits
        # (--rate-limits turns them on); the emulator counts the requests either way
        options = {"rate_limits": rate_limits} if rate_limits is not None else {}
        async with DiscordEmulator(strict=strict, **options) as emu:
            guild = emu.add_guild("Benchmark")
            bot = make_bot(Path(tmp) / "table.db")
            async with emu.running(bot):
                meter = Meter(emu, bot)
                for players in sizes:
                    limits = getattr(emu.rest, "limits", None)  # ratelimits.py
                    before = (limits.bot_token_requests, limits.http_429) if limits else (0, 0)
                    meter.clicks_total = 0
                    played = [await play(emu, guild, bot, meter, players, i) for i in range(games)]
                    report(f"{players}p", played)
                    if limits is not None:
                        clicks = max(meter.clicks_total, 1)
                        per_click = (limits.bot_token_requests - before[0]) / clicks
                        print(f"bot_token_requests_per_click_{players}p: {per_click:.3f} requests")
                        print(f"http_429_{players}p: {limits.http_429 - before[1]} responses")
            limits = getattr(emu.rest, "limits", None)
            if limits is not None:  # every size together (the figure)
                per_click = limits.bot_token_requests / max(meter.all_clicks, 1)
                print(f"bot_token_requests_per_click: {per_click:.3f} requests")
                print(f"http_429: {limits.http_429} responses")
                for bucket, count in sorted(limits.by_bucket.items()):  # one line a bucket
                    print(f"bot_token_requests_{bucket}: {count} requests")
                for bucket, count in sorted(limits.refused_by_bucket.items()):
                    print(f"http_429_{bucket}: {count} responses")
            if not strict:
                print(f"violations: {len(emu.take_violations())} violations")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2, help="games of each size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="record the bot's Discord violations instead of stopping on one",
    )
    parser.add_argument(
        "--rate-limits",
        action="store_true",
        help="enforce Discord's rate limits (the players click at machine speed)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(args.games, args.sizes, not args.lenient, args.rate_limits))
