"""The Cribbage feature: the ``/cribbage`` commands, their buttons and menus, the table posted
in the channel, the players' hands, replays and the after-game buttons.

The extension ``cogs.cribbage`` (loaded by :mod:`bot.app.client`) adds the
:class:`~cogs.cribbage.cog.Cribbage` cog; the cog composes the modules of this package, handing
each what it needs. Helpers that know no cog live in :mod:`cogs.utils`.
"""

from cogs.cribbage.cog import Cribbage, setup

__all__ = ["Cribbage", "setup"]
