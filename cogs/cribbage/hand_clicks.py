"""A click on a player's own hand, from the item discord.py rebuilds to the answer: open the
hand, pick and discard, play, cut, ask for a hint, say ready for the next deal.

A click on a hand's button reaches the bot as its custom id alone. discord.py finds the item
below whose template matches the id and rebuilds it from the id (:class:`PlayButton` for
``crib:p:{game}:{step}:{card}``); :meth:`~cogs.utils.items.CribItem.callback` guards the click
and calls the item's ``run``, which hands it to the bot's :class:`HandClicks` (:data:`HANDS`,
registered by the :class:`~cogs.cribbage.Cribbage` cog at load). :class:`HandClicks` turns it
into one request (a :class:`~bot.sessions.Move`) for the session manager and answers.

The buttons are drawn, as plain components, with the rest of the hand by
:mod:`cogs.cribbage.hand`, which writes each id beside the template its item here reads it back
with: a hand is drawn by the parts below this one too (a new deal's hands, sent by
:mod:`cogs.cribbage.delivery`), and drawing one needs nothing of what answers it.

Each click is answered by redrawing the clicked hand message in place (or by a new private
message for "Your hand"), then the table is told. A click that starts a new deal is answered
with a deferred update instead: the new hand comes as a new message below the new table
(:meth:`cogs.cribbage.delivery.HandPost.deal`) and the old one is deleted. The table's own
buttons that a hand's answerer answers too (Your hand, Cut for the deal, Next deal) are in
:mod:`cogs.cribbage.buttons`.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Action, Card, Cut, Discard, NextDeal, Phase, Play, card_from_code
from bot.render.words import escape, join_and
from bot.sessions import (
    STALE_MESSAGE,
    AskCoach,
    GameView,
    Move,
    Outcome,
    PrivateView,
    Refusal,
    RefusalReason,
    ShowHand,
)
from cogs.cribbage.delivery import HandPost, dealt, shown_of
from cogs.cribbage.hand import (
    CUT_ID,
    DISCARD_ID,
    HINT_ID,
    MENU_ID,
    PICK_ID,
    PLAY_ID,
    HandMessage,
    game_over_text,
    hand_message,
    selected_cards,
    shown_picture,
)
from cogs.utils.items import Answerers, CribItem, Role
from cogs.utils.replies import defer_if_late, in_time, place_of, redraw, say

if TYPE_CHECKING:
    from bot.sessions import GameSessionManager
    from cogs.cribbage.table import Table
    from cogs.utils.names import NameBook

Item = discord.ui.Item[Any]
Match = re.Match[str]

# ------------------------------------------------------------------ the items of a hand
#
# Each is rebuilt by discord.py from a click's custom id and the message's own component (so it
# keeps the look it was drawn with), and hands the click to HANDS, the bot's HandClicks.

HANDS: Role[HandClicks] = Role("hand")  # who answers a hand's items (the cog registers it)


class PlayButton(CribItem[Item], template=PLAY_ID):
    """Lay the card the id names."""

    def __init__(self, item: Item, game_id: int, step: int, card: Card) -> None:
        super().__init__(item)
        self.game_id, self.step, self.card = game_id, step, card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> PlayButton:
        return cls(item, int(match["game"]), int(match["step"]), card_from_code(match["card"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_play(interaction, self.game_id, self.step, self.card)


class PickButton(CribItem[Item], template=PICK_ID):
    """Toggle a card in the discard selection (the selection so far is the id's mask)."""

    def __init__(self, item: Item, game_id: int, step: int, mask: int, index: int) -> None:
        super().__init__(item)
        self.game_id, self.step, self.mask, self.index = game_id, step, mask, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> PickButton:
        numbers = (int(match[name]) for name in ("game", "step", "mask", "index"))
        return cls(item, *numbers)

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        toggled = self.mask ^ (1 << self.index)
        await answerers.get(HANDS).on_pick(interaction, self.game_id, self.step, toggled)


class DiscardButton(CribItem[Item], template=DISCARD_ID):
    """Lay away the cards of the id's selection."""

    def __init__(self, item: Item, game_id: int, step: int, mask: int) -> None:
        super().__init__(item)
        self.game_id, self.step, self.mask = game_id, step, mask

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> DiscardButton:
        return cls(item, int(match["game"]), int(match["step"]), int(match["mask"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_discard(interaction, self.game_id, self.step, self.mask)


class DiscardMenu(CribItem[Item], template=MENU_ID):
    """Lay away the cards picked in the menu, in one interaction."""

    def __init__(self, item: Item, game_id: int, step: int) -> None:
        super().__init__(item)
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> DiscardMenu:
        return cls(item, int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        menu = self.item  # the options picked, as sent (none if the id was on another kind)
        codes = [str(value) for value in menu.values] if isinstance(menu, discord.ui.Select) else []
        await answerers.get(HANDS).on_discard_menu(interaction, self.game_id, self.step, codes)


class CutButton(CribItem[Item], template=CUT_ID):
    """Cut the pack for the starter."""

    def __init__(self, item: Item, game_id: int, step: int) -> None:
        super().__init__(item)
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> CutButton:
        return cls(item, int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_cut(interaction, self.game_id, self.step)


class HintButton(CribItem[Item], template=HINT_ID):
    """Ask the coach."""

    def __init__(self, item: Item, game_id: int, step: int) -> None:
        super().__init__(item)
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item, match: Match
    ) -> HintButton:
        return cls(item, int(match["game"]), int(match["step"]))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        await answerers.get(HANDS).on_hint(interaction, self.game_id, self.step)


HAND_ITEMS = (PlayButton, PickButton, DiscardButton, DiscardMenu, CutButton, HintButton)

# ------------------------------------------------------------------ what answers them


def game_over(
    interaction: discord.Interaction, view: GameView | None = None, names: Sequence[str] = ()
) -> str:
    """Where the result is: where the hand is (the game's thread, or its channel); with the
    ended game's ``view``, the result too."""
    return game_over_text(isinstance(interaction.channel, discord.Thread), view, names)


def cut_note(view: GameView | None, names: Sequence[str]) -> str:
    """Why a Cut click cut nothing: the cut is done (who cut what), or whose cut it is."""
    if view is None or view.phase is None:
        return "There is nothing to cut now."
    waiting = join_and([escape(names[s]) for s in view.to_act])
    if view.phase is Phase.CUT_FOR_DEAL:
        return f"You have cut for the deal: waiting for {waiting}."
    if view.phase is Phase.CUT_FOR_STARTER:
        return f"Not your cut: {waiting} cuts the starter."
    if view.starter is not None and view.dealer is not None:
        pone = escape(names[(view.dealer + 1) % len(view.seats)])
        return f"The cut is done: {pone} cut the {view.starter} as the starter."
    return "There is nothing to cut now."


# the note on a hand redrawn because a button on it was out of date (a double click, an old
# message): the buttons below the note are fresh
REFRESHED = "⚠️ That button was out of date (the game had moved on): the buttons below are fresh."


def on_hand(interaction: discord.Interaction) -> bool:
    """Whether the click was on a private message (a hand), not on the public table."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


class HandClicks:
    """Answers the clicks on hand messages (the items above), and the table's Your hand, Cut
    and Next deal (:data:`cogs.cribbage.buttons.TABLE`): asks ``manager``, redraws the hand,
    tells ``table``."""

    def __init__(self, manager: GameSessionManager, names: NameBook, table: Table) -> None:
        self.manager = manager
        self.names = names
        self.table = table

    @property
    def post(self) -> HandPost:
        """Every person's open hand and newest interaction (the table's)."""
        return self.table.hands

    def private_view(self, interaction: discord.Interaction, game_id: int) -> PrivateView | Refusal:
        """The clicker's view of the game, if they play in it here (the door's checks)."""
        return self.manager.hands.private_view(
            ShowHand(game_id, interaction.user.id, where=place_of(interaction))
        )

    async def open_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The "Your hand" button: the player's cards, privately, in a new message."""
        private = self.private_view(interaction, game_id)
        view = self.manager.live.view(game_id)
        if isinstance(private, Refusal) or view is None:
            over = game_over(interaction)
            await say(interaction, private.message if isinstance(private, Refusal) else over)
            return
        await defer_if_late(interaction, ephemeral=True, thinking=True)  # a busy moment

        async def draw() -> tuple[HandMessage, list[discord.File]]:
            names = await self.names.seat_names(view)
            images = await self.table.images_enabled(view.guild_id)
            message = hand_message(
                view, private, names, images=images, next_deal_at=self._next_deal_at(private)
            )
            return message, await message.files()

        message, files = await in_time(interaction, draw(), ephemeral=True, thinking=True)
        if interaction.response.is_done():
            await interaction.followup.send(
                message.content, view=message.view, files=files, ephemeral=True
            )
        else:
            await interaction.response.send_message(
                message.content, view=message.view, files=files, ephemeral=True
            )
        user = interaction.user.id
        old = self.post.get(game_id, user)
        hand = self.post.remember(game_id, user, interaction, message.filename)
        hand.shown, hand.step = shown_of(private), private.step
        if old is not None and old.fresh(self.post.clock()):  # one hand open: the new one
            # (one dismissed or out of reach stays: its buttons answer as out of date)
            with contextlib.suppress(discord.HTTPException):
                await old.delete()

    async def update_hand(
        self,
        interaction: discord.Interaction,
        game_id: int,
        *,
        mask: int = 0,
        note: str = "",
        private: PrivateView | Refusal | None = None,
    ) -> None:
        """Redraw the clicked hand message in place, from the game as it is now (``private``:
        the player's view when the caller has it already)."""
        view = self.manager.live.view(game_id)
        if private is None:
            private = self.private_view(interaction, game_id)
        if view is None:  # the game has ended
            await self.close_hand(interaction, game_over(interaction), note)
            return
        if isinstance(private, Refusal):
            await self.close_hand(interaction, private.message, note)
            return
        names = await in_time(interaction, self.names.seat_names(view))
        images = await in_time(interaction, self.table.images_enabled(view.guild_id))
        await self._redraw_hand(interaction, view, private, names, images, mask=mask, note=note)

    def _next_deal_at(self, private: PrivateView) -> float | None:
        if private.phase is not Phase.NEXT_DEAL:
            return None
        return self.manager.deals.due_at(private.game_id)

    async def _redraw_hand(
        self,
        interaction: discord.Interaction,
        view: GameView,
        private: PrivateView,
        names: Sequence[str],
        images: bool,
        *,
        mask: int = 0,
        note: str = "",
    ) -> None:
        """Redraw the clicked hand message with ``private`` (the answer to a click on it)."""
        if not on_hand(interaction):  # a hand's id on a public message (forged): no hand there
            await say(interaction, STALE_MESSAGE)
            return
        await defer_if_late(interaction)
        message = hand_message(
            view,
            private,
            names,
            mask=mask,
            note=note,
            images=images,
            next_deal_at=self._next_deal_at(private),
        )
        await redraw(interaction, **await message.edit(shown_picture(interaction.message)))
        hand = self.post.remember(view.game_id, interaction.user.id, interaction, message.filename)
        hand.shown, hand.step = shown_of(private), private.step

    @staticmethod
    async def close_hand(interaction: discord.Interaction, message: str, note: str = "") -> None:
        """The clicked hand message says why it has no cards to show (and loses its buttons)."""
        if not on_hand(interaction):  # never redraw a public message as a hand
            await say(interaction, message)
            return
        await redraw(interaction, content=f"{note}\n{message}".strip(), view=None, attachments=[])

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.private_view(interaction, game_id)
        if not isinstance(private, Refusal) and private.step != step:
            await self.update_hand(interaction, game_id, note=REFRESHED, private=private)
            return
        await self.update_hand(interaction, game_id, mask=mask, private=private)

    async def on_discard(
        self, interaction: discord.Interaction, game_id: int, step: int, mask: int
    ) -> None:
        private = self.private_view(interaction, game_id)
        if isinstance(private, Refusal):
            await self.update_hand(interaction, game_id, private=private)
            return
        await self.act(interaction, game_id, Discard(selected_cards(private, mask)), step)

    async def on_play(
        self, interaction: discord.Interaction, game_id: int, step: int, card: Card
    ) -> None:
        await self.act(interaction, game_id, Play(card), step)

    async def on_discard_menu(
        self, interaction: discord.Interaction, game_id: int, step: int, codes: Sequence[str]
    ) -> None:
        """The discard menu: the cards picked in it are laid away at once."""
        private = self.private_view(interaction, game_id)
        if isinstance(private, Refusal) or private.step != step:
            note = "" if isinstance(private, Refusal) else REFRESHED
            await self.update_hand(interaction, game_id, note=note, private=private)
            return
        by_code = {card.code: card for card in private.hand}
        discards = [a for a in private.legal_actions if isinstance(a, Discard)]
        need = len(discards[0].cards) if discards else 0
        if not need:  # not theirs to lay away now: the hand as it is
            await self.update_hand(interaction, game_id, private=private)
            return
        if len(codes) != need or len(set(codes)) != need or any(c not in by_code for c in codes):
            note = f"⚠️ Pick {need} cards of your hand to lay away: nothing was laid."
            await self.update_hand(interaction, game_id, note=note, private=private)
            return
        await self.act(interaction, game_id, Discard(by_code[c] for c in codes), step)

    async def on_cut(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        """Cut the pack: at a depth the shuffle picks, as a person's hand would."""
        private = self.private_view(interaction, game_id)
        depths = (
            []
            if isinstance(private, Refusal)
            else [a.depth for a in private.legal_actions if isinstance(a, Cut)]
        )
        if not depths:
            view = self.manager.live.view(game_id)
            names = await self.names.seat_names(view) if view is not None else []
            note = cut_note(view, names)
            await self.update_hand(interaction, game_id, note=note, private=private)
            return
        await self.act(interaction, game_id, Cut(secrets.choice(depths)), step)

    async def on_next_deal(self, interaction: discord.Interaction, game_id: int) -> None:
        """Next deal (on the table; an older hand may carry it too): the person is ready. No
        message answers it: on the table the click is acknowledged silently (a hand is
        redrawn); if it starts the deal, the new hand comes below the new table."""
        await self._move_anywhere(interaction, game_id, lambda private: NextDeal())

    async def on_deal_cut(self, interaction: discord.Interaction, game_id: int) -> None:
        """Cut for the deal, on the table (a public act): at a depth the shuffle picks."""

        def cut(private: PrivateView) -> Cut | None:
            depths = [a.depth for a in private.legal_actions if isinstance(a, Cut)]
            return Cut(secrets.choice(depths)) if depths else None

        view = self.manager.live.view(game_id)
        names = await self.names.seat_names(view) if view is not None else []
        await self._move_anywhere(interaction, game_id, cut, refused=cut_note(view, names))

    async def _move_anywhere(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action_of: Callable[[PrivateView], Action | None],
        *,
        refused: str = "",
    ) -> None:
        """A move whose button carries no step (on the table, or on a hand): made at the
        player's current step; a refusal is said privately (or noted on the clicked hand)."""
        user, hand = interaction.user.id, on_hand(interaction)
        private = self.private_view(interaction, game_id)
        outcome: Outcome | Refusal
        if isinstance(private, Refusal):
            outcome = private
        elif (action := action_of(private)) is None:
            outcome = Refusal(RefusalReason.NOT_YOUR_TURN, refused)
        else:
            move = Move(game_id, user, action, step=private.step, where=place_of(interaction))
            work = self.manager.play.act(move)
            outcome = await in_time(interaction, work)
        if isinstance(outcome, Refusal):
            if hand:
                await self.update_hand(interaction, game_id, note=f"⚠️ {outcome.message}")
            else:
                await say(interaction, outcome.message)
            return
        await self.after_move(interaction, outcome, redraw_hand=hand)

    async def on_hint(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        await interaction.response.defer()
        advice = await self.manager.hands.advise(
            AskCoach(game_id, interaction.user.id, where=place_of(interaction))
        )
        note = advice.message if isinstance(advice, Refusal) else f"💡 {advice}"
        await self.update_hand(interaction, game_id, note=note)

    async def act(
        self, interaction: discord.Interaction, game_id: int, action: Action, step: int
    ) -> None:
        """Apply a move; answer by redrawing the hand; then tell the table. Everything the
        replies show comes from the outcome: nothing is looked up again."""
        user = interaction.user.id
        if not on_hand(interaction):  # a move of a hand, clicked elsewhere (forged): refused
            await say(interaction, STALE_MESSAGE)
            return
        work = self.manager.play.act(
            Move(game_id, user, action, step=step, where=place_of(interaction))
        )
        outcome = await in_time(interaction, work)
        if isinstance(outcome, Refusal):
            stale = outcome.reason is RefusalReason.STALE
            note = REFRESHED if stale else f"⚠️ {outcome.message}"
            await self.update_hand(interaction, game_id, note=note)
            return
        await self.after_move(interaction, outcome)

    async def after_move(
        self, interaction: discord.Interaction, outcome: Outcome, *, redraw_hand: bool = True
    ) -> None:
        """Answer a click whose move was made, then publish the outcome: the clicked hand is
        redrawn (``redraw_hand``), or the click acknowledged silently (a click on the table,
        or a click that started a new deal: the new hand then comes below the new table)."""
        user = interaction.user.id
        view, private = outcome.view, outcome.hands.get(user)
        names = await self.names.seat_names(view)
        new_deal = dealt(outcome) and view.status.is_open
        if not view.status.is_open:
            if redraw_hand:
                await self.close_hand(interaction, game_over(interaction, view, names))
            elif not interaction.response.is_done():
                await interaction.response.defer()
        elif new_deal or not redraw_hand:
            if not interaction.response.is_done():
                await interaction.response.defer()  # a deferred update: no message
            if on_hand(interaction):  # the clicked hand is the one to replace
                picture = shown_picture(interaction.message)
                self.post.remember(view.game_id, user, interaction, picture)
            else:
                self.post.note(view.game_id, user, interaction)
        elif private is None:  # not in the outcome's hands (never so for a seated player)
            await self.update_hand(interaction, view.game_id)
        else:
            await self._redraw_hand(interaction, view, private, names, outcome.settings.images)
        skip = user if redraw_hand and not new_deal else None
        await self.table.publish(outcome, actor=skip, names=names, via=interaction)
        if new_deal and private is not None:  # the table sent the new hands; if it did not:
            hand = self.post.get(view.game_id, user)
            if hand is None or hand.step < outcome.step:
                await self.post.deal_to(outcome, names, user)
