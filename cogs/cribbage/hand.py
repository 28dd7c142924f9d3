"""The private hand message: one player's cards and the buttons for what they may do now.

Built from the manager's public :class:`GameView` and the player's own :class:`PrivateView`;
sent only ephemerally to that player.

The hand's buttons and its discard menu are drawn here as plain components, each with a custom
id written by one of the ``*_id`` functions below, beside the template that reads it back
(``*_ID``). A click on one reaches the bot through the item of that template in
:mod:`cogs.cribbage.hand_clicks`, beside what answers it: drawing a hand needs none of that, and
answering a click needs nothing of a drawn button but its id (discord.py rebuilds the item from
the message's own component). Formats (all well under Discord's 100 characters):

=========================================  ===========================================
``crib:p:{game}:{step}:{card}``            play a card (card code like ``10H``)
``crib:s:{game}:{step}:{mask}:{index}``    toggle a card in the discard selection
``crib:d:{game}:{step}:{mask}``            confirm the discard of the selected cards
``crib:a:{game}:{step}``                   the discard in one go: a menu of the hand's cards
``crib:c:{game}:{step}``                   cut the pack (an old ``...:{t|m|b}`` still cuts)
``crib:i:{game}:{step}``                   ask the coach for a hint
=========================================  ===========================================

The claim pickers of a muggins show (``crib:n``) are :mod:`cogs.cribbage.muggins`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.engine import Card, Cut, Discard, Phase, Play, Variant, score_show
from bot.render.images import HandPicture, hand_picture
from bot.render.story import result_words, scores_words
from bot.render.table_text import score_words
from bot.render.text import hand_text
from bot.render.words import breakdown_summary, escape, hand_line, join_and, side_name
from bot.sessions import GameView, PrivateView
from cogs.cribbage.buttons import CARD, GAME_ID, MASK, STEP, Button, Style
from cogs.cribbage.muggins import claim_pickers, may_claim, owing_seats, show_text
from cogs.utils.items import view_of
from cogs.utils.pictures import HANDS, attachment

Select = discord.ui.Select

# ------------------------------------------------------ a hand's items: their ids and looks

PLAY_ID = rf"crib:p:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<card>{CARD})"
PICK_ID = rf"crib:s:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<mask>{MASK}):(?P<index>[0-5])"
DISCARD_ID = rf"crib:d:(?P<game>{GAME_ID}):(?P<step>{STEP}):(?P<mask>{MASK})"
MENU_ID = rf"crib:a:(?P<game>{GAME_ID}):(?P<step>{STEP})"
CUT_ID = rf"crib:c:(?P<game>{GAME_ID}):(?P<step>{STEP})(?::[tmb])?"  # older ids: t, m or b
HINT_ID = rf"crib:i:(?P<game>{GAME_ID}):(?P<step>{STEP})"


def play_button(game_id: int, step: int, card: Card, *, playable: bool = True) -> Button:
    """A card of the hand during the play, greyed when it may not be laid now (``PLAY_ID``)."""
    return Button(
        label=str(card),
        style=Style.primary if playable else Style.secondary,
        custom_id=f"crib:p:{game_id}:{step}:{card.code}",
        disabled=not playable,
    )


def pick_button(game_id: int, step: int, mask: int, index: int, card: Card) -> Button:
    """Card ``index`` of the hand during the discard: a click toggles it in the selection
    ``mask``, which the id carries (``PICK_ID``)."""
    selected = bool(mask >> index & 1)
    return Button(
        label=str(card),
        style=Style.success if selected else Style.secondary,
        emoji="✔️" if selected else None,
        custom_id=f"crib:s:{game_id}:{step}:{mask}:{index}",
    )


def discard_button(game_id: int, step: int, mask: int, *, label: str, ready: bool) -> Button:
    """Lay away the cards of the selection ``mask``, once it is complete (``DISCARD_ID``)."""
    return Button(
        label=label,
        style=Style.success if ready else Style.secondary,
        custom_id=f"crib:d:{game_id}:{step}:{mask}",
        disabled=not ready,
    )


def discard_menu(
    game_id: int, step: int, cards: Sequence[Card], need: int, *, chosen: Sequence[Card], crib: str
) -> Select:
    """The discard in one interaction: the hand's cards in a menu, exactly ``need`` to pick
    (``MENU_ID``).

    A menu takes a whole row (Discord: five rows a message, five buttons or one menu a row, 25
    options a menu), so the hand keeps its pick buttons too: one row for this menu, two for
    the six cards, one for Lay away and Hint."""
    options = [
        discord.SelectOption(label=str(card), value=card.code, default=card in chosen)
        for card in cards
    ]
    need = max(1, min(need, len(options)))
    return Select(
        custom_id=f"crib:a:{game_id}:{step}",
        placeholder=f"Lay away {need} card{'s' if need > 1 else ''} to {crib}",
        options=options,
        min_values=need,
        max_values=need,
    )


def cut_button(game_id: int, step: int) -> Button:
    """Cut the pack for the starter: one honest button, the depth being the shuffle's as a
    person's cut is (``CUT_ID``; older messages carry three, top, middle and bottom, which
    still cut)."""
    return Button(label="Cut", emoji="✂️", style=Style.primary, custom_id=f"crib:c:{game_id}:{step}")


def hint_button(game_id: int, step: int) -> Button:
    """Ask the coach (``HINT_ID``)."""
    return Button(
        label="Hint", emoji="💡", style=Style.secondary, custom_id=f"crib:i:{game_id}:{step}"
    )


@dataclass(frozen=True)
class PublicTable:
    """A started game's public view, in the shape the renderers read
    (:class:`bot.render.PublicGame`)."""

    view: GameView

    @property
    def variant(self) -> Variant:
        return self.view.variant

    @property
    def phase(self) -> Phase:
        if self.view.phase is None:
            raise ValueError(f"game {self.view.game_id} has not started: no table to draw")
        return self.view.phase

    @property
    def deal_number(self) -> int:
        return self.view.deal_number

    @property
    def dealer(self) -> int | None:
        return self.view.dealer

    @property
    def scores(self) -> Sequence[int]:
        return self.view.scores

    @property
    def to_act(self) -> Sequence[int]:
        return owing_seats(self.view)  # a muggins answer is optional: nobody waits on it

    @property
    def count(self) -> int:
        return self.view.count

    @property
    def pile(self) -> Sequence[Card]:
        return self.view.pile

    @property
    def starter(self) -> Card | None:
        return self.view.starter

    @property
    def winner(self) -> int | None:
        return self.view.winner


@dataclass(frozen=True)
class SeatTable(PublicTable):
    """What one seat may see, in the shape the renderers read (:class:`bot.render.SeatGame`).

    Public facts come from the :class:`GameView`; ``hand`` and ``kept`` answer only for the
    seat's own cards (asking for another seat's hand is a bug, and raises).
    """

    private: PrivateView

    def hand(self, seat: int) -> list[Card]:
        self._mine(seat)
        return list(self.private.hand)

    def kept(self, seat: int) -> list[Card]:
        self._mine(seat)
        return list(self.private.kept)

    def _mine(self, seat: int) -> None:
        if seat != self.private.seat:
            raise PermissionError("a private hand message may only show its own seat's cards")


@dataclass(frozen=True)
class HandMessage:
    content: str
    view: discord.ui.View
    picture: HandPicture | None = None  # the cards as a picture (None when images are off)

    @property
    def filename(self) -> str | None:
        return self.picture.filename if self.picture else None

    async def files(self) -> list[discord.File]:
        """The picture drawn (off the event loop), as the message's one attachment."""
        picture = self.picture
        if picture is None:
            return []
        return [await attachment(picture, picture.filename, HANDS, description=picture.alt)]

    async def edit(self, showing: str | None) -> dict:
        """The fields of an edit of a hand message whose attachment is named ``showing``:
        the picture is drawn and uploaded only when it is not the one already shown."""
        fields = {"content": self.content, "view": self.view}
        if self.picture is None or self.filename != showing:
            fields["attachments"] = await self.files()
        return fields


