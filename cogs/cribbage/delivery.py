"""The hand where the eyes are: each person's private hand, sent below the table and kept current.

Discord keeps an ephemeral message where it was first posted, and a bot can send one only in
answer to an interaction, for 15 minutes (its token's life). A hand opened once and then only
edited ends up buried under every table posted since. So at each new deal :meth:`HandPost.deal`
sends every person their new hand as a fresh ephemeral follow-up of their newest interaction
with the game (a click of theirs, ``/cribbage hand``) — after the table has posted the new
table, so the hand sits below it — and deletes their old hand. Between deals
:meth:`HandPost.refresh` edits the open hands an outcome changed (their turn came), through the
token that can address each (its original response, or the follow-up's message id); a person
whose move it is and whose hand cannot be edited, but who made an interaction in the last 14
minutes, gets a new hand below instead.

Whom the bot cannot reach (no interaction of theirs in the game's channel in the last 14
minutes) :meth:`HandPost.deal` returns: the table pings those, once, to open their hand.

Discord's rules relied on (developers docs, "Receiving and Responding"): a follow-up is sent
with the interaction's token (``POST /webhooks/{app}/{token}``, ``flags`` 64 for an ephemeral
one) once the interaction has been answered; it is edited and deleted with the same token and
its message id (Edit / Delete Followup Message); the original response with ``@original``; a
token is valid for 15 minutes. discord.py: ``interaction.followup.send(..., ephemeral=True,
wait=True)`` returns the :class:`discord.WebhookMessage` (its id);
``interaction.followup.edit_message(id, ...)`` / ``delete_message(id)``;
``interaction.edit_original_response`` / ``delete_original_response``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.engine import Dealt, Phase
from bot.sessions import GameView, Outcome, Place, PrivateView, Refusal, ShowHand
from cogs.cribbage.hand import HandMessage, hand_message
from cogs.cribbage.open_hands import OpenHand, OpenHands

if TYPE_CHECKING:
    import datetime as dt

    from bot.sessions import GameSessionManager
    from cogs.utils.names import NameBook

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


def shown_of(private: PrivateView) -> tuple[object, ...]:
    """What a hand shows that its player must know of: redrawn when this changes."""
    return (private.phase, private.must_act, private.step if private.must_act else 0)


def dealt(outcome: Outcome) -> bool:
    """Whether ``outcome`` started a new deal (its hands are new cards)."""
    return any(isinstance(e.event, Dealt) for e in outcome.events)


class HandPost(OpenHands):
    """Sends, keeps and refreshes each person's private hand (``Table.hands``)."""

    def __init__(
        self,
        manager: GameSessionManager,
        names: NameBook,
        clock: Callable[[], dt.datetime] = discord.utils.utcnow,
    ) -> None:
        super().__init__(clock)
        self.manager = manager
        self.names = names

    # ------------------------------------------------------------------ who can be reached

    def sender(
        self, game_id: int, user_id: int, channel_id: int | None = None
    ) -> discord.Interaction | None:
        """The person's newest interaction through which a new hand can be sent now: still
        valid, answered (a follow-up needs that), and made in the game's channel (a hand sent
        elsewhere, say in the channel a game's thread was opened from, is not where the table
        is)."""
        if channel_id is None:
            view = self.manager.live.view(game_id)
            channel_id = None if view is None else view.channel_id
        interaction = self.latest(user_id, channel_id)
        if interaction is None or not interaction.response.is_done():
            return None
        return interaction if interaction.channel_id == channel_id else None

    def reachable(self, game_id: int, user_id: int, channel_id: int | None = None) -> bool:
        """Whether the bot can refresh or re-send the person's hand now (else the table may
        ping them). ``channel_id``: the game's channel, if the caller has it."""
        return self.fresh(game_id, user_id) or self.sender(game_id, user_id, channel_id) is not None

    # ------------------------------------------------------------------ a new deal

    async def deal(self, outcome: Outcome, names: Sequence[str]) -> set[int]:
        """A new deal started (the table has posted the new table): send each person their
        new hand below it, delete their old one; the users it could not reach."""
        view = outcome.view
        people = [u for u in view.user_ids if u in outcome.hands]
        reached = await asyncio.gather(
            *(self.deal_to(outcome, names, user_id) for user_id in people)
        )
        return {user_id for user_id, ok in zip(people, reached, strict=True) if not ok}

    async def deal_to(self, outcome: Outcome, names: Sequence[str], user_id: int) -> bool:
        """One person's new hand (see :meth:`deal`): sent, or the old one redrawn if only it
        can be reached; whether it reached them."""
        view, private = outcome.view, outcome.hands[user_id]
        sender = self.sender(view.game_id, user_id, view.channel_id)
        if sender is not None and await self._send(outcome, names, user_id, private, sender):
            return True
        hand = self.get(view.game_id, user_id)  # no way to send: redraw the old one, if it can
        if hand is not None and hand.fresh(self.clock()):
            return await self._edit(outcome, names, user_id, private, hand)
        return False

    # ------------------------------------------------------------------ between deals

    async def refresh(
        self, outcome: Outcome, names: Sequence[str], *, skip: int | None = None
    ) -> None:
        """Redraw every open hand (but ``skip``'s, the clicker's: their click redrew it) that
        the outcome changed; a person whose move it is and whose hand cannot be edited gets a
        new one, if an interaction of theirs still allows it."""
        view = outcome.view
        if not view.status.is_open:  # ended (or closed): no hand of it will be edited again
            self.forget_game(view.game_id, view.user_ids)
            return
        work = []
        for user_id in view.user_ids:
            private = outcome.hands.get(user_id)
            if user_id == skip or private is None:
                continue
            hand = self.get(view.game_id, user_id)
            if hand is not None and (outcome.step < hand.step or shown_of(private) == hand.shown):
                continue  # a newer outcome redrew it, or nothing they must know has changed
            if hand is not None and hand.fresh(self.clock()):
                work.append(self._edit(outcome, names, user_id, private, hand))
                continue
            self.drop(view.game_id, user_id)  # too old to edit
            sender = self.sender(view.game_id, user_id, view.channel_id)
            if private.must_act and sender is not None:  # their move: a hand below, at once
                work.append(self._send(outcome, names, user_id, private, sender))
        await asyncio.gather(*work)

    async def tell(self, game_id: int, user_id: int, text: str) -> bool:
        """Redraw the person's hand with ``text`` as a note above it (a turn-timer reminder):
        in place if it can be edited, else as a new hand below; whether it reached them."""
        view = self.manager.live.view(game_id)
        if view is None or not view.status.is_open:
            return False
        here = Place(view.guild_id, view.channel_id)  # the game's own place
        private = self.manager.hands.private_view(ShowHand(game_id, user_id, where=here))
        if isinstance(private, Refusal):
            return False
        names = await self.names.seat_names(view)
        images = (await self.manager.settings.server(view.guild_id)).images
        message = self._draw(view, private, names, images, note=text)
        hand = self.get(game_id, user_id)
        if hand is not None and hand.fresh(self.clock()):
            try:
                await hand.edit(**await message.edit(hand.picture))
            except discord.HTTPException:
                self.drop(game_id, user_id)
            else:
                hand.picture = message.filename
                hand.shown, hand.step = shown_of(private), max(hand.step, view.step)
                return True
        sender = self.sender(game_id, user_id, view.channel_id)
        if sender is None:
            return False
        return await self._post(game_id, user_id, message, sender, private, view.step)

    # ------------------------------------------------------------------ plumbing

    def _draw(
        self,
        view: GameView,
        private: PrivateView,
        names: Sequence[str],
        images: bool,
        *,
        note: str = "",
    ) -> HandMessage:
        next_deal_at = None
        if private.phase is Phase.NEXT_DEAL:
            next_deal_at = self.manager.deals.due_at(view.game_id)
        return hand_message(
            view, private, names, images=images, note=note, next_deal_at=next_deal_at
        )

    def _message(self, outcome: Outcome, names: Sequence[str], private: PrivateView) -> HandMessage:
        return self._draw(outcome.view, private, names, outcome.settings.images)

    async def _send(
        self,
        outcome: Outcome,
        names: Sequence[str],
        user_id: int,
        private: PrivateView,
        sender: discord.Interaction,
    ) -> bool:
        message = self._message(outcome, names, private)
        return await self._post(
            outcome.view.game_id, user_id, message, sender, private, outcome.step
        )

    async def _post(
        self,
        game_id: int,
        user_id: int,
        message: HandMessage,
        sender: discord.Interaction,
        private: PrivateView,
        step: int,
    ) -> bool:
        """Send the hand as a new ephemeral follow-up of ``sender``; delete the old hand."""
        try:
            sent = await sender.followup.send(
                message.content,
                view=message.view,
                files=await message.files(),
                ephemeral=True,
                wait=True,
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException:
            log.info("game %d: could not send a player's new hand", game_id)
            return False
        old = self.get(game_id, user_id)
        hand = self.remember(game_id, user_id, sender, message.filename, message_id=sent.id)
        hand.shown, hand.step = shown_of(private), step
        if old is not None and old.fresh(self.clock()):
            try:
                await old.delete()
            except discord.HTTPException:
                log.info("game %d: could not delete a player's old hand", game_id)
        return True

    async def _edit(
        self,
        outcome: Outcome,
        names: Sequence[str],
        user_id: int,
        private: PrivateView,
        hand: OpenHand,
    ) -> bool:
        """Redraw an open hand in place."""
        game_id = outcome.view.game_id
        hand.shown, hand.step = shown_of(private), outcome.step
        message = self._message(outcome, names, private)
        try:
            await hand.edit(**await message.edit(hand.picture))
        except discord.HTTPException:
            log.info("game %d: could not refresh a player's hand", game_id)
            if self.get(game_id, user_id) is hand:
                self.drop(game_id, user_id)
            return False
        hand.picture = message.filename
        return True
