"""After the game: its summary, and a player's review, both from the game's replay.

Only games that have ended (a game in progress: a refusal, for anyone, as for its replay). The
summary is public (it runs in a thread: a few milliseconds); a review is the asker's own
decisions only, with what they knew at each moment, and runs in a worker process
(:func:`bot.ai.review.review` searches every card laid: up to a few seconds of CPU), so the
event loop and the other tables never wait for it. An ended game never changes, so the last
:data:`KEEP` reviews are kept: asking again answers at once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.ai.review import Review, review

from .history import Replay
from .records import GameRecords
from .summary import GameSummary, summarize
from .views import Refusal, RefusalReason

log = logging.getLogger(__name__)
R = RefusalReason

_context = multiprocessing.get_context("forkserver")
KEEP = 64


class Analyst:
    """Summaries and reviews of ended games (``records`` rebuilds them from their logs)."""

    def __init__(self, records: GameRecords) -> None:
        self._records = records
        self._worker: ProcessPoolExecutor | None = None
        self._kept: OrderedDict[tuple[int, int], Review] = OrderedDict()

    async def summary(self, game_id: int) -> GameSummary | Refusal:
        """The summary of an ended game (anyone may ask: it is all public once it ended)."""
        replay = await self._records.replay(game_id)
        if isinstance(replay, Refusal):
            return replay
        return await asyncio.to_thread(summarize, replay)

    async def review(self, game_id: int, user_id: int) -> Review | Refusal:
        """``user_id``'s own decisions in the ended game ``game_id``, valued by the expert."""
        replay = await self._records.replay(game_id)
        if isinstance(replay, Refusal):
            return replay
        seat = next((s.seat for s in replay.seats if s.user_id == user_id), None)
        if seat is None:
            return Refusal(
                R.NOT_SEATED, "You didn't play in that game, so there's nothing to review."
            )
        key = (game_id, seat)
        done = self._kept.get(key)
        if done is None:
            done = self._kept[key] = await self._run(replay, seat)
            while len(self._kept) > KEEP:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return done

    async def _run(self, replay: Replay, seat: int) -> Review:
        loop = asyncio.get_running_loop()
        worker = self._start()
        try:
            return await loop.run_in_executor(worker, review, replay, seat)
        except BrokenProcessPool:
            log.warning("the review worker died; starting a new one")
            if self._worker is worker:
                self._worker = None
                worker.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._start(), review, replay, seat)

    def _start(self) -> ProcessPoolExecutor:
        if self._worker is None:
            self._worker = ProcessPoolExecutor(1, mp_context=_context)
        return self._worker

    def stop(self) -> None:
        """Let the worker finish what it was given and exit (a new one starts if needed)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=False)
