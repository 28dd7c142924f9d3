"""The store's reads of games, logs and results, and the bot's own key-value facts.

:class:`GameReads` is a mixin of :class:`db.store.Store`: its methods are Store methods and use
the Store's connection, lock and transactions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from . import statements as sql
from .errors import StoreError
from .records import ActionRecord, DealPoints, GameRecord, MessageRef, ResultRecord


class GameReads:
    """Reads of :class:`db.store.Store` (see there for the connection and the lock)."""

    # ------------------------------------------------------------------ reads

    async def load_active_games(self) -> list[GameRecord]:
        """Every lobby and active game, with seats, message ids and latest snapshot."""
        return await self._load_games("g.status IN ('lobby', 'active')", ())

    async def load_game(self, game_id: int) -> GameRecord | None:
        """One game in any status, or ``None``."""
        games = await self._load_games("g.id = ?", (game_id,))
        return games[0] if games else None

    async def _load_games(self, where: str, params: Sequence[Any]) -> list[GameRecord]:
        if self._closed:
            raise StoreError("The database is closed.")
        async with self._lock:
            return await sql.select_games(self._conn, where, params)

    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        """A game's action log, in order."""
        rows = await self._fetchall(
            "SELECT seq, seat, action, created_at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [ActionRecord(game_id, seq, seat, json.loads(a), at) for seq, seat, a, at in rows]

    async def game_status(self, game_id: int) -> str | None:
        """``'lobby'``, ``'active'``, ``'finished'``, ``'abandoned'``, ``'cancelled'`` or None."""
        rows = await self._fetchall("SELECT status FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def messages(self, game_id: int) -> dict[str, MessageRef]:
        """The stored public message ids of a game, by kind."""
        rows = await self._fetchall(
            "SELECT kind, channel_id, message_id FROM game_messages WHERE game_id = ?", (game_id,)
        )
        return {kind: MessageRef(channel_id, message_id) for kind, channel_id, message_id in rows}

    async def results(self, game_id: int) -> list[ResultRecord]:
        """The per-seat results of an ended game (empty before it ends)."""
        rows = await self._fetchall(
            "SELECT game_id, seat, side, outcome, won, final_score, skunk_given, skunk_taken, "
            "pegging, hand, crib, heels, best_hand, best_hand_cards FROM results "
            "WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [ResultRecord(*row[:4], bool(row[4]), *row[5:]) for row in rows]

    async def deal_points(self, game_id: int) -> list[DealPoints]:
        """A game's points per deal and seat, in deal order."""
        rows = await self._fetchall(
            "SELECT deal, seat, pegging, hand, crib, heels, hand_value, hand_cards, crib_value, "
            "crib_cards FROM deal_points WHERE game_id = ? ORDER BY deal, seat",
            (game_id,),
        )
        return [DealPoints(*row) for row in rows]

    # ------------------------------------------------------------------ the bot's own facts

    async def get_meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``None`` if never set)."""
        rows = await self._fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
