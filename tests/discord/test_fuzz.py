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
from typing import Any

import pytest

from bot.engine import Phase
from bot.engine.muggins import window_waiting
from bot.sessions import ShowHand
from discord_emulator import DiscordEmulator, EmulatorError
from tests.discord.forgeries import ODD_DIGITS, Forger, Game
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
            # a tournament in sign-up in #quiet, olga's, alice and bob entered
            await emu.slash(olga, quiet, "cribbage tournament create", name="Club night",
                            format="swiss")  # fmt: skip
            signup = emu.last_public(quiet)
            for user in (alice, bob):
                await emu.click(user, signup, "Join")
            tournament = manager.tournaments.in_channel(quiet.id)
            assert tournament is not None and len(tournament.entrants) == 2

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
            forger.draw = TournamentForgeries(forger, tournament.tournament_id).draw  # type: ignore[method-assign]
            yield emu, driver, forger, database


# ---------------------------------------------------------------------- tournaments

TOURNAMENT_IDS = (0, 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**20 - 1)
#: options of /cribbage tournament create out of their ranges or choices
CREATE_BAD = {
    "name": ("", "x" * 101),
    "format": ("knockout", "Swiss", ""),
    "rounds": (0, 12, -1, 2**40),
    "target": (100, 0, -121),
    "best_of": (2, 7, 0),
    "cap": (1, 257, 0, 2**63),
    "starts_in": (0, 10081, -5),
    "deadline_hours": (0, 169, -1),
    "deadline_rule": ("coinflip", "FORFEIT"),
    "spread_cap": (0, 122, -3),
    "bye_spread": (-1, 122),
    "forfeit_spread": (-1, 122, 2**63),
}
CREATE_FINE = {"name": "Night", "format": "swiss", "target": 61, "cap": 8}
#: the tournament commands that change a sign-up, and who may change it by them
ORGANISERS_ONLY = ("start", "pause", "resume", "cancel", "extend", "drop", "replace")


class TournamentForgeries:
    """Forged interactions on the tournament of #quiet (olga organises it, alice and bob
    entered) drawn among the forger's own: its Join and Leave buttons with forged ids and from
    the wrong places, and ``/cribbage tournament ...`` with options out of their ranges or by
    people who may not. A request that would be a legitimate change (carol joining in #quiet,
    olga starting it) is sent from another channel instead."""

    def __init__(self, forger: Forger, tournament_id: int) -> None:
        self.forger, self.rng, self.tid = forger, forger.rng, tournament_id
        self.base = forger.draw
        self.quiet = forger.places["quiet"]
        self.entered = {forger.people["alice"], forger.people["bob"]}
        self.olga = forger.people["olga"]

    def draw(self) -> Any:
        kinds = ((self.base, 12), (self.signup_click, 3), (self.command, 3), (self.create, 2))
        return self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]()

    def _elsewhere(self, user: Any) -> Any:
        return self.forger._place(user, not_in=self.quiet)

    def _legit(self, verb: str, user: Any) -> bool:
        """Whether ``verb`` by ``user`` in #quiet would rightly change the sign-up."""
        if verb == "join":
            return user not in self.entered and user in self.members()
        if verb in ("leave", "withdraw"):
            return user in self.entered
        return verb in ORGANISERS_ONLY and user is self.olga

    def members(self) -> set[Any]:
        """Whoever the emulator lets click in #quiet as a member: everyone but the strangers
        (eve belongs to another server, but a click forged in #quiet reaches the bot as a
        member's, as any click in a server does; the bot cannot tell)."""
        return {p for n, p in self.forger.people.items() if n not in ("mallory", "huge")}

    def signup_click(self) -> Any:
        r, f = self.rng, self.forger
        verb = r.choice(("join", "leave"))
        tid = r.choice((self.tid, self.tid, self.tid + 1, *TOURNAMENT_IDS,
                        *(g.id for g in f.games.values())))  # fmt: skip
        user = f._user()
        place = f._place(user)
        if tid == self.tid and place is self.quiet and self._legit(verb, user):
            place = self._elsewhere(user)
        if r.random() < 0.15:
            return f._click("tournament odd id", user, place,
                            f"crib:t{verb[0]}:{r.choice(ODD_DIGITS)}")  # fmt: skip
        return f._click("tournament click", user, place, f"crib:t{verb[0]}:{tid}")

    def command(self) -> Any:
        r, f = self.rng, self.forger
        verb = r.choice(("join", "leave", "withdraw", *ORGANISERS_ONLY, "standings"))
        user = f._user()
        place = f._place(user)
        if place is self.quiet and self._legit(verb, user):
            place = self._elsewhere(user)
        options: dict[str, Any] = {}
        if verb == "extend":
            options["hours"] = r.choice((0, -1, 169, 2**53, 1))
        elif verb in ("drop", "replace"):
            options["player"] = r.choice(list(f.people.values()))
            if verb == "replace":
                options["by"] = r.choice(list(f.people.values()))
        elif verb == "standings" and r.random() < 0.7:
            options["page"] = r.choice((0, 14, -1, 10**6, 1))
        category = "standings tournament" if verb == "standings" else "tournament command"
        return f._slash(category, user, place, f"cribbage tournament {verb}", options)

    def create(self) -> Any:
        r, f = self.rng, self.forger
        user = f._user()
        options = dict(CREATE_FINE)
        for name in r.sample(sorted(CREATE_BAD), r.randint(0, 2)):
            options[name] = r.choice(CREATE_BAD[name])
        place = f._place(user)
        fine = options.keys() == CREATE_FINE.keys()
        if fine and user is self.olga:  # a legitimate tournament, unless #quiet has one
            place = r.choice((self.quiet, f.emu.dm_channel(user)))
        return f._slash("tournament create", user, place, "cribbage tournament create", options)


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
