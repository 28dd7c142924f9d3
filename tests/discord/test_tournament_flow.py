"""Tournaments through the real discord.py client and the Discord emulator: the three formats
run to their final placings, as the players see them in the channel and in their pairings'
threads; one ping per player per round; a no-show decided at the deadline; a restart in the
middle of a round.

Most pairings are decided by a forfeit (``/cribbage forfeit`` in the pairing's thread), so the
tests stay quick; the Swiss plays one real game to 61 by clicks.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.sessions.tournament_views import PairingView, TournamentView
from discord_emulator import DiscordEmulator, EmuChannel, EmuUser
from tests.support.discord_players import Driver, Seat, make_bot

MANAGE_GUILD = 1 << 5
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
ERROR_LOGGERS = ("discord", "cogs", "bot")


@dataclass
class Club:
    emu: DiscordEmulator
    bot: Any
    guild: Any
    channel: EmuChannel
    organiser: EmuUser
    players: list[EmuUser]
    database: Any = None
    users: dict[int, EmuUser] = field(default_factory=dict)
    tess: EmuUser | None = None  # holds the "Tournament organiser" role

    @property
    def cog(self) -> Any:
        return self.bot.get_cog("Tournaments")

    def view(self) -> TournamentView:
        view = self.bot.manager.tournaments.in_channel(self.channel.id)
        assert view is not None
        return view

    async def slash(self, user: EmuUser, command: str, place: EmuChannel | None = None, **opts):
        result = await self.emu.slash(user, place or self.channel, f"cribbage {command}", **opts)
        await self.cog.settled()
        return result

    async def create(self, **options) -> Any:
        """The organiser opens a tournament: its sign-up message."""
        options.setdefault("name", "Friday night")
        options.setdefault("target", 61)
        result = await self.slash(self.organiser, "tournament create", **options)
        assert not result.ephemeral, result.message.content
        return result.message

    async def sign_up(self, message: Any, players: list[EmuUser] | None = None) -> None:
        for user in players or self.players:
            result = await self.emu.click(user, message, "Join")
            assert result.response_name != "CHANNEL_MESSAGE_WITH_SOURCE", result.message.content

    async def start(self) -> None:
        result = await self.slash(self.organiser, "tournament start")
        assert result.ephemeral and result.message.content.startswith("Started"), result.message

    def threads(self, number: int) -> list[EmuChannel]:
        """The threads of round ``number``, by table."""
        found = [t for t in self.emu.threads_in(self.channel) if t.name.startswith(f"R{number} ")]
        return sorted(found, key=lambda t: int(re.match(r"R\d+ T(\d+)", t.name)[1]))

    def pairing(self, thread: EmuChannel) -> PairingView:
        view = self.bot.manager.tournaments.of_game(self.game_in(thread))
        return next(p for p in view.pairings if p.thread_id == thread.id)

    def game_in(self, thread: EmuChannel) -> int:
        game = self.bot.manager.live.in_channel(thread.id)
        assert game is not None, f"no game in {thread.name}"
        return game.game_id

    def seated(self, thread: EmuChannel) -> tuple[EmuUser, EmuUser]:
        p = self.pairing(thread)
        return self.users[p.first_player], self.users[p.second_player]

    async def forfeit(self, thread: EmuChannel, loser: EmuUser) -> None:
        result = await self.slash(loser, "forfeit", thread)
        assert result.ephemeral and "forfeited" in result.message.content, result.message.content

    async def play(self, thread: EmuChannel) -> None:
        """The pairing's game played out by clicks in its thread."""
        driver = Driver(self.emu, thread, self.bot)
        seats = {u.id: Seat(u) for u in self.seated(thread)}
        await driver.play_out(seats)
        await self.cog.settled()

    def posts(self) -> list[Any]:
        """The channel's messages, oldest first."""
        return self.emu.public_messages(self.channel)

    def titled(self, words: str) -> list[Any]:
        return [m for m in self.posts() if m.embeds and words in m.embeds[0].get("title", "")]


