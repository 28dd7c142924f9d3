"""Another process holds the database's write lock: every click is still answered in time.

A real ``sqlite3`` shell opens the bot's database and runs ``BEGIN IMMEDIATE`` (as a backup or a
curious operator would), holds the write lock for ``HOLD`` seconds, then rolls back. Meanwhile
people click through the emulator in two waves, at 0.3 s and 2.5 s: moves that must be written
(a card in alice and bob's game, a card in carol's game against a computer, ``/cribbage start``
in a free channel), reads (a hand, ``/cribbage hand``, ``/cribbage help``), and a second click
of the same mover while the first still waits. Every one gets its first answer within Discord's
3 seconds (an answer, a deferral, or "the table is busy"); nothing is written while the lock is
held; once it is released, every click that was acknowledged (answered as done, not "busy") is
in the database, every click answered "busy" is not, no answer is "something went wrong", and
the games play on.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from bot.engine import Phase
from tests.support.discord_players import Driver, Seat, open_club

# seconds the other process holds the write lock: a little longer than the bot's SQLite busy
# timeout (5 s), so that the first wave's writes give up ("busy") and the second wave's succeed
HOLD = 6.0
ERROR_LOGGERS = ("discord", "bot", "cogs", "db", "asyncio")

pytestmark = pytest.mark.slow  # the lock is held for six real seconds


@pytest.fixture
async def club(tmp_path):
    async with open_club(
        tmp_path, privacy=False, strict=False, error_loggers=ERROR_LOGGERS
    ) as driver:
        yield driver


class LockHolder:
    """``sqlite3 DB`` in a subprocess: ``BEGIN IMMEDIATE`` now, ``ROLLBACK`` on :meth:`release`."""

    def __init__(self, database) -> None:
        self.database = database
        self.proc: asyncio.subprocess.Process | None = None

    async def take(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            "sqlite3",
            str(self.database),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(b"BEGIN IMMEDIATE;\nSELECT 'locked';\n")
        await self.proc.stdin.drain()
        line = await asyncio.wait_for(self.proc.stdout.readline(), 10)
        assert line.strip() == b"locked", line

    async def release(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(b"ROLLBACK;\n.quit\n")
        await self.proc.stdin.drain()
        _, errors = await asyncio.wait_for(self.proc.communicate(), 10)
        assert self.proc.returncode == 0, errors


def commits(database) -> int:
    """How many rows the games hold in all (actions and games): grows with every commit."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return sum(
            conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("games", "seats", "actions")
        )
    finally:
        conn.close()


def logged_cards(database, game_id: int) -> list[str]:
    """The cards played in a game, from its log."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    return [a.split('"card":"')[1].split('"')[0] for (a,) in rows if '"card":' in a]


async def to_the_play(driver: Driver, seats: dict) -> None:
    for _ in range(300):
        game = driver.bot.manager.live[driver.game_id()].game
        if game.phase is Phase.PLAY and game.turn is not None:
            return
        for user_id in driver.whose_move():
            await driver.move(seats[user_id])
    raise AssertionError("never reached the play")


async def open_hand(driver: Driver, user) -> tuple[object, list]:
    """The user's hand message and its playable card buttons."""
    hand = (await driver.click(user, driver.table_message(), "Your hand")).message
    cards = [
        b
        for row in hand.components
        for b in row
        if b.custom_id.startswith("crib:p:") and not b.disabled
    ]
    return hand, cards


def answer_text(emu, result) -> str:
    """Everything this interaction showed its user: the messages its token created, filled
    or edited (the redraw of a hand included), from the emulator's transcript."""
    mine = str(result.interaction_id)
    return "\n".join(
        r.get("content") or ""
        for r in emu.transcript.of_kind("message")
        if (r.get("interaction_id") if r["action"] == "create" else r.get("by_interaction_id"))
        == mine
    )


async def test_a_held_write_lock_never_leaves_a_click_unanswered(club):
    emu, bot = club.emu, club.bot
    alice, bob, carol, dave = club.users
    second = emu.add_text_channel(club.guild, "second")
    third = emu.add_text_channel(club.guild, "third")
    seats = {u.id: Seat(u) for u in (alice, bob)}
    await club.start_game(alice, [bob])
    await to_the_play(club, seats)
    mover = seats[club.whose_move()[0]].user
    waiter = bob if mover is alice else alice
    solo = Driver(emu, second, bot)
    await solo.slash(carol, "cribbage start", computer="easy")
    await solo.click(carol, emu.last_public(second), "Start")
    await to_the_play(solo, {carol.id: Seat(carol)})
    hand, cards = await open_hand(club, mover)
    carol_hand, carol_cards = await open_hand(solo, carol)
    assert cards and carol_cards
    home_game, solo_game = club.game_id(), solo.game_id()
    before = commits(club.database)

    holder = LockHolder(club.database)
    await holder.take()
    started = time.monotonic()
    try:
        wave1 = await asyncio.gather(
            emu.click(mover, hand, custom_id=cards[0].custom_id, settle=False),
            emu.click(waiter, club.table_message(), "Your hand", settle=False),
            emu.click(carol, carol_hand, custom_id=carol_cards[0].custom_id, settle=False),
            emu.slash(dave, third, "cribbage start", settle=False),
        )
        await asyncio.sleep(2.5 - (time.monotonic() - started))
        later = cards[1] if len(cards) > 1 else cards[0]
        wave2 = await asyncio.gather(
            emu.click(mover, hand, custom_id=later.custom_id, allow_stale=True, settle=False),
            emu.slash(waiter, club.channel, "cribbage hand", settle=False),
            emu.slash(dave, third, "cribbage help", settle=False),
        )
        await asyncio.sleep(HOLD - 0.3 - (time.monotonic() - started))
        assert commits(club.database) == before, "a write went through the other's lock"
    finally:
        await holder.release()
    results = [*wave1, *wave2]
    for result in results:
        await emu.settle(result, timeout=20)

    latencies = [r.latency for r in results]
    answers = [answer_text(emu, r) for r in results]
    print(
        f"\nfirst answers {[r.response_name for r in results]}, latencies "
        f"{[round(x, 3) for x in latencies]} s; busy: {['busy' in a for a in answers]}"
    )
    assert all(r.responded for r in results), [r.name for r in results if not r.responded]
    assert max(latencies) <= emu.response_deadline, latencies
    violations, errors = emu.take_violations(), emu.take_bot_errors()
    assert not violations and not errors, ([str(v) for v in violations], errors)
    assert not [a for a in answers if "went wrong" in a], answers

    # every acknowledged move is in the log; one answered "busy" (or refused: ⚠️) is not
    for result, game_id, button in (
        (wave1[0], home_game, cards[0]),
        (wave1[2], solo_game, carol_cards[0]),
        (wave2[0], home_game, later),
    ):
        text = answer_text(emu, result)
        done = "busy" not in text and "⚠️" not in text
        played = button.custom_id.rsplit(":", 1)[-1] in logged_cards(club.database, game_id)
        assert played == done or (result is wave2[0] and later is cards[0]), (button.label, text)
    lobby = bot.manager.live.in_channel(third.id)
    assert (lobby is None) == ("busy" in answers[3]), answers[3]

    # and the games go on
    for seat in seats.values():
        seat.hand = None
    await club.move(seats[club.whose_move()[0]])
    assert commits(club.database) > before
