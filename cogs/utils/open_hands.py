"""The players' open hands: private messages the bot may still edit, kept no longer than that.

A player's hand is an ephemeral message, which the bot can edit only through the token of the
interaction that posted it, for 15 minutes from that interaction's creation. The table keeps
each player's newest open hand to redraw it when the game moves on (their turn comes). An entry
goes as soon as it is of no use: when its game ends (or its lobby closes) and when its token has
run out; so the memory held is that of the hands opened in the last quarter of an hour, however
many games were played.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import discord

TOKEN_LIFE = 15 * 60  # seconds: an interaction's token (and its ephemeral message) lives so long
HAND_TOKEN_LIFE = 14 * 60  # an open hand is edited only so long after its interaction was created

Key = tuple[int, int]  # (game id, user id)


@dataclass
class OpenHand:
    """A player's open ephemeral hand, editable through its interaction for a while."""

    interaction: discord.Interaction
    picture: str | None = None  # the file name of the hand picture it shows
    shown: tuple[object, ...] = ()  # (phase, must_act, step) as last drawn: redraw on a change
    step: int = -1  # the step of the outcome it was last redrawn from

    def fresh(self, now: dt.datetime) -> bool:
        """Whether its token may still edit it (counted from the interaction's creation)."""
        return (now - self.interaction.created_at).total_seconds() < HAND_TOKEN_LIFE


class OpenHands:
    """Each player's newest open hand by (game, user), oldest first (see the module)."""

    def __init__(self, clock: Callable[[], dt.datetime] = discord.utils.utcnow) -> None:
        self.clock = clock  # the time now, as an aware datetime (tests move it on)
        self._hands: dict[Key, OpenHand] = {}

    def __len__(self) -> int:
        return len(self._hands)

    def __iter__(self) -> Iterator[Key]:
        return iter(self._hands)

    def get(self, game_id: int, user_id: int) -> OpenHand | None:
        return self._hands.get((game_id, user_id))

    def remember(
        self, game_id: int, user_id: int, interaction: discord.Interaction, picture: str | None
    ) -> None:
        """Keep a player's newest open hand (it replaces the one they had open)."""
        key = (game_id, user_id)
        self._hands.pop(key, None)  # re-inserted last: the dict stays in the order opened
        self._hands[key] = OpenHand(interaction, picture=picture)
        self.expire()

    def drop(self, game_id: int, user_id: int) -> None:
        self._hands.pop((game_id, user_id), None)

    def forget_game(self, game_id: int, user_ids: Iterable[int]) -> None:
        """Drop every open hand of a game (it has ended, or its lobby closed)."""
        for user_id in user_ids:
            self._hands.pop((game_id, user_id), None)

    def fresh(self, game_id: int, user_id: int) -> bool:
        """Whether the player has an open hand the bot may still edit."""
        hand = self._hands.get((game_id, user_id))
        return hand is not None and hand.fresh(self.clock())

    def expire(self) -> int:
        """Drop the open hands whose token ran out, oldest first; how many were dropped."""
        now, expired = self.clock(), 0
        while self._hands:
            key, hand = next(iter(self._hands.items()))
            if hand.fresh(now):
                break
            del self._hands[key]
            expired += 1
        return expired