@contextlib.asynccontextmanager
async def club_of(tmp_path, players: int = 8, *, database=None):
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "tournaments")
        managers = emu.add_role(guild, "Managers", permissions=MANAGE_GUILD)
        organiser = emu.add_user("olga", roles=[managers])
        role = emu.add_role(guild, "Tournament organiser")  # the role alone, no Manage Server
        tess = emu.add_user("tess", roles=[role])
        people = [emu.add_user(name) for name in NAMES[:players]]
        database = database or tmp_path / "cribbage.db"
        async with emu.running(make_bot(database), error_loggers=ERROR_LOGGERS) as bot:
            club = Club(emu, bot, guild, channel, organiser, people, database)
            club.users = {u.id: u for u in people}
            club.tess = tess
            yield club


def pings_by_round(club: Club) -> dict[int, Counter[int]]:
    """Who was pinged how often, by the round the ping names (0: a ping naming no round)."""
    counts: dict[int, Counter[int]] = {}
    for user in club.players:
        for ping in club.emu.pings_for(user):
            found = re.search(r"round (\d+)", ping.message.content or "")
            counts.setdefault(int(found[1]) if found else 0, Counter())[user.id] += 1
    return counts


# ---------------------------------------------------------------------- Swiss


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_swiss_of_8_runs_3_rounds_to_its_final_standings(tmp_path):
    async with club_of(tmp_path) as club:
        signup = await club.create(format="swiss", rounds=3)
        embed = signup.embeds[0]
        assert "sign-up" in embed["title"] and "Swiss, 3 rounds" in str(embed["fields"])
        assert [b.label for b in signup.buttons] == ["Join", "Leave"]
        await club.sign_up(signup)
        assert "Players (8 of 64)" in str(signup.embeds[0]["fields"])
        assert "hal" in str(signup.embeds[0]["fields"])
        await club.start()
        assert not signup.buttons and "Sign-up is over" in signup.embeds[0]["description"]

        for number in (1, 2, 3):
            threads = club.threads(number)
            assert len(threads) == 4  # eight players, four tables, no bye
            announced = club.titled(f"round {number} of 3")
            assert len(announced) == 1
            for thread in threads:  # every table links its thread
                assert f"<#{thread.id}>" in announced[0].embeds[0]["description"]
            for i, thread in enumerate(threads):
                first, second = club.seated(thread)
                if number == 1 and i == 0:
                    await club.play(thread)  # one real game to 61
                else:
                    await club.forfeit(thread, second)
                # the thread tells the game's end, then the pairing's, and where to look next
                said = club.emu.public_messages(thread)
                told = [m for m in said if (m.content or "").startswith(f"🏁 Round {number}:")]
                assert len(told) == 1
                assert said.index(told[0]) == len(said) - 1
                assert any(m.embeds and m.embeds[0].get("title") for m in said[:-1])
                # a pairing's result offers no Rematch: the pairing decides who plays whom
                labels = [b.label for m in said for b in m.buttons]
                assert "Rematch" not in labels, labels
                if number == 1 and i == 0:  # a game played out keeps its Replay
                    assert "Replay" in labels, labels
                    # a forged Rematch of that game is refused privately and opens nothing
                    replay = next(
                        (m, b)
                        for m in said
                        for b in m.buttons
                        if b.custom_id.startswith("crib:rv:")
                    )
                    game_id = replay[1].custom_id.split(":")[2]
                    before = len(club.emu.public_messages(thread))
                    forged = await club.emu.forge_click(
                        first, thread, f"crib:r:{game_id}", message=replay[0]
                    )
                    assert forged.ephemeral and forged.message.text, forged
                    assert len(club.emu.public_messages(thread)) == before
                    assert not club.emu.public_messages(thread)[-1].buttons
                next_ = "the next round" if number < 3 else "The final standings"
                assert next_ in told[0].content and f"<#{club.channel.id}>" in told[0].content
            if number < 3:
                assert club.titled(f"standings, after round {number} of 3")

        final = club.titled("standings, final")
        assert len(final) == 1
        placings = [m for m in club.posts() if m.embeds and "🏆" in m.embeds[0]["title"]]
        assert placings and "🥇" in placings[-1].embeds[0]["description"]
        assert "It's over" in signup.embeds[0]["description"]
        assert club.bot.manager.tournaments.in_channel(club.channel.id) is None

        # one ping per player per round, in the pairing's thread, and no other ping
        counts = pings_by_round(club)
        assert set(counts) == {1, 2, 3}
        for number in (1, 2, 3):
            assert counts[number] == Counter({u.id: 1 for u in club.players}), number
        for user in club.players:
            for ping in club.emu.pings_for(user):
                assert ping.channel.parent is club.channel
        # the channel holds the sign-up, three rounds, two standings, the final ones and the
        # placings: Discord's "started a thread" notices were removed
        assert not [m for m in club.posts() if m.message_type == 18]
        assert len(club.posts()) == 1 + 3 + 2 + 2


