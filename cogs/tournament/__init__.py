"""Tournaments on Discord: ``/cribbage tournament …`` (:mod:`.commands`), the sign-up buttons
(:mod:`.buttons`), who may organise (:mod:`.access`), what the channel and the pairings'
threads show (:mod:`.announce`, its words in :mod:`.words`), and the cog that puts them
together (:mod:`.cog`). An extension of its own, loaded after ``cogs.cribbage``, whose
``/cribbage`` group it adds to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tournament.cog import Tournaments

if TYPE_CHECKING:
    from bot.app.client import CribbageBot


async def setup(bot: CribbageBot) -> None:
    await bot.add_cog(Tournaments(bot))
