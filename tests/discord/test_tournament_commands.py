"""The tournament commands' refusals and the organiser's controls, through the emulator:
every refusal is a private answer that changes nothing anyone sees or the database holds;
pause, resume, extend, drop, replace, withdraw and cancel are told in the channel."""

from __future__ import annotations

import re

import pytest

from discord_emulator.threads import CREATE_PUBLIC_THREADS
from tests.discord.test_tournament_flow import Clock, Club, club_of
from tests.support.sessions import dump_database


def seen(club: Club) -> list[tuple[int, int]]:
    """Every public message of the channel and its threads, with how many versions it has."""
    places = [club.channel, *club.emu.threads_in(club.channel)]
    return [(m.id, len(m.versions)) for p in places for m in club.emu.public_messages(p)]


async def refused(club: Club, user, command: str, words: str, place=None, **options) -> str:
    """``command`` is answered privately with ``words`` in it, and changes nothing."""
    before, stored = seen(club), dump_database(club.database)
    result = await club.slash(user, command, place, **options)
    text = result.message.content
    assert result.ephemeral and words in text, text
    assert seen(club) == before and dump_database(club.database) == stored
    return text


async def test_refusals_are_private_and_change_nothing(tmp_path):
    async with club_of(tmp_path, players=3) as club:
        ann, bob, cy = club.players
        await refused(club, ann, "tournament join", "no tournament in this channel")
        await refused(club, ann, "tournament standings", "no tournament in this channel")
        await refused(club, ann, "tournament create", "Only organisers", name="Mine",
                      format="swiss")  # fmt: skip
        await refused(club, club.organiser, "tournament create", "Only a Swiss takes",
                      name="Robin", format="round robin", rounds=3)  # fmt: skip
        await refused(club, club.organiser, "tournament create", "1 to 6 rounds", name="Long",
                      format="swiss", rounds=9, cap=8)  # fmt: skip
        thread = await club.emu.start_thread(club.organiser, club.channel, "chat")
        await refused(club, club.organiser, "tournament create", "not in a thread", thread,
                      name="Here", format="swiss")  # fmt: skip

        signup = await club.create(format="swiss", rounds=2, cap=2)
        await refused(club, club.organiser, "tournament create", "already has a tournament",
                      name="Again", format="swiss")  # fmt: skip
        await refused(club, club.organiser, "tournament start", "at least 2 players")
        await club.sign_up(signup, [ann])
        before = seen(club)
        again = await club.emu.click(ann, signup, "Join")  # twice
        assert again.ephemeral and "already in" in again.message.content
        gone = await club.emu.click(cy, signup, "Leave")
        assert gone.ephemeral and "not in this tournament" in gone.message.content
        await club.sign_up(signup, [bob])
        full = await club.emu.click(cy, signup, "Join")
        assert full.ephemeral and "full" in full.message.content
        assert seen(club) != before  # bob's join redrew it; the refusals did not
        await refused(club, ann, "tournament start", "Only the tournament's organiser")
        await refused(club, ann, "tournament pause", "Only the tournament's organiser")
        await refused(club, club.organiser, "tournament resume", "not paused")
        await refused(club, cy, "tournament withdraw", "not playing in this tournament")
        await refused(club, club.organiser, "tournament extend", "Only a running tournament",
                      hours=1)  # fmt: skip
        await refused(club, club.organiser, "tournament drop", "not in this tournament",
                      player=cy)  # fmt: skip
        await refused(club, club.organiser, "tournament replace", "has started",
                      player=ann, by=cy)  # fmt: skip
        shown = await club.slash(cy, "tournament standings")  # during sign-up: who has joined
        assert shown.ephemeral and "Players (2 of 2)" in str(shown.message.embeds[0]["fields"])

        await club.start()
        await refused(club, cy, "tournament join", "Sign-up is over")
        (thread,) = club.threads(1)
        await refused(club, cy, "tournament withdraw", "not playing", thread)


async def test_the_organiser_pauses_extends_drops_replaces_and_cancels(tmp_path):
    async with club_of(tmp_path, players=6) as club:
        ann, bob, cy, dee, eve, fay = club.players
        olga = club.organiser
        signup = await club.create(format="swiss", rounds=3)
        await club.sign_up(signup, [ann, bob, cy, dee])
        left = await club.slash(dee, "tournament leave")  # off the list before the start
        assert left.ephemeral and "left" in left.message.content
        assert "dee" not in str(signup.embeds[0]["fields"])
        await club.sign_up(signup, [dee])
        await club.start()

        def said() -> str:
            return club.posts()[-1].content or ""

        await club.slash(olga, "tournament pause")
        assert said().startswith("⏸️") and "paused" in said()
        await refused(club, olga, "tournament pause", "Only a running tournament")
        await club.slash(olga, "tournament resume")
        assert said().startswith("▶️") and "Play by" in said()
        deadline = club.view().current[0].deadline_at
        await club.slash(olga, "tournament extend", hours=2)
        assert said().startswith("⏰") and club.view().current[0].deadline_at == deadline + 7200

        threads = club.threads(1)
        victim = club.seated(threads[0])[1]
        await club.slash(olga, "tournament drop", player=victim)
        assert "dropped" in said() and f"**{victim.name}**" in said()
        told = [m.content or "" for m in club.emu.public_messages(threads[0])]
        assert any("was dropped from the tournament" in line for line in told), told

        other = club.seated(threads[1])
        quitter = other[0]
        result = await club.slash(quitter, "tournament withdraw", threads[1])
        assert result.ephemeral and "withdrawn" in result.message.content
        line = f"🚪 **{quitter.name}** withdrew"
        assert any((m.content or "").startswith(line) for m in club.posts())
        assert club.view().round == 2  # both tables decided: round 2 is paired
        # the dropped and the withdrawn are paired no more; fay takes a place left playing
        assert len(club.threads(2)) == 1
        stays = [u for u in club.seated(club.threads(2)[0])]
        assert victim not in stays and quitter not in stays
        await club.slash(olga, "tournament replace", player=stays[0], by=fay)
        assert said().startswith("🔁") and f"**{fay.name}**" in said()

        await club.slash(olga, "tournament cancel")
        cancelled = club.posts()[-1].embeds[0]
        assert "cancelled" in cancelled["title"] and "during round 2" in cancelled["description"]
        assert "cancelled" in signup.embeds[0]["title"] and not signup.buttons
        assert club.bot.manager.tournaments.in_channel(club.channel.id) is None


