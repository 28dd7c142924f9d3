"""Tournaments in the store: the tournament, who entered it, and the pairings of each round.

:class:`Tournaments` is the repository ``store.tournaments``, on the
:class:`~db.connection.Database` it receives. Its statements are SQLAlchemy Core against
:mod:`db.schema`'s ``tournaments``, ``tournament_players`` and ``tournament_pairings``, built
once. The store keeps rows, not rules: which round comes next, who won a pairing and the
standings are :mod:`bot.tournament`'s, run by :mod:`bot.sessions.tournaments`.

Every method is one transaction. A round's pairings are written with the round's number; a
pairing's game is created (the game, its seats and first snapshot) together with the pairing's
link to it, so a crash leaves either no game or a game its pairing knows. A channel holds at
most one tournament that is not over (:class:`~db.errors.Conflict` otherwise).

>>> import asyncio, tempfile, pathlib
>>> from db import Store
>>> async def demo(path):
...     store = await Store.open(path)
...     settings = TournamentSettings("Friday night", "swiss", rounds=3)
...     made = await store.tournaments.create(1, 10, 100, settings, seed=7, now=0.0)
...     await store.tournaments.add_entrant(made.id, 101, now=1.0)
...     stored = await store.tournaments.load(made.id)
...     await store.close()
...     return stored.record.status, stored.record.settings.name, stored.entrants[0].user_id
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "demo.db"))
('signup', 'Friday night', 101)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import bindparam, delete, insert, or_, select, update

from . import schema as t
from .connection import Connection, Database
from .errors import Conflict
from .games import insert_game
from .records import NewGame

TournamentStatus = Literal["signup", "running", "paused", "finished", "cancelled"]
EntrantStatus = Literal["entered", "dropped", "withdrew"]
PairingState = Literal["waiting", "playing", "decided"]
DecidedBy = Literal["played", "bye", "deadline", "organiser", "withdrawal", "drop"]
#: The statuses of a tournament that is not over (it holds its channel).
OPEN_STATUSES: tuple[TournamentStatus, ...] = ("signup", "running", "paused")
FORMATS = ("swiss", "round robin", "single elimination")
DEADLINE_RULES = ("forfeit", "score")


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What the organiser chose: the ``name``, the ``format`` (``"swiss"``, ``"round robin"``
    or ``"single elimination"``), Swiss ``rounds`` (0 for the others), each game's ``target``,
    ``games_to_win`` (1: one game, 2: best of 3, 3: best of 5), the spread settings, the
    sign-up ``cap``, the start time (``None``: when the organiser starts it), each round's
    ``deadline_seconds`` and ``deadline_rule`` (``"forfeit"``: the absent side forfeits;
    ``"score"``: the game goes to the side ahead)."""

    name: str
    format: str
    rounds: int = 0
    target: int = 121
    games_to_win: int = 1
    spread_cap: int | None = None
    bye_spread: int = 0
    forfeit_spread: int = 0
    cap: int = 64
    starts_at: float | None = None
    deadline_seconds: int = 24 * 3600
    deadline_rule: str = "forfeit"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A row of ``tournaments``: where it is, who runs it, its settings and how far it came
    (``round``: the round being played, 0 during sign-up)."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    settings: TournamentSettings
    status: TournamentStatus
    round: int
    seed: int
    season_id: int | None
    created_at: float
    started_at: float | None
    paused_at: float | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """A player of a tournament: when they joined, their rating and seed once it started, and
    whether they left (``dropped`` by the organiser, ``withdrew`` themselves); ``replaced_by``:
    who plays their place now."""

    user_id: int
    joined_at: float
    rating: float | None = None
    seed: int | None = None
    status: EntrantStatus = "entered"
    left_at: float | None = None
    replaced_by: int | None = None


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """One pairing of a round: ``first`` and ``second`` (``None``: a bye for ``first``), the
    thread and game it is played in, the games it finished (``(game id, first's points,
    second's points)``), its deadline, and once decided, how (``forfeited_by``: the side that
    forfeited)."""

    round: int
    table: int
    first: int
    second: int | None
    state: PairingState = "waiting"
    thread_id: int | None = None
    game_id: int | None = None
    games: tuple[tuple[int, int, int], ...] = ()
    deadline_at: float | None = None
    forfeited_by: int | None = None
    decided_by: DecidedBy | None = None
    decided_at: float | None = None


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament with its players (in the order they joined) and every pairing so far."""

    record: TournamentRecord
    entrants: tuple[EntrantRecord, ...]
    pairings: tuple[PairingRecord, ...]


_t, _p, _q = t.tournaments.c, t.tournament_players.c, t.tournament_pairings.c
#: Not over (an ``IN`` of bound values, which the store compiles once for SQLite, is written
#: as its ``OR``).
_NOT_OVER = or_(*(_t.status == status for status in OPEN_STATUSES))
_st = t.standings.c

_NEW = (
    insert(t.tournaments)
    .values(
        guild_id=bindparam("guild_id"),
        channel_id=bindparam("channel_id"),
        organiser_id=bindparam("organiser_id"),
        name=bindparam("name"),
        format=bindparam("format"),
        rounds=bindparam("rounds"),
        target=bindparam("target"),
        games_to_win=bindparam("games_to_win"),
        spread_cap=bindparam("spread_cap"),
        bye_spread=bindparam("bye_spread"),
        forfeit_spread=bindparam("forfeit_spread"),
        cap=bindparam("cap"),
        starts_at=bindparam("starts_at"),
        deadline_seconds=bindparam("deadline_seconds"),
        deadline_rule=bindparam("deadline_rule"),
        status="signup",
        round=0,
        seed=bindparam("seed"),
        season_id=bindparam("season_id"),
        created_at=bindparam("now"),
    )
    .returning(_t.id)
)
_TOURNAMENT_COLUMNS = (
    _t.id,
    _t.guild_id,
    _t.channel_id,
    _t.message_id,
    _t.organiser_id,
    _t.name,
    _t.format,
    _t.rounds,
    _t.target,
    _t.games_to_win,
    _t.spread_cap,
    _t.bye_spread,
    _t.forfeit_spread,
    _t.cap,
    _t.starts_at,
    _t.deadline_seconds,
    _t.deadline_rule,
    _t.status,
    _t.round,
    _t.seed,
    _t.season_id,
    _t.created_at,
    _t.started_at,
    _t.paused_at,
    _t.ended_at,
)
_ONE = select(*_TOURNAMENT_COLUMNS).where(_t.id == bindparam("id"))
_OPEN = select(*_TOURNAMENT_COLUMNS).where(_NOT_OVER).order_by(_t.id)
_ENTRANTS = (
    select(
        _p.user_id,
        _p.joined_at,
        _p.rating,
        _p.seed,
        _p.status,
        _p.left_at,
        _p.replaced_by,
    )
    .where(_p.tournament_id == bindparam("id"))
    .order_by(_p.joined_at, _p.user_id)
)
_PAIRINGS = (
    select(
        _q.round,
        _q.table_no,
        _q.first_id,
        _q.second_id,
        _q.state,
        _q.thread_id,
        _q.game_id,
        _q.games,
        _q.deadline_at,
        _q.forfeited_by,
        _q.decided_by,
        _q.decided_at,
    )
    .where(_q.tournament_id == bindparam("id"))
    .order_by(_q.round, _q.table_no)
)
# An update's parameters are named apart from its table's columns (SQLAlchemy keeps those
# names for itself).
_SET_MESSAGE = (
    update(t.tournaments).where(_t.id == bindparam("tid")).values(message_id=bindparam("message"))
)
_STATUS_FOR_UPDATE = select(_t.status, _t.cap).where(_t.id == bindparam("id"))
_COUNT_ENTRANTS = select(_p.user_id).where(_p.tournament_id == bindparam("id"))
_NEW_ENTRANT = insert(t.tournament_players).values(
    tournament_id=bindparam("id"), user_id=bindparam("user"), joined_at=bindparam("now")
)
_REMOVE_ENTRANT = delete(t.tournament_players).where(
    _p.tournament_id == bindparam("id"), _p.user_id == bindparam("user")
)
_SEED_ENTRANT = (
    update(t.tournament_players)
    .where(_p.tournament_id == bindparam("id"), _p.user_id == bindparam("user"))
    .values(rating=bindparam("new_rating"), seed=bindparam("new_seed"))
)
_LEAVE = (
    update(t.tournament_players)
    .where(
        _p.tournament_id == bindparam("id"),
        _p.user_id == bindparam("user"),
        _p.status == "entered",
    )
    .values(status=bindparam("new_status"), left_at=bindparam("now"))
)
_REPLACE = (
    update(t.tournament_players)
    .where(
        _p.tournament_id == bindparam("id"),
        _p.user_id == bindparam("user"),
        _p.status == "entered",
    )
    .values(replaced_by=bindparam("by"))
)
_START = (
    update(t.tournaments)
    .where(_t.id == bindparam("tid"), _t.status == "signup")
    .values(status="running", round=1, rounds=bindparam("new_rounds"), started_at=bindparam("now"))
)
_NEXT_ROUND = (
    update(t.tournaments)
    .where(_t.id == bindparam("tid"), _t.round == bindparam("previous"))
    .values(round=bindparam("new_round"))
)
_NEW_PAIRING = insert(t.tournament_pairings).values(
    tournament_id=bindparam("id"),
    round=bindparam("round"),
    table_no=bindparam("table_no"),
    first_id=bindparam("first_id"),
    second_id=bindparam("second_id"),
    thread_id=bindparam("thread_id"),
    game_id=bindparam("game_id"),
    games=bindparam("games"),
    deadline_at=bindparam("deadline_at"),
    state=bindparam("state"),
    forfeited_by=bindparam("forfeited_by"),
    decided_by=bindparam("decided_by"),
    decided_at=bindparam("decided_at"),
)
_SAVE_PAIRING = (
    update(t.tournament_pairings)
    .where(
        _q.tournament_id == bindparam("id"),
        _q.round == bindparam("k_round"),
        _q.table_no == bindparam("k_table"),
    )
    .values(
        thread_id=bindparam("v_thread_id"),
        game_id=bindparam("v_game_id"),
        games=bindparam("v_games"),
        deadline_at=bindparam("v_deadline_at"),
        state=bindparam("v_state"),
        forfeited_by=bindparam("v_forfeited_by"),
        decided_by=bindparam("v_decided_by"),
        decided_at=bindparam("v_decided_at"),
    )
)
_SET_STATUS = (
    update(t.tournaments)
    .where(_t.id == bindparam("tid"), _NOT_OVER)
    .values(status=bindparam("new_status"), paused_at=bindparam("new_paused_at"))
)
_END = (
    update(t.tournaments)
    .where(_t.id == bindparam("tid"), _NOT_OVER)
    .values(status=bindparam("new_status"), ended_at=bindparam("now"), paused_at=None)
)
_SHIFT_DEADLINES = (
    update(t.tournament_pairings)
    .where(
        _q.tournament_id == bindparam("id"),
        _q.round == bindparam("k_round"),
        _q.state != "decided",
        _q.deadline_at.is_not(None),
    )
    .values(deadline_at=_q.deadline_at + bindparam("seconds"))
)
_RATING = select(_st.ordinal).where(
    _st.pool == "people", _st.scope == bindparam("scope"), _st.player == bindparam("player")
)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _record(row: Sequence[Any]) -> TournamentRecord:
    (id_, guild_id, channel_id, message_id, organiser_id, name, format_, rounds, target) = row[:9]
    (games_to_win, spread_cap, bye_spread, forfeit_spread, cap, starts_at) = row[9:15]
    (deadline_seconds, deadline_rule, status, round_, seed, season_id) = row[15:21]
    created_at, started_at, paused_at, ended_at = row[21:]
    settings = TournamentSettings(
        name=name,
        format=format_,
        rounds=rounds,
        target=target,
        games_to_win=games_to_win,
        spread_cap=spread_cap,
        bye_spread=bye_spread,
        forfeit_spread=forfeit_spread,
        cap=cap,
        starts_at=starts_at,
        deadline_seconds=deadline_seconds,
        deadline_rule=deadline_rule,
    )
    return TournamentRecord(
        id=id_,
        guild_id=guild_id,
        channel_id=channel_id,
        message_id=message_id,
        organiser_id=organiser_id,
        settings=settings,
        status=status,
        round=round_,
        seed=int(seed),
        season_id=season_id,
        created_at=created_at,
        started_at=started_at,
        paused_at=paused_at,
        ended_at=ended_at,
    )


def _pairing(row: Sequence[Any]) -> PairingRecord:
    round_, table, first, second, state, thread_id, game_id, games, deadline_at = row[:9]
    forfeited_by, decided_by, decided_at = row[9:]
    return PairingRecord(
        round=round_,
        table=table,
        first=first,
        second=second,
        state=state,
        thread_id=thread_id,
        game_id=game_id,
        games=tuple((g, a, b) for g, a, b in json.loads(games)),
        deadline_at=deadline_at,
        forfeited_by=forfeited_by,
        decided_by=decided_by,
        decided_at=decided_at,
    )


#: The columns of a pairing that change after it is written.
_CHANGING = (
    "thread_id",
    "game_id",
    "games",
    "deadline_at",
    "state",
    "forfeited_by",
    "decided_by",
    "decided_at",
)


def _pairing_params(tournament_id: int, p: PairingRecord) -> dict[str, Any]:
    return {
        "id": tournament_id,
        "round": p.round,
        "table_no": p.table,
        "first_id": p.first,
        "second_id": p.second,
        "thread_id": p.thread_id,
        "game_id": p.game_id,
        "games": _dumps([list(g) for g in p.games]),
        "deadline_at": p.deadline_at,
        "state": p.state,
        "forfeited_by": p.forfeited_by,
        "decided_by": p.decided_by,
        "decided_at": p.decided_at,
    }


def _saved(tournament_id: int, p: PairingRecord) -> dict[str, Any]:
    """The parameters of :data:`_SAVE_PAIRING` for ``p``."""
    params = _pairing_params(tournament_id, p)
    changed = {f"v_{name}": params[name] for name in _CHANGING}
    return {"id": tournament_id, "k_round": p.round, "k_table": p.table, **changed}


class Tournaments:
    """The tournament statements, on the :class:`~db.connection.Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    # ------------------------------------------------------------------ sign-up

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        settings: TournamentSettings,
        *,
        seed: int,
        now: float,
        season_id: int | None = None,
    ) -> TournamentRecord:
        """A new tournament taking sign-ups. Raises :class:`Conflict` when the channel holds
        another that is not over, or a setting breaks the schema's rules."""
        s = settings
        params = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "organiser_id": organiser_id,
            "name": s.name,
            "format": s.format,
            "rounds": s.rounds,
            "target": s.target,
            "games_to_win": s.games_to_win,
            "spread_cap": s.spread_cap,
            "bye_spread": s.bye_spread,
            "forfeit_spread": s.forfeit_spread,
            "cap": s.cap,
            "starts_at": s.starts_at,
            "deadline_seconds": s.deadline_seconds,
            "deadline_rule": s.deadline_rule,
            "seed": str(seed),
            "season_id": season_id,
            "now": now,
        }
        try:
            async with self._database.write() as conn:
                tournament_id = (await conn.execute(_NEW, params)).scalar()
                row = (await conn.execute(_ONE, {"id": tournament_id})).first()
        except Conflict as err:
            raise Conflict(f"Channel {channel_id} already has a tournament ({err}).") from err
        assert row is not None
        return _record(row)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The tournament's message (its sign-up, then its standings) is ``message_id``."""
        async with self._database.write() as conn:
            await conn.execute(_SET_MESSAGE, {"tid": tournament_id, "message": message_id})

    async def add_entrant(self, tournament_id: int, user_id: int, *, now: float) -> None:
        """``user_id`` enters the tournament. Raises :class:`Conflict` when they already have,
        the tournament takes no sign-ups, or it is full."""
        try:
            async with self._database.write() as conn:
                row = (await conn.execute(_STATUS_FOR_UPDATE, {"id": tournament_id})).first()
                if row is None or row[0] != "signup":
                    raise Conflict(f"Tournament {tournament_id} takes no sign-ups.")
                entered = len((await conn.execute(_COUNT_ENTRANTS, {"id": tournament_id})).all())
                if entered >= row[1]:
                    raise Conflict(f"Tournament {tournament_id} is full.")
                await conn.execute(_NEW_ENTRANT, {"id": tournament_id, "user": user_id, "now": now})
        except Conflict as err:
            raise Conflict(
                f"User {user_id} cannot enter tournament {tournament_id}: {err}"
            ) from err

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """``user_id`` leaves during sign-up; whether they had entered."""
        async with self._database.write() as conn:
            cursor = await conn.execute(_REMOVE_ENTRANT, {"id": tournament_id, "user": user_id})
        return cursor.rowcount == 1

    # ------------------------------------------------------------------ rounds

    async def start(
        self,
        tournament_id: int,
        seeds: Sequence[tuple[int, float | None, int]],
        pairings: Sequence[PairingRecord],
        *,
        rounds: int,
        now: float,
    ) -> None:
        """Sign-up is over: each ``(user id, rating or None, seed)`` is kept, the Swiss
        ``rounds`` the field allows, and round 1's ``pairings`` written, in one transaction.
        Raises :class:`Conflict` when the tournament was not taking sign-ups."""
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _START, {"tid": tournament_id, "new_rounds": rounds, "now": now}
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Tournament {tournament_id} is not taking sign-ups.")
            await conn.executemany(
                _SEED_ENTRANT,
                [
                    {"id": tournament_id, "user": user, "new_rating": rating, "new_seed": seed}
                    for user, rating, seed in seeds
                ],
            )
            await _insert_pairings(conn, tournament_id, pairings)

    async def open_round(
        self, tournament_id: int, number: int, pairings: Sequence[PairingRecord]
    ) -> None:
        """Round ``number`` (the one after the round being played) and its pairings. Raises
        :class:`Conflict` when that round is already open."""
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _NEXT_ROUND, {"tid": tournament_id, "previous": number - 1, "new_round": number}
            )
            if cursor.rowcount != 1:
                raise Conflict(f"Tournament {tournament_id} is not at round {number - 1}.")
            await _insert_pairings(conn, tournament_id, pairings)

    async def save_pairing(self, tournament_id: int, pairing: PairingRecord) -> None:
        """Keep what changed of a pairing: its thread, game, games, deadline, decision."""
        async with self._database.write() as conn:
            await conn.execute(_SAVE_PAIRING, _saved(tournament_id, pairing))

    async def save_pairings(self, tournament_id: int, pairings: Sequence[PairingRecord]) -> None:
        """:meth:`save_pairing` for several, in one transaction."""
        async with self._database.write() as conn:
            await conn.executemany(_SAVE_PAIRING, [_saved(tournament_id, p) for p in pairings])

    async def start_game(
        self,
        tournament_id: int,
        pairing: PairingRecord,
        game: NewGame,
        *,
        seed: int,
        state: dict[str, Any],
        ready: Sequence[int],
        now: float,
    ) -> int:
        """A pairing's game, started in its thread (``game.channel_id``) with both players
        seated, its first snapshot, and the pairing (``pairing``, whose ``game_id`` is filled
        in here) pointing at it: one transaction. Returns the game's id. Raises
        :class:`Conflict` when the thread already holds an open game."""
        try:
            async with self._database.write() as conn:
                game_id = await insert_game(
                    conn, game, status="active", now=now, seed=seed, snapshot=(state, ready)
                )
                linked = dataclasses.replace(pairing, game_id=game_id, state="playing")
                await conn.execute(_SAVE_PAIRING, _saved(tournament_id, linked))
        except Conflict as err:
            raise Conflict(f"Thread {game.channel_id} already has an open game ({err}).") from err
        return game_id

    # ------------------------------------------------------------------ the organiser

    async def set_status(
        self, tournament_id: int, status: TournamentStatus, *, paused_at: float | None = None
    ) -> None:
        """``running`` or ``paused`` (at ``paused_at``); see :meth:`end` for the last."""
        async with self._database.write() as conn:
            await conn.execute(
                _SET_STATUS,
                {"tid": tournament_id, "new_status": status, "new_paused_at": paused_at},
            )

    async def resume(self, tournament_id: int, round: int, *, paused_for: float) -> None:
        """A paused tournament runs again: the undecided pairings of ``round`` have
        ``paused_for`` seconds more, in the same transaction."""
        async with self._database.write() as conn:
            await conn.execute(
                _SET_STATUS, {"tid": tournament_id, "new_status": "running", "new_paused_at": None}
            )
            await conn.execute(
                _SHIFT_DEADLINES, {"id": tournament_id, "k_round": round, "seconds": paused_for}
            )

    async def extend(self, tournament_id: int, round: int, seconds: float) -> None:
        """The undecided pairings of ``round`` have ``seconds`` more."""
        async with self._database.write() as conn:
            await conn.execute(
                _SHIFT_DEADLINES, {"id": tournament_id, "k_round": round, "seconds": seconds}
            )

    async def end(
        self, tournament_id: int, status: Literal["finished", "cancelled"], *, now: float
    ) -> None:
        """The tournament is over: ``finished`` (its last round decided) or ``cancelled``."""
        async with self._database.write() as conn:
            await conn.execute(_END, {"tid": tournament_id, "new_status": status, "now": now})

    async def leave(
        self,
        tournament_id: int,
        user_id: int,
        status: Literal["dropped", "withdrew"],
        decided: Sequence[PairingRecord] = (),
        *,
        now: float,
    ) -> None:
        """``user_id`` leaves a started tournament (``dropped`` by the organiser, or
        ``withdrew``), with the pairings that decides (their forfeits), in one transaction."""
        async with self._database.write() as conn:
            cursor = await conn.execute(
                _LEAVE, {"id": tournament_id, "user": user_id, "new_status": status, "now": now}
            )
            if cursor.rowcount != 1:
                raise Conflict(f"User {user_id} is not playing in tournament {tournament_id}.")
            await conn.executemany(_SAVE_PAIRING, [_saved(tournament_id, p) for p in decided])

    async def replace(self, tournament_id: int, user_id: int, by: int) -> None:
        """``by`` plays ``user_id``'s place from now on (its results stay the place's)."""
        async with self._database.write() as conn:
            cursor = await conn.execute(_REPLACE, {"id": tournament_id, "user": user_id, "by": by})
            if cursor.rowcount != 1:
                raise Conflict(f"User {user_id} is not playing in tournament {tournament_id}.")

    # ------------------------------------------------------------------ reading

    async def load(self, tournament_id: int) -> StoredTournament | None:
        """A tournament with its players and pairings, or ``None``."""
        async with self._database.read() as conn:
            row = (await conn.execute(_ONE, {"id": tournament_id})).first()
            if row is None:
                return None
            return await _load(conn, _record(row))

    async def load_open(self) -> list[StoredTournament]:
        """Every tournament not over (taking sign-ups, running or paused), oldest first."""
        async with self._database.read() as conn:
            records = [_record(row) for row in (await conn.execute(_OPEN)).all()]
            return [await _load(conn, record) for record in records]

    async def ratings(self, user_ids: Collection[int], *, scope: int) -> dict[int, float]:
        """The rating (the ordinal, ``mu - 3 sigma``) of each of ``user_ids`` who has one
        among people in ``scope`` (a guild id; 0 everywhere)."""
        found: dict[int, float] = {}
        async with self._database.read() as conn:
            for user_id in sorted(user_ids):
                ordinal = (
                    await conn.execute(_RATING, {"scope": scope, "player": user_id})
                ).scalar()
                if ordinal is not None:
                    found[user_id] = float(ordinal)
        return found


async def _insert_pairings(
    conn: Connection, tournament_id: int, pairings: Sequence[PairingRecord]
) -> None:
    await conn.executemany(_NEW_PAIRING, [_pairing_params(tournament_id, p) for p in pairings])


async def _load(conn: Connection, record: TournamentRecord) -> StoredTournament:
    entrants = tuple(
        EntrantRecord(*row) for row in (await conn.execute(_ENTRANTS, {"id": record.id})).all()
    )
    pairings = tuple(
        _pairing(row) for row in (await conn.execute(_PAIRINGS, {"id": record.id})).all()
    )
    return StoredTournament(record, entrants, pairings)
