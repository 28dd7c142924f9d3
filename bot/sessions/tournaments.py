"""Tournaments: sign-up, seeding, each round's pairings and their games, deadlines, the
organiser's controls and the final placings (``manager.tournaments``).

The rules (formats, pairing, byes, standings, placings) are :mod:`bot.tournament`'s; this part
keeps a tournament going: it stores every step (:mod:`db.tournaments`) before it answers, and
hands back a :class:`~.tournament_views.TournamentOutcome` (what changed, the new round's
pairings to open a thread for, who to ping) or a :class:`~.views.Refusal` whose message is fit
for the person who asked.

The course of a tournament:

1. **Sign-up** (:meth:`TournamentDirector.create`, ``join``, ``leave``): one tournament at a
   time per channel; no one twice; at most its cap.
2. **Start** (``start`` by the organiser, or :meth:`~TournamentDirector.sweep` once its start
   time has come: fewer than 2 players then cancels it): the field is seeded by rating (the
   server's ratings among people, :func:`bot.tournament.seeded`; the unrated rank as a new
   player, by lot among themselves), and round 1 is paired. A Swiss asked for more rounds than
   the field allows (``⌈log2 n⌉ + 3``, and no more than avoid repeats) plays as many as it
   allows.
3. **Rounds**: the cog opens a thread for each pairing and asks for its game there
   (:meth:`~TournamentDirector.open_pairing`): a game between the two players, seated, or for a
   best of 3 or 5 the first of the pairing's games, each next one started as soon as the last
   ends (dealt first by its loser). A pairing's games count by games won, a skunk or not, as
   the ACC counts them, so they are played as a series of games here rather than as one of the
   bot's own matches (where a skunk counts two). When a pairing's last game ends its result is
   recorded; when the round's last result is in, the next round pairs itself
   (:func:`bot.tournament.next_round`), and after the last round the tournament is finished.
4. **Deadlines**: each pairing has until the round's deadline. Then (the cog's loop calls
   :meth:`~TournamentDirector.sweep`) an unfinished pairing is decided: a side that has not made
   a move in it forfeits, whatever the rule (when neither has, the pairing's first-named side,
   the higher ranked or seeded, takes it); otherwise under the ``forfeit`` rule the side the
   game waits for forfeits, and under the ``score`` rule (or when the game waits for both) the
   side ahead wins: in games won, then in the game's points, the first-named side when level.
   A single game decided by the score counts with the lead it stood at
   (:func:`~.tournament_views.final_score`); a game still being played is then forfeited by
   the losing side, so it ends like any game.
5. **The organiser** (or someone the cog found may manage the server: ``organiser_rights``)
   may pause (no deadline passes, no round opens) and resume (the deadlines move on by the
   pause), extend the round's deadline, drop a player (their open pairing forfeited, never
   paired again), replace a player (the replacement plays the place's next games), and cancel.
   A player may withdraw, which is a drop of their own.

Games end on the games' own paths (a click, a forfeit, the turn timers, the idle sweep); this
part hears of it through the table events (``ended``, then ``follow`` once the game's lock is
released: the manager's ``follow`` runs first, then this part's). What happens then (a result,
a pairing's next game, a new round, the end) is told to :attr:`TournamentDirector.listeners`;
the next game of a best of 3 or 5 comes back as the game outcome's ``next_game`` too. A game
whose end was not followed is picked up by the next sweep.

Restarts: :meth:`~TournamentDirector.load` (from ``manager.resume``, after the games are loaded)
reloads every tournament not over; their games resume as all games do; a pairing whose game
ended while the bot was down is recorded then, a pairing decided while its game was still being
played (a deadline, a drop) has that game forfeited then, a round completed meanwhile opens the
next, and the deadlines are the stored ones, which the sweeps keep checking.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine import Variant
from bot.tournament import (
    Format,
    Placing,
    Round,
    Standing,
    TournamentError,
    next_round,
    placings,
    seeded,
    standings,
)
from db import Conflict, Finish, NewGame, SeatOutcome, SeatRecord
from db.games import Games
from db.tournaments import (
    DEADLINE_RULES,
    FORMATS,
    DecidedBy,
    EntrantRecord,
    PairingRecord,
    StoredTournament,
    TournamentRecord,
    Tournaments,
    TournamentSettings,
)

from .guard import OTHER_PROCESS
from .play import GamePlay
from .requests import (
    CancelTournament,
    CreateTournament,
    DropPlayer,
    ExtendDeadline,
    Forfeit,
    JoinTournament,
    LeaveTournament,
    OpenPairing,
    PauseTournament,
    ReplacePlayer,
    ResumeTournament,
    StartTournament,
    TournamentRequest,
    WithdrawFromTournament,
    known_game_id,
)
from .session import Session
from .tables import Tables
from .tournament_views import (
    EntrantView,
    PairingView,
    TournamentOutcome,
    TournamentView,
    result_of,
    rules_of,
    wins_of,
)
from .views import GameStatus, Outcome, Refusal, RefusalReason, StepEvent

log = logging.getLogger("bot.sessions")
R = RefusalReason

MAX_CAP = 256
MAX_DEADLINE_MINUTES = 7 * 24 * 60
UNKNOWN = "I can't find that tournament."
ELSEWHERE = "That belongs to a tournament in another channel."
NOT_ORGANISER = "Only the tournament's organiser can do that."
Listener = Callable[[TournamentOutcome], Awaitable[None]]


def most_swiss_rounds(players: int) -> int:
    """The most Swiss rounds for a field of ``players``: ``⌈log2 n⌉ + 3``.

    >>> most_swiss_rounds(8), most_swiss_rounds(5), most_swiss_rounds(256)
    (6, 6, 11)
    """
    return math.ceil(math.log2(max(players, 2))) + 3


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_of(request: CreateTournament, now: float) -> TournamentSettings | Refusal:
    """The organiser's settings checked, or why not (a message for the organiser)."""

    def no(message: str) -> Refusal:
        return Refusal(R.INVALID, message)

    name = request.name.strip() if isinstance(request.name, str) else ""
    if not 1 <= len(name) <= 100:
        return no("A tournament's name has 1 to 100 characters.")
    if request.format not in FORMATS:
        return no("A tournament is a Swiss, a round robin or a single elimination.")
    if request.target not in (61, 121) or not _whole(request.target):
        return no("A game is played to 121 or 61 points.")
    if request.best_of not in (1, 3, 5) or not _whole(request.best_of):
        return no("Each pairing is one game, a best of 3 or a best of 5.")
    cap = request.cap
    if not _whole(cap) or not 2 <= cap <= MAX_CAP:
        return no(f"A tournament takes 2 to {MAX_CAP} players.")
    rounds = 0
    if request.format == Format.SWISS.value:
        rounds, most = request.rounds, most_swiss_rounds(cap)
        if not _whole(rounds) or not 1 <= rounds <= most:
            return no(f"A Swiss of up to {cap} players has 1 to {most} rounds.")
    minutes = request.deadline_minutes
    if not _whole(minutes) or not 1 <= minutes <= MAX_DEADLINE_MINUTES:
        return no("A round's deadline is 1 minute to 7 days.")
    if request.deadline_rule not in DEADLINE_RULES:
        return no("At the deadline an unfinished game is decided by forfeit or by the score.")
    cap_ = request.spread_cap
    if cap_ is not None and (not _whole(cap_) or not 1 <= cap_ <= request.target):
        return no(f"The spread cap is 1 to {request.target} points, or none.")
    for spread in (request.bye_spread, request.forfeit_spread):
        if not _whole(spread) or not 0 <= spread <= request.target:
            return no(f"The spread of a bye or a forfeit is 0 to {request.target} points.")
    starts = request.starts_at
    if starts is not None and (not isinstance(starts, int | float) or starts <= now):
        return no("The start time must be in the future.")
    return TournamentSettings(
        name=name,
        format=request.format,
        rounds=rounds,
        target=request.target,
        games_to_win=(request.best_of + 1) // 2,
        spread_cap=cap_,
        bye_spread=request.bye_spread,
        forfeit_spread=request.forfeit_spread,
        cap=cap,
        starts_at=None if starts is None else float(starts),
        deadline_seconds=60 * minutes,
        deadline_rule=request.deadline_rule,
    )


