"""Forged interactions: thousands, and none unanswered, none a traceback, none a change.

A world of two servers: in "Cribbage Club" #cribbage holds alice and bob's game (muggins, to
61), #lobby carol's open lobby (dave has joined), #quiet nothing; in "Elsewhere" #other holds
eve's game against a computer. Olga manages the club; mallory and a user with the id 2⁶⁴-1 are
in no server. :class:`~tests.discord.forgeries.Forger` draws interactions Discord's own client
would not send (see that module), in four rounds: the cut for the deal, the discard, the play
and a muggins count. Through every round:

* **0 unanswered**: each interaction gets its first answer within the emulator's 3 seconds;
* **0 tracebacks**: nothing is logged at ERROR (the bot's loggers and discord.py's "Ignoring
  exception") and the emulator saw no broken Discord rule;
* **0 state changes**: every row of every table is the same after the round as before it, the
  games stand where they stood, and no public message of a game was edited or posted;

and afterwards the game plays on to its end by clicks. Deterministic: the forger, the shuffle's
seeds and the cuts come from seeded generators. ``FUZZ_ROUNDS`` interactions per round: a quick
version (a few hundred) in the quick loop, the full one (≥ 2,000) marked slow.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import secrets
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest

from bot.engine import Phase
from bot.engine.muggins import window_waiting
from bot.sessions import ShowHand
from discord_emulator import DiscordEmulator, EmulatorError
from tests.discord.forgeries import Forger, Game
from tests.support.discord_players import Driver, Seat, make_bot
from tests.support.sessions import dump_database

ERROR_LOGGERS = ("discord", "bot", "cogs", "db", "asyncio")
MANAGE_GUILD = 1 << 5
PHASES = (Phase.CUT_FOR_DEAL, Phase.DISCARD, Phase.PLAY, Phase.SHOW)


@dataclass
class Tally:
    sent: int = 0
    by_category: Counter[str] = field(default_factory=Counter)
    problems: dict[str, list[str]] = field(default_factory=dict)
    changed_rounds: list[str] = field(default_factory=list)
    slowest: float = 0.0

    def problem(self, kind: str, text: str) -> None:
        self.problems.setdefault(kind, []).append(text)

    def report(self, shown: int = 6) -> str:
        lines = [
            f"{self.sent} forged interactions: {dict(self.by_category)}",
            f"slowest first answer: {self.slowest:.3f} s",
        ]
        for kind, texts in sorted(self.problems.items()):
            lines.append(f"{kind}: {len(texts)}")
            lines += [f"    {t}" for t in texts[:shown]]
        lines += self.changed_rounds
        return "\n".join(lines)


@contextlib.asynccontextmanager
async def world(tmp_path):
    async with DiscordEmulator(strict=False, rate_limits=False) as emu:
        club = emu.add_guild("Cribbage Club")
        home = emu.add_text_channel(club, "cribbage")
        lobby_channel = emu.add_text_channel(club, "lobby")
        quiet = emu.add_text_channel(club, "quiet")
        alice, bob, carol, dave = (emu.add_user(n) for n in ("alice", "bob", "carol", "dave"))
        managers = emu.add_role(club, "managers", permissions=MANAGE_GUILD)
        olga = emu.add_user("olga", guilds=[club], roles=[managers])
        elsewhere = emu.add_guild("Elsewhere")
        other = emu.add_text_channel(elsewhere, "other")
        eve = emu.add_user("eve", guilds=[elsewhere])
        mallory, huge = emu.stranger("mallory"), emu.stranger("huge", user_id=2**64 - 1)
        database = tmp_path / "cribbage.db"
        bot = make_bot(database)
        async with emu.running(bot, error_loggers=ERROR_LOGGERS):
            for server in (club, elsewhere):  # games stay where they were opened
                await bot.manager.settings.update_server(server.id, threads=False)
            seeds = itertools.count(20261124)
            bot.manager.play._seed_source = lambda: next(seeds)  # the shuffles, seeded
            driver = Driver(emu, home, bot)
            await driver.start_game(alice, [bob], muggins=True, target=61)
            await emu.slash(carol, lobby_channel, "cribbage start", players=3)
            await emu.click(dave, emu.last_public(lobby_channel), "Join")
            await emu.slash(eve, other, "cribbage start", computer="easy")
            await emu.click(eve, emu.last_public(other), "Start")
            answer = await emu.slash(alice, quiet, "cribbage leaderboard")  # private, shared:
            board = await emu.click(alice, answer, "Share")  # its public copy
            manager = bot.manager
            ids = {
                name: manager.live.in_channel(c.id).game_id
                for name, c in (("home", home), ("lobby", lobby_channel), ("other", other))
            }
            games = {
                "home": Game(ids["home"], home, [alice, bob], alice),
                "lobby": Game(ids["lobby"], lobby_channel, [carol, dave], carol),
                "other": Game(ids["other"], other, [eve], eve),
            }

            def peek(game_id, user):
                mine = manager.hands.private_view(ShowHand(game_id, user.id))
                return mine if mine.ok else None

            def game_step(game_id):
                view = manager.live.view(game_id)
                return 0 if view is None else view.step

            people = dict(
                alice=alice,
                bob=bob,
                carol=carol,
                dave=dave,
                olga=olga,
                eve=eve,
                mallory=mallory,
                huge=huge,
            )
            places = dict(home=home, lobby=lobby_channel, quiet=quiet, other=other)
            assert board.followups[0].public  # one more message to forge clicks on

            def sources():  # the bot's messages a forged click may come from, as they are now
                return [
                    m
                    for channel in places.values()
                    for m in emu.public_messages(channel)
                    if m.author is emu.bot_user
                ]

            forger = Forger(
                emu,
                random.Random(1124),
                games=games,
                places=places,
                people=people,
                sources=sources,
                peek=peek,
                game_step=game_step,
            )
            yield emu, driver, forger, database


def home_game(driver: Driver):
    return driver.bot.manager.live[driver.game_id()].game


async def table_back(driver: Driver, host) -> None:
    """If a forged click wiped the live table message (a finding in itself), post it again:
    a legitimate ``/cribbage board`` between two rounds, so that the game can go on."""
    try:
        driver.table_message()
    except LookupError:
        await driver.emu.slash(host, driver.channel, "cribbage board")
        driver.table_message()


async def play_to(driver: Driver, seats: dict, phase: Phase) -> None:
    """Click on until the home game is in ``phase`` (in the show: a claim is due, no window)."""
    host = next(iter(seats.values())).user
    for _ in range(400):
        await table_back(driver, host)
        game = home_game(driver)
        if game.phase is phase and not (phase is Phase.SHOW and window_waiting(game)):
            return
        for user_id in driver.whose_move():
            await driver.move(seats[user_id])
    raise AssertionError(f"the game never reached {phase}")


def is_game_message(message) -> bool:
    """Whether a message ever carried a game's buttons (a lobby, a table, a result)."""
    return any(
        b.custom_id and b.custom_id.startswith("crib:") and not b.custom_id.startswith("crib:b:")
        for v in message.versions
        for b in v.buttons
    )


