"""A muggins show through discord.py and the emulator, clicked like people.

Two people play to the show; then, with a small driver of our own (the scripted players of
tests/support/discord_players.py let every claim go):

- each one's hand picture, while they count, is the cards they count and the starter (the
  dealer's, when he counts the crib, the crib: not his kept hand);
- the pone over-claims: the story names the over-claim and the true count at once, and the
  table offers no **Muggins!** (nothing is left uncounted); the pone under-claims and the
  dealer calls **Muggins!**: the muggins line carries the new score; the click posts nothing
  (a deferred update), the table shows the result;
- no answer is owed: once the dealer has claimed his crib (he need not wait for the window on
  his hand) the table names nobody to move (the pone may answer, need not) and the windows
  close by themselves after their time; **Let it go** posts nothing either.
"""

from __future__ import annotations

import time

from bot.engine import Phase
from bot.engine.muggins import breakdown_of
from bot.render.images import HandPicture
from cogs.cribbage.muggins import owing
from tests.support.discord_players import Driver, Seat, counted_cards, exact_claim


def view_of(club: Driver):
    return club.bot.manager.live.in_channel(club.channel.id)


def story(club: Driver) -> str:
    return "\n".join(club.emu.all_public_text())


async def open_hand(club: Driver, user):
    """The person clicks Your hand on the table: their hand message, fresh."""
    return (await club.click(user, club.table_message(), "Your hand")).message


def picture_of(hand) -> str:
    (attachment,) = hand.attachments
    return attachment.filename


async def claim(club: Driver, user, *, over: int = 0):
    """Count the cards the hand message shows and claim the count (plus ``over``); returns
    (the picture the hand showed, the cards, the starter, crib or not, the true count)."""
    hand = await open_hand(club, user)
    picture = picture_of(hand)
    cards, starter, crib = counted_cards(hand.content)
    true = exact_claim(cards, starter, crib)
    picker = next(m for m in hand.selects if str(true + over) in m.values)
    await club.select(user, hand, [str(true + over)], custom_id=picker.custom_id)
    return picture, cards, starter, crib, true


def counting_picture(cards, starter, crib: bool) -> str:
    """The file name of the picture of these cards to count, with the starter."""
    title = f"Count your {'crib' if crib else 'hand'} + the starter"
    return HandPicture(tuple(sorted(cards)), frozenset(), title, starter).filename


def silent(result) -> bool:
    """Answered by a deferred update (response type 6): no message posted, public or private."""
    return result.response_type == 6 and not result.followups and not result.messages


async def to_show(club: Driver, seats: dict[int, Seat]) -> None:
    """Play (discards, cut, cards) until the show, starting the next deal when it is held."""
    for _ in range(300):
        view = view_of(club)
        if view.phase is Phase.SHOW:
            return
        if view.phase.name == "NEXT_DEAL":  # the pause between deals: end it now
            cog = club.bot.get_cog("Cribbage")
            for outcome in await club.bot.manager.deals.start_due(time.time() + 3600):
                await cog.table.publish(outcome)
            continue
        user_id = view.to_act_users[0]
        if await club.move(seats[user_id]) == "wait":
            seats[user_id].hand = None
            await club.move(seats[user_id])
    raise AssertionError("no show")


async def finish_show(club: Driver, users: dict) -> None:
    """Everyone counts right; every window closes by itself."""
    cog = club.bot.get_cog("Cribbage")
    while view_of(club).phase is Phase.SHOW:
        claimers = owing(view_of(club))
        if claimers:
            await claim(club, users[claimers[0]])
        else:
            assert await cog.muggins.tick(time.time() + 3600) == 1


async def a_show(club: Driver, *, pone_worth: int = 0):
    """A 2-person muggins game at a show whose pone's hand is worth ``pone_worth`` or more
    (a test-only peek at the engine picks the deal); returns (pone, dealer, view)."""
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob], muggins=True, target=121)
    seats = {u.id: Seat(u) for u in (alice, bob)}
    users = {alice.id: alice, bob.id: bob}
    for _deal in range(8):
        await to_show(club, seats)
        view = view_of(club)
        game = club.bot.manager.live[view.game_id].game
        if breakdown_of(game, view.pone, False).total >= pone_worth:
            return users[view.seat_user(view.pone)], users[view.seat_user(view.dealer)], view
        await finish_show(club, users)
    raise AssertionError(f"no pone's hand worth {pone_worth} in eight deals")