GAME_OVER = "The game is over: the result is in this {place}."


def game_over_text(in_thread: bool, view: GameView | None = None, names: Sequence[str] = ()) -> str:
    """What a hand says once its game has ended: where the result is (the game's thread, or
    its channel), and with the ended game's ``view`` the result in words."""
    text = GAME_OVER.format(place="thread" if in_thread else "channel")
    if view is None or not names:
        return text
    labels = [escape(side_name(s, names, view.variant)) for s in range(len(view.scores))]
    if view.winner is None:
        return f"{text}\nFinal scores: {scores_words(labels, view.scores)}."
    return f"{text}\n{result_words(labels, view.scores, view.winner)}."


def shown_picture(message: discord.Message | None) -> str | None:
    """The file name of the hand picture ``message`` shows (None: none, or not a hand)."""
    if message is None:
        return None
    names = [a.filename for a in message.attachments if a.filename.startswith("hand-")]
    return names[0] if len(names) == 1 and len(message.attachments) == 1 else None


def selected_cards(private: PrivateView, mask: int) -> list[Card]:
    """The cards of the (sorted) hand whose bits are set in ``mask``."""
    return [card for i, card in enumerate(private.hand) if mask >> i & 1]


def hand_message(
    view: GameView,
    private: PrivateView,
    names: Sequence[str],
    *,
    mask: int = 0,
    note: str = "",
    images: bool = True,
    next_deal_at: float | None = None,
) -> HandMessage:
    """The text and buttons of ``private``'s hand. ``mask`` is the discard selection so far;
    with ``images`` the cards also come as a picture; ``next_deal_at``: when the pause
    between deals ends (epoch seconds), shown while the table waits for the next deal."""
    game_id, step = view.game_id, private.step
    seat_table = SeatTable(view, private)
    if private.phase is Phase.SHOW:  # muggins: the player counts their own cards
        text = show_text(view, private, names)
    elif private.phase is Phase.NEXT_DEAL:
        text = next_deal_text(view, private, names, next_deal_at)
    else:
        text = hand_text(seat_table, private.seat, names, emoji=False)
    if private.phase is Phase.CUT_FOR_DEAL and private.must_act:
        text += "\nClick **Cut** on the table above."  # that cut is there (DealCutButton)
    elif private.phase is not Phase.CUT_FOR_DEAL:  # the scores, in words (the table's picture
        text += "\n" + score_words(view.scores, names, view.variant)  # may be all they show)
    picture = None
    if images and (private.hand or private.kept):
        picture = hand_picture(
            seat_table, private.seat, counting=private.counting, crib=private.counting_crib
        )
    items: list[discord.ui.Item] = []
    legal = private.legal_actions
    if private.must_act and private.phase is Phase.DISCARD:
        items = _discard_items(view, private, names, mask)
    elif (
        private.must_act
        and legal
        and isinstance(legal[0], Cut)
        and private.phase is not Phase.CUT_FOR_DEAL  # that cut is on the table (DealCutButton)
    ):
        items.append(_in_row(cut_button(game_id, step), 0))
    elif may_claim(private):
        for row, picker in enumerate(claim_pickers(game_id, step, crib=private.counting_crib)):
            items.append(_in_row(picker, row))
    elif private.phase is Phase.PLAY and private.hand:
        playable = {a.card for a in legal if isinstance(a, Play)}
        for card in private.hand:
            items.append(_in_row(play_button(game_id, step, card, playable=card in playable), 0))
        if private.must_act:
            items.append(_in_row(hint_button(game_id, step), 1))
    content = text if not note else f"{note}\n\n{text}"
    return HandMessage(content=content[:2000], view=view_of(*items), picture=picture)