def live_state(driver: Driver) -> dict:
    sessions = driver.bot.manager.live
    return {
        gid: (s.step, s.status, s.game.to_dict() if s.game else None) for gid, s in sessions.items()
    }


class Writes:
    """Notices a commit by the bot at once (``PRAGMA data_version`` of a second connection
    changes when another connection commits) and says which tables it touched."""

    def __init__(self, database) -> None:
        self.conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        self.version = self._version()
        self.counts = self._counts()

    def _version(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def _counts(self) -> dict[str, int]:
        tables = [
            r[0]
            for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {t: self.conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}

    def since_last(self) -> str | None:
        """None if nothing was committed since the last call, else e.g. "games +1, seats +1"."""
        version = self._version()
        if version == self.version:
            return None
        counts = self._counts()
        grown = [f"{t} {counts[t] - n:+d}" for t, n in self.counts.items() if counts[t] != n]
        self.version, self.counts = version, counts
        return ", ".join(grown) or "rows updated"


async def fuzz_round(emu, driver, forger, database, count: int, tally: Tally, label: str):
    rows, live = dump_database(database), live_state(driver)
    writes = Writes(database)
    for _ in range(count):
        forgery = forger.draw()
        tally.sent += 1
        tally.by_category[forgery.category] += 1
        violations, errors = len(emu.violations), len(emu.bot_errors)
        records = len(emu.transcript.records)
        try:
            result = await forgery.send()
        except EmulatorError as exc:  # e.g. a handler still running after settle_timeout
            tally.problem("stuck", f"{forgery.what}: {exc}")
            continue
        if not result.responded or result.latency > emu.response_deadline:
            tally.problem("unanswered", f"{forgery.what} ({result.latency})")
        else:
            tally.slowest = max(tally.slowest, result.latency)
        wrote = writes.since_last()
        if wrote is not None:
            tally.problem("database written", f"{forgery.what}: {wrote}")
        for violation in emu.violations[violations:]:
            tally.problem(f"violation {violation.kind}", f"{forgery.what}: {violation.detail}")
        for error in emu.bot_errors[errors:]:
            first, _, rest = error.text.partition("\n")
            tail = rest.strip().splitlines()[-1:] if rest else []
            tally.problem("traceback", f"{forgery.what}: {first} {' '.join(tail)}")
        for record in itertools.islice(emu.transcript.records, records, None):
            if record["kind"] != "message" or record.get("visibility") != "public":
                continue
            mine = str(result.interaction_id) in (
                record.get("interaction_id"),
                record.get("by_interaction_id"),
            )
            if not mine:
                continue
            message = emu.message(int(record["message_id"]))
            if record["action"] == "create" and not forgery.category.startswith("standings"):
                tally.problem("public post", f"{forgery.what}: {record['content'][:60]!r}")
            elif record["action"] != "create" and is_game_message(message):
                tally.problem(
                    "public game message edited", f"{forgery.what}: {record['content'][:60]!r}"
                )
    writes.conn.close()
    after = dump_database(database)
    if after != rows:
        gone, new = set(rows) - set(after), set(after) - set(rows)
        tally.changed_rounds.append(
            f"{label}: database changed: -{sorted(gone)[:3]} "
            f"+{sorted(new)[:3]} ({len(gone)} rows gone, {len(new)} new)"
        )
    if live_state(driver) != live:
        tally.changed_rounds.append(f"{label}: a live game changed")


async def run_fuzz(tmp_path, per_round: int, monkeypatch) -> tuple[Tally, float]:
    cuts = random.Random(7)
    monkeypatch.setattr(secrets, "choice", cuts.choice)  # the cog's cuts of the pack, seeded
    tally = Tally()
    started = time.perf_counter()
    async with world(tmp_path) as (emu, driver, forger, database):
        alice, bob = forger.people["alice"], forger.people["bob"]
        seats = {u.id: Seat(u, rng=random.Random(u.name)) for u in (alice, bob)}
        for phase in PHASES:
            await play_to(driver, seats, phase)
            for seat in seats.values():
                seat.hand = None
            await fuzz_round(emu, driver, forger, database, per_round, tally, phase.value)
        fuzzed = time.perf_counter() - started
        for seat in seats.values():
            seat.hand = None
        violations, errors = len(emu.violations), len(emu.bot_errors)
        await table_back(driver, alice)
        await driver.play_out(seats)  # the live game plays on, by clicks, to its end
        assert "wins" in emu.last_public(driver.channel).text
        for problem in [*emu.violations[violations:], *emu.bot_errors[errors:]]:
            tally.problem("while playing on", str(getattr(problem, "text", problem)))
    return tally, fuzzed


def check(tally: Tally, at_least: int) -> None:
    assert tally.sent >= at_least
    assert not tally.problems and not tally.changed_rounds, tally.report()


async def test_a_few_hundred_forged_interactions_are_answered_and_change_nothing(
    tmp_path, monkeypatch
):
    tally, seconds = await run_fuzz(tmp_path, 80, monkeypatch)
    print(f"\n{tally.report()}\n{seconds:.1f} s")
    check(tally, 320)


@pytest.mark.slow
async def test_two_thousand_forged_interactions_are_answered_and_change_nothing(
    tmp_path, monkeypatch
):
    tally, seconds = await run_fuzz(tmp_path, 520, monkeypatch)
    print(f"\n{tally.report()}\n{seconds:.1f} s")
    check(tally, 2000)
