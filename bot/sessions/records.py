"""What the store keeps of a game, live or ended: its public message ids, and its log rebuilt.

The ids of a game's public messages (the lobby, the table, ...) and a game rebuilt from its log
for a replay. Nothing here changes a game; :meth:`GameRecords.set_message` only records where
a message of the game was sent.
"""

from __future__ import annotations

from bot.engine import Variant
from db import MessageRef
from db.games import Games

from .history import Replay, build_replay, hold_of, muggins_rules_of, rebuild
from .requests import known_game_id
from .session import seat_view
from .tables import Tables
from .views import Refusal, RefusalReason, level_of

R = RefusalReason


class GameRecords:
    """A game's stored message ids and its replay (see the module docstring)."""

    def __init__(self, games: Games, tables: Tables) -> None:
        self._games = games
        self._tables = tables

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game (live or not), by kind."""
        s = self._tables.sessions.get(game_id)
        if s is not None:
            return dict(s.messages)
        if not known_game_id(game_id):
            return {}
        return await self._games.messages(game_id)

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the public message of ``kind`` (e.g. ``"lobby"``, ``"table"``) of a game."""
        if not known_game_id(game_id):
            return  # no such game: nothing to remember
        ref = MessageRef(channel_id, message_id)
        await self._games.set_message(game_id, kind, ref)
        s = self._tables.sessions.get(game_id)
        if s is not None:
            s.messages[kind] = ref
            s.changed()

    async def replay(self, game_id: int, *, allow_active: bool = False) -> Replay | Refusal:
        """A game rebuilt from its log, deal by deal (hands as dealt included).

        Only for games that have ended, unless ``allow_active`` (it reveals every hand).
        """
        record = await self._games.load_game(game_id) if known_game_id(game_id) else None
        if record is None:
            return Refusal(R.UNKNOWN_GAME, "I can't find that game.")
        if record.seed is None:
            return Refusal(R.NOT_STARTED, "That game never started, so there is nothing to replay.")
        if record.status == "active" and not allow_active:
            return Refusal(R.HIDDEN, "That game is still being played; replay it when it ends.")
        variant = Variant(record.players, record.partnerships, record.target, record.muggins)
        actions = await self._games.load_actions(game_id)
        hold, rules = hold_of(record.state), muggins_rules_of(record.state)
        rebuilt = rebuild(
            variant, record.seed, record.first_dealer, actions, hold=hold, muggins_rules=rules
        )
        seats = tuple(
            seat_view(variant, r.seat, r.user_id, level_of(r.computer)) for r in record.seats
        )
        return build_replay(game_id, seats, rebuilt)