def _discard_items(
    view: GameView, private: PrivateView, names: Sequence[str], mask: int
) -> list[discord.ui.Item]:
    """The discard: the menu of the hand's cards (one interaction: pick ``need`` and close),
    then the same cards as pick buttons, three a row, and Lay away with Hint below them.
    Four rows of Discord's five (a menu fills its row)."""
    game_id, step, need = view.game_id, private.step, view.variant.discards
    chosen = selected_cards(private, mask)
    dealer = view.dealer
    crib = "your crib" if dealer == private.seat else "the crib"
    if dealer is not None and dealer != private.seat:
        crib = f"{escape(names[dealer])}'s crib"
    items: list[discord.ui.Item] = [
        _in_row(discard_menu(game_id, step, private.hand, need, chosen=chosen, crib=crib), 0)
    ]
    for i, card in enumerate(private.hand):
        items.append(_in_row(pick_button(game_id, step, mask, i, card), 1 + i // 3))
    if len(chosen) == need:
        label = "Lay away " + " ".join(str(c) for c in chosen)
    else:
        label = f"Choose {need - len(chosen)} more" if chosen else f"Choose {need}"
    ready = len(chosen) == need and Discard(chosen) in private.legal_actions
    items.append(_in_row(discard_button(game_id, step, mask, label=label, ready=ready), 3))
    items.append(_in_row(hint_button(game_id, step), 3))
    return items


def next_deal_text(
    view: GameView, private: PrivateView, names: Sequence[str], next_deal_at: float | None
) -> str:
    """The hand between deals: what this hand and the crib were worth (both shown, so public
    now), and whether the player is ready for the next deal."""
    lines = [f"**Deal {view.deal_number} is shown.**"]
    starter = view.starter
    if starter is not None and len(private.kept) == 4:
        lines.append(_show_line("Your hand", private.kept, starter, crib=False))
    crib = tuple(view.shown_crib)
    if starter is not None and len(crib) == 4 and view.dealer is not None:
        owner = "Your" if view.dealer == private.seat else f"{escape(names[view.dealer])}'s"
        lines.append(_show_line(f"{owner} crib", crib, starter, crib=True))
    when = f"<t:{int(next_deal_at)}:R>" if next_deal_at is not None else "soon"
    waiting = [escape(names[s]) for s in view.to_act if s != private.seat]
    if private.must_act:
        # the button is on the table only: a click there lets the next table be posted and
        # edited through its token, not the bot's (cogs/cribbage/courier.py)
        lines.append(
            f"Click **Next deal** on the table above when you're ready: the next deal starts "
            f"{when}, or when everyone has."
        )
    elif waiting:
        lines.append(f"You're ready. Waiting for {join_and(waiting)} (next deal {when}).")
    else:
        lines.append("You're ready: the next deal is coming.")
    return "\n".join(lines)


def _show_line(label: str, cards: Sequence[Card], starter: Card, *, crib: bool) -> str:
    counted = score_show(list(cards), starter, crib=crib)
    why = breakdown_summary(counted)
    return f"{label}: {hand_line(cards)} · starter {starter} — worth **{counted.total}** ({why})"


def _in_row(item: discord.ui.Item, row: int) -> discord.ui.Item:
    item.row = row
    return item