@dataclass(slots=True)
class _Running:
    """A tournament not over, as this part keeps it (internal)."""

    record: TournamentRecord
    entrants: dict[int, EntrantRecord]
    pairings: dict[tuple[int, int], PairingRecord]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def of(cls, stored: StoredTournament) -> _Running:
        return cls(
            stored.record,
            {e.user_id: e for e in stored.entrants},
            {(p.round, p.table): p for p in stored.pairings},
        )

    @property
    def id(self) -> int:
        return self.record.id

    def plays(self, place: int) -> int:
        """Who plays the place ``place`` now."""
        entrant = self.entrants.get(place)
        return place if entrant is None or entrant.replaced_by is None else entrant.replaced_by

    def current(self) -> list[PairingRecord]:
        return [p for p in self.pairings.values() if p.round == self.record.round]

    def open_pairing_of(self, place: int) -> PairingRecord | None:
        return next(
            (p for p in self.current() if p.state != "decided" and place in (p.first, p.second)),
            None,
        )

    def dropped(self) -> set[str]:
        return {str(u) for u, e in self.entrants.items() if e.status != "entered"}

    def pairing_view(self, p: PairingRecord) -> PairingView:
        return PairingView(
            round=p.round,
            table=p.table,
            first=p.first,
            second=p.second,
            first_player=self.plays(p.first),
            second_player=None if p.second is None else self.plays(p.second),
            state=p.state,
            thread_id=p.thread_id,
            game_id=p.game_id,
            deadline_at=p.deadline_at,
            games=p.games,
            result=result_of(p, self.record.settings.target),
            decided_by=p.decided_by,
        )

    def view(self) -> TournamentView:
        rec = self.record
        rules = rules_of(rec, self.entrants)
        results = [
            r
            for p in sorted(self.pairings.values(), key=lambda p: (p.round, p.table))
            if (r := result_of(p, rec.settings.target)) is not None
        ]
        table: tuple[Standing, ...] = ()
        places: tuple[Placing, ...] = ()
        if rules is not None and rules.format is Format.SINGLE_ELIMINATION:
            places = placings(rules, results, frozenset(self.dropped()))
        elif rules is not None:
            table = standings(rules, results)
        return TournamentView(
            tournament_id=rec.id,
            guild_id=rec.guild_id,
            channel_id=rec.channel_id,
            message_id=rec.message_id,
            organiser_id=rec.organiser_id,
            settings=rec.settings,
            status=rec.status,
            round=rec.round,
            total_rounds=0 if rules is None else rules.total_rounds,
            entrants=tuple(
                EntrantView(e.user_id, self.plays(e.user_id), e.seed, e.rating, e.status)
                for e in self.entrants.values()
            ),
            pairings=tuple(
                self.pairing_view(p)
                for p in sorted(self.pairings.values(), key=lambda p: (p.round, p.table))
            ),
            standings=table,
            placings=places,
            created_at=rec.created_at,
            started_at=rec.started_at,
            ended_at=rec.ended_at,
        )