async def test_each_count_shows_the_cards_counted_and_the_starter(club):
    pone, dealer, _ = await a_show(club)
    picture, cards, starter, crib, _ = await claim(club, pone)
    assert not crib and picture == counting_picture(cards, starter, False)
    picture, kept, starter, crib, _ = await claim(club, dealer)
    assert not crib and picture == counting_picture(kept, starter, False)
    # the dealer counts the crib at once: the text and the picture show the crib, not his kept hand
    picture, cards, starter, crib, _ = await claim(club, dealer)
    assert crib and set(cards).isdisjoint(kept)
    assert picture == counting_picture(cards, starter, True)
    assert not club.emu.take_bot_errors()


async def test_an_over_claim_is_corrected_in_public_with_nothing_to_muggins(club):
    pone, dealer, view = await a_show(club, pone_worth=4)
    before = view.scores
    *_, true = await claim(club, pone, over=2)
    text = story(club)
    assert f"claims **{true + 2}** — too many: pegs {true - 2} · it was worth {true}" in text
    assert f"over by 2 (now {before[view.pone] + true - 2})" in text
    assert "Muggins!" not in {b.label for b in club.table_message().buttons}
    assert view_of(club).scores[view.dealer] == before[view.dealer]  # the 2 go to nobody
    assert not club.emu.take_bot_errors()


async def test_an_under_claim_is_taken_and_the_muggins_line_has_the_new_score(club):
    pone, dealer, view = await a_show(club, pone_worth=2)
    before = view.scores[view.dealer]
    *_, true = await claim(club, pone, over=-2)
    called = await club.click(dealer, club.table_message(), "Muggins!")
    assert silent(called), (called.response_name, called.messages)
    text = story(club)
    # the call and the true count on the claim's own line
    assert f"calls **Muggins!** · it was worth {true} — 2 missed · " in text
    assert f"{dealer.name} takes 2 points (now {before + 2})" in text
    assert view_of(club).scores[view.dealer] == before + 2
    assert not club.emu.take_bot_errors()


async def test_no_answer_is_owed_and_answers_post_nothing(club):
    pone, dealer, view = await a_show(club)
    await claim(club, pone)
    await claim(club, dealer)  # the pone's window stays open: the dealer may still answer it
    assert owing(view_of(club)) == (dealer.id,)  # his crib is next, at once
    await claim(club, dealer)  # the crib, while the window on his hand is open
    # the windows on the dealer's hand and crib are the pone's to answer, or not
    table = club.table_message()
    assert {"Muggins!", "Let it go"} <= {b.label for b in table.buttons}
    assert "otherwise the count stands" in table.text
    assert f"<@{pone.id}>" not in (table.content or "")  # nobody is told to move
    assert f"waiting for {pone.name}" not in table.text and "stands in a moment" in table.text
    assert owing(view_of(club)) == ()
    hand = (await open_hand(club, pone)).content
    assert "nothing to do" in hand and "Let it go" not in hand
    let_go = await club.click(pone, club.table_message(), "Let it go")
    assert silent(let_go), (let_go.response_name, let_go.messages)
    assert view_of(club).phase is Phase.SHOW  # the dealer's window on the pone's hand is open
    # nobody answers it: it closes by itself after its time
    cog = club.bot.get_cog("Cribbage")
    assert await cog.muggins.tick(time.time()) == 0
    assert await cog.muggins.tick(time.time() + 3600) == 1
    assert view_of(club).phase is not Phase.SHOW  # the show is over
    assert not club.emu.take_bot_errors()


async def test_partners_muggins_deal_one_discard_line_and_team_scores(club):
    """Four people in partnerships, muggins on: a whole deal, its record read at the end."""
    alice, bob, carol, dave = club.users[:4]
    await club.start_game(alice, [bob, carol, dave], players=4, partnerships=True, muggins=True)
    seats = {u.id: Seat(u) for u in (alice, bob, carol, dave)}
    users = {u.id: u for u in (alice, bob, carol, dave)}
    await to_show(club, seats)
    await finish_show(club, users)
    lines = [
        line
        for m in club.emu.public_messages(club.channel)
        for line in m.text.splitlines()
        if "away to the crib" in line
    ]
    assert len(lines) == 1, lines  # one line for the four discards
    assert all(u.name in lines[0] for u in users.values())
    text = "\n".join(m.text for m in club.emu.public_messages(club.channel))
    teams = ("alice & carol", "carol & alice", "bob & dave", "dave & bob")
    nows = [line for line in text.splitlines() if " now " in line]
    assert nows and all(any(f"({team} now " in line for team in teams) for line in nows)
    assert "(now " not in text
    assert not club.emu.take_bot_errors()