# ---------------------------------------------------------------------- round robin


async def test_a_round_robin_of_5_gives_each_player_one_bye_and_meets_everyone(tmp_path):
    async with club_of(tmp_path, players=5) as club:
        fetched: list[int] = []  # the messages the bot asked Discord for
        get_message = club.bot.http.get_message

        def counted(channel_id, message_id):
            fetched.append(int(message_id))
            return get_message(channel_id, message_id)

        club.bot.http.get_message = counted
        signup = await club.create(format="round robin", bye_spread=10)
        await club.sign_up(signup)
        await club.start()
        met: Counter[frozenset[int]] = Counter()
        byes: Counter[str] = Counter()
        for number in range(1, 6):
            (announced,) = club.titled(f"round {number} of 5")
            text = announced.embeds[0]["description"]
            byes.update(re.findall(r"\*\*Bye\*\*: (\w+)", text))
            threads = club.threads(number)
            assert len(threads) == 2  # five players: two tables and a bye
            for thread in threads:
                first, second = club.seated(thread)
                met[frozenset((first.id, second.id))] += 1
                await club.forfeit(thread, second)
        assert byes == Counter({name: 1 for name in NAMES[:5]})
        # a pairing's thread was started from no message: none is looked up as its starter
        threads = {t.id for n in range(1, 6) for t in club.threads(n)}
        assert len(threads) == 10 and not threads & set(fetched), fetched
        assert len(met) == 10 and set(met.values()) == {1}  # every pair met once
        (final,) = club.titled("standings, final")
        assert "1 bye" in final.embeds[0]["description"]
        assert "🥇" in club.posts()[-1].embeds[0]["description"]
        # a player with the bye is not pinged that round; the others once
        counts = pings_by_round(club)
        assert sorted(counts) == [1, 2, 3, 4, 5]
        for number, count in counts.items():
            assert sorted(count.values()) == [1, 1, 1, 1], number


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_best_of_3_tells_its_thread_who_leads_before_each_next_game(tmp_path):
    async with club_of(tmp_path, players=2) as club:
        signup = await club.create(format="round robin", best_of=3)
        await club.sign_up(signup)
        await club.start()
        (thread,) = club.threads(1)
        first, second = club.seated(thread)
        first_game = club.game_in(thread)
        driver = Driver(club.emu, thread, club.bot)
        seats = {u.id: Seat(u) for u in (first, second)}
        for _ in range(2000):  # game 1 played out by clicks (game 2 starts in the thread)
            if club.bot.manager.live.in_channel(thread.id).game_id != first_game:
                break
            await driver.round(seats)
        await club.cog.settled()
        (p,) = club.view().current
        (_, a, b) = p.games[0]
        leader = club.users[p.first_player if a > b else p.second_player]
        said = [m for m in club.emu.public_messages(thread)]
        lines = [m.content for m in said if (m.content or "").startswith("🃏 Game 2")]
        assert lines == [f"🃏 Game 2 of this best of 3: **{leader.name}** leads 1–0."], lines
        result = next(i for i, m in enumerate(said) if m.embeds and "wins" in str(m.embeds[0]))
        assert result < said.index(next(m for m in said if m.content == lines[0]))
        assert club.game_in(thread) != first_game  # game 2 is being played in the thread
        await club.forfeit(thread, leader)  # conceding game 2 concedes the pairing
        said = [m.content or "" for m in club.emu.public_messages(thread)]
        assert not [line for line in said if line.startswith("🃏 Game 3")]
        assert said[-1].startswith("🏁 Round 1:")


# ---------------------------------------------------------------------- elimination


