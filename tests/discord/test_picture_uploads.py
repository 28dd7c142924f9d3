"""A picture is uploaded only when what it shows changes: the board once with each deal's table
(what is pegged meanwhile is in the table's text), a hand when its cards or greyed-out cards
change (a new heading is text). Every upload carries its alt text."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import Dealt, Phase
from tests.support.discord_players import Seat


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_a_game_uploads_the_board_once_a_deal_and_every_picture_is_described(club):
    emu = club.emu
    uploads: Counter[str] = Counter()
    described: list[bool] = []
    attachments = emu._attachments  # every message create and edit builds its files here

    def counting(body, files, existing):
        entries = {int(e.get("id", -1)): e for e in body.get("attachments") or ()}
        for upload in files:
            uploads[upload.filename.split("-")[0].split(".")[0]] += 1
            described.append(bool((entries.get(upload.index) or {}).get("description")))
        return attachments(body, files, existing)

    emu._attachments = counting
    table = club.bot.get_cog("Cribbage").table
    publish, dealt = table.publish, set()

    async def deals_seen(outcome, *args, **kwargs):
        dealt.update(e.event.number for e in outcome.events if isinstance(e.event, Dealt))
        await publish(outcome, *args, **kwargs)

    table.publish = deals_seen
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    for i, seat in enumerate(seats.values()):
        seat.rng.seed(7 + i)
    await club.play_out(seats, max_moves=4000)
    deals = len(dealt)
    assert deals >= 5 and all(described) and len(described) == sum(uploads.values())
    # a table a deal, and the result's board: no upload at each peg
    assert uploads["board"] <= 1.2 * deals
    # a hand's picture changes at the discard, at each card laid, and for the show
    assert uploads["hand"] <= 2 * 6 * deals


async def test_pegging_keeps_the_board_and_the_text_says_the_scores(club):
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    seats = {u.id: Seat(u) for u in (alice, bob)}
    manager = club.bot.manager
    for _deal in range(6):  # a deal whose play moves a peg before its last card
        await club.play_until(
            seats, lambda: manager.live.in_channel(club.channel.id).phase is Phase.PLAY
        )
        await club.emu.quiet(club.channel)
        table = club.table_message()  # the deal's table
        (board,) = [a for a in table.attachments if a.filename == "board.png"]
        start = manager.live.in_channel(club.channel.id).scores
        view = manager.live.in_channel(club.channel.id)
        while view.phase is Phase.PLAY and tuple(view.scores) == tuple(start):
            for user_id in view.to_act_users:
                await club.move(seats[user_id])
            view = manager.live.in_channel(club.channel.id)
        if view.phase is Phase.PLAY:
            break
    else:
        raise AssertionError("no deal's play moved a peg before its end")
    await club.emu.quiet(club.channel)
    assert club.table_message().id == table.id
    (kept,) = [a for a in club.table_message().attachments if a.filename == "board.png"]
    assert kept.id == board.id  # not uploaded again: no reload in the clients
    a, b = view.scores
    description = club.table_message().embeds[0]["description"]
    assert description.startswith(f"Score: alice {a}, bob {b}")
    assert "The board shows the scores as this deal began." in description
    assert kept.description == board.description  # the alt text still says what it shows
