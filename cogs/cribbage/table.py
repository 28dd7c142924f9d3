"""The public side of a game in its channel: the live table message and the deal records.

One live *table* message per game, kept up to date by editing: the board, whose turn, the count
and the story of the current deal, with the "Your hand" button. When a deal has been shown, that
message becomes the deal's record (:mod:`cogs.cribbage.records`: its whole story, the scores, the
show). With a pause between deals the record waits there with **Next deal** and stays the newest
message of the game until the deal starts; then it loses its buttons and the new table is posted
below it (once: everything it shows is drawn before it is sent). The end of the game posts the
result with a Rematch button.

A publish goes in this order: the table (edited, or posted); then the hands, edited
(``hands.refresh``), and the pings for the people the game waits for who cannot be reached
otherwise (:mod:`cogs.cribbage.pings`). When a deal started: the new table, the pings for those
already known unreachable (so that a ping lands between the table and the hands, never below a
hand), each person's new hand as a fresh private message below the table (``hands.deal``), then
a ping for anyone it could not reach. Names in the table's text are ``<@id>`` sent with no
allowed mentions: they notify nobody.

A click is shown in one pass: :meth:`Table.publish` takes the :class:`~bot.sessions.Outcome`,
which carries the public view, every player's private view, the players' and the server's
settings, and the seat names the cog looked up once; nothing is asked of the manager again.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine import Dealt, Event, GameOver, Phase
from bot.render.embeds import Embed, game_embed
from bot.render.images import board_alt, board_picture, show_events
from bot.render.matches import add_match_field, add_match_result
from bot.render.text import tell
from bot.render.timers import timeout_lines
from bot.sessions import GameSessionManager, GameStatus, GameView, Outcome
from cogs.cribbage.buttons import DealCutButton, HandButton, RematchButton
from cogs.cribbage.courier import Courier, Shown
from cogs.cribbage.delivery import HandPost
from cogs.cribbage.hand import PublicTable, game_over_text
from cogs.cribbage.lobby import lobby_payload
from cogs.cribbage.muggins import muggins_buttons, muggins_line, owing
from cogs.cribbage.open_hands import OpenHand
from cogs.cribbage.pings import NO_PINGS, Pinger, mentions
from cogs.cribbage.records import Pause, ending_text, pause_fields, record_payload
from cogs.cribbage.replays import after_game_buttons, final_result
from cogs.utils.items import view_of
from cogs.utils.names import NameBook
from cogs.utils.payloads import to_discord
from cogs.utils.pictures import attachment

log = logging.getLogger(__name__)

Follower = Callable[[Outcome, Sequence[str]], Awaitable[None]]  # (outcome, seat names)
MessageAt = tuple[int, int]  # (channel id, message id)


class Stage(enum.Enum):
    """What the game's newest message is, as :class:`TableState` knows it.

    ======== ============================================= ====================================
    stage    the newest message                            the next draw
    ======== ============================================= ====================================
    TABLE    the live table                                edits it
    WAITING  the deal's record, with Next deal, waiting    edits it (the show picture it shows
             for the next deal (a pause between deals)     is kept, not sent again)
    RECORDED the deal's record, final (its buttons gone)   posts a new table below it
    ======== ============================================= ====================================

    In TABLE and WAITING the message is at ``TableState.table`` when this process posted it,
    else where the game's record says (``view.messages["table"]``: after a restart). Every
    stage may follow every other: a deal closes from a table or a waiting record
    (:meth:`TableState.deal_closed`), a post makes a table or a waiting record
    (:meth:`TableState.posted`), and a table becomes the waiting record in place
    (:meth:`TableState.waits`).
    """

    TABLE = "table"
    WAITING = "waiting"
    RECORDED = "recorded"


@dataclass
class TableState:
    """What the table knows of one game: its newest message (:class:`Stage`), the story of the
    deal being told, what the board shows, and the order of the outcomes being published."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    story: list[str] = field(default_factory=list)
    shows: list[Event] = field(default_factory=list)
    scores_seen: tuple[int, ...] = ()
    back_pegs: list[int] = field(default_factory=list)  # each side's score before its last gain
    board_scores: tuple[int, ...] | None = None  # what the attached board image shows
    deal: int = -1  # the deal told in ``story`` (0: the cut for the deal; -1: not known yet)
    pending: int = 0  # outcomes waiting for the lock: only the newest redraws the table
    published_step: int = -1
    stage: Stage = Stage.TABLE
    table: MessageAt | None = None  # the newest message this process posted, if any
    hands_due: bool = False  # a deal started: its hands are still to be sent (hands.deal)
    via: discord.Interaction | None = None  # the click being published: it may post a table

    @property
    def waiting(self) -> bool:
        """Whether the newest message is the deal's record waiting for the next deal."""
        return self.stage is Stage.WAITING

    def live_message(self, view: GameView) -> MessageAt | None:
        """The message a draw edits: the table or the waiting record (None once RECORDED: a
        draw then posts). Where this process last posted it, else as the game says (the view
        of an outcome may be older than the newest table)."""
        if self.stage is Stage.RECORDED:
            return None
        if self.table is not None:
            return self.table
        ref = view.messages.get("table")
        return None if ref is None else (ref.channel_id, ref.message_id)

    def posted(self, at: MessageAt, stage: Stage) -> None:
        """A new newest message was posted at ``at``: a table, or the waiting record."""
        self.table, self.stage = at, stage

    def waits(self) -> None:
        """The newest message (edited, or just posted) is the record waiting for the deal."""
        self.stage = Stage.WAITING

    def deal_closed(self) -> None:
        """The deal's record is final: its story is done, and the next draw posts a table."""
        self.story, self.shows = [], []
        self.stage = Stage.RECORDED

    def deal_started(self, number: int) -> None:
        """Deal ``number`` began: its story is told from here, and its hands are due."""
        self.deal, self.hands_due = number, True

    def take_hands_due(self) -> bool:
        """Whether a new deal's hands are still to be sent (once: the caller sends them)."""
        due, self.hands_due = self.hands_due, False
        return due


