"""What a tournament shows in its channel and its threads, told by its news.

Every :class:`~bot.sessions.tournament_views.TournamentOutcome` (a command's, a click's, the
sweep's, a game's end heard through ``manager.tournaments.listeners``, the restart's) goes
through :meth:`Announcer.tell`, one at a time per tournament:

* the **sign-up message** (the tournament's message in its channel, with **Join** and
  **Leave**) is kept up to date during sign-up, and closed (no buttons) once it starts, is
  cancelled or is over;
* a **new round**: a public thread per pairing in the tournament's channel (named
  ``R1 T2 · Ann v Bob``), the pairing's game started in it (``open_pairing``) and its table
  shown by the Cribbage cog's table, each player pinged once in that thread with the link and
  the deadline; then the round's announcement in the channel, every table linked to its thread.
  Discord's "started a thread" notices are removed: the announcement says it;
* **after each round**: the standings (Swiss, round robin) or the bracket pictures, each with
  its alt text as the attachment's description (single elimination); at the end, the
  placings;
* a pairing decided is told in its thread (who won and how); the organiser's changes and
  withdrawals in the channel in one line; the games the news ended or started (a forfeit at
  the deadline, a match's next game) are shown like any other game.

The round's ping is the one ping a player gets for it: the table of the new game would ping
the players it waits for (nobody has clicked in the new thread yet), so they are marked as
pinged for its first deal first. A pairing whose thread or game could not be opened (Discord
refused the thread, the tournament paused meanwhile, a restart in between) is tried again by
:meth:`Announcer.retry`, which the cog's loop calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal, Protocol

import discord
from discord.ext import commands

from bot.render.tournament import (
    Setup,
    cancelled_embed,
    ping_text,
    placings_embed,
    round_embed,
    signup_embed,
    standings_embed,
    thread_name,
)
from bot.render.tournament_bracket import bracket_pictures, round_name
from bot.sessions import GameStatus, Outcome, Refusal
from bot.sessions.requests import OpenPairing
from bot.sessions.tournament_views import PairingView, TournamentOutcome, TournamentView
from bot.tournament import Format, standings
from cogs.tournament.buttons import signup_view
from cogs.tournament.words import (
    dropped_of,
    next_game_line,
    organiser_line,
    pairing_end,
    pairing_of,
    replaced_line,
    results_until,
    round_of,
    rules_of,
    setup_of,
)
from cogs.utils.names import NameBook, markdown_name, plain_name
from cogs.utils.payloads import to_discord

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440  # an idle pairing's thread leaves the list after a day
# What the bot needs in a tournament's channel, on top of posting there: a thread per pairing
THREAD_PERMISSIONS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
NO_THREADS = (
    "⚠️ I could not open a thread for every pairing of this round: I need **Create Public "
    "Threads** and **Send Messages in Threads** here. I'll try again in a moment; the "
    "deadline still counts."
)
# what the sign-up message says once sign-up is over
STARTED = "Sign-up is over: the pairings are below."
FINISHED = "It's over: the final placings are below."
TOO_FEW = "Cancelled: fewer than 2 players had joined by the start time."
ENDS_KEPT = 512  # the newest game ends shown by the table, remembered (see Announcer.shown)
SHOWN_WITHIN = 5.0  # seconds a pairing's news waits for the table to show its game's end
RETRY_AFTER = 60.0  # seconds before a pairing that could not be opened is tried again


class PingBook(Protocol):
    """Who the Cribbage cog's table pinged in a deal (``cogs.cribbage.pings.Pinger``)."""

    def pinged(self, game_id: int, deal: int) -> set[int]: ...


class GameTable(Protocol):
    """The Cribbage cog's table (``cogs.cribbage.table.Table``): shows a game's outcome, then
    tells its ``followers``."""

    @property
    def pings(self) -> PingBook: ...

    @property
    def followers(self) -> list[Callable[[Outcome, Sequence[str]], Awaitable[None]]]: ...

    async def publish(self, outcome: Outcome) -> None: ...


