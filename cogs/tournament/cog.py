"""The tournament cog: builds the parts of :mod:`cogs.tournament` and hooks them up.

At load it adds the ``tournament`` group (:mod:`.commands`) to the Cribbage cog's
``/cribbage`` group (so ``cogs.cribbage`` loads first), registers the sign-up buttons and
their answerer under :data:`~.buttons.TOURNAMENTS`, subscribes to
``manager.tournaments.listeners`` (a game's end that decides a pairing, opens a round or ends
the tournament), starts its loop, and shows what the restart found
(``manager.tournaments.resumed``), then opens any pairing a restart left without its thread.

The loop (every :data:`SWEEP_EVERY` seconds) calls ``manager.tournaments.deadlines.sweep()``:
it starts the tournaments whose start time came, decides the pairings whose deadline passed and
records any game end not recorded yet; the cog shows what it did, and tries again any pairing
whose thread or game could not be opened.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from bot.sessions.tournament_views import TournamentOutcome
from cogs.tournament.announce import Announcer
from cogs.tournament.buttons import TOURNAMENT_ITEMS, TOURNAMENTS
from cogs.tournament.commands import TournamentCommands
from cogs.utils.items import answerers_of
from cogs.utils.names import NameBook
from cogs.utils.ticker import Ticker

if TYPE_CHECKING:
    from bot.app.client import CribbageBot

log = logging.getLogger(__name__)

SWEEP_EVERY = 5.0  # seconds between two sweeps: start times, deadlines, late results
PARENT = "cribbage"  # the group the tournament commands belong to (the Cribbage cog's)


class Tournaments(commands.Cog):
    """``/cribbage tournament …``, the sign-up buttons, the sweep and the news (see the
    module)."""

    def __init__(self, bot: CribbageBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        shared = getattr(bot.get_cog("Cribbage"), "names", None)  # names learnt in games too
        self.names = shared if isinstance(shared, NameBook) else NameBook(bot)
        self.announcer = Announcer(bot, self.manager, self.names)
        self.group = TournamentCommands(self.manager, self.names, self.announcer)
        self.ticker = Ticker(
            bot, self.tick, seconds=SWEEP_EVERY, failure="The tournament sweep failed", logger=log
        )
        self._tasks: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        parent = self.bot.tree.get_command(PARENT)
        if not isinstance(parent, app_commands.Group):
            raise RuntimeError("cogs.tournament adds to /cribbage: load cogs.cribbage first")
        parent.add_command(self.group)
        self.bot.add_dynamic_items(*TOURNAMENT_ITEMS)
        answerers_of(self.bot).register(TOURNAMENTS, self.group)
        self.manager.tournaments.listeners.append(self.heard)
        table = self.announcer.table()
        if table is not None:  # a pairing's end is told below its game's own result
            table.followers.append(self.announcer.shown)
        self.ticker.start()
        self._spawn(self._show_resumed())

    async def cog_unload(self) -> None:
        parent = self.bot.tree.get_command(PARENT)
        if isinstance(parent, app_commands.Group):
            parent.remove_command(self.group.name)
        self.bot.remove_dynamic_items(*TOURNAMENT_ITEMS)
        answerers_of(self.bot).forget(TOURNAMENTS)
        listeners = self.manager.tournaments.listeners
        if self.heard in listeners:
            listeners.remove(self.heard)
        table = self.announcer.table()
        if table is not None and self.announcer.shown in table.followers:
            table.followers.remove(self.announcer.shown)
        self.ticker.stop()
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ news

    async def heard(self, news: TournamentOutcome) -> None:
        """A game's end decided a pairing (and maybe opened a round or ended the tournament):
        shown in a task of its own, so the click that ended the game is answered first."""
        self._spawn(self.announcer.tell(news, game_end=True))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("Showing a tournament's news failed", exc_info=task.exception())

    async def settled(self) -> None:
        """Wait until every piece of news heard so far is shown (for tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _show_resumed(self) -> None:
        """After a restart: what loading the tournaments did (results recorded, rounds
        opened), then every pairing still waiting for its thread."""
        await self.bot.wait_until_ready()
        director = self.manager.tournaments
        for news in director.resumed:
            await self.announcer.tell(news)
        self.announcer.try_again(director.running())
        await self.announcer.retry()

    # ------------------------------------------------------------------ the loop

    async def tick(self, now: float | None = None) -> int:
        """One sweep at ``now`` (the manager's clock if None): show what it did; try again
        the pairings not opened yet. How many pieces of news it showed."""
        outcomes = await self.manager.tournaments.deadlines.sweep(now)
        for news in outcomes:
            if news.what == "cancelled" and not news.view.round:
                await self.announcer.cancelled_unstarted(news)  # too few players at its time
            else:
                await self.announcer.tell(news)
        await self.announcer.retry()
        return len(outcomes)