async def test_the_organisers_role_runs_one_that_starts_at_its_time(tmp_path):
    async with club_of(tmp_path, players=2) as club:
        clock = Clock()
        club.bot.manager.set_clock(clock)
        tess = club.tess  # the organisers' role, no Manage Server
        result = await club.slash(tess, "tournament create", name="Sunday", format="round robin",
                                  starts_in=30)  # fmt: skip
        signup = result.message
        assert not result.ephemeral and "<t:" in str(signup.embeds[0]["fields"])
        await club.sign_up(signup)
        assert await club.cog.tick() == 0  # not yet its time
        clock.offset = 30 * 60
        assert await club.cog.tick() == 1
        assert club.view().status == "running" and len(club.threads(1)) == 1
        assert "Sign-up is over" in signup.embeds[0]["description"] and not signup.buttons

        # another, with nobody but one player at its time: cancelled, and the message says why
        other = club.emu.add_text_channel(club.guild, "second")
        result = await club.emu.slash(tess, other, "cribbage tournament create", name="Empty",
                                      format="swiss", starts_in=5)  # fmt: skip
        lonely = result.message
        await club.emu.click(club.players[0], lonely, "Join")
        clock.offset += 5 * 60
        await club.cog.tick()
        assert "fewer than 2 players" in lonely.embeds[0]["description"] and not lonely.buttons
        assert club.bot.manager.tournaments.in_channel(other.id) is None


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_best_of_3_plays_its_next_game_in_the_same_thread_and_names_stay_harmless(
    tmp_path,
):
    async with club_of(tmp_path, players=2) as club:
        ann, bob = club.players
        evil = club.emu.add_user("**evil** <@1> @everyone", guilds=[club.guild])
        signup = await club.create(format="round robin", best_of=3, name="Best <@1> **of**")
        await club.sign_up(signup, [ann, evil])
        await club.start()
        (thread,) = club.threads(1)
        assert "**evil** <@1> @everyone" in thread.name  # a thread's name is plain text
        (announced,) = club.titled("round 1 of 1")
        text = announced.embeds[0]["title"] + announced.embeds[0]["description"]
        assert "\\*\\*evil\\*\\* \\<@\u200b1> @\u200beveryone" in text  # shown as typed
        assert not re.search(r"(?<!\\)<@", text)  # no mention can form
        club.users[evil.id] = evil
        await club.play(thread)  # every game of the pairing, one after the other, by clicks
        said = club.emu.public_messages(thread)
        won = [m for m in said if m.embeds and "wins!" in m.embeds[0].get("title", "")]
        assert len(won) in (2, 3)  # a best of 3: each game's result in the same thread
        assert "🏁 Round 1:" in said[-1].content and "2 games to" in said[-1].content
        placings = club.posts()[-1].embeds[0]
        assert "🥇" in placings["description"]
        assert "Best \\<@\u200b1> \\*\\*of\\*\\*" in placings["title"]
        # one ping each for the round, nobody else pinged, and never a mass mention
        assert [len(club.emu.pings_for(u)) for u in (ann, evil, bob)] == [1, 1, 0]
        assert not [p for p in club.emu.pings if p.reason == "everyone"]


async def test_without_thread_permission_the_round_waits_and_opens_once_allowed(tmp_path):
    async with club_of(tmp_path, players=2) as club:
        emu = club.emu
        signup = await club.create(format="swiss", rounds=1)
        await club.sign_up(signup)
        emu.set_permissions(club.channel, emu.bot_user, deny=CREATE_PUBLIC_THREADS)
        club.cog.announcer.retry_after = 0.0  # (a minute between tries, else)
        await club.start()
        assert not club.threads(1)
        warned = [m for m in club.posts() if "Create Public Threads" in (m.content or "")]
        assert len(warned) == 1
        await club.cog.tick()  # still refused: tried again, told no second time
        assert len([m for m in club.posts() if "Create Public Threads" in (m.content or "")]) == 1
        emu.set_permissions(club.channel, emu.bot_user, allow=CREATE_PUBLIC_THREADS)
        await club.cog.tick()
        (thread,) = club.threads(1)
        assert club.bot.manager.live.in_channel(thread.id) is not None  # its game is on
        assert [len(emu.pings_for(u)) for u in club.players] == [1, 1]
