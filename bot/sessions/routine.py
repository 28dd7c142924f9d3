"""The manager's routine: the resume, the rounds the app runs on a clock, and the settings.

:class:`Routine` is the one base of :class:`~bot.sessions.GameSessionManager`: the half of the
front that is not a person's request on a table. The resume at start-up and the checks against
the logs (:mod:`.upkeep`); the idle sweep; the turn timers (:mod:`.timers`); the muggins windows
(:mod:`.muggins`); the pause between deals (:mod:`.deals`); each server's settings
(:mod:`.settings`) and each person's (``store.players``). Every round that can end a game passes
its outcomes through the matches (:mod:`.rounds`). The manager builds the parts and sets them.
"""

from __future__ import annotations

import logging
from typing import Any

from db.players import Players, PlayerSettings
from db.settings import ServerSettings

from .deals import NextDeals
from .muggins import MugginsWindows
from .rounds import Rounds
from .settings import Settings
from .tables import Tables
from .timers import Turn, TurnReport, TurnTimers
from .upkeep import Check, Upkeep
from .views import Outcome, ResumeReport, SweepReport

log = logging.getLogger("bot.sessions")


class Routine:
    """The clocked half of the manager (see the module docstring); its parts are set by
    :class:`~bot.sessions.GameSessionManager`."""

    _tables: Tables
    _upkeep: Upkeep
    _timers: TurnTimers
    _muggins: MugginsWindows
    _deals: NextDeals
    _rounds: Rounds
    _settings: Settings
    _players: Players

    # ------------------------------------------------------------------ options

    @property
    def idle_warn_after(self) -> float:
        return self._upkeep.idle_warn_after

    @property
    def idle_abandon_after(self) -> float:
        return self._upkeep.idle_abandon_after

    @property
    def verify_sample(self) -> int:
        return self._upkeep.verify_sample

    @property
    def forfeit_after(self) -> int:
        """How many turns of one player may run out in a game; the next one forfeits it."""
        return self._timers.forfeit_after

    @property
    def muggins_window(self) -> float:
        """Seconds an opponent has to call muggins on a claim before it is let go."""
        return self._muggins.window

    # ------------------------------------------------------------------ upkeep

    async def resume(self, *, verify: int | None = None) -> ResumeReport:
        """Load every lobby and active game, check a sample against its log, and resume.

        ``verify``: how many active games to replay from their log (default
        ``verify_sample``; pass a large number for all). Games whose snapshot is not at the end
        of their log are always replayed. Computer seats that were about to move, move now (and
        a person's last or only card is laid), and a match whose game ended just before a
        restart starts its next game; the outcomes are in the report so the cogs can update the
        channels.
        """
        return await self._rounds.resume(verify=verify)

    async def verify(self, game_id: int) -> Check:
        """Replay one live game's log and compare it with its state: ``'ok'``, ``'repaired'``
        (the log won) or ``'unreplayable'``."""
        return await self._upkeep.verify(game_id)

    async def verify_all(self) -> dict[int, Check]:
        """Check every live game against its log (see :meth:`verify`); game id -> result."""
        return await self._upkeep.verify_all()

    async def sweep_idle(self, now: float | None = None) -> SweepReport:
        """Warn about idle games, abandon those idle too long, unstick waiting computers, and
        start the next game of any match left waiting.

        Call it periodically (e.g. every few minutes) and send the warnings to the channels.
        """
        return await self._rounds.sweep_idle(now)

    # ------------------------------------------------------------------ turn timers

    async def turns(self, game_id: int) -> tuple[Turn, ...]:
        """The timed turns running in a game now (none when it is untimed or not running)."""
        return await self._timers.turns(game_id)

    async def sweep_turns(self, now: float | None = None) -> TurnReport:
        """Remind the players at half time, act for those out of time, forfeit repeat cases
        (:mod:`.timers`); a match's next game starts after a game that ended so."""
        return await self._rounds.sweep_turns(now)

    # ------------------------------------------------------------------ muggins windows

    def muggins_window_closes_at(self, game_id: int) -> float | None:
        """When the open muggins window of a game will be let go (None: no window is open)."""
        return self._muggins.closes_at(game_id)

    async def close_muggins_windows(self, now: float | None = None) -> list[Outcome]:
        """Let go every muggins window open for :attr:`muggins_window` seconds (:mod:`.muggins`);
        one outcome per game. The show goes on and may end a game (and start a match's next)."""
        return await self._rounds.close_muggins_windows(now)

    # ------------------------------------------------------------------ the pause between deals

    def next_deal_at(self, game_id: int) -> float | None:
        """When the pause between deals of a game ends, in epoch seconds (``None``: the game is
        not live or not between deals). Counted from the step that entered ``NEXT_DEAL`` with
        the server's ``next_deal_seconds`` (after a restart, from the game's last step)."""
        return self._deals.due_at(game_id)

    async def start_due_deals(self, now: float | None = None) -> list[Outcome]:
        """Every game whose pause between deals ran out gets ``NextDeal`` for each seat still
        waiting (durable steps, ``StepEvent.automatic``), and the deal starts (:mod:`.deals`);
        one outcome per game. Call it every couple of seconds and publish what it returns."""
        return await self._rounds.start_due_deals(now)

    # ------------------------------------------------------------------ server settings

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (``/cribbage settings``); the defaults outside a server."""
        return await self._settings.of(guild_id)

    async def update_settings(
        self, guild_id: int, *, by: int | None = None, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings (see :data:`db.settings.SETTING_NAMES`); a new
        turn time applies at once, to the turns running too, and so does a new pause between
        deals. ``ValueError`` if out of range (nothing changes)."""
        return await self._settings.update(guild_id, by=by, now=self._tables.now(), **changes)

    async def turn_time(self, guild_id: int | None) -> float | None:
        """A server's turn time in seconds (``None``: its turns are not timed)."""
        return await self._settings.turn_time(guild_id)

    # ------------------------------------------------------------------ player settings

    async def player_settings(self, user_id: int) -> PlayerSettings:
        """A person's own settings (cached; the defaults for one who never changed any)."""
        return await self._players.get(user_id)

    async def update_player_settings(self, user_id: int, **changes: Any) -> PlayerSettings:
        """Change some of a person's settings (``notify``, ``autoplay``: see
        :data:`db.PLAYER_SETTING_NAMES`); returns them all. ``ValueError`` for an unknown name
        or a value that is not on or off (nothing changes). A change of ``autoplay`` counts
        from that person's next card."""
        settings = await self._players.update(user_id, now=self._tables.now(), **changes)
        log.info("user %d: player settings changed: %s", user_id, sorted(changes))
        return settings
