"""The sign-up message's Join and Leave buttons: rebuilt from their custom ids alone."""

from __future__ import annotations

from cogs.tournament.buttons import TOURNAMENT_ITEMS, JoinButton, LeaveButton, signup_view


async def rebuilt(custom_id: str) -> JoinButton | LeaveButton | None:
    for cls in TOURNAMENT_ITEMS:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return await cls.from_custom_id(None, None, match)
    return None


async def test_join_and_leave_name_their_tournament_and_come_back_from_the_id():
    # on a running event loop: discord.py before 2.5 makes a View only there
    join, leave = JoinButton(12), LeaveButton(12)
    assert (join.custom_id, leave.custom_id) == ("crib:tj:12", "crib:tl:12")
    again = await rebuilt(join.custom_id)
    assert isinstance(again, JoinButton) and again.tournament == 12
    again = await rebuilt(leave.custom_id)
    assert isinstance(again, LeaveButton) and again.tournament == 12
    assert [item.custom_id for item in signup_view(7).children] == ["crib:tl:7", "crib:tj:7"][::-1]


async def test_a_forged_id_is_no_tournament_button():
    for forged in (
        "crib:tj:x",
        "crib:tj:" + "9" * 21,
        "crib:tj:١٢",
        "crib:tj:12:extra",
        "crib:tx:1",
    ):
        assert await rebuilt(forged) is None
