"""Display names are whatever their owners typed: a whole game through the emulator with a
player named like a mention of someone else, with markdown, with a right-to-left override, with
a line break. Wherever the bot writes the name (the channel's line, the thread's name, the
table and every other message) it shows as typed and harms nothing: no one is mentioned, no
text is formatted or reversed, no line is broken, and the pictures are drawn.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cogs.utils.names import markdown_name, plain_name
from discord_emulator import DiscordEmulator, EmuChannel, EmuUser
from tests.support.discord_players import Driver, Seat, make_bot

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE, POP DIRECTIONAL ISOLATE
OPENERS = "\u202a\u202b\u202d\u202e"  # LRE, RLE, LRO, RLO: each runs until the line ends
SYSTEM_MESSAGES = (18, 21)  # THREAD_CREATED, THREAD_STARTER_MESSAGE: Discord's, not the bot's


def mention_of(user: EmuUser) -> re.Pattern[str]:
    """``user``'s mention as Discord renders it (a backslash before it shows it as typed)."""
    return re.compile(rf"(?<!\\)<@!?{user.id}>")


NICKS: dict[str, Callable[[EmuUser], str]] = {
    "mention": lambda alice: f"<@{alice.id}>",
    "markdown": lambda alice: "**bold** _it_ `code`",
    "override": lambda alice: f"{RLO}evil",
    "newline": lambda alice: "Ann\nLee",
}


@dataclass
class Table:
    emu: DiscordEmulator
    channel: EmuChannel
    alice: EmuUser  # in the server, never plays: the one a forged mention would name
    odd: EmuUser  # the player with the odd nickname
    bob: EmuUser
    driver: Driver


@contextlib.asynccontextmanager
async def table_with(tmp_path: Path, nick_of: Callable[[EmuUser], str]) -> AsyncIterator[Table]:
    """A server where ``odd``'s nickname is ``nick_of(alice)``, threads on, the bot running."""
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "cribbage")
        alice = emu.add_user("alice")
        odd = emu.add_user("odd", nick=nick_of(alice))
        bob = emu.add_user("bob")
        async with emu.running(make_bot(tmp_path / "cribbage.db")) as bot:
            await bot.manager.settings.update_server(guild.id, threads=True)
            yield Table(emu, channel, alice, odd, bob, Driver(emu, channel, bot))


def overrides_isolated(text: str) -> bool:
    """Every direction override or embedding in ``text`` sits inside an isolate that closes on
    its line: it cannot reverse anything after the name."""
    for line in text.split("\n"):
        depth = 0
        for c in line:
            if c == FSI:
                depth += 1
            elif c == PDI:
                depth -= 1
            elif c in OPENERS and depth <= 0:
                return False
        if depth != 0:
            return False
    return True


def every_text(emu: DiscordEmulator) -> list[str]:
    """Each version of each message the bot wrote (content and embeds), as users read them."""
    texts = []
    for message in emu.messages.values():
        if message.author is not emu.bot_user or message.message_type in SYSTEM_MESSAGES:
            continue
        for version in message.versions:
            texts.append(version.content)
            texts += [json_text(embed) for embed in version.embeds]
    return texts


def json_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title"), embed.get("description")]
    parts += [(embed.get("author") or {}).get("name"), (embed.get("footer") or {}).get("text")]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return "\n".join(p for p in parts if p)


@pytest.mark.slow  # four whole games, click by click
@pytest.mark.parametrize("kind", list(NICKS))
async def test_an_odd_name_plays_a_whole_game_and_shows_as_typed(tmp_path, kind) -> None:
    async with table_with(tmp_path, NICKS[kind]) as table:
        emu = table.emu
        nick = NICKS[kind](table.alice)
        lobby = await table.driver.start_game(table.odd, [table.bob], target=61)
        [thread] = emu.threads_in(table.channel)
        seats = {u.id: Seat(u) for u in (table.odd, table.bob)}
        for i, seat in enumerate(seats.values()):
            seat.rng.seed(i)
        await table.driver.play_out(seats)  # the table never stalls: the game ends

        shown, plain = markdown_name(nick), plain_name(nick)
        # the thread's name: plain text, the name on one line and isolated where it must be
        assert thread.name == f"Cribbage · {plain} vs bob"
        assert not any(unicodedata.category(c) == "Cc" for c in thread.name)
        assert overrides_isolated(thread.name)
        # the channel's one line: the name escaped, one line, and at the end who won
        line = lobby.content
        assert line.startswith(f"🃏 {shown} vs bob — ") and f"<#{thread.id}>" in line
        assert "\n" not in line and "61" in line
        assert re.search(r"\*\*(.+)\*\* won with 61, (.+) \d+ · <#", line)  # every score named
        # nothing the bot wrote anywhere mentions anyone, formats the name, breaks its line
        # or lets its override run on
        texts = every_text(emu)
        assert not [t for t in texts if mention_of(table.alice).search(t)]
        assert not emu.pings_for(table.alice)
        assert all(overrides_isolated(t) for t in texts)
        assert not [t for t in texts if "**bold**" in t or "Ann\nLee" in t]
        assert any(shown in t for t in texts if t is not line)  # the table names the player
        # the pictures were drawn (the result's board, the shows)
        result = emu.last_public(thread)
        assert any(b.label == "Rematch" for b in result.buttons)
        assert any(a.filename.endswith(".png") for a in result.attachments)


async def test_forged_mention_in_a_forfeit_names_nobody(tmp_path) -> None:
    """A player nicknamed as alice's mention leaves the game: the line must not show alice
    leaving (or winning) a game she never played."""
    async with table_with(tmp_path, NICKS["mention"]) as table:
        emu = table.emu
        lobby = await table.driver.start_game(table.odd, [table.bob], target=61)
        [thread] = emu.threads_in(table.channel)
        await emu.slash(table.odd, thread, "cribbage forfeit")
        await emu.wait_for(lambda: "playing in" not in lobby.content)
        line = lobby.content
        assert not mention_of(table.alice).search(line) and str(table.alice.id) in line
        assert f"— **{markdown_name(f'<@{table.alice.id}>')}** left before the first show" in line
        assert not emu.pings_for(table.alice)


@pytest.mark.parametrize(
    ("typed", "plain", "shown"),
    [
        ("alice", "alice", "alice"),
        ("<@123>", "<@123>", "\\<@\u200b123>"),
        ("**bold**", "**bold**", "\\*\\*bold\\*\\*"),
        ("Ann\nLee", "Ann Lee", "Ann Lee"),
        ("tab\there\x00", "tab here", "tab here"),
        (f"{RLO}evil", f"{FSI}{RLO}evil{PDI}", f"{FSI}{RLO}evil{PDI}"),
        (f"{PDI}{RLO}x", f"{FSI}{RLO}x{PDI}", f"{FSI}{RLO}x{PDI}"),  # no early close
        ("דוד", f"{FSI}דוד{PDI}", f"{FSI}דוד{PDI}"),  # right-to-left letters
        ("Zoë 42", "Zoë 42", "Zoë 42"),
    ],
)
def test_names_are_made_harmless_in_one_place(typed, plain, shown) -> None:
    assert plain_name(typed) == plain
    assert plain_name(plain) == plain  # a name made plain twice is the same
    assert markdown_name(typed) == shown
