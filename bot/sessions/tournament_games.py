"""A tournament's pairings' games: each started in its pairing's thread, each end recorded, and
a pairing decided by its games, or by the rule when its game was stopped.

The cog opens a thread for each pairing and asks for its game there
(:meth:`PairingGames.open_pairing`): a game between the two players, seated, or for a best of 3
or 5 the first of the pairing's games, each next one started as soon as the last ends (dealt
first by its loser). A pairing's games count by games won, a skunk or not, as the ACC counts
them, so they are played as a series of games here rather than as one of the bot's own matches
(where a skunk counts two). When a pairing's last game ends its result is recorded, and the
round moves on (:class:`~.tournament_rounds.Rounds`).

Games end on the games' own paths (a click, a forfeit, the turn timers, the idle sweep); this
part hears of it through the table events (``ended``, then ``follow`` once the game's lock is
released: the manager's ``follow`` runs first, then this part's). What happens then (a result,
a pairing's next game, a new round, the end) is told to the listeners; the next game of a best
of 3 or 5 comes back as the game outcome's ``next_game`` too. A game whose end was not followed
is picked up by the next sweep (:mod:`.tournament_deadlines`).

An unfinished pairing decided otherwise (:meth:`PairingGames.verdict`, at the deadline or for a
game abandoned for want of moves): a side that has not made a move in it forfeits, whatever the
rule (when neither has, the pairing's first-named side, the higher ranked or seeded, takes it);
otherwise under the ``forfeit`` rule the side the game waits for forfeits, and under the
``score`` rule (or when the game waits for both) the side ahead wins: in games won, then in the
game's points, the first-named side when level. A single game decided by the score counts with
the lead it stood at (:func:`~.tournament_views.final_score`); a game still being played is then
forfeited by the losing side (:meth:`PairingGames.end_game`), so it ends like any game.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from bot.engine import Variant
from db import Conflict, Finish, NewGame, SeatOutcome, SeatRecord
from db.games import Games
from db.tournaments import DecidedBy, PairingRecord, Tournaments

from .play import GamePlay
from .requests import Forfeit, OpenPairing
from .session import Session
from .tables import Tables
from .tournament_rounds import Rounds
from .tournament_state import Ended, Running, RunningTournaments
from .tournament_views import TournamentOutcome, wins_of
from .views import GameStatus, Outcome, Refusal, RefusalReason, StepEvent

log = logging.getLogger("bot.sessions")
R = RefusalReason


class PairingGames:
    """The games of the pairings (see the module docstring).

    Subscribes itself to the table events: a game's end is recorded after the ``follow`` the
    manager set, which it then calls first.
    """

    def __init__(
        self,
        running: RunningTournaments,
        rows: Tournaments,
        games: Games,
        tables: Tables,
        play: GamePlay,
        rounds: Rounds,
    ) -> None:
        self._running = running
        self._rows = rows
        self._games = games
        self._tables = tables
        self._play = play
        self._rounds = rounds
        events = tables.events
        self._then = events.follow
        events.follow = self.follow
        events.ended.append(self.on_ended)

    async def open_pairing(self, request: OpenPairing) -> Outcome | Refusal:
        """Start the game of a pairing of the round being played in the thread the cog made
        for it, both players seated (their cut for the deal comes first)."""
        live = self._running.open.get(request.tournament_id)
        if live is None:
            return await self._running.missing(request.tournament_id)
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
        self, live: Running, p: PairingRecord, first_dealer: int | None
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
        self._running.pairing_of[game_id] = (live.id, p.round, p.table)
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
        if s.id in self._running.pairing_of:
            dealer = s.game.next_first_dealer if s.game is not None else None
            self._running.ended[s.id] = Ended(finish, dealer)

    async def follow(self, outcome: Outcome) -> Outcome:
        """After every request on a game: the manager's own ``follow`` first, then, if it
        ended a pairing's game, its result (the match's next game in ``next_game``)."""
        outcome = await self._then(outcome)
        ended = self._running.ended.pop(outcome.game_id, None)
        if ended is None:
            return outcome
        following = await self.game_over(outcome.game_id, ended)
        return outcome if following is None else dataclasses.replace(outcome, next_game=following)

    async def record_ended(self) -> None:
        """Record every pairing's game end not recorded yet (one not followed, one a failure
        left to try again)."""
        for game_id, ended in list(self._running.ended.items()):
            if self._running.ended.pop(game_id, None) is not None:
                await self.game_over(game_id, ended)

    async def game_over(self, game_id: int, ended: Ended) -> Outcome | None:
        """Record a pairing's ended game: its result, or the pairing's next game (returned);
        the listeners hear of a result, a new round and the end."""
        key = self._running.pairing_of.get(game_id)
        live = None if key is None else self._running.open.get(key[0])
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
                    news = live.outcome("next game", playing=[playing])
                if decided is not None:
                    later = await self._rounds.advance(live)
                    news = live.outcome(
                        "round" if later.opened else "finished" if later.finished else "result",
                        decided=[decided],
                        opened=later.opened,
                        finished=later.finished,
                    )
            except Exception:
                log.exception("tournament %d: game %d's end not recorded; retried", live.id,
                              game_id)  # fmt: skip
                self._running.ended[game_id] = ended
                return None
        if news is not None:
            await self._running.tell(news)
        return following

    async def _record_game(
        self, live: Running, p: PairingRecord, game_id: int, ended: Ended
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
            decided = await self.verdict(live, p, (points.get(0, 0), points.get(1, 0)), ())
        await self._rows.save_pairing(live.id, decided)
        live.pairings[(p.round, p.table)] = decided
        log.info("tournament %d: round %d table %d decided", live.id, p.round, p.table)
        return decided, None

    async def verdict(
        self,
        live: Running,
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

    async def end_game(self, p: PairingRecord, loser: int | None) -> Outcome | None:
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

    async def finish_of(self, game_id: int) -> Ended | None:
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
        return Ended(finish, loser if reason == "won" else None)
