"""A thread per game: the channel keeps one line per game, the table and the hands live in a
thread of their own.

When a lobby's game starts and the server's ``threads`` setting is on (the default), the lobby
message opens a public thread named for the game (Discord: "Start Thread from Message"), the
game moves into it (``manager.tables.move``), and the table, the hands' answers, the pings and the
result all go there. The lobby message in the channel becomes the game's one line: who plays and
a link to the thread, and at the end the result. Discord also drops a "started a thread" notice
in the channel; it is removed, so that the line stays one.

Where that cannot be -- the lobby is in a thread already, or the bot lacks **Create Public
Threads** or **Send Messages in Threads** in the channel -- the game plays in the channel as
before and the lobby says why in one line.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import discord

from bot.render.story import result_words, scores_words
from bot.sessions import GameStatus, GameView, Outcome, Refusal
from cogs.utils.names import markdown_name, plain_name

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager
    from cogs.cribbage.table import Table

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
# an idle thread leaves the channel list after a day (Discord: 60, 1440, 4320 or 10080)
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440
MAX_THREAD_NAME = 100  # Discord: a thread's name is 1-100 characters
# What the bot needs for a thread per game, on top of what it needs to play in a channel
THREAD_PERMISSIONS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
# What the invite link asks for: View Channel, Send Messages, Embed Links, Attach Files, Read
# Message History (the game in a channel) plus the thread permissions (README, "Installation")
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
IN_A_THREAD = "This channel is a thread already, so the game plays right here."
ELSEWHERE = "Games get a thread only in text channels, so this one plays right here."
NOT_ALLOWED = (
    "No thread for this game: I need **Create Public Threads** and **Send Messages in "
    "Threads** in this channel, so it plays right here."
)


def players_text(view: GameView, names: Sequence[str]) -> str:
    """Who plays: "alice vs bob", "alice & carol vs bob & dave", "alice, bob and carol"
    (``names`` as the text needs them: :func:`markdown_name` or :func:`plain_name`)."""
    seated = [names[i] for i in range(len(view.seats))]
    if view.variant.partnerships:
        teams = [" & ".join(seated[s] for s in view.variant.seats_of(side)) for side in (0, 1)]
        return " vs ".join(teams)
    if len(seated) == 2:
        return " vs ".join(seated)
    return ", ".join(seated[:-1]) + " and " + seated[-1]


def thread_name(view: GameView, names: Sequence[str]) -> str:
    """The thread's name: the players, cut to Discord's 100 characters (a channel's name is
    plain text: no markdown to escape, no mention forms in it)."""
    name = f"Cribbage · {players_text(view, [plain_name(n) for n in names])}"
    return name if len(name) <= MAX_THREAD_NAME else name[: MAX_THREAD_NAME - 1] + "…"


def side_names(view: GameView, names: Sequence[str], sides: Sequence[int]) -> str:
    """The players of these sides: "alice", "alice & carol" (``names`` as written)."""
    seats = sorted(s for side in sides for s in view.variant.seats_of(side))
    return " & ".join(names[s] for s in seats)


def result_text(outcome: Outcome, names: Sequence[str]) -> str:
    """How a game (or, at its end, a match) ended, in a few words, for its line (markdown:
    each name through :func:`markdown_name`)."""
    names = [markdown_name(name) for name in names]
    view, finished = outcome.view, outcome.finished
    match = view.match
    if match is not None:
        wins = "–".join(str(w) for w in match.wins)
        if not match.over:
            return f"best of {match.best_of}, {wins} after game {match.game_number}: playing"
        if match.winner_side is not None:
            winners = side_names(view, names, [match.winner_side])
            return f"**{winners}** won the best of {match.best_of}, {wins}"
    labels = [side_names(view, names, [side]) for side in range(len(view.scores))]
    scores = scores_words(labels, view.scores)  # "alice 4, bob 13": whose score is whose
    if finished is None:
        return f"the game ended ({scores})"
    if finished.reason == "forfeit" and finished.forfeit_seat is not None:
        return f"**{names[finished.forfeit_seat]}** forfeited ({scores})"
    if finished.reason == "abandoned":
        return f"abandoned ({scores})"
    if finished.reason == "won" and len(finished.winner_sides) == 1:
        # the winner's score first, then every other side's: as the thread's result says it
        return result_words(labels, view.scores, finished.winner_sides[0])
    if finished.reason == "won":
        return f"**{side_names(view, names, finished.winner_sides)}** won ({scores})"
    if finished.forfeit_seat is not None:  # "aborted": a forfeit before the first show
        return f"**{names[finished.forfeit_seat]}** left before the first show: not rated"
    return f"ended before the first show: not rated ({scores})"


def game_line(view: GameView, names: Sequence[str], thread_id: int, ending: str | None) -> str:
    """The game's one line in the channel: who plays, where, and at the end how it ended
    (``ending``: :func:`result_text`)."""
    where = f"<#{thread_id}>"
    players = players_text(view, [markdown_name(name) for name in names])
    if ending is None:
        return f"🃏 {players} — playing in {where}"
    return f"🃏 {players} — {ending} · {where}"


class GameThreads:
    """Opens a game's thread when its lobby starts it; keeps the channel's line up to date."""

    def __init__(self, manager: GameSessionManager, table: Table) -> None:
        self.manager = manager
        self.table = table
        # thread id -> the lobby message (channel id, message id) that holds its line (the
        # games after the first, a match's or a rematch, have no lobby message of their own);
        # kept while the thread's game or match plays, dropped once its line is final
        self._lines: dict[int, tuple[int, int]] = {}

    @property
    def lines_kept(self) -> int:
        """How many threads' lines are remembered now (one per game or match playing)."""
        return len(self._lines)

    def _line_of(self, view: GameView) -> tuple[int, int] | None:
        """Where the line of the game's thread is, if the game plays in a thread it opened
        (a thread started from a message shares the message's id: after a restart too)."""
        known = self._lines.get(view.channel_id)
        if known is not None:
            return known
        lobby = view.messages.get("lobby")
        if lobby is not None and lobby.message_id == view.channel_id != lobby.channel_id:
            self._lines[view.channel_id] = (lobby.channel_id, lobby.message_id)
            return self._lines[view.channel_id]
        return None

    @staticmethod
    def why_not(interaction: discord.Interaction) -> str | None:
        """Why this game cannot have a thread here (None: it can)."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            return IN_A_THREAD
        if not isinstance(channel, discord.TextChannel):
            return ELSEWHERE
        if not interaction.app_permissions >= THREAD_PERMISSIONS:
            return NOT_ALLOWED
        return None

    async def open(
        self, interaction: discord.Interaction, outcome: Outcome, names: Sequence[str]
    ) -> Outcome:
        """The game of ``outcome`` just started from its lobby (the clicked message): open its
        thread and move it there if the server wants threads and the bot may; returns the
        outcome to publish (its view in the thread, or unchanged)."""
        view = outcome.view
        lobby = view.messages.get("lobby")
        if not outcome.settings.threads or lobby is None or view.status is not GameStatus.ACTIVE:
            return outcome
        if self._line_of(view) is not None or await self._own_thread(view.channel_id, view.game_id):
            # a rematch in a game's own thread: it plays there
            await self._edit_line(view.channel_id, game_line(view, names, view.channel_id, None))
            return outcome
        why = self.why_not(interaction)
        if why is None and interaction.channel_id != lobby.channel_id:
            why = IN_A_THREAD  # the lobby is not where it was clicked: leave it be
        if why is not None:
            await self._note(view, why)
            return outcome
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)  # why_not: a text channel, the lobby's
        message = channel.get_partial_message(lobby.message_id)
        try:
            thread = await message.create_thread(
                name=thread_name(view, names), auto_archive_duration=ARCHIVE_AFTER_MINUTES
            )
        except discord.HTTPException as exc:  # permissions changed meanwhile, or Discord said no
            log.info("game %d: no thread (%s); playing in the channel", view.game_id, exc)
            await self._note(view, NOT_ALLOWED)
            return outcome
        moved = await self.manager.tables.move(view.game_id, thread.id)
        if isinstance(moved, Refusal):
            log.warning("game %d: could not move to its thread: %s", view.game_id, moved.message)
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            return outcome
        self._lines[thread.id] = (lobby.channel_id, lobby.message_id)
        await self._edit_line(thread.id, game_line(moved, names, thread.id, None))
        await self._drop_notice(lobby.channel_id, lobby.message_id, thread.id)
        return dataclasses.replace(outcome, view=moved)

    async def follow(self, outcome: Outcome, names: Sequence[str]) -> None:
        """After every outcome (a table follower): when a game in its own thread ends, its line
        in the channel tells how."""
        view = outcome.view
        if view.status.is_open or view.phase is None:
            return
        if self._line_of(view) is None and not await self._own_thread(
            view.channel_id, view.game_id
        ):
            return
        ending = result_text(outcome, names)
        await self._edit_line(view.channel_id, game_line(view, names, view.channel_id, ending))
        if outcome.next_game is None and (view.match is None or view.match.over):
            # the line is final (a rematch finds it again from the thread: _own_thread)
            self._lines.pop(view.channel_id, None)

    async def _own_thread(self, channel_id: int, game_id: int) -> bool:
        """Whether ``channel_id``, where ``game_id`` is played, is a thread the bot opened from
        a lobby message of its own (a thread started from a message shares the message's id);
        if so its line is remembered again (a rematch there, after the line of the game before
        was let go). A tournament pairing's thread was started from no message: it is not
        looked up (the lookup would be a 404 for every game of every pairing)."""
        if self.manager.tournaments.is_pairing_game(game_id):
            return False
        bot = self.table.bot
        thread, me = bot.get_channel(channel_id), bot.user
        if not isinstance(thread, discord.Thread) or me is None or thread.owner_id != me.id:
            return False
        parent = thread.parent
        if not isinstance(parent, discord.TextChannel):
            return False
        try:
            starter = await parent.fetch_message(thread.id)
        except discord.HTTPException:  # not started from a message, or not readable
            return False
        if starter.author.id != me.id:
            return False
        self._lines[thread.id] = (parent.id, starter.id)
        return True

    async def _edit_line(self, thread_id: int, line: str) -> None:
        channel_id, message_id = self._lines[thread_id]
        message = self.table.channel(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=line, embed=None, view=None, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.info("could not edit the line of the game in thread %d", thread_id)

    async def _note(self, view: GameView, why: str) -> None:
        """The game plays in the channel: the lobby says why, in one line above its embed."""
        lobby = view.messages["lobby"]
        message = self.table.channel(lobby.channel_id).get_partial_message(lobby.message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(content=why, allowed_mentions=NO_PINGS)

    async def _drop_notice(self, channel_id: int, lobby_id: int, thread_id: int) -> None:
        """Delete Discord's "started a thread" notice under the lobby: the line says it."""
        channel = self.table.channel(channel_id)
        try:
            async for message in channel.history(after=discord.Object(lobby_id), limit=10):
                reference = message.reference
                if (
                    message.type is discord.MessageType.thread_created
                    and reference is not None
                    and reference.channel_id == thread_id
                ):
                    await message.delete()
        except discord.HTTPException:  # no Read Message History: the notice stays
            log.info("could not remove the thread notice of thread %d", thread_id)
