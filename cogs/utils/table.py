"""The public side of a game in its channel: the live table message, the story, pings.

One live *table* message per game, kept up to date by editing: the board, whose turn, the count
and the story of the current deal, with the "Your hand" button. When a deal ends, that message
becomes the deal's record (its whole story and the show) and a fresh table is posted below it,
so the live table is always the newest message of the game. The end of the game posts the
result with a Rematch button. Everything here is public: it renders events and the public view
only, never a hand (but for each player's own open hand message, redrawn with their own view).

A click is shown in one pass: :meth:`Table.publish` takes the :class:`~bot.sessions.Outcome`,
which carries the public view, every player's private view and the server's settings, and the
seat names the cog looked up once; nothing is asked of the manager again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine import Dealt, Event, GameOver, Shown
from bot.render.embeds import game_embed, lobby_embed, result_embed
from bot.render.images import board_picture, shows_picture
from bot.render.matches import add_match_field, add_match_result
from bot.render.text import chunk, story_lines
from bot.render.timers import timeout_lines
from bot.sessions import GameSessionManager, GameStatus, GameView, Outcome
from cogs.utils.buttons import HandButton, LobbyButton, RematchButton, view_of
from cogs.utils.hand import PublicTable, hand_message
from cogs.utils.muggins import muggins_buttons, muggins_line
from cogs.utils.names import NameBook
from cogs.utils.open_hands import OpenHands
from cogs.utils.pictures import attachment

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)

Follower = Callable[[Outcome, Sequence[str]], Awaitable[None]]  # (outcome, seat names)
MessageAt = tuple[int, int]  # (channel id, message id)


@dataclass
class TableState:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    story: list[str] = field(default_factory=list)
    shows: list[Shown] = field(default_factory=list)
    scores_seen: tuple[int, ...] = ()
    back_pegs: list[int] = field(default_factory=list)  # each side's score before its last gain
    board_scores: tuple[int, ...] | None = None  # what the attached board image shows
    deal: int = 0
    pending: int = 0  # outcomes waiting for the lock: only the newest redraws the table
    published_step: int = -1
    table: MessageAt | None = None  # the live table message, once this process posted one
    ping: discord.Message | None = None
    pinged: tuple[int, ...] = ()


class Table:
    """Publishes what happens in games to their channels."""

    def __init__(self, bot: discord.Client, manager: GameSessionManager, names: NameBook) -> None:
        self.bot = bot
        self.manager = manager
        self.names = names
        self._tables: dict[int, TableState] = {}
        self.hands = OpenHands()  # each player's open hand, while its token may edit it
        # awaited with every outcome after the table shows it (the spectators' view, watch.py)
        self.followers: list[Follower] = []

    async def images_enabled(self, guild_id: int | None) -> bool:
        """Pictures of the board and the cards, unless the server turned them off (a click's
        outcome carries its server's settings: this is for the other answers)."""
        return (await self.manager.server_settings(guild_id)).images

    def state(self, game_id: int) -> TableState:
        return self._tables.setdefault(game_id, TableState())

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    # ------------------------------------------------------------------ the lobby

    async def lobby_payload(
        self, view: GameView, level: str = "standard", *, names: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """The lobby message (``names``: the seat names, if the caller has them already)."""
        if names is None:
            names = await self.names.seat_names(view)
        seats = [names[i] if view.seats[i] is not None else None for i in range(len(view.seats))]
        host = await self.names.name(view.host_id, view.guild_id)
        closed = view.status is not GameStatus.LOBBY
        buttons = [
            LobbyButton(view.game_id, verb, disabled=closed)
            for verb in ("join", "leave", f"cpu_{level}", "start", "cancel")
        ]
        embed = add_match_field(lobby_embed(view.variant, seats, host), view, names)
        if view.status is GameStatus.CANCELLED:
            embed.description = "This table was closed before the game began."
        elif closed:
            embed.description = "The game is on: the table is below."
            embed.set_footer(text=None)
        return {"embed": embed, "view": view_of(*buttons), "content": None}

    async def close_lobby(self, view: GameView) -> None:
        """Show a lobby as closed (cancelled, or abandoned because nobody started it)."""
        ref = view.messages.get("lobby")
        if ref is None:
            return
        payload = await self.lobby_payload(view)
        if view.status is GameStatus.ABANDONED:
            payload["embed"].description = "Nobody started this table, so it was closed."
        await self._edit(ref.channel_id, ref.message_id, **payload)

    # ------------------------------------------------------------------ the game

    async def table_payload(
        self,
        view: GameView,
        *,
        names: Sequence[str],
        images: bool,
        story: Sequence[str],
        new_message: bool = False,
    ) -> dict[str, Any]:
        """The live table. The board image is drawn and sent only when the scores it shows
        changed (or on a new message); otherwise the edit keeps the attached one."""
        st = self.state(view.game_id)
        public = PublicTable(view)
        embed = game_embed(public, names, story=story, board_image="board.png" if images else None)
        add_match_field(embed, view, names)
        files = []
        if images and (new_message or st.board_scores != tuple(view.scores)):
            board = board_picture(public, names, self._back_pegs(st, view))
            files.append(await attachment(board, "board.png"))
            st.board_scores = tuple(view.scores)
        waiting = [u for u in view.to_act_users]
        content = ""
        if view.status is GameStatus.ACTIVE and waiting:
            content = "Your move: " + " ".join(f"<@{u}>" for u in waiting)
        closes_at = self.manager.muggins_window_closes_at(view.game_id)
        if line := muggins_line(view, names, closes_at):  # muggins: an open claim (cogs/muggins)
            content = f"{content}\n{line}".strip()
        payload: dict[str, Any] = {
            "content": content or None,
            "embed": embed,
            "view": view_of(HandButton(view.game_id), *muggins_buttons(view)),
        }
        if files or not images:
            payload["attachments"] = files
        return payload

    @staticmethod
    def _back_pegs(st: TableState, view: GameView) -> list[int]:
        """Move a side's back peg to its old score whenever its front peg moves."""
        scores = tuple(view.scores)
        if len(st.scores_seen) != len(scores):
            st.scores_seen, st.back_pegs = scores, list(scores)
        for side, (old, new) in enumerate(zip(st.scores_seen, scores, strict=True)):
            if new != old:
                st.back_pegs[side] = old
        st.scores_seen = scores
        return list(st.back_pegs)

    async def publish(
        self, outcome: Outcome, *, actor: int | None = None, names: Sequence[str] | None = None
    ) -> None:
        """Show an outcome in the channel: story, table, deal records, result, pings, hands.

        ``names``: the seat names, when the caller looked them up already (else here, once).
        """
        view = outcome.view
        self.hands.expire()
        if not view.status.is_open:  # ended (or closed): no hand of it will be edited again
            self.hands.forget_game(view.game_id, view.user_ids)
        if view.phase is None:  # a lobby that never started was closed
            await self.close_lobby(view)
            return
        if names is None:
            names = await self.names.seat_names(view)
        images = outcome.settings.images
        st = self.state(view.game_id)
        st.pending += 1
        async with st.lock:
            st.pending -= 1
            if outcome.step < st.published_step:
                return  # a newer outcome of this game is already on the table
            st.published_step = outcome.step
            st.story += timeout_lines(outcome.timeouts, names)  # moves made for absent players
            batch: list[Event] = []  # events of the current deal, flushed at each new deal
            for step_event in outcome.events:
                event = step_event.event
                if isinstance(event, Dealt):
                    if st.story or batch:
                        await self._close_deal(view, names, images, batch, st)
                        batch = []
                    st.deal = event.number
                batch.append(event)
            st.story += story_lines(batch, names, view.variant)
            st.shows += [e for e in batch if isinstance(e, Shown)]
            over = next((e for e in batch if isinstance(e, GameOver)), None)
            if view.status is GameStatus.ACTIVE:
                if st.pending == 0:  # else a newer outcome is queued: it redraws the table
                    await self._edit_table(view, names, images, st)
                    await self._ping(view, st)
            else:
                try:
                    await self._finish(view, names, images, st, over, outcome)
                finally:  # the game's story is told: nothing of it stays in memory
                    self._tables.pop(view.game_id, None)
        await self.refresh_hands(outcome, names, skip=actor)
        for follower in self.followers:
            await follower(outcome, names)
        if outcome.next_game is not None:  # the next game of a match: its table goes below
            await self.publish(outcome.next_game)

    async def _close_deal(
        self,
        view: GameView,
        names: Sequence[str],
        images: bool,
        batch: list[Event],
        st: TableState,
    ) -> None:
        """Turn the live table into the record of the deal that just ended; post a new table."""
        st.story += story_lines(batch, names, view.variant)
        st.shows += [e for e in batch if isinstance(e, Shown)]
        old = self._table_message(view, st)
        record = await self._record_payload(names, images, st)
        st.story, st.shows = [], []
        if old is not None:
            await self._edit(*old, **record)
        await self.post_table(view, names, images=images)

    async def _record_payload(
        self, names: Sequence[str], images: bool, st: TableState
    ) -> dict[str, Any]:
        pages = chunk(st.story, limit=4000)
        embed = discord.Embed(
            title=f"Deal {st.deal} — the story" if st.deal else "The cut for the deal",
            description=pages[-1] if pages else "",
            colour=discord.Colour.dark_green(),
        )
        files = []
        if st.shows and images:
            files.append(await attachment(shows_picture(st.shows, names), "show.png"))
            embed.set_image(url="attachment://show.png")
        return {"content": None, "embed": embed, "view": None, "attachments": files}

    async def post_table(self, view: GameView, names: Sequence[str], *, images: bool) -> None:
        """Post a fresh live table (the old one, if any, keeps what it shows but loses buttons)."""
        st = self.state(view.game_id)
        payload = await self.table_payload(
            view, names=names, images=images, story=st.story, new_message=True
        )
        files = payload.pop("attachments")
        message = await self.channel(view.channel_id).send(
            files=files, allowed_mentions=PING_USERS, **payload
        )
        st.table = (view.channel_id, message.id)
        await self.manager.set_message(view.game_id, "table", view.channel_id, message.id)

    async def move_table(self, view: GameView) -> None:
        """Re-post the live table at the bottom of the channel (``/cribbage board``)."""
        old = self._table_message(view, self.state(view.game_id))
        names = await self.names.seat_names(view)
        await self.post_table(view, names, images=await self.images_enabled(view.guild_id))
        if old is not None:
            await self._edit(*old, view=None)

    def _table_message(self, view: GameView, st: TableState) -> MessageAt | None:
        """Where the live table is: as this process last posted it, else as the game says
        (the view of an outcome may be older than the newest table)."""
        if st.table is not None:
            return st.table
        ref = view.messages.get("table")
        return None if ref is None else (ref.channel_id, ref.message_id)

    async def _edit_table(
        self, view: GameView, names: Sequence[str], images: bool, st: TableState
    ) -> None:
        where = self._table_message(view, st)
        if where is None:
            await self.post_table(view, names, images=images)
            return
        payload = await self.table_payload(view, names=names, images=images, story=st.story)
        if not await self._edit(*where, **payload):
            await self.post_table(view, names, images=images)

    async def _finish(
        self,
        view: GameView,
        names: Sequence[str],
        images: bool,
        st: TableState,
        over: GameOver | None,
        outcome: Outcome,
    ) -> None:
        where = self._table_message(view, st)
        if where is not None:
            record = await self._record_payload(names, images, st)
            await self._edit(*where, **record)
        await self._clear_ping(st)
        if view.status is GameStatus.FINISHED and over is not None:
            embed = result_embed(over, names, view.variant, image="board.png" if images else None)
        else:
            embed = discord.Embed(
                title="Game over",
                description=self._ending_text(view, names, outcome),
                colour=discord.Colour.dark_grey(),
            )
        files = []
        if images:
            board = board_picture(PublicTable(view), names, self._back_pegs(st, view))
            files.append(await attachment(board, "board.png"))
        add_match_result(embed, view, names)
        match_over = view.match is None or view.match.over  # else its next game starts now
        rematch: dict[str, Any] = {}  # the Rematch button, when there is a rematch to offer
        if view.user_ids and match_over:
            rematch["view"] = view_of(RematchButton(view.game_id))
        await self.channel(view.channel_id).send(
            embed=embed, files=files, allowed_mentions=NO_PINGS, **rematch
        )

    @staticmethod
    def _ending_text(view: GameView, names: Sequence[str], outcome: Outcome) -> str:
        finished = outcome.finished
        scores = " – ".join(str(s) for s in view.scores)
        if finished and finished.reason == "forfeit" and finished.forfeit_seat is not None:
            return f"**{names[finished.forfeit_seat]}** forfeited. Final scores {scores}."
        if finished and finished.reason == "abandoned":
            return f"The game was abandoned after a long wait. Scores {scores}."
        return f"The game ended. Scores {scores}."

    # ------------------------------------------------------------------ pings and hands

    async def _ping(self, view: GameView, st: TableState) -> None:
        """Ping the players who must act and have no fresh hand open; clear stale pings."""
        waiting = tuple(u for u in view.to_act_users if not self.hands.fresh(view.game_id, u))
        if waiting == st.pinged:
            return
        await self._clear_ping(st)
        st.pinged = waiting
        if not waiting:
            return
        mentions = " ".join(f"<@{u}>" for u in waiting)
        message = await self.channel(view.channel_id).send(
            f"{mentions} — your move in the cribbage game: click **Your hand** on the table.",
            allowed_mentions=PING_USERS,
        )
        st.ping = message

    async def _clear_ping(self, st: TableState) -> None:
        if st.ping is not None:
            with contextlib.suppress(discord.HTTPException):
                await st.ping.delete()
            st.ping, st.pinged = None, ()

    def remember_hand(
        self, game_id: int, user_id: int, interaction: discord.Interaction, picture: str | None
    ) -> None:
        self.hands.remember(game_id, user_id, interaction, picture)

    async def refresh_hands(
        self, outcome: Outcome, names: Sequence[str], *, skip: int | None = None
    ) -> None:
        """Edit every other player's open hand so it shows the game as the outcome left it."""
        view = outcome.view
        for user_id in view.user_ids:
            if user_id == skip:
                continue
            hand = self.hands.get(view.game_id, user_id)
            if hand is None:
                continue
            private = outcome.hands.get(user_id)
            if not hand.fresh(self.hands.clock()) or private is None or not view.status.is_open:
                self.hands.drop(view.game_id, user_id)  # too old to edit, or the game ended
                continue
            if outcome.step < hand.step:
                continue  # a newer outcome has redrawn it already
            shown = (private.phase, private.must_act, private.step if private.must_act else 0)
            if shown == hand.shown:
                continue  # nothing this player must know has changed
            hand.shown, hand.step = shown, outcome.step
            message = hand_message(view, private, names, images=outcome.settings.images)
            try:
                await hand.interaction.edit_original_response(**await message.edit(hand.picture))
                hand.picture = message.filename
            except discord.HTTPException:
                log.info("game %d: could not refresh a player's hand", view.game_id)
                self.hands.drop(view.game_id, user_id)

    # ------------------------------------------------------------------ plumbing

    async def _edit(self, channel_id: int, message_id: int, **fields: Any) -> bool:
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            await message.edit(allowed_mentions=NO_PINGS, **fields)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            log.warning("Could not edit message %d", message_id, exc_info=True)
            return False
        return True
