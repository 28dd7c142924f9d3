"""Who answers the persistent buttons: the roles the Cribbage cog registers on the bot at load
(cogs/utils/items.py), so that an item rebuilt from its custom id alone reaches its handler
without importing the cog."""

from __future__ import annotations

import pytest

from cogs.cribbage.buttons import LOBBY, REMATCHES, TABLE
from cogs.cribbage.cog import ROLES
from cogs.cribbage.hand_clicks import HANDS
from cogs.cribbage.muggins import MUGGINS
from cogs.cribbage.replay_buttons import REPLAYS
from cogs.standings.buttons import STANDINGS
from cogs.utils.items import WITNESS, Answerers, Role, answerers_of
from tests.support.discord_players import Driver, open_club


def test_a_role_gives_back_what_was_registered_until_it_is_forgotten():
    answerers = Answerers()
    role: Role[list[int]] = Role("numbers")
    numbers = [1, 2]
    answerers.register(role, numbers)
    assert answerers.get(role) is numbers
    answerers.forget(role)
    with pytest.raises(RuntimeError, match="nothing answers the numbers clicks"):
        answerers.get(role)
    answerers.forget(role)  # forgetting twice changes nothing


def test_each_client_keeps_its_own_answerers():
    class Client:
        pass

    first, second = Client(), Client()
    kept = answerers_of(first)  # type: ignore[arg-type]
    assert answerers_of(first) is kept  # type: ignore[arg-type]
    assert answerers_of(second) is not kept  # type: ignore[arg-type]


async def test_the_loaded_cog_answers_every_role(club):
    bot = club.bot
    cog = bot.get_cog("Cribbage")
    answerers = answerers_of(bot)
    assert set(ROLES) == {WITNESS, LOBBY, TABLE, HANDS, REMATCHES, MUGGINS, REPLAYS, STANDINGS}
    assert answerers.get(HANDS) is cog.hands
    assert answerers.get(TABLE) is cog.hands  # the table's Your hand, Cut and Next deal
    assert answerers.get(REMATCHES) is cog.rematches
    assert answerers.get(MUGGINS) is cog.muggins
    assert answerers.get(REPLAYS) is cog.replays
    assert answerers.get(STANDINGS) is cog.standings
    assert answerers.get(LOBBY) is cog
    assert answerers.get(WITNESS) is cog


async def test_a_click_nothing_answers_is_logged_and_the_clicker_told(tmp_path, caplog):
    """A role nobody answers (its cog not loaded): the click's guard logs it and tells the
    clicker privately, as any failed click."""
    async with open_club(tmp_path, names=("alice", "bob"), privacy=False) as club:
        await answered_after_a_failure(club, caplog)


async def answered_after_a_failure(club: Driver, caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = club.users[:2]
    await club.start_game(alice, [bob])
    answerers = answerers_of(club.bot)
    hands = answerers.get(TABLE)
    answerers.forget(TABLE)
    try:
        result = await club.click(alice, club.table_message(), "Your hand")
    finally:
        answerers.register(TABLE, hands)
    assert result.ephemeral and "went wrong" in result.message.content
    failed = [r for r in caplog.records if r.levelname == "ERROR" and r.exc_info]
    assert [r.getMessage() for r in failed] == [f"Click on crib:h:{club.game_id()} failed"]
    assert "nothing answers the table clicks" in str(failed[0].exc_info[1])
    result = await club.click(alice, club.table_message(), "Your hand")  # answered again
    assert result.ephemeral and "went wrong" not in (result.message.content or "")
