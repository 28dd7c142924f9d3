"""Helpers for the standings tests: ended games written straight through the store's API."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from bot.ratings import RATER
from db import Finish, SeatOutcome, SeatRecord, Store

Player = int | str  # a user id, or a computer level ("easy", "standard", "expert")


@contextlib.asynccontextmanager
async def rated_copy(built: Path | None, path: Path | str) -> AsyncIterator[Store]:
    """A store opened on a copy (at ``path``) of a database built once per module, rated
    (``built`` ``None``: the database at ``path``, e.g. a PostgreSQL URL)."""
    if built is not None:
        shutil.copy(built, path)
    store = await Store.open(path)
    try:
        await store.standings.enable_ratings(RATER)
        yield store
    finally:
        await store.close()


async def record_game(
    store: Store,
    players: Sequence[Player],
    scores: Sequence[int],
    *,
    winner: int | None = None,
    guild_id: int = 1,
    channel_id: int = 900,
    target: int = 121,
    partnerships: bool = False,
    forfeit_seat: int | None = None,
    abandoned: bool = False,
    skunks: Sequence[int] | None = None,
    now: float = 100.0,
) -> int:
    """An ended game: seats in order, ``scores`` per side, ``winner`` the winning side.

    Sides are seats, or ``seat % 2`` with partnerships. ``skunks`` per side (default: by the
    rules, from the scores). A forfeit: every other side wins, as the session manager records.
    """
    sides = 2 if partnerships else len(players)
    side_of = (lambda seat: seat % 2) if partnerships else (lambda seat: seat)
    host = players[0]
    assert isinstance(host, int), "the host is a person"
    game_id = await store.lobbies.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host,
        players=len(players),
        partnerships=partnerships,
        target=target,
        now=now,
    )
    for seat, player in enumerate(players[1:], start=1):
        record = (
            SeatRecord(seat, user_id=player)
            if isinstance(player, int)
            else SeatRecord(seat, computer=player)
        )
        await store.lobbies.add_seat(game_id, record, now=now)
    await store.lobbies.start_game(
        game_id,
        seed=1,
        first_dealer=0,
        teams={seat: side_of(seat) for seat in range(len(players))} if partnerships else {},
        state={},
        ready=[0] * len(players),
        now=now,
    )
    if skunks is None:
        line, double = target - 30, (61 if target == 121 else None)
        skunks = [
            0
            if side == winner or forfeit_seat is not None or abandoned
            else 2
            if double and scores[side] < double
            else 1
            if scores[side] < line
            else 0
            for side in range(sides)
        ]
    worst = max(skunks)
    forfeit_side = None if forfeit_seat is None else side_of(forfeit_seat)

    def outcome(side: int) -> str:
        if abandoned:
            return "abandoned"
        if forfeit_side is not None:
            return "forfeited" if side == forfeit_side else "won"
        return "won" if side == winner else "lost"

    seats = tuple(
        SeatOutcome(
            seat=seat,
            side=side_of(seat),
            outcome=outcome(side_of(seat)),  # type: ignore[arg-type]
            final_score=scores[side_of(seat)],
            skunk_given=worst if outcome(side_of(seat)) == "won" and forfeit_side is None else 0,
            skunk_taken=skunks[side_of(seat)],
        )
        for seat in range(len(players))
    )
    if abandoned:
        finish = Finish("abandoned", "abandoned", None, seats)
    elif forfeit_seat is not None:
        others = [s for s in range(sides) if s != forfeit_side]
        finish = Finish(
            "finished",
            "forfeit",
            others[0] if len(others) == 1 else None,
            seats,
            forfeit_seat=forfeit_seat,
        )
    else:
        finish = Finish("finished", "won", winner, seats)
    await store.games.record_result(game_id, finish, now=now + 1)
    return game_id
