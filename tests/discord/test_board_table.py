"""The live table in Discord shows each fact once: with pictures on, the scores live in the
board picture (drawn to be read 400 px wide) and the embed's text says them in one plain
sentence (no bars), for those who cannot see it; with pictures off, the text has them with
bars. The count once, no skunk sentence."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.engine import Phase
from tests.support.discord_players import Seat

# Discord shows an embed's image at most about 400 px wide and 300 px high
DISPLAY_WIDTH, DISPLAY_HEIGHT = 400, 300


async def _play_until_a_card_is_laid(club, seats) -> None:
    manager = club.bot.manager
    for _ in range(60):
        view = manager.live.in_channel(club.channel.id)
        if view.phase is Phase.PLAY and view.pile:
            return
        for user_id in view.to_act_users:
            await club.move(seats[user_id])
    raise AssertionError("no card was laid")


async def test_the_table_shows_the_scores_once_and_the_count_once(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    await _play_until_a_card_is_laid(club, seats)
    view = club.bot.manager.live.in_channel(club.channel.id)
    table = club.table_message()
    (embed,) = table.embeds
    text = json.dumps(embed, ensure_ascii=False)
    # no bars, no "2/121": the picture has the scores, and one plain sentence for a screen reader
    a, b = view.scores
    score, *note = embed["description"].split("\n")
    assert score == f"Score: alice {a}, bob {b}, playing to 121."
    # the board is the deal's start: once a peg moved a score, the text says so
    assert note in ([], ["-# The board shows the scores as this deal began."])
    assert "/121" not in text and "▰" not in text and "skunk" not in text.lower()
    # the count: "Count 5" beside the pile, not again in "Now" (the story's lines are a log)
    state = [f for f in embed["fields"] if f["name"] != "At the table"]
    assert json.dumps(state, ensure_ascii=False).count(f"ount {view.count}") == 1
    (board,) = [a for a in table.attachments if a.filename == "board.png"]
    picture = Image.open(io.BytesIO(board.data))
    assert picture.width * DISPLAY_HEIGHT >= picture.height * DISPLAY_WIDTH  # shown 400 wide

    await club.bot.manager.settings.update_server(
        club.guild.id, images=False
    )  # as /cribbage settings
    view = club.bot.manager.live.in_channel(club.channel.id)
    for user_id in view.to_act_users:  # one more move redraws the table, in words now
        await club.move(seats[user_id])
    (embed,) = club.table_message().embeds
    lines = embed["description"].splitlines()
    assert [line.split("**")[1] for line in lines] == [alice.name, bob.name]
    assert all(line.endswith("/121") for line in lines)
    assert "skunk" not in json.dumps(embed, ensure_ascii=False).lower()
