"""The words a player reads through Discord: results with every score named (the channel's
line, the thread's result, the summary), deal records of three and four players that fit a
screen, and the answers that say where and whose (the game-over hand, the second Cut,
/cribbage board, /cribbage help, a computer's name)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot.engine import Card, Phase
from cogs.cribbage.hand_clicks import cut_note
from tests.support.discord_players import Seat, open_club

RECORD_LINES = 15


def records(driver) -> list[list[str]]:
    """The story lines of every deal's record in the game's thread, in order."""
    out = []
    for message in driver.emu.public_messages(driver.channel):
        for embed in message.embeds:
            if re.fullmatch(r"Deal [0-9]+ — the story", embed.get("title") or ""):
                out.append((embed.get("description") or "").split("\n"))
    return out


async def play_whole_game(driver, players: int):
    users = driver.users[:players]
    await driver.start_game(users[0], users[1:], players=players, target=61)
    seats = {u.id: Seat(u) for u in users}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(i)
    await driver.play_out(seats)
    return users


@pytest.mark.slow  # a whole game, click by click
@pytest.mark.parametrize("players", [3, 4])
async def test_a_whole_game_of_three_or_four_reads_in_order(tmp_path, players):
    async with open_club(tmp_path, threads=True) as club:
        users = await play_whole_game(club, players)
        names = [u.name for u in users]
        (line,) = club.emu.public_messages(club.home)
        # the channel's line: the winner first with its score, then every other score, named
        found = re.search(r"— \*\*(\w+)\*\* won with 61, (.*) · <#", line.content)
        assert found, line.content
        others = dict(re.findall(r"(\w+) ([0-9]+)", found[2]))
        assert sorted([found[1], *others]) == sorted(names)
        assert list(others.values()) == sorted(others.values(), key=int, reverse=True)
        # the thread's result says it the same way
        result = club.emu.last_public(club.channel)
        told = f"**{found[1]}** wins with 61, {found[2]}"
        # ...and marks, there only, each side that finished below the skunk line (31 in 61)
        result_line = next(x for x in result.text.split("\n") if "wins with 61" in x)
        assert told in re.sub(r" \((double )?skunked\)", "", result_line)
        scored = re.findall(r"(\w+) ([0-9]+)( \((?:double )?skunked\))?", result_line)
        for name, score, mark in scored:
            assert bool(mark) == (int(score) < 31), (name, score, result_line)
        # every deal's record fits a screen and names its double runs as players do
        deals = records(club)
        assert deals and max(len(story) for story in deals) <= RECORD_LINES
        text = "\n".join(line for story in deals for line in story)
        assert "another run of" not in text
        assert "last card for one" not in text
        # a hand closed by the game's end says where the result is: this thread
        closed = [
            m.text
            for u in users
            for m in club.emu.ephemerals_for(u, club.channel)
            if "The game is over" in m.text
        ]
        assert all("the result is in this thread" in t for t in closed)


async def test_a_forfeit_names_whose_score_is_whose(tmp_path):
    async with open_club(tmp_path, threads=True) as club:
        alice, bob = club.users[:2]
        await club.start_game(alice, [bob], target=61)
        seats = {u.id: Seat(u) for u in (alice, bob)}

        def game():
            return club.bot.manager.live.in_channel(club.channel.id)

        await club.play_until(seats, lambda: game().deal_number >= 2)  # past the first show
        a, b = game().scores
        await club.emu.slash(bob, club.channel, "cribbage forfeit")
        (line,) = club.emu.public_messages(club.home)
        await club.emu.wait_for(lambda: "playing in" not in line.content)
        assert f"**bob** forfeited (alice {a}, bob {b})" in line.content
        result = club.emu.last_public(club.channel)
        assert f"Final scores: alice {a}, bob {b}." in result.text


async def test_board_help_and_a_computer_say_whose_and_where(tmp_path):
    async with open_club(tmp_path, threads=True) as club:
        alice, bob = club.users[:2]
        await club.start_game(alice, [bob], target=61)
        board = await club.emu.slash(alice, club.channel, "cribbage board")
        assert board.ephemeral
        text = board.message.text
        assert text == "The table of alice vs bob is posted again below (alice 0, bob 0)."
        helped = await club.emu.slash(alice, club.home, "cribbage help")
        assert "thread of its own" in helped.message.text
        assert "The channel shows the count" not in helped.message.text
    (tmp_path / "two").mkdir()
    async with open_club(tmp_path / "two", threads=True) as club:
        alice = club.users[0]
        await club.open_lobby(alice, computer="standard")
        assert "Computer (standard)" in club.emu.last_public(club.channel).text


def test_a_cut_that_cuts_nothing_says_what_was_cut_and_by_whom():
    names = ["alice", "bob", "carol"]
    done = SimpleNamespace(
        phase=Phase.PLAY, to_act=(2,), starter=Card.parse("3H"), dealer=0, seats=(1, 2, 3)
    )
    assert cut_note(done, names) == "The cut is done: bob cut the 3♥ as the starter."
    waiting = SimpleNamespace(
        phase=Phase.CUT_FOR_STARTER, to_act=(1,), starter=None, dealer=0, seats=(1, 2, 3)
    )
    assert cut_note(waiting, names) == "Not your cut: bob cuts the starter."
    deal = SimpleNamespace(
        phase=Phase.CUT_FOR_DEAL, to_act=(0, 2), starter=None, dealer=None, seats=(1, 2, 3)
    )
    assert cut_note(deal, names) == "You have cut for the deal: waiting for alice and carol."
