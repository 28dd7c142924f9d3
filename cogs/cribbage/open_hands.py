"""The players' open hands and their newest interactions: what the bot may still edit or send.

A player's hand is an ephemeral message. The bot can edit or delete it only through the token of
an interaction that can address it: the interaction whose original response it is (a "Your
hand" click, ``/cribbage hand``, or any click on the hand itself: a component interaction's
original response is the message clicked), or the interaction that sent it as a follow-up
(then by its message id). And the bot can send a private message at all only as a follow-up of
an interaction the person made. Every token lives 15 minutes from its interaction's creation
(Discord: "Interaction tokens are valid for 15 minutes", receiving-and-responding; the Edit
and Delete Followup Message endpoints take the token and the message id).

So this keeps two things, each no longer than of use:

- :class:`OpenHand`, by (game, person): the newest hand message and the interaction that can
  address it;
- the person's newest interaction in each place (:meth:`OpenHands.note`), by (person, channel):
  a click of theirs on any button of a game there, ``/cribbage hand``. Its token is what lets the
  bot send them a new hand below a new table (:mod:`cogs.cribbage.delivery`). It is kept by
  person and place, not by game: the next game of a match, or a rematch, plays in the same
  channel (or thread), and its first hands go out through the interactions made in the game
  before, with no "Your hand" click and no ping.

An open hand goes when its game ends (or its lobby closes); an interaction, and any hand, when its
token has run out (a margin of a minute is kept: ``HAND_TOKEN_LIFE``); so the memory held is that
of the last quarter of an hour's interactions, however many games were played.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

TOKEN_LIFE = 15 * 60  # seconds: an interaction's token (and its ephemeral message) lives so long
HAND_TOKEN_LIFE = 14 * 60  # a token is used only so long after its interaction was created

Key = tuple[int, int]  # (game id, user id)
Reach = tuple[int, int | None]  # (user id, channel id): where a person's interaction was made


def fresh(interaction: discord.Interaction, now: dt.datetime) -> bool:
    """Whether ``interaction``'s token may still be used (counted from its creation)."""
    return (now - interaction.created_at).total_seconds() < HAND_TOKEN_LIFE


@dataclass
class TokenMessage:
    """A message the bot can edit or delete through ``interaction``'s token for a while: its
    original response (``message_id`` None; for a click, the message clicked) or a follow-up it
    sent (``message_id``). Discord: Edit/Delete Original Interaction Response, Edit/Delete
    Followup Message ("Edits a previously-sent webhook message from the same token")."""

    interaction: discord.Interaction
    message_id: int | None = None  # a follow-up of ``interaction``; None: its original response

    def fresh(self, now: dt.datetime) -> bool:
        """Whether its token may still edit it (counted from the interaction's creation)."""
        return fresh(self.interaction, now)

    async def edit(self, **fields: Any) -> None:
        """Edit the message through the token that can address it."""
        if self.message_id is None:
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.followup.edit_message(self.message_id, **fields)

    async def delete(self) -> None:
        """Delete the message (gone already: nothing to do)."""
        with contextlib.suppress(discord.NotFound):
            if self.message_id is None:
                await self.interaction.delete_original_response()
            else:
                await self.interaction.followup.delete_message(self.message_id)


@dataclass
class OpenHand(TokenMessage):
    """A player's open ephemeral hand, editable through its interaction for a while."""

    picture: str | None = None  # the file name of the hand picture it shows
    shown: tuple[object, ...] = ()  # (phase, must_act, step) as last drawn: redraw on a change
    step: int = -1  # the step of the outcome it was last redrawn from


class OpenHands:
    """Each player's newest open hand by (game, user) and newest interaction by (user, place),
    oldest first (see the module)."""

    def __init__(self, clock: Callable[[], dt.datetime] = discord.utils.utcnow) -> None:
        self.clock = clock  # the time now, as an aware datetime (tests move it on)
        self._hands: dict[Key, OpenHand] = {}
        self._latest: dict[Reach, discord.Interaction] = {}

    def __len__(self) -> int:
        return len(self._hands)

    def __iter__(self) -> Iterator[Key]:
        return iter(self._hands)

    def get(self, game_id: int, user_id: int) -> OpenHand | None:
        return self._hands.get((game_id, user_id))

    def remember(
        self,
        game_id: int,
        user_id: int,
        interaction: discord.Interaction,
        picture: str | None,
        *,
        message_id: int | None = None,
    ) -> OpenHand:
        """Keep a player's newest open hand (it replaces the one they had open): the original
        response of ``interaction``, or its follow-up ``message_id``. The interaction is noted
        as their newest there too (unless a newer one is known)."""
        key = (game_id, user_id)
        self._hands.pop(key, None)  # re-inserted last: the dict stays in the order opened
        hand = self._hands[key] = OpenHand(interaction, picture=picture, message_id=message_id)
        self.note(game_id, user_id, interaction)
        self.expire()
        return hand

    def note(self, game_id: int, user_id: int, interaction: discord.Interaction) -> None:
        """Remember a seated person's newest interaction in the place of the game ``game_id``
        (answer it first: a follow-up needs the interaction answered). It is kept by person and
        place, so it serves their next game there too. An older one than that kept is
        ignored."""
        key = (user_id, interaction.channel_id)
        known = self._latest.get(key)
        if known is not None and known.created_at > interaction.created_at:
            return
        self._latest.pop(key, None)  # re-inserted last: the dict stays oldest first
        self._latest[key] = interaction

    def latest(self, user_id: int, place: int | None) -> discord.Interaction | None:
        """The person's newest interaction in ``place`` (the game's channel or thread) whose
        token is still good; ``place`` unknown: their newest anywhere."""
        now = self.clock()
        if place is not None:
            interaction = self._latest.get((user_id, place))
            return interaction if interaction is not None and fresh(interaction, now) else None
        found = [i for (user, _), i in self._latest.items() if user == user_id and fresh(i, now)]
        return max(found, key=lambda i: i.created_at, default=None)

    def drop(self, game_id: int, user_id: int) -> None:
        self._hands.pop((game_id, user_id), None)

    def forget_game(self, game_id: int, user_ids: Iterable[int]) -> None:
        """Drop every open hand of a game (it has ended, or its lobby closed). The players'
        interactions stay until their tokens run out: the next game in the same place (a match
        goes on, a rematch) sends its hands through them."""
        for user_id in user_ids:
            self._hands.pop((game_id, user_id), None)

    def fresh(self, game_id: int, user_id: int) -> bool:
        """Whether the player has an open hand the bot may still edit."""
        hand = self._hands.get((game_id, user_id))
        return hand is not None and hand.fresh(self.clock())

    def expire(self) -> int:
        """Drop the hands and interactions whose token ran out, oldest first; how many hands
        were dropped."""
        now, expired = self.clock(), 0
        while self._hands:
            key, hand = next(iter(self._hands.items()))
            if hand.fresh(now):
                break
            del self._hands[key]
            expired += 1
        while self._latest:
            reach, interaction = next(iter(self._latest.items()))
            if fresh(interaction, now):
                break
            del self._latest[reach]
        return expired
