"""The one base of every persistent button and menu, and the one guard of their clicks.

A :class:`CribItem` is a ``discord.ui.DynamicItem``: its state lives in its custom id, so a click
after a restart rebuilds it from the id alone (``from_custom_id``), with no constructor argument
to hand it its handler. The handlers are therefore registered on the bot: a cog, when it loads,
registers each of its answerers under a :class:`Role` in the bot's :class:`Answerers`
(:func:`answerers_of`), and an item's :meth:`CribItem.run` looks up the role it needs
(``answerers.get(HANDS).on_play(interaction, game, step, card)``). A role is typed by what
answers it: a Protocol written next to the items that use it, or the answerer's own class when
the items sit beside it (a hand's items, ``cogs/cribbage/hand_clicks.py``); either way neither
the items nor this module import the cog.

The click is guarded in :meth:`CribItem.callback`, for every button and menu alike: the
:data:`WITNESS` sees it first and after it was answered; a failure is logged with its kind and
game (never the rest of the custom id, which may name a card in the clicker's hand), and the
clicker is told privately.

Custom-id templates spell digits ``[0-9]``: a click carries whatever id a client sends, and
``\\d`` would also take other scripts' digits.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

import discord

from cogs.utils.replies import database_busy, failure_text, tell

log = logging.getLogger(__name__)

HANDLED = "crib:handled"  # set in Interaction.extras by the item that takes a click
NO_ID = r"(?!)"  # the template of the abstract base: it matches no custom id

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
AnswererT = TypeVar("AnswererT")
ANSWERERS = "crib_answerers"  # the attribute of the client that keeps its Answerers


@dataclass(frozen=True)
class Role(Generic[AnswererT]):
    """A typed key of :class:`Answerers`: what answers one family of clicks (a hand's buttons,
    the rematch buttons, ...). ``AnswererT`` is the Protocol that answerer implements. Roles are
    equal by name: an extension reloaded (its modules imported again) answers the same roles."""

    name: str


class Answerers:
    """Who answers the clicks on the bot's persistent items, by :class:`Role`; the cogs register
    their answerers at load and forget them at unload."""

    def __init__(self) -> None:
        self._by_role: dict[Role[Any], object] = {}

    def register(self, role: Role[AnswererT], answerer: AnswererT) -> None:
        self._by_role[role] = answerer

    def forget(self, role: Role[Any]) -> None:
        self._by_role.pop(role, None)

    def get(self, role: Role[AnswererT]) -> AnswererT:
        """The answerer registered for ``role``; RuntimeError if none is (its cog is not
        loaded), which the click's guard reports to the clicker."""
        try:
            answerer = self._by_role[role]
        except KeyError:
            message = f"nothing answers the {role.name} clicks (a cog is not loaded)"
            raise RuntimeError(message) from None
        return cast(AnswererT, answerer)  # register() took it as an AnswererT for this role


def answerers_of(client: discord.Client) -> Answerers:
    """The :class:`Answerers` kept on ``client`` (made the first time it is asked for)."""
    answerers = getattr(client, ANSWERERS, None)
    if not isinstance(answerers, Answerers):
        answerers = Answerers()
        setattr(client, ANSWERERS, answerers)
    return answerers


class Witness(Protocol):
    """What sees every click of an item, whatever its role."""

    def saw_click(self, interaction: discord.Interaction) -> None:
        """Before the click's handler runs (e.g. learn the clicker's name)."""

    def answered_click(self, interaction: discord.Interaction) -> None:
        """After the handler answered the click without an error."""


WITNESS: Role[Witness] = Role("witness")


class CribItem(discord.ui.DynamicItem[ItemT], template=NO_ID):
    """A button or menu of the bot; subclasses give a ``template`` and implement :meth:`run`."""

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.extras[HANDLED] = True  # the stale-click listener leaves this click alone
        try:
            answerers = answerers_of(interaction.client)
            witness = answerers.get(WITNESS)
            witness.saw_click(interaction)
            await self.run(answerers, interaction)
            witness.answered_click(interaction)
        except Exception as error:
            if database_busy(error):  # another process held the database: nothing was done
                log.warning("Click on %s: the database was locked (%s)", logged_id(self), error)
            else:
                log.exception("Click on %s failed", logged_id(self))
            await tell(interaction, failure_text(error))

    async def run(self, answerers: Answerers, interaction: discord.Interaction) -> None:
        """Hand the click to its answerer (``answerers.get(ROLE)``)."""
        raise NotImplementedError


def logged_id(item: discord.ui.DynamicItem[Any]) -> str:
    """The part of a custom id that may be logged: its kind and game (``crib:p:12``). What
    follows may name a card still in the clicker's hand (a play button's id ends in it)."""
    return ":".join(item.custom_id.split(":")[:3])


def handled(interaction: discord.Interaction) -> bool:
    """Whether an item of ours has taken this click (discord.py runs it before any listener)."""
    return bool(interaction.extras.get(HANDLED))


def custom_id_of(interaction: discord.Interaction) -> str:
    """The custom id a component interaction carries ("" for any other interaction)."""
    data: Mapping[str, object] = interaction.data or {}
    return str(data.get("custom_id", ""))


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view made only of dynamic items, already stopped.

    The clicks on its buttons reach the bot through the dynamic items registered at start,
    never through the view. A view still running would be kept by discord.py in its view store
    for every message sent or edited with it, and an ephemeral one sent with a 15-minute timeout
    task: thousands of objects per busy hour for the garbage collector to scan.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