class Clock:
    """The manager's clock, moved by the test."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def test_an_elimination_of_8_decides_a_no_show_at_the_deadline(tmp_path):
    async with club_of(tmp_path) as club:
        clock = Clock()
        club.bot.manager.set_clock(clock)
        signup = await club.create(format="single elimination", deadline_hours=1)
        await club.sign_up(signup)
        await club.start()
        assert len(club.titled("Quarter-finals")) == 1
        threads = club.threads(1)
        no_show_thread = threads[0]
        present, absent = club.seated(no_show_thread)
        table = Driver(club.emu, no_show_thread, club.bot).table_message()
        await club.emu.click(present, table, "Cut")  # one cuts for the deal; the other never comes
        for thread in threads[1:]:
            await club.forfeit(thread, club.seated(thread)[1])
        assert club.view().round == 1
        assert await club.cog.tick() == 0  # the deadline has not passed

        clock.offset = 3601
        assert await club.cog.tick() == 1
        said = [m.content or "" for m in club.emu.public_messages(no_show_thread)]
        assert any(
            f"**{present.name}** wins this pairing: **{absent.name}** had not played their part"
            in line
            for line in said
        ), said
        assert club.bot.manager.live.in_channel(no_show_thread.id) is None  # its game ended
        (bracket,) = [m for m in club.posts() if "bracket after the quarter-finals" in m.content]
        (picture,) = bracket.attachments
        assert picture.filename == "bracket.png" and picture.description
        assert f"{present.name} beat {absent.name} by forfeit" in picture.description

        for number in (2, 3):
            for thread in club.threads(number):
                await club.forfeit(thread, club.seated(thread)[1])
        final = [m for m in club.posts() if "bracket after the final" in m.content]
        assert len(final) == 1 and "won the tournament" in final[0].attachments[0].description
        placings = club.posts()[-1].embeds[0]
        assert placings["title"].startswith("🏆") and "wins Friday night" in placings["title"]
        assert "**3rd=**" in placings["description"] and "**5th=**" in placings["description"]
        assert not club.titled("standings")  # an elimination shows its bracket instead
        counts = pings_by_round(club)
        assert [sum(counts[n].values()) for n in (1, 2, 3)] == [8, 4, 2]
        assert all(set(c.values()) == {1} for c in counts.values())


# ---------------------------------------------------------------------- restarts


async def test_a_restart_in_sign_up_and_in_the_middle_of_a_round_carries_it_on(tmp_path):
    database = tmp_path / "cribbage.db"
    async with DiscordEmulator(rate_limits=False) as emu:
        guild = emu.add_guild("Cribbage Club")
        channel = emu.add_text_channel(guild, "tournaments")
        managers = emu.add_role(guild, "Managers", permissions=MANAGE_GUILD)
        organiser = emu.add_user("olga", roles=[managers])
        people = [emu.add_user(name) for name in NAMES[:4]]

        def club_on(bot) -> Club:
            club = Club(emu, bot, guild, channel, organiser, people, database)
            club.users = {u.id: u for u in people}
            return club

        async with emu.running(make_bot(database), error_loggers=ERROR_LOGGERS) as bot:
            club = club_on(bot)
            signup = await club.create(format="swiss", rounds=2)
            await club.sign_up(signup, people[:3])
            await bot.close()
        async with emu.running(make_bot(database), error_loggers=ERROR_LOGGERS) as bot:
            club = club_on(bot)  # the old message's Join still works
            await club.sign_up(signup, people[3:])
            assert "Players (4 of 64)" in str(signup.embeds[0]["fields"])
            await club.start()
            first, second = club.threads(1)
            await club.forfeit(first, club.seated(first)[1])
            waiting = club.seated(second)
            await bot.close()
        async with emu.running(make_bot(database), error_loggers=ERROR_LOGGERS) as bot:
            club = club_on(bot)
            await club.cog.settled()
            assert club.view().round == 1  # the round goes on where it was
            await club.forfeit(second, waiting[1])  # its game resumed in its thread
            assert len(club.threads(2)) == 2 and club.view().round == 2
            assert club.titled("standings, after round 1 of 2")
            for thread in club.threads(2):
                await club.forfeit(thread, club.seated(thread)[1])
            assert club.titled("standings, final")
            assert bot.manager.tournaments.in_channel(channel.id) is None
        counts = pings_by_round(club)
        assert counts[1] == counts[2] == Counter({u.id: 1 for u in people})