@dataclass(frozen=True, slots=True)
class _Advance:
    """What closing a round did: the next round's pairings to play, or the end (internal)."""

    opened: list[PairingRecord]
    finished: bool


@dataclass(frozen=True, slots=True)
class _Ended:
    """A pairing's game that ended, waiting to be recorded (internal)."""

    finish: Finish
    next_dealer: int | None


class TournamentDirector:
    """The tournaments of this process (see the module docstring).

    Subscribes itself to the table events: a game's end is recorded after the ``follow`` the
    manager set, which it then calls first. ``listeners``: called with every
    :class:`TournamentOutcome` a game's end brings about (a result, a round, the end).
    ``resumed``: what :meth:`load` did at start-up, for the cog to announce.
    """

    def __init__(
        self,
        rows: Tournaments,
        games: Games,
        tables: Tables,
        play: GamePlay,
        *,
        seed_source: Callable[[], int],
    ) -> None:
        self._rows = rows
        self._games = games
        self._tables = tables
        self._play = play
        self._seed_source = seed_source
        self._open: dict[int, _Running] = {}
        self._pairing_of: dict[int, tuple[int, int, int]] = {}  # game -> (tournament, round, table)
        self._ended: dict[int, _Ended] = {}
        self._closed_games: set[int] = set()  # the games of tournaments over in this process
        self.listeners: list[Listener] = []
        self.resumed: tuple[TournamentOutcome, ...] = ()
        events = tables.events
        self._then = events.follow
        events.follow = self.follow
        events.ended.append(self.on_ended)

    # ------------------------------------------------------------------ reading

    def view(self, tournament_id: int) -> TournamentView | None:
        """A tournament not over, as it stands (``None``: none such in this process)."""
        live = self._open.get(tournament_id)
        return None if live is None else live.view()

    def running(self) -> tuple[TournamentView, ...]:
        """Every tournament not over in this process, as it stands."""
        return tuple(live.view() for live in self._open.values())

    def in_channel(self, channel_id: int) -> TournamentView | None:
        """The tournament not over announced in ``channel_id``, or played in one of its
        pairings' threads."""
        for live in self._open.values():
            if live.record.channel_id == channel_id or any(
                p.thread_id == channel_id for p in live.current()
            ):
                return live.view()
        return None

    def of_game(self, game_id: int) -> TournamentView | None:
        """The tournament whose pairing's game ``game_id`` is."""
        key = self._pairing_of.get(game_id)
        live = None if key is None else self._open.get(key[0])
        return None if live is None else live.view()

    def is_pairing_game(self, game_id: int) -> bool:
        """Whether ``game_id`` was a game of a tournament's pairing: one not over, or one that
        ended in this process (the last game of a tournament ends it before its result is
        shown)."""
        return game_id in self._pairing_of or game_id in self._closed_games

    # ------------------------------------------------------------------ sign-up

    async def create(self, request: CreateTournament) -> TournamentOutcome | Refusal:
        """Open a tournament for sign-up (see :class:`~.requests.CreateTournament`)."""
        if request.guild_id is None:
            return Refusal(R.INVALID, "A tournament is run in a server's channel.")
        if not self._tables.owns(request.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(request.organiser_id):
            return Refusal(R.NOT_SEATED, "This account can't run a tournament here.")
        settings = settings_of(request, self._tables.now())
        if isinstance(settings, Refusal):
            return settings
        busy = "This channel already has a tournament: finish or cancel it first."
        if any(t.record.channel_id == request.channel_id for t in self._open.values()):
            return Refusal(R.CHANNEL_BUSY, busy)
        try:
            record = await self._rows.create(
                request.guild_id,
                request.channel_id,
                request.organiser_id,
                settings,
                seed=self._seed_source(),
                now=self._tables.now(),
            )
        except Conflict:
            return Refusal(R.CHANNEL_BUSY, busy)
        live = self._open[record.id] = _Running(record, {}, {})
        log.info("tournament %d: %s opened in channel %d", record.id, settings.format,
                 record.channel_id)  # fmt: skip
        return self._outcome(live, "created")

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The tournament's message (its sign-up and standings) in its channel."""
        live = self._open.get(tournament_id)
        await self._rows.set_message(tournament_id, message_id)
        if live is not None:
            live.record = dataclasses.replace(live.record, message_id=message_id)

    async def join(self, request: JoinTournament) -> TournamentOutcome | Refusal:
        """Enter during sign-up: not twice, not past the cap, not once it started."""
        live = await self._find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if refused := self._signing_up(live):
                return refused
            user = request.user_id
            if user in live.entrants:
                return Refusal(R.ALREADY_SEATED, "You're already in this tournament.")
            cap = live.record.settings.cap
            if len(live.entrants) >= cap:
                return Refusal(R.LOBBY_FULL, f"This tournament is full: {cap} players entered.")
            now = self._tables.now()
            try:
                await self._rows.add_entrant(live.id, user, now=now)
            except Conflict:
                return Refusal(R.LOBBY_FULL, "This tournament takes no more players.")
            live.entrants[user] = EntrantRecord(user, now)
            return self._outcome(live, "joined")

    async def leave(self, request: LeaveTournament) -> TournamentOutcome | Refusal:
        """Leave during sign-up (once it started, a player withdraws instead)."""
        live = await self._find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if live.record.status != "signup":
                return Refusal(
                    R.ALREADY_STARTED, "The tournament has started: withdraw from it instead."
                )
            if request.user_id not in live.entrants:
                return Refusal(R.NOT_SEATED, "You're not in this tournament.")
            await self._rows.remove_entrant(live.id, request.user_id)
            del live.entrants[request.user_id]
            return self._outcome(live, "left")

    async def start(self, request: StartTournament) -> TournamentOutcome | Refusal:
        """The organiser closes the sign-up: seeding, then round 1."""
        live = await self._find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            if refused := self._organiser(live, request) or self._signing_up(live):
                return refused
            return await self._begin(live)

    async def _begin(self, live: _Running) -> TournamentOutcome | Refusal:
        rec = live.record
        n = len(live.entrants)
        if n < 2:
            return Refusal(
                R.SEATS_EMPTY, "A tournament needs at least 2 players: wait for more to join."
            )
        ratings = await self._rows.ratings(live.entrants, scope=rec.guild_id)
        order = seeded({str(u): ratings.get(u, 0.0) for u in live.entrants})
        settings = rec.settings
        if settings.format == Format.SWISS.value:
            most = min(most_swiss_rounds(n), n - 1 + n % 2)
            settings = dataclasses.replace(settings, rounds=min(settings.rounds, most))
        started = dataclasses.replace(rec, settings=settings, status="running", round=1)
        seeds = {int(p): i for i, p in enumerate(order, start=1)}
        entrants = {
            u: dataclasses.replace(e, rating=ratings.get(u), seed=seeds[u])
            for u, e in live.entrants.items()
        }
        rules = rules_of(started, entrants)
        assert rules is not None
        try:
            first = next_round(rules, [])
        except TournamentError as err:
            return Refusal(R.INVALID, str(err))
        now = self._tables.now()
        pairings = _round_rows(first, now + settings.deadline_seconds, now)
        await self._rows.start(
            live.id,
            [(u, e.rating, e.seed or 0) for u, e in entrants.items()],
            pairings,
            rounds=settings.rounds,
            now=now,
        )
        live.record = dataclasses.replace(started, started_at=now)
        live.entrants = entrants
        live.pairings = {(p.round, p.table): p for p in pairings}
        log.info("tournament %d: started with %d players", live.id, n)
        opened = [p for p in pairings if p.state == "waiting"]
        later = await self._advance(live)
        return self._outcome(
            live, "started", opened=opened + list(later.opened), finished=later.finished
        )

    # ------------------------------------------------------------------ the games

    async def open_pairing(self, request: OpenPairing) -> Outcome | Refusal:
        """Start the game of a pairing of the round being played in the thread the cog made
        for it, both players seated (their cut for the deal comes first)."""
        live = self._open.get(request.tournament_id)
        if live is None:
            return await self._missing(request.tournament_id)
        async with live.lock:
            status = live.record.status
            if status == "paused":
                return Refusal(R.NOT_STARTED, "The tournament is paused: games wait for it.")
            if status != "running":
                return Refusal(R.NOT_STARTED, "The tournament has not started.")
            p = live.pairings.get((request.round, request.table))
            if p is None or p.round != live.record.round or p.second is None:
                return Refusal(R.INVALID, "That pairing is not being played in this round.")
            if p.state == "decided":
                return Refusal(R.GAME_OVER, "That pairing has been decided.")
            if p.state == "playing":
                return Refusal(R.ALREADY_STARTED, "That pairing's game has already started.")
            if self._tables.busy(request.thread_id):
                return Refusal(R.CHANNEL_BUSY, "That thread already has a cribbage game.")
            moved = dataclasses.replace(p, thread_id=request.thread_id)
            return await self._start_game(live, moved, None)

    async def _start_game(
        self, live: _Running, p: PairingRecord, first_dealer: int | None
    ) -> Outcome | Refusal:
        """The pairing's next game in its thread (the tournament's lock held)."""
        assert p.second is not None and p.thread_id is not None
        target = live.record.settings.target
        game = self._play.new_game(Variant(players=2, target=target), first_dealer)
        first, second = live.plays(p.first), live.plays(p.second)
        seats = (SeatRecord(0, user_id=first), SeatRecord(1, user_id=second))
        spec = NewGame(
            live.record.guild_id, p.thread_id, first, 2, False, target, seats, first_dealer
        )
        state, ready, now = game.to_dict(), (0, 0), self._tables.now()
        try:
            game_id = await self._rows.start_game(
                live.id, p, spec, seed=game.seed, state=state, ready=ready, now=now
            )
        except Conflict:
            return Refusal(R.CHANNEL_BUSY, "That thread already has a cribbage game.")
        live.pairings[(p.round, p.table)] = dataclasses.replace(p, game_id=game_id, state="playing")
        self._pairing_of[game_id] = (live.id, p.round, p.table)
        s = Session(
            spec.record(game_id, status="active", now=now, seed=game.seed, state=state, ready=ready)
        )
        async with s.lock:
            self._tables.register(s)
            log.info("tournament %d: round %d table %d plays game %d", live.id, p.round,
                     p.table, game_id)  # fmt: skip
            events = [StepEvent(0, e) for e in game.last_events]
            await self._play.advance(s, events)
            return await self._play.outcome(s, events)

    def on_ended(self, s: Session, finish: Finish) -> None:
        """A game ended (the ``ended`` event): a pairing's is recorded once its lock is
        released (:meth:`follow`)."""
        if s.id in self._pairing_of:
            dealer = s.game.next_first_dealer if s.game is not None else None
            self._ended[s.id] = _Ended(finish, dealer)

    async def follow(self, outcome: Outcome) -> Outcome:
        """After every request on a game: the manager's own ``follow`` first, then, if it
        ended a pairing's game, its result (the match's next game in ``next_game``)."""
        outcome = await self._then(outcome)
        ended = self._ended.pop(outcome.game_id, None)
        if ended is None:
            return outcome
        following = await self._game_over(outcome.game_id, ended)
        return outcome if following is None else dataclasses.replace(outcome, next_game=following)

    async def _game_over(self, game_id: int, ended: _Ended) -> Outcome | None:
        """Record a pairing's ended game: its result, or the pairing's next game (returned);
        the listeners hear of a result, a new round and the end."""
        key = self._pairing_of.get(game_id)
        live = None if key is None else self._open.get(key[0])
        if key is None or live is None:
            return None
        p = live.pairings.get(key[1:])
        if p is None or p.state == "decided" or p.game_id != game_id:
            return None  # decided otherwise (a deadline, a drop) before the game ended
        news: TournamentOutcome | None = None
        following: Outcome | None = None
        async with live.lock:
            p = live.pairings[key[1:]]
            if p.state == "decided" or p.game_id != game_id:
                return None
            try:
                decided, following = await self._record_game(live, p, game_id, ended)
                if following is not None:
                    playing = live.pairings[key[1:]]
                    news = self._outcome(live, "next game", playing=[playing])
                if decided is not None:
                    later = await self._advance(live)
                    news = self._outcome(
                        live,
                        "round" if later.opened else "finished" if later.finished else "result",
                        decided=[decided],
                        opened=later.opened,
                        finished=later.finished,
                    )
            except Exception:
                log.exception("tournament %d: game %d's end not recorded; retried", live.id,
                              game_id)  # fmt: skip
                self._ended[game_id] = ended
                return None
        if news is not None:
            await self._tell(news)
        return following

    async def _record_game(
        self, live: _Running, p: PairingRecord, game_id: int, ended: _Ended
    ) -> tuple[PairingRecord | None, Outcome | None]:
        """The pairing after its game ``game_id`` ended: decided (returned first), or its next
        game started (returned second)."""
        finish, now = ended.finish, self._tables.now()
        places = {0: p.first, 1: p.second}
        if finish.end_reason in ("forfeit", "aborted") and finish.forfeit_seat is not None:
            decided = dataclasses.replace(
                p,
                state="decided",
                forfeited_by=places[finish.forfeit_seat],
                decided_by="played",
                decided_at=now,
            )
        elif finish.end_reason == "won":
            points = {o.seat: o.final_score for o in finish.seats}
            games = p.games
            if not any(g == game_id for g, _, _ in games):
                games = (*games, (game_id, points[0], points[1]))
            p = dataclasses.replace(p, games=games)
            if max(wins_of(p)) < live.record.settings.games_to_win:
                await self._rows.save_pairing(live.id, p)
                live.pairings[(p.round, p.table)] = p
                if live.record.status not in ("running", "paused"):
                    return None, None
                started = await self._start_game(live, p, ended.next_dealer)
                return None, None if isinstance(started, Refusal) else started
            decided = dataclasses.replace(p, state="decided", decided_by="played", decided_at=now)
        else:  # abandoned for want of moves: the deadline's rule decides it now
            points = {o.seat: o.final_score for o in finish.seats}
            decided = await self._verdict(live, p, (points.get(0, 0), points.get(1, 0)), ())
        await self._rows.save_pairing(live.id, decided)
        live.pairings[(p.round, p.table)] = decided
        log.info("tournament %d: round %d table %d decided", live.id, p.round, p.table)
        return decided, None

    # ------------------------------------------------------------------ rounds

    async def _advance(self, live: _Running) -> _Advance:
        """While the round being played is decided: pair the next, or finish (lock held)."""
        opened: list[PairingRecord] = []
        while live.record.status == "running":
            if any(p.state != "decided" for p in live.current()):
                break
            rules = rules_of(live.record, live.entrants)
            assert rules is not None
            results = [r for p in live.pairings.values() if (r := result_of(p, rules.target))]
            number = live.record.round + 1
            if number > rules.total_rounds:
                await self._close(live, "finished")
                return _Advance(opened, True)
            rnd = next_round(rules, results, dropped=live.dropped())
            now = self._tables.now()
            pairings = _round_rows(rnd, now + live.record.settings.deadline_seconds, now)
            await self._rows.open_round(live.id, number, pairings)
            live.record = dataclasses.replace(live.record, round=number)
            for p in pairings:
                live.pairings[(p.round, p.table)] = p
            opened = [p for p in pairings if p.state == "waiting"]
            log.info("tournament %d: round %d paired", live.id, number)
        return _Advance(opened, False)

    async def _close(self, live: _Running, status: str) -> None:
        now = self._tables.now()
        await self._rows.end(live.id, "finished" if status == "finished" else "cancelled", now=now)
        live.record = dataclasses.replace(
            live.record,
            status="finished" if status == "finished" else "cancelled",
            ended_at=now,
            paused_at=None,
        )
        del self._open[live.id]
        for game_id in [g for g, key in self._pairing_of.items() if key[0] == live.id]:
            del self._pairing_of[game_id]
            self._closed_games.add(game_id)
        log.info("tournament %d: %s", live.id, status)

    # ------------------------------------------------------------------ deadlines

    async def _verdict(
        self,
        live: _Running,
        p: PairingRecord,
        points: tuple[int, int] | None,
        waits_for: Sequence[int],
        by: DecidedBy = "deadline",
    ) -> PairingRecord:
        """The pairing decided by the organiser's rule (see the module docstring): ``points``
        of the game being played (``None``: none), the seats it ``waits_for``."""
        assert p.second is not None
        now = self._tables.now()
        places = (p.first, p.second)
        absent = set(places) if p.game_id is None else set()
        if p.game_id is not None and not p.games:
            acted = {a.seat for a in await self._games.load_actions(p.game_id)}
            absent = {place for seat, place in enumerate(places) if seat not in acted}
        loser: int
        if len(absent) == 1:
            (loser,) = absent
        elif absent:
            loser = p.second
        elif live.record.settings.deadline_rule == "forfeit" and len(waits_for) == 1:
            loser = places[waits_for[0]]
        else:
            games_won = wins_of(p)
            now_points = points or (0, 0)
            if (
                p.game_id is not None
                and points is not None
                and points[0] != points[1]
                and not any(g == p.game_id for g, _, _ in p.games)
            ):
                stood = dataclasses.replace(p, games=(*p.games, (p.game_id, *points)))
                won = wins_of(stood)
                need = live.record.settings.games_to_win
                if max(won) == need and min(won) < need:
                    return dataclasses.replace(
                        stood, state="decided", decided_by=by, decided_at=now
                    )
            first_key = (games_won[0], now_points[0])
            second_key = (games_won[1], now_points[1])
            loser = p.first if first_key < second_key else p.second
        return dataclasses.replace(
            p, state="decided", forfeited_by=loser, decided_by=by, decided_at=now
        )

    async def _end_game(self, p: PairingRecord, loser: int | None) -> Outcome | None:
        """End the pairing's game still being played, now that the pairing is decided: the
        losing place's seat forfeits it (``loser`` None: the side behind on points)."""
        s = None if p.game_id is None else self._tables.sessions.get(p.game_id)
        if s is None or s.status is not GameStatus.ACTIVE or s.game is None:
            return None
        if loser is None:
            scores = s.game.scores
            seat = 0 if scores[0] < scores[1] else 1
        else:
            seat = 0 if loser == p.first else 1
        user = s.seats[seat].user_id
        assert user is not None
        ended = await self._play.forfeit(Forfeit(s.id, user))
        return ended if isinstance(ended, Outcome) else None

    async def sweep(self, now: float | None = None) -> list[TournamentOutcome]:
        """Every few seconds (the cog's loop): start the tournaments whose start time has come,
        decide the pairings whose deadline passed, and record any game end not yet recorded."""
        outcomes: list[TournamentOutcome] = []
        for game_id, ended in list(self._ended.items()):
            if self._ended.pop(game_id, None) is not None:
                await self._game_over(game_id, ended)
        for live in list(self._open.values()):
            async with live.lock:
                at = self._tables.now() if now is None else now
                rec = live.record
                if rec.id not in self._open:
                    continue
                if rec.status == "signup" and rec.settings.starts_at is not None:
                    if at >= rec.settings.starts_at:
                        outcomes.append(await self._start_on_time(live))
                elif rec.status == "running":
                    due = [
                        p
                        for p in live.current()
                        if p.state != "decided" and p.deadline_at is not None
                        and p.deadline_at <= at
                    ]  # fmt: skip
                    if due:
                        outcomes.append(await self._decide_due(live, due))
        return outcomes

    async def _start_on_time(self, live: _Running) -> TournamentOutcome:
        started = await self._begin(live)
        if isinstance(started, TournamentOutcome):
            return started
        await self._close(live, "cancelled")
        log.info("tournament %d: too few players at its start time", live.id)
        return self._outcome(live, "cancelled")

    async def _decide_due(self, live: _Running, due: Iterable[PairingRecord]) -> TournamentOutcome:
        decided: list[PairingRecord] = []
        games: list[Outcome] = []
        for p in due:
            s = None if p.game_id is None else self._tables.sessions.get(p.game_id)
            points = waits = None
            if s is not None and s.game is not None and s.status is GameStatus.ACTIVE:
                points = (s.game.scores[0], s.game.scores[1])
                waits = tuple(s.game.to_act)
            verdict = await self._verdict(live, p, points, waits or ())
            await self._rows.save_pairing(live.id, verdict)
            live.pairings[(p.round, p.table)] = verdict
            decided.append(verdict)
            ended = await self._end_game(verdict, verdict.forfeited_by)
            if ended is not None:
                games.append(ended)
            log.info("tournament %d: round %d table %d decided at the deadline", live.id,
                     p.round, p.table)  # fmt: skip
        later = await self._advance(live)
        return self._outcome(
            live,
            "deadline",
            decided=decided,
            opened=later.opened,
            finished=later.finished,
            games=games,
        )

    # ------------------------------------------------------------------ the organiser

    async def pause(self, request: PauseTournament) -> TournamentOutcome | Refusal:
        """Stop the clock: no deadline passes and no round opens until it resumes."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status != "running":
                return Refusal(R.INVALID, "Only a running tournament can be paused.")
            now = self._tables.now()
            await self._rows.set_status(live.id, "paused", paused_at=now)
            live.record = dataclasses.replace(live.record, status="paused", paused_at=now)
            return self._outcome(live, "paused")

    async def resume(self, request: ResumeTournament) -> TournamentOutcome | Refusal:
        """Restart the clock: the round's deadlines move on by the pause; a round completed
        meanwhile opens the next."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            rec = live.record
            if rec.status != "paused":
                return Refusal(R.INVALID, "The tournament is not paused.")
            paused_for = max(0.0, self._tables.now() - (rec.paused_at or self._tables.now()))
            await self._rows.resume(live.id, rec.round, paused_for=paused_for)
            live.record = dataclasses.replace(rec, status="running", paused_at=None)
            self._shift(live, paused_for)
            later = await self._advance(live)
            return self._outcome(live, "resumed", opened=later.opened, finished=later.finished)

    async def extend(self, request: ExtendDeadline) -> TournamentOutcome | Refusal:
        """The round's unfinished pairings have ``minutes`` more."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status not in ("running", "paused"):
                return Refusal(R.INVALID, "Only a running tournament has a deadline to extend.")
            minutes = request.minutes
            if not _whole(minutes) or not 1 <= minutes <= MAX_DEADLINE_MINUTES:
                return Refusal(R.INVALID, "A deadline is extended by 1 minute to 7 days.")
            await self._rows.extend(live.id, live.record.round, 60.0 * minutes)
            self._shift(live, 60.0 * minutes)
            return self._outcome(live, "extended")

    def _shift(self, live: _Running, seconds: float) -> None:
        for key, p in list(live.pairings.items()):
            if p.round == live.record.round and p.state != "decided" and p.deadline_at:
                live.pairings[key] = dataclasses.replace(p, deadline_at=p.deadline_at + seconds)

    async def cancel(self, request: CancelTournament) -> TournamentOutcome | Refusal:
        """Call the tournament off. Its games being played go on as ordinary games."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            await self._close(live, "cancelled")
            return self._outcome(live, "cancelled")

    async def drop(self, request: DropPlayer) -> TournamentOutcome | Refusal:
        """The organiser drops a player (during sign-up: takes them off the list)."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            player = request.player  # a place, or whoever plays one now
            place = next((u for u in live.entrants if live.plays(u) == player), player)
            return await self._leave(live, place, "dropped")

    async def withdraw(self, request: WithdrawFromTournament) -> TournamentOutcome | Refusal:
        """A player leaves: during sign-up off the list, later their open pairing forfeited."""
        live = await self._find(request)
        if isinstance(live, Refusal):
            return live
        async with live.lock:
            place = next((u for u in live.entrants if live.plays(u) == request.user_id), None)
            if place is None:
                return Refusal(R.NOT_SEATED, "You're not playing in this tournament.")
            return await self._leave(live, place, "withdrew")

    async def _leave(self, live: _Running, place: int, status: str) -> TournamentOutcome | Refusal:
        entrant = live.entrants.get(place)
        what = "dropped" if status == "dropped" else "withdrew"
        if entrant is None:
            text = (
                "You're not in this tournament."
                if what == "withdrew"
                else (f"<@{place}> is not in this tournament.")
            )
            return Refusal(R.NOT_SEATED, text)
        if live.record.status == "signup":
            await self._rows.remove_entrant(live.id, place)
            del live.entrants[place]
            return self._outcome(live, what)
        if entrant.status != "entered":
            return Refusal(R.INVALID, f"<@{live.plays(place)}> has already left the tournament.")
        now = self._tables.now()
        p = live.open_pairing_of(place)
        decided = []
        if p is not None:
            by: DecidedBy = "drop" if what == "dropped" else "withdrawal"
            decided.append(
                dataclasses.replace(
                    p, state="decided", forfeited_by=place, decided_by=by, decided_at=now
                )
            )
        await self._rows.leave(
            live.id, place, "dropped" if what == "dropped" else "withdrew", decided, now=now
        )
        live.entrants[place] = dataclasses.replace(
            entrant, status="dropped" if what == "dropped" else "withdrew", left_at=now
        )
        games: list[Outcome] = []
        for d in decided:
            live.pairings[(d.round, d.table)] = d
            ended = await self._end_game(d, place)
            if ended is not None:
                games.append(ended)
        log.info("tournament %d: user %d %s", live.id, place, what)
        later = await self._advance(live)
        return self._outcome(
            live, what, decided=decided, opened=later.opened, finished=later.finished, games=games
        )

    async def replace(self, request: ReplacePlayer) -> TournamentOutcome | Refusal:
        """``by`` plays ``player``'s place from its next game on."""
        async with self._organising(request) as live:
            if isinstance(live, Refusal):
                return live
            if live.record.status not in ("running", "paused"):
                return Refusal(R.INVALID, "A player is replaced once the tournament has started.")
            place = next((u for u in live.entrants if live.plays(u) == request.player), None)
            if place is None or live.entrants[place].status != "entered":
                return Refusal(R.NOT_SEATED, f"<@{request.player}> is not playing in it.")
            if not known_game_id(request.by):
                return Refusal(R.INVALID, "That account can't play here.")
            if request.by in live.entrants or any(
                e.replaced_by == request.by for e in live.entrants.values()
            ):
                return Refusal(R.ALREADY_SEATED, f"<@{request.by}> is already in this tournament.")
            await self._rows.replace(live.id, place, request.by)
            live.entrants[place] = dataclasses.replace(live.entrants[place], replaced_by=request.by)
            return self._outcome(live, "replaced")

    # ------------------------------------------------------------------ resume

    async def load(self) -> tuple[TournamentOutcome, ...]:
        """Reload the tournaments not over (after the games are loaded); record what ended
        while the bot was down and open the rounds completed meanwhile (kept in
        :attr:`resumed` too)."""
        for stored in await self._rows.load_open():
            if not self._tables.owns(stored.record.guild_id):
                continue  # another process's
            live = self._open[stored.record.id] = _Running.of(stored)
            for p in stored.pairings:
                if p.game_id is not None and p.state == "playing":
                    self._pairing_of[p.game_id] = (live.id, p.round, p.table)
        news: list[TournamentOutcome] = []
        for game_id in list(self._pairing_of):
            if game_id in self._tables.sessions:
                continue
            finish = await self._finish_of(game_id)
            if finish is not None:
                self._ended[game_id] = finish
        heard: list[TournamentOutcome] = []
        self.listeners.append(_collect(heard))
        try:
            for game_id, ended in list(self._ended.items()):
                if self._ended.pop(game_id, None) is not None:
                    await self._game_over(game_id, ended)
        finally:
            self.listeners.pop()
        news += heard
        for live in list(self._open.values()):
            async with live.lock:
                games: list[Outcome] = []
                for p in live.current():  # decided, but stopped before its game was ended
                    if p.state == "decided" and p.game_id is not None:
                        stopped = await self._end_game(p, p.forfeited_by)
                        games += [] if stopped is None else [stopped]
                later = await self._advance(live)
                if later.opened or later.finished or games:
                    news.append(
                        self._outcome(
                            live,
                            "finished" if later.finished else "round" if later.opened else "result",
                            opened=later.opened,
                            finished=later.finished,
                            games=games,
                        )
                    )
        self.resumed = tuple(news)
        return self.resumed

    async def _finish_of(self, game_id: int) -> _Ended | None:
        """How a pairing's game that is not live ended, from the store (``None``: it did not)."""
        record = await self._games.load_game(game_id)
        if record is None or record.status in ("lobby", "active"):
            return None
        rows = await self._games.results(game_id)
        seats = tuple(
            SeatOutcome(r.seat, r.side, r.outcome, r.final_score)  # type: ignore[arg-type]
            for r in rows
        )
        reason = record.end_reason
        if reason == "abandoned" and record.forfeit_seat is not None:
            reason = "aborted"
        if reason not in ("won", "forfeit", "abandoned", "aborted"):
            return None
        finish = Finish(
            "finished" if record.status == "finished" else "abandoned",
            reason,  # type: ignore[arg-type]
            record.winner_side,
            seats,
            forfeit_seat=record.forfeit_seat,
        )
        loser = next((o.seat for o in seats if not o.won), None)
        return _Ended(finish, loser if reason == "won" else None)

    # ------------------------------------------------------------------ checks and answers

    async def _find(self, request: TournamentRequest) -> _Running | Refusal:
        """The tournament of ``request`` if it is not over and the request was made where it
        is played (its channel or one of its threads), else why not."""
        where = request.where
        if not known_game_id(request.tournament_id):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN)
        if where is not None and not self._tables.owns(where.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(request.user_id):
            return Refusal(R.NOT_SEATED, "This account can't take part here.")
        live = self._open.get(request.tournament_id)
        if live is None:
            return await self._missing(request.tournament_id)
        if where is not None:
            here = {live.record.channel_id} | {
                p.thread_id for p in live.pairings.values() if p.thread_id is not None
            }
            if where.guild_id != live.record.guild_id or where.channel_id not in here:
                return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return live

    async def _missing(self, tournament_id: int) -> Refusal:
        stored = await self._rows.load(tournament_id) if known_game_id(tournament_id) else None
        if stored is None or stored.record.status in ("signup", "running", "paused"):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN)
        if stored.record.status == "cancelled":
            return Refusal(R.GAME_OVER, "This tournament was cancelled.")
        return Refusal(R.GAME_OVER, "This tournament is over.")

    @contextlib.asynccontextmanager
    async def _organising(self, request: TournamentRequest) -> AsyncIterator[_Running | Refusal]:
        """The tournament of an organiser's request, under its lock; or the refusal (no such
        tournament, or not the organiser's)."""
        live = await self._find(request)
        if isinstance(live, Refusal):
            yield live
            return
        async with live.lock:
            yield self._organiser(live, request) or live

    @staticmethod
    def _organiser(live: _Running, request: TournamentRequest) -> Refusal | None:
        if request.user_id == live.record.organiser_id or request.organiser_rights:
            return None
        return Refusal(R.NOT_HOST, NOT_ORGANISER)

    @staticmethod
    def _signing_up(live: _Running) -> Refusal | None:
        if live.record.status == "signup":
            return None
        return Refusal(R.ALREADY_STARTED, "Sign-up is over: this tournament has started.")

    def _outcome(
        self,
        live: _Running,
        what: str,
        *,
        decided: Iterable[PairingRecord] = (),
        opened: Iterable[PairingRecord] = (),
        finished: bool = False,
        games: Iterable[Outcome] = (),
        playing: Iterable[PairingRecord] = (),
    ) -> TournamentOutcome:
        opened_views = tuple(live.pairing_view(p) for p in opened)
        return TournamentOutcome(
            view=live.view(),
            what=what,
            decided=tuple(live.pairing_view(p) for p in decided),
            opened=opened_views,
            playing=tuple(live.pairing_view(p) for p in playing),
            ping=tuple(u for p in opened_views for u in p.players),
            finished=finished,
            games=tuple(games),
        )

    async def _tell(self, news: TournamentOutcome) -> None:
        for listener in list(self.listeners):
            try:
                await listener(news)
            except Exception:
                log.exception("tournament %d: a listener failed", news.view.tournament_id)


def _collect(into: list[TournamentOutcome]) -> Listener:
    async def keep(news: TournamentOutcome) -> None:
        into.append(news)

    return keep


def _round_rows(rnd: Round, deadline: float, now: float) -> list[PairingRecord]:
    """A round's pairings as rows: those to play (with the deadline), then its byes and
    walkovers, decided already."""
    rows = [
        PairingRecord(rnd.number, p.table, int(p.first), int(p.second), deadline_at=deadline)
        for p in rnd.pairings
    ]
    table = len(rows)
    for r in rnd.settled:
        table += 1
        if r.second is None:
            rows.append(
                PairingRecord(
                    rnd.number,
                    table,
                    int(r.first),
                    None,
                    "decided",
                    decided_by="bye",
                    decided_at=now,
                )  # fmt: skip
            )
        else:
            loser = r.forfeited_by
            assert loser is not None
            rows.append(
                PairingRecord(
                    rnd.number,
                    table,
                    int(r.first),
                    int(r.second),
                    "decided",
                    forfeited_by=int(loser),
                    decided_by="drop",
                    decided_at=now,
                )  # fmt: skip
            )
    return rows
