"""The buttons of a tournament's sign-up message: Join and Leave (persistent).

Each is a dynamic item whose custom id names the tournament, so a click after a restart is
rebuilt from the id alone and handed to the answerer registered under :data:`TOURNAMENTS`::

    crib:tj:{tournament}      Join
    crib:tl:{tournament}      Leave
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.utils.items import Answerers, CribItem, Role, view_of


class TournamentAnswers(Protocol):
    """Answers the Join and Leave clicks of a sign-up message."""

    async def join(self, interaction: discord.Interaction, tournament: int) -> None: ...

    async def leave(self, interaction: discord.Interaction, tournament: int) -> None: ...


TOURNAMENTS: Role[TournamentAnswers] = Role("tournaments")


class JoinButton(CribItem[discord.ui.Button], template=r"crib:tj:(?P<tournament>[0-9]{1,20})"):
    """Join: enter the tournament during its sign-up."""

    def __init__(self, tournament: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join",
                style=discord.ButtonStyle.success,
                custom_id=f"crib:tj:{tournament}",
            )
        )
        self.tournament = tournament

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["tournament"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(TOURNAMENTS).join(interaction, self.tournament)


class LeaveButton(CribItem[discord.ui.Button], template=r"crib:tl:(?P<tournament>[0-9]{1,20})"):
    """Leave: take one's name off during the sign-up."""

    def __init__(self, tournament: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Leave",
                style=discord.ButtonStyle.secondary,
                custom_id=f"crib:tl:{tournament}",
            )
        )
        self.tournament = tournament

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaveButton:
        return cls(int(match["tournament"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(TOURNAMENTS).leave(interaction, self.tournament)


def signup_view(tournament: int) -> discord.ui.View:
    """The sign-up message's buttons."""
    return view_of(JoinButton(tournament), LeaveButton(tournament))


#: every button of the tournaments (registered when the cog loads)
TOURNAMENT_ITEMS = (JoinButton, LeaveButton)