class Table:
    """Publishes what happens in games to their channels."""

    def __init__(self, bot: discord.Client, manager: GameSessionManager, names: NameBook) -> None:
        self.bot = bot
        self.manager = manager
        self.names = names
        self._tables: dict[int, TableState] = {}
        self.shown = Shown()  # what each live table shows: no request for a redraw the same
        self.hands = HandPost(manager, names)  # each person's hand: delivery.py
        self.courier = Courier()  # tables sent and edited through tokens: courier.py
        self.pings = Pinger(bot, self.hands)
        # awaited with every outcome after the table shows it (the spectators' view, watch.py)
        self.followers: list[Follower] = []

    async def images_enabled(self, guild_id: int | None) -> bool:
        """Pictures of the board and the cards, unless the server turned them off (a click's
        outcome carries its server's settings: this is for the other answers)."""
        return (await self.manager.settings.server(guild_id)).images

    @property
    def games(self) -> frozenset[int]:
        """The games this table keeps a state for (their story, their live message): a game
        leaves once it ended and its last outcome was shown."""
        return frozenset(self._tables)

    def state(self, game_id: int) -> TableState:
        return self._tables.setdefault(game_id, TableState())

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def close_lobby(self, view: GameView) -> None:
        """Show a lobby as closed (cancelled, or abandoned because nobody started it)."""
        ref = view.messages.get("lobby")
        if ref is None:
            return
        payload = await lobby_payload(self.names, view)
        if view.status is GameStatus.ABANDONED:
            payload["embed"].description = "Nobody started this table, so it was closed."
        await self._edit(ref.channel_id, ref.message_id, **payload)

    # ------------------------------------------------------------------ the live table

    async def table_payload(
        self,
        view: GameView,
        *,
        names: Sequence[str],
        images: bool,
        story: Sequence[str],
        new_message: bool = False,
    ) -> dict[str, Any]:
        """The live table. The board picture is drawn and sent with each new table (a deal's
        table is a new message: the board as the deal begins, its back pegs where each side
        stood a deal before) and kept by every edit of it: what is pegged during the deal is
        in the table's text (the scores in words, the story), and the text says the picture is
        the deal's start once they differ. So a deal uploads its board about once, and the
        picture does not reload in the players' clients at each peg."""
        st = self.state(view.game_id)
        public = PublicTable(view)
        embed = game_embed(public, names, story=story, board_image="board.png" if images else None)
        embed = add_match_field(embed, view, names)
        files = []
        scores = tuple(view.scores)
        if images and (new_message or st.board_scores is None):
            back_pegs = self._back_pegs(st, view)
            board = board_picture(public, names, back_pegs)
            alt = board_alt(public, names, back_pegs)
            files.append(await attachment(board, "board.png", description=alt))
            st.board_scores = scores
        elif not images:  # the edit removes the picture: turned back on, it is sent again
            st.board_scores = None
        shown = to_discord(embed)
        if images and st.board_scores != scores and shown.description:
            shown.description += "\n-# The board shows the scores as this deal began."
        content = ""
        waiting = owing(view)  # named, never notified: the table is sent with no mentions
        if view.status is GameStatus.ACTIVE and waiting:
            content = f"Your move: {mentions(waiting)}"
        closes_at = self.manager.muggins.closes_at(view.game_id)
        if line := muggins_line(view, names, closes_at):  # muggins: an open claim (cogs/muggins)
            content = f"{content}\n{line}".strip()
        payload: dict[str, Any] = {
            "content": content or None,
            "embed": shown,
            "view": view_of(*self._table_buttons(view)),
        }
        if files or not images:
            payload["attachments"] = files
        return payload

    @staticmethod
    def _table_buttons(view: GameView) -> list[discord.ui.Item[Any]]:
        """Your hand; Cut while the people cut for the deal (on the table, where everyone
        sees it); the muggins answers while a claim is open."""
        cut = [DealCutButton(view.game_id)] if view.phase is Phase.CUT_FOR_DEAL else []
        return [HandButton(view.game_id), *cut, *muggins_buttons(view)]

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
        self,
        outcome: Outcome,
        *,
        actor: int | None = None,
        names: Sequence[str] | None = None,
        via: discord.Interaction | None = None,
    ) -> None:
        """Show an outcome: story, table or record, result; then pings and hands.

        ``names``: the seat names, when the caller looked them up already (else here, once).
        ``via``: the click that made the outcome (answered already): a table it starts is
        posted as its follow-up, which its token can then edit (:mod:`cogs.cribbage.courier`).
        """
        view = outcome.view
        if view.phase is None:  # a lobby that never started was closed
            self.hands.forget_game(view.game_id, view.user_ids)
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
            if via is not None:
                self.courier.clicked(via)
            st.via = self.courier.poster(view.channel_id)
            try:
                over = await self._tell(outcome, names, images, st)
                if view.status is GameStatus.ACTIVE and st.pending == 0:
                    # (else a newer outcome is queued: it draws the newest state)
                    await self._draw(view, names, images, st)
                    await self._deliver(outcome, names, st, actor)
            finally:
                st.via = None
            if view.status is not GameStatus.ACTIVE:
                try:
                    await self._finish(view, names, images, st, over, outcome)
                finally:  # the game's story is told: nothing of it stays in memory
                    self._tables.pop(view.game_id, None)
                    self.pings.forget(view.game_id)
                    self.courier.forget_channel(view.channel_id)
                await self._close_hands(view, names, skip=actor)
                await self.hands.refresh(outcome, names, skip=actor)  # forgets the game's hands
        for follower in self.followers:
            await follower(outcome, names)
        if outcome.next_game is not None:  # the next game of a match: its table goes below
            await self.publish(outcome.next_game)

    async def _tell(
        self, outcome: Outcome, names: Sequence[str], images: bool, st: TableState
    ) -> GameOver | None:
        """Add the outcome's events to the story; a new deal turns the old one into its
        record. Returns the game's end, if the outcome ended it."""
        view = outcome.view
        if st.deal < 0:  # the first outcome this process shows of the game
            dealt = [e.event.number for e in outcome.events if isinstance(e.event, Dealt)]
            st.deal = dealt[0] - 1 if dealt else view.deal_number
        batch: list[Event] = []  # events of the current deal, flushed at each new deal
        for step_event in outcome.events:
            event = step_event.event
            if isinstance(event, Dealt):
                if st.story or batch:
                    await self._close_deal(view, names, images, batch, st)
                    batch = []
                st.deal_started(event.number)
            batch.append(event)
        tell(st.story, batch, names, view.variant)
        st.shows += show_events(batch)
        return next((e for e in batch if isinstance(e, GameOver)), None)

    async def _close_deal(
        self,
        view: GameView,
        names: Sequence[str],
        images: bool,
        batch: list[Event],
        st: TableState,
    ) -> None:
        """The live table (or the record waiting for this deal) becomes the record of the deal
        that just ended, without buttons; the next draw posts a new table below it."""
        tell(st.story, batch, names, view.variant)
        st.shows += show_events(batch)
        old = st.live_message(view)
        record = await self._record(view, names, images, st, kept=st.waiting and old is not None)
        if old is None or not await self._edit(*old, **record):  # none to turn into it (rare)
            record = await self._record(view, names, images, st, new=True)
            await self._post(view, record, Stage.RECORDED)
        st.deal_closed()

    async def _record(
        self,
        view: GameView,
        names: Sequence[str],
        images: bool,
        st: TableState,
        *,
        pause: Pause | None = None,
        kept: bool = False,
        new: bool = False,
    ) -> dict[str, Any]:
        """The record of the deal told in ``st`` (``kept``: its message already shows the show
        picture, which the edit keeps instead of sending it again; ``new``: for a new message).
        When this process has told nothing of the deal (it started since), an edit keeps what
        the message shows and changes only its note and buttons."""
        if not (st.story or st.shows or new):
            return pause_fields(pause)
        record = await record_payload(
            names,
            images and not kept,
            deal=st.deal,
            story=st.story,
            shows=st.shows,
            scores=tuple(view.scores),
            variant=view.variant,
            pause=pause,
        )
        if kept and images:
            del record["attachments"]
            if st.shows:
                record["embed"].set_image(url="attachment://show.png")
        return record

    async def _draw(
        self, view: GameView, names: Sequence[str], images: bool, st: TableState
    ) -> None:
        """Bring the game's newest message up to date: the table, or the waiting record."""
        if view.phase is Phase.NEXT_DEAL:
            await self._hold(view, names, images, st)
            return
        where = st.live_message(view)
        if where is not None:
            payload = await self.table_payload(view, names=names, images=images, story=st.story)
            if self.shown.unchanged(where, payload):
                return  # the message shows exactly this already: no request
            before = self.shown.get(where)
            if await self._edit(*where, **payload):
                self.shown.drew(where, payload, before)
                return
        await self.post_table(view, names, images=images)

    def _pause(self, view: GameView) -> Pause:
        ends_at = self.manager.deals.due_at(view.game_id)
        return Pause(view.game_id, ends_at, tuple(view.to_act_users))

    async def _hold(
        self, view: GameView, names: Sequence[str], images: bool, st: TableState
    ) -> None:
        """A show entered the pause before the next deal: the live table becomes the deal's
        record, with **Next deal**, and waits there (the newest message of the game)."""
        pause = self._pause(view)
        record = await self._record(view, names, images, st, pause=pause, kept=st.waiting)
        where = st.live_message(view)
        if where is None or not await self._edit(*where, **record):
            record = await self._record(view, names, images, st, pause=pause, new=True)
            await self._post(view, record, Stage.WAITING)
        st.waits()

    async def _deliver(
        self, outcome: Outcome, names: Sequence[str], st: TableState, actor: int | None
    ) -> None:
        """After the table: pings for those known unreachable, the hands, pings for those the
        new deal's hands could not reach (each person pinged once a deal at most)."""
        if st.take_hands_due():
            await self.pings.after(outcome, table=st.table)
            missed = await self.hands.deal(outcome, names)
            await self.pings.after(outcome, among=missed, table=st.table)
        else:
            await self.hands.refresh(outcome, names, skip=actor)
            await self.pings.after(outcome, table=st.table)

    async def post_table(self, view: GameView, names: Sequence[str], *, images: bool) -> None:
        """Post a fresh live table (the old one, if any, keeps what it shows but loses buttons)."""
        st = self.state(view.game_id)
        payload = await self.table_payload(
            view, names=names, images=images, story=st.story, new_message=True
        )
        await self._post(view, payload, Stage.TABLE)

    async def _post(self, view: GameView, payload: dict[str, Any], stage: Stage) -> None:
        """Send ``payload`` as the game's newest message: a table, or a record (``stage``)."""
        st = self.state(view.game_id)
        if st.table is not None:
            self.shown.forget(st.table)
        fields = {key: value for key, value in payload.items() if value is not None}
        fields["files"] = fields.pop("attachments", [])
        message: discord.Message | discord.WebhookMessage
        if st.via is not None:  # the click's follow-up: its token edits the table from now on
            message = await self.courier.post(st.via, allowed_mentions=NO_PINGS, **fields)
        else:
            message = await self.channel(view.channel_id).send(allowed_mentions=NO_PINGS, **fields)
        st.posted((view.channel_id, message.id), stage)
        await self.manager.records.set_message(view.game_id, "table", view.channel_id, message.id)

    async def move_table(self, view: GameView) -> None:
        """Re-post the live table (or the waiting record) at the bottom (``/cribbage board``)."""
        st = self.state(view.game_id)
        names = await self.names.seat_names(view)
        images = await self.images_enabled(view.guild_id)
        async with st.lock:
            old = st.live_message(view)
            if view.phase is Phase.NEXT_DEAL:
                pause = self._pause(view)
                record = await self._record(view, names, images, st, pause=pause, new=True)
                await self._post(view, record, Stage.WAITING)
            else:
                await self.post_table(view, names, images=images)
            if old is not None:
                await self._edit(*old, content=None, view=None)

    # ------------------------------------------------------------------ the end

    async def _finish(
        self,
        view: GameView,
        names: Sequence[str],
        images: bool,
        st: TableState,
        over: GameOver | None,
        outcome: Outcome,
    ) -> None:
        """The last deal's record, then the result (with Rematch when the match is over)."""
        where = st.live_message(view)
        if where is not None:
            record = await self._record(view, names, images, st, kept=st.waiting)
            await self._edit(*where, **record)
        if view.status is GameStatus.FINISHED and over is not None:
            embed = await final_result(self.manager, over, names, view, images)
        else:
            embed = Embed(
                title="Game over",
                description=ending_text(view, names, outcome),
                colour=discord.Colour.dark_grey().value,
            )
        files = []
        if images:
            public, back_pegs = PublicTable(view), self._back_pegs(st, view)
            board = board_picture(public, names, back_pegs)
            alt = board_alt(public, names, back_pegs)
            files.append(await attachment(board, "board.png", description=alt))
        embed = add_match_result(embed, view, names)
        match_over = view.match is None or view.match.over  # else its next game starts now
        rematch: dict[str, Any] = {}  # the Rematch button, when there is a rematch to offer
        if view.user_ids and match_over:
            buttons = after_game_buttons(view.game_id, over is not None)
            if self.manager.tournaments.is_pairing_game(view.game_id):  # its pairing decides
                buttons = [b for b in buttons if not isinstance(b, RematchButton)]
            rematch["view"] = view_of(*buttons) if buttons else None
        await self.channel(view.channel_id).send(
            embed=to_discord(embed), files=files, allowed_mentions=NO_PINGS, **rematch
        )

    async def _close_hands(self, view: GameView, names: Sequence[str], *, skip: int | None) -> None:
        """The game ended: every open hand (but ``skip``'s, the clicker's: their click closed
        it) says so, with the result, and loses its cards and buttons; else the people who
        did not make the last move would still see a hand from the middle of the play."""

        async def close(hand: OpenHand) -> None:
            in_thread = isinstance(hand.interaction.channel, discord.Thread)
            text = game_over_text(in_thread, view, names)
            try:
                await hand.edit(content=text, view=None, attachments=[])
            except discord.HTTPException:
                log.info("game %d: could not close a player's hand", view.game_id)

        now = self.hands.clock()
        hands = [self.hands.get(view.game_id, user_id) for user_id in view.user_ids]
        await asyncio.gather(
            *(
                close(hand)
                for user_id, hand in zip(view.user_ids, hands, strict=True)
                if user_id != skip and hand is not None and hand.fresh(now)
            )
        )

    # ------------------------------------------------------------------ plumbing

    async def _edit(self, channel_id: int, message_id: int, **fields: Any) -> bool:
        """Edit a message of the game: through a token it belongs to if one is known, else
        with the bot token. False when it is gone or could not be edited."""
        self.shown.forget((channel_id, message_id))  # ``_draw`` notes it again after
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            if not await self.courier.edit(
                (channel_id, message_id), allowed_mentions=NO_PINGS, **fields
            ):
                await message.edit(allowed_mentions=NO_PINGS, **fields)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            log.warning("Could not edit message %d", message_id, exc_info=True)
            return False
        return True
