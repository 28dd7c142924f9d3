"""Pings: a notification only when the game waits for a person who cannot see it.

Text on the table names people as ``<@id>`` but is sent with no allowed mentions, so it
notifies nobody. A real ping is a message of its own, never deleted (a notification whose
message is gone is a "ghost ping": the person finds nothing). It goes to a person only when

- the game waits for them (:func:`~cogs.cribbage.muggins.owing`: their move, not an optional
  muggins answer; never in the pause between deals, which ends by itself),
- their hand cannot be refreshed or re-sent (``hands.reachable`` is False: no interaction of
  theirs younger than its 15-minute token),
- their ``notify`` player setting is on (``/cribbage notify``),
- and they were not pinged yet in this deal (at most one ping per person per deal).

The turn-timer reminders (:mod:`cogs.cribbage.timers`) count against the same once-a-deal budget.
Who a message notifies is what Discord's allowed mentions let through: ``users: [ids]`` lets only
those listed (and mentioned) be notified, ``parse: []`` nobody; edits never notify
(https://discord.com/developers/docs/resources/message#allowed-mentions-object, in
discord-api-docs docs/resources/message.mdx; edits: discord/discord-api-docs#5497).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import discord

from bot.engine import Phase
from bot.sessions import GameStatus, GameView, Outcome, PlayerSettings
from cogs.cribbage.muggins import owing

if TYPE_CHECKING:
    from cogs.cribbage.delivery import HandPost

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
DEFAULT_SETTINGS = PlayerSettings()


def only(users: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly ``users`` (those the text mentions), nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


def mentions(users: Iterable[int]) -> str:
    return " ".join(f"<@{u}>" for u in users)


class Pinger:
    """Who was pinged in which deal, and the one way a ping is sent (see the module)."""

    def __init__(self, bot: discord.Client, hands: HandPost) -> None:
        self.bot = bot
        self.hands = hands
        self._sent: dict[int, tuple[int, set[int]]] = {}  # game -> (deal, users pinged in it)

    def pinged(self, game_id: int, deal: int) -> set[int]:
        """The users pinged in this deal of the game so far."""
        known = self._sent.get(game_id)
        if known is None or known[0] != deal:
            known = self._sent[game_id] = (deal, set())
        return known[1]

    def forget(self, game_id: int) -> None:
        self._sent.pop(game_id, None)

    def waiting(
        self, view: GameView, players: Mapping[int, PlayerSettings], among: Iterable[int] | None
    ) -> list[int]:
        """The people the game waits for who should get a ping now (``among``: only these)."""
        if view.status is not GameStatus.ACTIVE or view.phase is Phase.NEXT_DEAL:
            return []
        done = self.pinged(view.game_id, view.deal_number)
        chosen = set(among) if among is not None else None
        return [
            u
            for u in owing(view)
            if u not in done
            and (chosen is None or u in chosen)
            and not self.hands.reachable(view.game_id, u, view.channel_id)
            and players.get(u, DEFAULT_SETTINGS).notify
        ]

    async def after(
        self,
        outcome: Outcome,
        among: Iterable[int] | None = None,
        *,
        table: tuple[int, int] | None = None,
    ) -> list[int]:
        """Ping whoever the outcome leaves the game waiting for and cannot be reached
        otherwise (``among``: only these users; ``table``: (channel, message) of the live
        table, linked from the ping); who was pinged."""
        view = outcome.view
        users = self.waiting(view, outcome.players, among)
        if not users:
            return []
        button = "Cut" if view.phase is Phase.CUT_FOR_DEAL else "Your hand"  # (on the table)
        text = (
            f"{mentions(users)} — your move in the cribbage game: click **{button}** on "
            f"the table{self._link(view, table)}."
        )
        if await self.send(view.channel_id, text, users):
            self.pinged(view.game_id, view.deal_number).update(users)
            return users
        return []

    async def send(
        self, channel_id: int, text: str, users: Iterable[int]
    ) -> discord.Message | None:
        """Post ``text`` notifying exactly ``users`` (none: a message that pings nobody)."""
        users = list(users)
        allowed = only(users) if users else NO_PINGS
        try:
            channel = self.bot.get_partial_messageable(channel_id)
            return await channel.send(text, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("Could not post a message for the game in channel %d", channel_id)
            return None

    @staticmethod
    def _link(view: GameView, table: tuple[int, int] | None) -> str:
        if table is None or view.guild_id is None:
            return ""
        return f" (https://discord.com/channels/{view.guild_id}/{table[0]}/{table[1]})"