class Announcer:
    """Tells a tournament's news in its channel and threads (see the module)."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        manager: GameSessionManager,
        names: NameBook,
    ) -> None:
        self.bot = bot
        self.manager = manager
        self.names = names
        self._locks: dict[int, asyncio.Lock] = {}
        # tournament -> when (the event loop's clock) to try again to open its pairings
        self._retry: dict[int, float] = {}
        self._warned: set[tuple[int, int]] = set()  # (tournament, round) told of no threads
        self.retry_after = RETRY_AFTER
        # game -> set once the table has shown how it ended (the newest ENDS_KEPT)
        self._ends: OrderedDict[int, asyncio.Event] = OrderedDict()

    # ------------------------------------------------------------------ the games' ends

    async def shown(self, outcome: Outcome, names: Sequence[str]) -> None:
        """A follower of the Cribbage cog's table: after it showed an outcome. A pairing's
        end is told in its thread below the game's own result (:meth:`_game_ended`)."""
        if outcome.view.status is not GameStatus.ACTIVE and outcome.view.phase is not None:
            self._end(outcome.game_id).set()

    def _end(self, game_id: int) -> asyncio.Event:
        event = self._ends.get(game_id)
        if event is None:
            event = self._ends[game_id] = asyncio.Event()
            while len(self._ends) > ENDS_KEPT:
                self._ends.popitem(last=False)
        return event

    async def _game_ended(self, p: PairingView) -> None:
        """Wait (a little at most) until the table has shown the end of the pairing's last
        game, so the thread tells the game's result first, then the pairing's."""
        games = [g for g, _, _ in p.games] + ([p.game_id] if p.game_id is not None else [])
        if not games or self.table() is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._end(games[-1]).wait(), SHOWN_WITHIN)

    # ------------------------------------------------------------------ what it reads

    def table(self) -> GameTable | None:
        """The Cribbage cog's table, which shows the games (None: that cog is not loaded)."""
        table: GameTable | None = getattr(self.bot.get_cog("Cribbage"), "table", None)
        return table

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def names_of(self, view: TournamentView) -> dict[str, str]:
        """Each place's key -> the plain display name of who plays it now."""
        return {
            str(e.user_id): await self.names.name(e.plays, view.guild_id) for e in view.entrants
        }

    async def setup(self, view: TournamentView) -> tuple[Setup, dict[str, str]]:
        organiser = await self.names.name(view.organiser_id, view.guild_id)
        return setup_of(view, organiser), await self.names_of(view)

    async def signup_payload(
        self, view: TournamentView, *, closed: str | None = None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The sign-up message: its embed, and its buttons while sign-up is open."""
        organiser = await self.names.name(view.organiser_id, view.guild_id)
        names = await self.names_of(view)
        entrants = [str(e.user_id) for e in view.entrants]
        setup = setup_of(view, organiser)
        if closed is not None and view.started_at is not None:  # when it started, not how
            setup = dataclasses.replace(setup, starts_at=view.started_at)
        embed = signup_embed(setup, entrants, names, closed=closed)
        buttons = signup_view(view.tournament_id) if closed is None else None
        return to_discord(embed), buttons

    # ------------------------------------------------------------------ the news

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def tell(
        self, news: TournamentOutcome, *, about: int | None = None, game_end: bool = False
    ) -> None:
        """Show ``news`` (``about``: the person a drop, withdrawal or replacement is about,
        when the caller knows them; ``game_end``: the news of a game's end, which the table
        shows too: the pairing's end is told below it)."""
        view = news.view
        async with self._lock(view.tournament_id):
            await self._tell(news, about, game_end)
        if view.status in ("finished", "cancelled"):
            self._locks.pop(view.tournament_id, None)
            self._retry.pop(view.tournament_id, None)

    async def _tell(self, news: TournamentOutcome, about: int | None, game_end: bool) -> None:
        view, what = news.view, news.what
        for game in news.games:  # a forfeit at the deadline or for a player who left, ...
            await self._show_game(game)
        if view.status == "signup":
            if what in ("joined", "left", "dropped", "withdrew"):
                await self.refresh_signup(view)
            return
        if what == "started":
            await self.refresh_signup(view, closed=STARTED)
        elif what == "cancelled":
            await self._cancelled(view)
            return
        elif what == "replaced" and about is not None:
            await self._replaced(view, about)
        elif (line := await self._organiser_line(what, view, about)) is not None:
            await self._post(view.channel_id, line)
        for p in news.playing:  # a best of 3 or 5 goes on: below the last game's result
            await self._next_game(view, p)
        for p in news.decided:
            if game_end:  # the game's own end comes first in the thread
                await self._game_ended(p)
            await self._pairing_decided(view, p)
        done = self._completed_round(news)
        if done:
            await self._after_round(view, done)
        if news.opened:
            await self.open_round(view, news.opened)
        if news.finished:
            await self._placings(view)
            await self.refresh_signup(view, closed=FINISHED)

    async def cancelled_unstarted(self, news: TournamentOutcome) -> None:
        """A tournament the sweep cancelled at its start time for want of players."""
        await self.refresh_signup(news.view, closed=TOO_FEW)

    @staticmethod
    def _completed_round(news: TournamentOutcome) -> int:
        """The round the news completed (0: none)."""
        if news.finished:
            return news.view.total_rounds
        if news.opened and news.what != "started":
            return news.opened[0].round - 1
        return 0

    async def refresh_signup(self, view: TournamentView, *, closed: str | None = None) -> None:
        """Edit the tournament's message to show ``view`` (through the bot's token)."""
        if view.message_id is None:
            return
        embed, buttons = await self.signup_payload(view, closed=closed)
        message = self.channel(view.channel_id).get_partial_message(view.message_id)
        try:
            await message.edit(embed=embed, view=buttons)
        except discord.HTTPException:
            log.info("tournament %d: could not edit its message", view.tournament_id)

    async def _organiser_line(
        self, what: str, view: TournamentView, about: int | None
    ) -> str | None:
        who = None if about is None else await self.names.name(about, view.guild_id)
        return organiser_line(what, view, who)

    async def _replaced(self, view: TournamentView, place: int) -> None:
        entrant = next((e for e in view.entrants if e.user_id == place), None)
        if entrant is None:
            return
        gone = await self.names.name(entrant.user_id, view.guild_id)
        new = await self.names.name(entrant.plays, view.guild_id)
        await self._post(view.channel_id, replaced_line(view, gone, new))

    async def _cancelled(self, view: TournamentView) -> None:
        organiser = await self.names.name(view.organiser_id, view.guild_id)
        embed = to_discord(cancelled_embed(setup_of(view, organiser), view.round))
        if view.message_id is not None:
            message = self.channel(view.channel_id).get_partial_message(view.message_id)
            try:
                await message.edit(embed=embed, view=None)
            except discord.HTTPException:
                log.info("tournament %d: could not edit its message", view.tournament_id)
        if view.round:  # the players of a running tournament are told below, too
            await self._post(view.channel_id, embed=embed)

    async def _next_game(self, view: TournamentView, p: PairingView) -> None:
        if p.thread_id is None or not p.games:
            return
        if self.table() is not None:  # the game before's result first
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._end(p.games[-1][0]).wait(), SHOWN_WITHIN)
        line = next_game_line(p, await self.names_of(view), view.best_of)
        await self._post(p.thread_id, line)

    async def _pairing_decided(self, view: TournamentView, p: PairingView) -> None:
        if p.thread_id is None:
            return
        line = pairing_end(p, await self.names_of(view), view)
        if line is not None:
            await self._post(p.thread_id, line)

    async def _show_game(self, outcome: Outcome) -> None:
        table = self.table()
        if table is None:
            return
        try:
            await table.publish(outcome)
        except discord.HTTPException:
            log.warning("game %d: could not show it", outcome.game_id)

    # ------------------------------------------------------------------ a round

    async def open_round(self, view: TournamentView, opened: Sequence[PairingView]) -> None:
        """Open a thread and a game for each of ``opened`` (a new round's pairings), then
        announce the round in the channel."""
        names = await self.names_of(view)
        threads = await self._open_pairings(view, opened, names)
        number = opened[0].round
        setup = setup_of(view, await self.names.name(view.organiser_id, view.guild_id))
        deadline = next((p.deadline_at for p in opened if p.deadline_at is not None), None)
        embed = round_embed(
            setup,
            round_of(view, number),
            names,
            total=view.total_rounds,
            deadline=deadline,
            threads=threads,
        )
        await self._post(view.channel_id, embed=to_discord(embed))

    async def _open_pairings(
        self, view: TournamentView, pairings: Iterable[PairingView], names: dict[str, str]
    ) -> dict[int, int]:
        """Open each pairing still waiting for its game; table -> thread of those opened."""
        threads: dict[int, int] = {}
        failed = False
        for p in sorted(pairings, key=lambda p: p.table):
            now = self._current(view.tournament_id, p)
            if now is None:
                continue  # decided, or opened meanwhile
            thread = await self._open_pairing(view, now, names)
            if thread is None:
                failed = True
            else:
                threads[p.table] = thread
        if failed:
            self._retry[view.tournament_id] = self._clock() + self.retry_after
        if threads:
            await self._drop_notices(view.channel_id, set(threads.values()))
        return threads

    def _current(self, tournament_id: int, p: PairingView) -> PairingView | None:
        """The pairing as it stands now, if it still waits for its thread and game."""
        view = self.manager.tournaments.view(tournament_id)
        if view is None or view.status != "running" or view.round != p.round:
            return None
        now: PairingView | None = next(
            (q for q in view.current if q.table == p.table and q.second is not None), None
        )
        if now is None or now.state != "waiting" or now.game_id is not None:
            return None
        return now

    async def _open_pairing(
        self, view: TournamentView, p: PairingView, names: dict[str, str]
    ) -> int | None:
        """The pairing's thread and game: the thread's id, or None if either was refused."""
        channel = self.bot.get_channel(view.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.info("tournament %d: its channel is not a text channel", view.tournament_id)
            return None
        try:
            thread = await channel.create_thread(
                name=thread_name(p.round, pairing_of(p), names),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=ARCHIVE_AFTER_MINUTES,
            )
        except discord.HTTPException as exc:
            log.info("tournament %d: no thread for table %d (%s)", view.tournament_id,
                     p.table, exc)  # fmt: skip
            if (view.tournament_id, p.round) not in self._warned:  # once a round
                self._warned.add((view.tournament_id, p.round))
                await self._post(view.channel_id, NO_THREADS)
            return None
        request = OpenPairing(view.tournament_id, p.round, p.table, thread.id)
        started = await self.manager.tournaments.games.open_pairing(request)
        if isinstance(started, Refusal):
            log.info("tournament %d: table %d not opened: %s", view.tournament_id, p.table,
                     started.message)  # fmt: skip
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            return None
        assert isinstance(started, Outcome)
        await self._ping(view, p, thread, started)
        await self._show_game(started)
        return thread.id

    async def _ping(
        self, view: TournamentView, p: PairingView, thread: discord.Thread, started: Outcome
    ) -> None:
        """The round's one ping for the pairing's players, in its thread (a player who turned
        notifications off is named, not notified)."""
        players = p.players
        table = self.table()
        if table is not None:  # the new table would ping them for its cut: this is the ping
            table.pings.pinged(started.game_id, started.view.deal_number).update(players)
        settings = self.manager.settings
        loud = [u for u in players if (await settings.player(u)).notify]
        text = ping_text(p.round, players, thread.id, p.deadline_at)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in loud]
        )
        try:
            await thread.send(text, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("tournament %d: could not ping table %d", view.tournament_id, p.table)

    async def _drop_notices(self, channel_id: int, threads: set[int]) -> None:
        """Delete Discord's "started a thread" notices of ``threads``: the round's
        announcement links them."""
        try:
            async for message in self.channel(channel_id).history(limit=2 * len(threads) + 5):
                reference = message.reference
                if (
                    message.type is discord.MessageType.thread_created
                    and reference is not None
                    and reference.channel_id in threads
                ):
                    await message.delete()
        except discord.HTTPException:  # no Read Message History: the notices stay
            log.info("could not remove the thread notices in channel %d", channel_id)

    @staticmethod
    def _clock() -> float:
        return asyncio.get_running_loop().time()

    async def retry(self) -> None:
        """Open the pairings whose thread or game could not be opened before (each
        tournament at most every ``retry_after`` seconds)."""
        for tournament_id, due in list(self._retry.items()):
            view = self.manager.tournaments.view(tournament_id)
            if view is None:
                del self._retry[tournament_id]
                continue
            if view.status != "running" or due > self._clock():
                continue
            del self._retry[tournament_id]
            waiting = [p for p in view.current if p.state == "waiting" and p.second is not None]
            if waiting:
                async with self._lock(tournament_id):
                    await self._open_pairings(view, waiting, await self.names_of(view))

    def try_again(self, views: Iterable[TournamentView]) -> None:
        """Mark these tournaments (after a restart: every one running) to have their waiting
        pairings opened by the next :meth:`retry`."""
        for view in views:
            if any(p.state == "waiting" and p.second is not None for p in view.current):
                self._retry[view.tournament_id] = self._clock()

    # ------------------------------------------------------------------ standings

    async def _after_round(self, view: TournamentView, number: int) -> None:
        """The standings after round ``number`` (the bracket, in an elimination)."""
        setup, names = await self.setup(view)
        rules = rules_of(view)
        results = results_until(view, number)
        dropped = dropped_of(view)
        if rules.format is Format.SINGLE_ELIMINATION:
            pictures = await asyncio.to_thread(
                bracket_pictures, rules, results, names, dropped, name=setup.name
            )
            files = [
                discord.File(io.BytesIO(p.png), p.file_name, description=p.alt) for p in pictures
            ]
            after = round_name(number, view.total_rounds).lower()
            title = markdown_name(plain_name(view.settings.name))
            content = f"🏆 **{title}**: the bracket after the {after}."
            await self._post(view.channel_id, content, files=files)
            return
        lines = standings(rules, results)
        embed = standings_embed(
            setup,
            lines,
            names,
            after_round=number,
            total=view.total_rounds,
            dropped=dropped,
        )
        await self._post(view.channel_id, embed=to_discord(embed))

    async def _placings(self, view: TournamentView) -> None:
        setup, names = await self.setup(view)
        if view.placings:
            places: list[tuple[int, str]] = [(p.place, p.player) for p in view.placings]
        else:
            places = [(s.place, s.player) for s in view.standings]
        embed = placings_embed(setup, places, names)
        await self._post(view.channel_id, embed=to_discord(embed))

    # ------------------------------------------------------------------ posting

    async def _post(
        self,
        channel_id: int,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        files: Sequence[discord.File] = (),
    ) -> None:
        """A message that pings nobody (a failure is logged: the tournament goes on)."""
        try:
            await self.channel(channel_id).send(
                content,
                embed=embed or discord.utils.MISSING,
                files=list(files),
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException:
            log.warning("could not post a tournament message in channel %d", channel_id)
