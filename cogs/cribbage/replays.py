"""After a game: ``/cribbage replay [game]``, its page and Share buttons, and the result's
**Replay** and **Review my game** buttons (:mod:`cogs.cribbage.replay_buttons`).

A replay is private (an ephemeral message, seen only by who asked), one deal a page, with
⏮ ◀ ▶ ⏭ and **Share**. Each page is drawn from ``manager.records.replay(game)``: the game's
action log replayed through the engine (never a second copy), refused for a game still being
played, to anyone. A page click redraws the private message it is on (``UPDATE_MESSAGE``);
Share posts the page publicly in the channel, without buttons, and marks the private page
"Shared ✓" (as the standings' Share does: see :mod:`cogs.standings` for how Discord allows it).

**Review my game** is private to the one who clicks: the analysis runs in a worker process and
may take seconds, so the click is deferred at once, ephemerally with "thinking" (Discord's
developer docs, *Receiving and Responding*: "Interaction tokens are valid for 15 minutes ...
you must send an initial response within 3 seconds"; a deferred response is type 5,
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, "the user sees a loading state"), and the review fills
that message. Anyone not seated in the game is refused, privately, by the manager.

The game option is an integer from 1 to 2**53 - 1 (:data:`MAX_GAME`): the largest
``max_value`` Discord takes for an integer option (its OpenAPI description, schema component
``Int53Type``: -(2^53 - 1)..2^53 - 1; one more and every command sync is refused, HTTP 400); a
client that sends anything else is refused by :func:`~cogs.utils.checks.check_command` before
anything is read.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import GameOver
from bot.render.embeds import Embed, result_embed
from bot.render.replay import replay_embed
from bot.render.summary import add_summary, review_embed
from bot.sessions import Refusal, known_game_id
from cogs.cribbage.replay_buttons import ReplayShareButton, after_game_buttons, replay_buttons
from cogs.utils.checks import check_command
from cogs.utils.items import view_of
from cogs.utils.names import COMPUTER_NAMES, NameBook
from cogs.utils.payloads import to_discord
from cogs.utils.replies import in_time, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager, GameView
    from bot.sessions.history import Replay
    from bot.sessions.views import SeatView
    from db.leaderboard import Standings

log = logging.getLogger(__name__)

__all__ = ["Replays", "after_game_buttons", "final_result", "replay_command"]

NO_PINGS = discord.AllowedMentions.none()
# the largest game number the command takes: Discord's bound on an integer option's
# max_value (OpenAPI, components.schemas.Int53Type: maximum 9007199254740991)
MAX_GAME = 2**53 - 1
SHARED_KEPT = 512  # private pages remembered as shared, newest kept
HISTORY_LOOKED_AT = 20  # the asker's latest ended games searched for one to replay

NO_GAME = (
    "You have no finished game to replay yet. `/cribbage history` lists your games with their "
    "numbers."
)
PRUNED = (
    "The moves of game #{game} are no longer kept (old games' moves are dropped after a "
    "while): its result and statistics remain, but it can't be replayed."
)
NOTHING_TO_SHARE = "There's nothing here to share: only a private replay has a Share button."
ALREADY_SHARED = "You've already shared this page in the channel"


class Replays:
    """Answers ``/cribbage replay`` and the clicks of replays and the result's offers."""

    def __init__(self, manager: GameSessionManager, names: NameBook, history: Standings) -> None:
        self.manager = manager
        self.names = names
        self.history = history  # the store's standings: ``player_history`` (the default game)
        # private pages shared by this process: (message id, deal) -> the public copy's link
        # ("" while it is being posted)
        self._shared: OrderedDict[tuple[int, int], str] = OrderedDict()

    # ------------------------------------------------------------------ the replay

    async def command(self, interaction: discord.Interaction, game: int | None) -> None:
        """``/cribbage replay [game]``: deal 1 of the game (default: the asker's last finished
        game), privately."""
        await self.open(interaction, game)

    async def open(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """A new private message with deal 1 of the game (a command, or Replay on a result)."""
        work = self._first_page(interaction, game_id)
        payload = await in_time(interaction, work, ephemeral=True, thinking=True)
        if isinstance(payload, str):
            await say(interaction, payload)
            return
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **payload)
        else:
            await interaction.response.send_message(ephemeral=True, **payload)

    async def _first_page(
        self, interaction: discord.Interaction, game_id: int | None
    ) -> dict[str, Any] | str:
        if game_id is None:
            game_id = await self._last_game(interaction.user.id)
            if game_id is None:
                return NO_GAME
        return await self._page(interaction, game_id, 1)

    async def page(self, interaction: discord.Interaction, game_id: int, deal: int) -> None:
        """⏮ ◀ ▶ ⏭: redraw the clicked message at deal ``deal``."""
        payload = await in_time(interaction, self._page(interaction, game_id, deal))
        if isinstance(payload, str):
            await say(interaction, payload)
        elif interaction.response.is_done():
            await interaction.edit_original_response(**payload)
        else:
            await interaction.response.edit_message(**payload)

    async def _page(
        self, interaction: discord.Interaction, game_id: int, deal: int
    ) -> dict[str, Any] | str:
        """The page (embed and buttons) of deal ``deal``, or why there is none."""
        replay = await self._replay(game_id)
        if isinstance(replay, str):
            return replay
        deals = len(replay.deals)
        deal = min(max(1, deal), deals)  # a forged id's deal: the nearest there is
        names = await self._seat_names(replay.seats, interaction.guild_id)
        message = (
            interaction.message if interaction.type is discord.InteractionType.component else None
        )
        shared = message is not None and (message.id, deal) in self._shared
        items = replay_buttons(game_id, deal, deals)
        if shared:
            items[-1] = ReplayShareButton(game_id, deal, shared=True)
        embed = replay_embed(replay, deal, names)
        return {
            "embed": to_discord(embed),
            "view": view_of(*items),
            "allowed_mentions": NO_PINGS,
        }

    async def _replay(self, game_id: int) -> Replay | str:
        """The game rebuilt from its log, or what to tell the asker."""
        if not known_game_id(game_id):
            return "I can't find that game."
        replay = await self.manager.records.replay(game_id)
        if isinstance(replay, Refusal):
            return replay.message
        if not replay.steps or not replay.deals:  # the retention dropped its moves
            return PRUNED.format(game=game_id)
        return replay

    async def _last_game(self, user_id: int) -> int | None:
        """The asker's latest finished game (else their latest ended one), if any."""
        entries = await self.history.player_history(user_id, limit=HISTORY_LOOKED_AT)
        finished = [e.game_id for e in entries if e.status == "finished"]
        ended = [e.game_id for e in entries]
        return next(iter(finished or ended), None)

    async def _seat_names(self, seats: Sequence[SeatView], guild_id: int | None) -> list[str]:
        """One display name per seat (computers by level, told apart when two share one)."""
        names = []
        for seat in seats:
            if seat.user_id is None:
                names.append(COMPUTER_NAMES.get(seat.level or "standard", "Computer (standard)"))
            else:
                names.append(await self.names.name(seat.user_id, guild_id))
        return [f"{n} {i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]

    # ------------------------------------------------------------------ Share

    async def share(self, interaction: discord.Interaction, button: ReplayShareButton) -> None:
        """Post the private page the button is on in the channel, once: mark the page shared
        (UPDATE_MESSAGE), then post the copy (a followup without the ephemeral flag)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await say(interaction, NOTHING_TO_SHARE)
            return
        key = (message.id, button.deal)
        if button.shared or key in self._shared:
            link = self._shared.get(key)
            await say(interaction, f"{ALREADY_SHARED}: {link}" if link else f"{ALREADY_SHARED}.")
            return
        self._remember(key, "")  # before any await: a racing second click is told
        replay = await self._replay(button.game_id)
        deals = 1 if isinstance(replay, str) else len(replay.deals)
        items = replay_buttons(button.game_id, button.deal, deals)
        items[-1] = ReplayShareButton(button.game_id, button.deal, shared=True)
        try:
            await interaction.response.edit_message(view=view_of(*items))
            public = await interaction.followup.send(
                f"📣 Shared by <@{interaction.user.id}>",
                embeds=message.embeds,
                allowed_mentions=NO_PINGS,
                wait=True,
            )
        except Exception:
            self._shared.pop(key, None)
            raise
        self._remember(key, public.jump_url)
        log.info("%s shared deal %d of game %d", interaction.user.id, button.deal, button.game_id)

    def _remember(self, key: tuple[int, int], link: str) -> None:
        self._shared[key] = link
        self._shared.move_to_end(key)
        while len(self._shared) > SHARED_KEPT:
            self._shared.popitem(last=False)

    # ------------------------------------------------------------------ the review

    async def review(self, interaction: discord.Interaction, game_id: int) -> None:
        """Review my game: deferred at once, privately ("thinking": the analysis may take
        seconds), then the clicker's own review, or why not (not seated, in progress)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        started = time.perf_counter()
        review = await self.manager.analysis.review(game_id, interaction.user.id)
        if isinstance(review, Refusal):
            await interaction.followup.send(review.message, ephemeral=True)
            return
        replay = await self._replay(game_id)
        seats = () if isinstance(replay, str) else replay.seats
        names = await self._seat_names(seats, interaction.guild_id)
        embed = review_embed(review, names)
        await interaction.followup.send(
            embed=to_discord(embed), ephemeral=True, allowed_mentions=NO_PINGS
        )
        log.info(
            "Reviewed game %d for seat %d in %.1f s",
            game_id,
            review.seat,
            time.perf_counter() - started,
        )


def replay_command(replays: Replays, names: NameBook) -> app_commands.Command[Any, ..., None]:
    """``/cribbage replay [game]`` (a new command object per cog), answered by ``replays``;
    ``names`` learns who asked."""

    @app_commands.command(name="replay", description="Step through a finished game, deal by deal")
    @app_commands.describe(
        game="The game's number (`/cribbage history` shows them); default: your last"
    )
    @app_commands.check(check_command)  # as the group's other commands (cog.interaction_check)
    async def replay(
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_GAME] | None = None,
    ) -> None:
        names.learn(interaction.user)
        await replays.command(interaction, game)

    return replay


async def final_result(
    manager: GameSessionManager,
    over: GameOver,
    names: Sequence[str],
    view: GameView,
    images: bool,
) -> Embed:
    """The result of a finished game (:func:`~bot.render.embeds.result_embed`) with its summary
    (left out, and logged, if it cannot be made: the result is posted all the same)."""
    embed = result_embed(over, names, view.variant, image="board.png" if images else None)
    try:
        summary = await manager.analysis.summary(view.game_id)
    except Exception:
        log.exception("The summary of game %d failed", view.game_id)
        return embed
    if isinstance(summary, Refusal):
        log.warning("No summary of game %d: %s", view.game_id, summary.message)
    else:
        embed = add_summary(embed, summary, names)
    return embed
