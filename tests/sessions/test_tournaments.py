"""Tournaments through the session manager: the three formats run to their placings with games
played or forfeited in their threads, deadlines deciding the no-shows, the organiser's controls,
a restart in the middle of a round, and every refusal changing nothing."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from bot.sessions import Forfeit, Move, Outcome, Place, Refusal, RefusalReason, ShowHand
from bot.sessions.requests import (
    CancelTournament,
    CreateTournament,
    DropPlayer,
    ExtendDeadline,
    JoinTournament,
    LeaveTournament,
    OpenPairing,
    PauseTournament,
    ReplacePlayer,
    ResumeTournament,
    StartTournament,
    WithdrawFromTournament,
)
from bot.sessions.tournament_views import PairingView, TournamentOutcome, TournamentView
from bot.tournament import Format, Scoring, Tournament, placings, standings
from bot.tournament import Result as RuleResult
from tests.support.sessions import open_manager, play_to_end

GUILD, CHANNEL, ORGANISER = 1, 900, 42
HERE = Place(GUILD, CHANNEL)
PLAYERS = tuple(range(201, 209))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Run:
    """A manager on a store, a clock, the news the tournament part told, thread ids."""

    def __init__(self, store, manager, clock: Clock) -> None:
        self.store, self.manager, self.clock = store, manager, clock
        self.news: list[TournamentOutcome] = []
        self.threads = itertools.count(5000)
        self.director = manager.tournaments

        async def heard(news: TournamentOutcome) -> None:
            self.news.append(news)

        self.director.listeners.append(heard)

    async def open(self, p: PairingView) -> Outcome:
        tid = self.director.in_channel(CHANNEL).tournament_id
        game = await self.director.games.open_pairing(
            OpenPairing(tid, p.round, p.table, next(self.threads))
        )
        assert isinstance(game, Outcome), game
        return game


async def running(path, clock: Clock | None = None) -> Run:
    clock = clock or Clock()
    store, manager = await open_manager(path, clock=clock, seed_source=lambda: 20240611)
    return Run(store, manager, clock)


async def entered(run: Run, fmt: str, players=PLAYERS, **settings) -> int:
    made = await run.director.signup.create(
        CreateTournament(GUILD, CHANNEL, ORGANISER, "Friday night", fmt, **settings)
    )
    assert isinstance(made, TournamentOutcome), made
    tid = made.view.tournament_id
    for user in players:
        joined = await run.director.signup.join(JoinTournament(tid, user, where=HERE))
        assert isinstance(joined, TournamentOutcome), joined
    return tid


def rules(view: TournamentView) -> Tournament:
    seeds = sorted((e for e in view.entrants if e.seed), key=lambda e: e.seed)
    s = view.settings
    return Tournament(
        Format(s.format),
        tuple(str(e.user_id) for e in seeds),
        rounds=view.total_rounds if s.format == "swiss" else 0,
        target=s.target,
        games_to_win=s.games_to_win,
        seed=0,
        scoring=Scoring(s.spread_cap, s.bye_spread, s.forfeit_spread),
    )


def results(view: TournamentView) -> list[RuleResult]:
    return [p.result for p in view.pairings if p.result is not None]


def met(view: TournamentView) -> list[frozenset[int]]:
    return [frozenset((p.first, p.second)) for p in view.pairings if p.second is not None]


async def forfeit_by(run: Run, game: Outcome, user: int) -> Outcome:
    ended = await run.manager.play.forfeit(Forfeit(game.game_id, user))
    assert isinstance(ended, Outcome), ended
    return ended


# ---------------------------------------------------------------------- the three formats


@pytest.mark.sqlite_only
async def test_a_swiss_of_8_plays_3_rounds_without_a_repeat_to_its_standings(database):
    run = await running(database)
    try:
        tid = await entered(run, "swiss", rounds=3, target=61)
        started = await run.director.signup.start(StartTournament(tid, ORGANISER, where=HERE))
        assert isinstance(started, TournamentOutcome), started
        assert started.what == "started" and started.view.round == 1
        assert len(started.opened) == 4 and sorted(started.ping) == list(PLAYERS)
        rng = random.Random(3)
        opened = started.opened
        for number in (1, 2, 3):
            assert {p.round for p in opened} == {number}
            for i, p in enumerate(opened):
                game = await run.open(p)
                if number == 1 or i % 2:  # played out to the end, the engine's own scores
                    last = await play_to_end(run.manager, game.game_id, rng)
                    assert last.finished is not None and last.finished.reason == "won"
                else:  # the second conceded before the first show
                    await forfeit_by(run, game, p.second_player)
            news = run.news[-1]
            if number < 3:
                assert news.what == "round" and news.view.round == number + 1
                opened = news.opened
            else:
                assert news.what == "finished" and news.finished
        final = news.view
        assert final.status == "finished" and run.director.view(tid) is None
        pairs = met(final)
        assert len(pairs) == 12 and len(set(pairs)) == 12  # nobody met twice
        expected = standings(rules(final), results(final))
        assert final.standings == expected  # ranked from the stored games by the rules
        assert [s.wins for s in final.standings][0] >= 2
        won = [p for p in final.pairings if p.decided_by == "played" and not p.result.is_forfeit]
        assert all(max(p.games[0][1:]) == 61 for p in won)
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_a_round_robin_of_5_gives_everyone_one_bye_and_meets_every_pair(database):
    run = await running(database)
    players = PLAYERS[:5]
    try:
        tid = await entered(run, "round robin", players=players, bye_spread=20)
        started = await run.director.signup.start(StartTournament(tid, ORGANISER))
        assert started.view.total_rounds == 5
        opened = started.opened
        for number in range(1, 6):
            byes = [p for p in run.director.view(tid).current if p.is_bye] if number < 6 else []
            assert len(byes) == 1 and byes[0].state == "decided"
            assert len(opened) == 2
            for p in opened:
                game = await run.open(p)
                await forfeit_by(run, game, p.second_player)  # the second-named concedes
            opened = run.news[-1].opened
        final = run.news[-1].view
        assert final.status == "finished"
        byes = sorted(p.first for p in final.pairings if p.is_bye)
        assert byes == sorted(players)
        pairs = met(final)
        assert len(pairs) == 10 and len(set(pairs)) == 10
        assert final.standings == standings(rules(final), results(final))
        assert all(s.byes == 1 for s in final.standings)
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_an_elimination_of_8_decides_a_no_show_at_the_deadline(database):
    run = await running(database)
    try:
        tid = await entered(run, "single elimination", deadline_minutes=30)
        started = await run.director.signup.start(StartTournament(tid, ORGANISER))
        assert started.view.total_rounds == 3
        seeds = {e.user_id: e.seed for e in started.view.entrants}
        assert sorted(seeds.values()) == list(range(1, 9))
        first_round = started.opened
        assert [(seeds[p.first], seeds[p.second]) for p in first_round] == [
            (1, 8), (4, 5), (2, 7), (3, 6)
        ]  # fmt: skip
        games = [await run.open(p) for p in first_round]
        no_show = first_round[0]
        # table 1: the top seed cuts for the deal, the eighth seed never comes
        mine = run.manager.hands.private_view(ShowHand(games[0].game_id, no_show.first_player))
        cut = await run.manager.play.act(
            Move(games[0].game_id, no_show.first_player, mine.legal_actions[0], step=mine.step)
        )
        assert cut.ok
        for p, game in zip(first_round[1:], games[1:], strict=True):
            await forfeit_by(run, game, p.second_player)
        assert run.director.view(tid).round == 1  # table 1 is still undecided
        assert await run.director.deadlines.sweep() == []  # not yet
        run.clock.now += 30 * 60
        (decided,) = await run.director.deadlines.sweep()
        assert decided.what == "deadline" and decided.view.round == 2
        (verdict,) = decided.decided
        assert verdict.result.winner == str(no_show.first)
        assert verdict.result.forfeited_by == str(no_show.second)
        assert verdict.decided_by == "deadline"
        (ended,) = decided.games  # the no-show's game was forfeited for them
        assert ended.finished is not None
        assert run.manager.live.view(games[0].game_id) is None
        for p in decided.opened:  # the semi-finals, then the final: the first-named wins
            await forfeit_by(run, await run.open(p), p.second_player)
        final_round = run.news[-1].opened
        assert len(final_round) == 1
        await forfeit_by(run, await run.open(final_round[0]), final_round[0].second_player)
        final = run.news[-1].view
        assert run.news[-1].finished and final.status == "finished"
        assert final.placings == placings(rules(final), results(final))
        assert [p.place for p in final.placings] == [1, 2, 3, 3, 5, 5, 5, 5]
    finally:
        await run.store.close()


# ---------------------------------------------------------------------- restarts


async def test_a_restart_in_the_middle_of_a_round_carries_the_tournament_on(databases):
    place = databases("store")
    clock = Clock()
    run = await running(place, clock)
    players = PLAYERS[:4]
    tid = await entered(run, "swiss", players=players, rounds=2, deadline_minutes=60)
    started = await run.director.signup.start(StartTournament(tid, ORGANISER))
    one, two = started.opened
    first_game = await run.open(one)
    second_game = await run.open(two)
    await forfeit_by(run, first_game, one.second_player)
    deadline = run.director.view(tid).current[1].deadline_at
    await run.store.close()

    clock.now += 10 * 60
    run = await running(place, clock)
    try:
        view = run.director.view(tid)
        assert view is not None and view.status == "running" and view.round == 1
        assert [p.state for p in view.current] == ["decided", "playing"]
        assert view.current[1].deadline_at == deadline  # the deadline is the stored one
        assert run.manager.live.view(second_game.game_id) is not None  # the game resumed
        await forfeit_by(run, second_game, two.first_player)
        news = run.news[-1]
        assert news.what == "round" and news.view.round == 2 and len(news.opened) == 2
        assert len(set(met(news.view))) == 4  # round 2 repeats no pairing of round 1
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_a_game_that_ended_while_the_bot_was_down_is_recorded_at_the_restart(database):
    run = await running(database)
    tid = await entered(run, "swiss", players=PLAYERS[:2], rounds=1)
    started = await run.director.signup.start(StartTournament(tid, ORGANISER))
    (p,) = started.opened
    game = await run.open(p)
    run.director.listeners.clear()
    run.manager.tables.events.follow = run.director.games._then  # the end is not followed
    await forfeit_by(run, game, p.first_player)
    assert run.director.view(tid).current[0].state == "playing"
    await run.store.close()

    run = await running(database)
    try:
        assert run.director.view(tid) is None  # finished at the restart
        (news,) = run.director.resumed
        assert news.finished and news.view.status == "finished"
        assert news.view.standings[0].player == str(p.second)
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_a_pairing_decided_before_its_game_was_ended_ends_the_game_at_the_restart(database):
    """Killed between storing a deadline's verdict and forfeiting the game it stopped: the
    restart forfeits the game for the side that lost the pairing, and the tournament goes on."""
    run = await running(database)
    tid = await entered(run, "swiss", players=PLAYERS[:2], rounds=1)
    started = await run.director.signup.start(StartTournament(tid, ORGANISER))
    (p,) = started.opened
    game = await run.open(p)
    stored = next(q for q in (await run.store.tournaments.load(tid)).pairings)
    verdict = dataclasses.replace(
        stored, state="decided", forfeited_by=p.second, decided_by="deadline", decided_at=1.0
    )
    await run.store.tournaments.save_pairing(tid, verdict)  # and then the process died
    await run.store.close()

    run = await running(database)
    try:
        assert run.manager.live.view(game.game_id) is None  # no longer played
        (news,) = run.director.resumed
        assert news.finished and [g.game_id for g in news.games] == [game.game_id]
        assert news.games[0].finished is not None
        assert news.games[0].finished.forfeit_seat == 1  # the second place's seat
        assert news.view.standings[0].player == str(p.first)
    finally:
        await run.store.close()


# ---------------------------------------------------------------------- the organiser


@pytest.mark.sqlite_only
async def test_the_organiser_pauses_extends_drops_replaces_and_cancels(database):
    run = await running(database)
    try:
        tid = await entered(run, "round robin", players=PLAYERS[:4], deadline_minutes=60)
        started = await run.director.signup.start(StartTournament(tid, ORGANISER))
        one, two = started.opened
        deadline = one.deadline_at

        paused = await run.director.controls.pause(PauseTournament(tid, ORGANISER))
        assert paused.view.status == "paused"
        refused = await run.director.games.open_pairing(OpenPairing(tid, 1, 1, 7001))
        assert isinstance(refused, Refusal) and "paused" in refused.message
        run.clock.now += 2 * 3600  # well past the deadline, but the clock is stopped
        assert await run.director.deadlines.sweep() == []
        resumed = await run.director.controls.resume(ResumeTournament(tid, ORGANISER))
        assert resumed.view.current[0].deadline_at == deadline + 2 * 3600

        extended = await run.director.controls.extend(ExtendDeadline(tid, ORGANISER, minutes=15))
        assert extended.view.current[0].deadline_at == deadline + 2 * 3600 + 15 * 60

        # a player replaced before their game: the replacement sits in it
        replaced = await run.director.controls.replace(
            ReplacePlayer(tid, ORGANISER, one.first, 999)
        )
        assert replaced.view.current[0].first_player == 999
        game = await run.open(replaced.view.current[0])
        assert run.manager.live.view(game.game_id).user_ids[0] == 999

        # dropping the other: their pairing is forfeited at once, their game ended
        game_two = await run.open(two)
        dropped = await run.director.controls.drop(DropPlayer(tid, ORGANISER, two.second))
        (decided,) = dropped.decided
        assert decided.decided_by == "drop"
        assert decided.result.forfeited_by == str(two.second)
        assert run.manager.live.view(game_two.game_id) is None
        assert [e.status for e in dropped.view.entrants if e.user_id == two.second] == ["dropped"]

        # a withdrawal through the replacement's own request, from the game's thread
        thread = run.director.view(tid).current[0].thread_id
        withdrew = await run.director.controls.withdraw(
            WithdrawFromTournament(tid, 999, where=Place(GUILD, thread))
        )
        assert withdrew.decided[0].result.forfeited_by == str(one.first)
        assert withdrew.view.round == 2
        assert all(p.second not in (one.first, two.second) for p in withdrew.opened)

        cancelled = await run.director.controls.cancel(CancelTournament(tid, ORGANISER))
        assert cancelled.view.status == "cancelled" and run.director.view(tid) is None
        again = await run.director.controls.pause(PauseTournament(tid, ORGANISER))
        assert isinstance(again, Refusal) and again.message == "This tournament was cancelled."
    finally:
        await run.store.close()


# ---------------------------------------------------------------------- refusals


async def test_refusals_change_nothing(databases):
    run = await running(databases("store"))
    try:
        tid = await entered(run, "single elimination", players=PLAYERS[:2], cap=3)
        before = run.director.view(tid)

        def refused(answer, reason: RefusalReason, words: str) -> None:
            assert isinstance(answer, Refusal), answer
            assert answer.reason is reason and words in answer.message, answer
            assert run.director.view(tid) == before

        d = run.director
        signup, controls = d.signup, d.controls
        refused(await signup.join(JoinTournament(tid, PLAYERS[0])), RefusalReason.ALREADY_SEATED,
                "already in")  # fmt: skip
        refused(await signup.start(StartTournament(tid, PLAYERS[0])), RefusalReason.NOT_HOST,
                "organiser")  # fmt: skip
        refused(await signup.leave(LeaveTournament(tid, 555)), RefusalReason.NOT_SEATED, "not in")
        refused(
            await signup.join(JoinTournament(tid, 555, where=Place(GUILD, 1234))),
            RefusalReason.WRONG_CHANNEL,
            "another channel",
        )
        refused(await signup.join(JoinTournament(tid + 1, 555)), RefusalReason.UNKNOWN_GAME, "find")
        assert (await signup.join(JoinTournament(tid, PLAYERS[2]))).ok
        before = d.view(tid)
        refused(
            await signup.join(JoinTournament(tid, PLAYERS[3])), RefusalReason.LOBBY_FULL, "full"
        )
        busy = await signup.create(
            CreateTournament(GUILD, CHANNEL, ORGANISER, "Again", "swiss", rounds=2)
        )
        refused(busy, RefusalReason.CHANNEL_BUSY, "already has a tournament")
        assert (await signup.start(StartTournament(tid, ORGANISER))).ok
        before = d.view(tid)
        started = RefusalReason.ALREADY_STARTED
        refused(await signup.join(JoinTournament(tid, PLAYERS[4])), started, "started")
        refused(await signup.leave(LeaveTournament(tid, PLAYERS[0])), started, "withdraw")
        refused(await signup.start(StartTournament(tid, ORGANISER)), started, "started")
        refused(await controls.resume(ResumeTournament(tid, ORGANISER)), RefusalReason.INVALID,
                "not paused")  # fmt: skip
        refused(await controls.extend(ExtendDeadline(tid, ORGANISER, minutes=0)),
                RefusalReason.INVALID, "1 minute")  # fmt: skip
        refused(await controls.replace(ReplacePlayer(tid, ORGANISER, PLAYERS[0], PLAYERS[1])),
                RefusalReason.ALREADY_SEATED, "already in")  # fmt: skip
        refused(await controls.drop(DropPlayer(tid, PLAYERS[1], PLAYERS[0])),
                RefusalReason.NOT_HOST, "organiser")  # fmt: skip
        refused(await controls.withdraw(WithdrawFromTournament(tid, 555)),
                RefusalReason.NOT_SEATED, "not playing")  # fmt: skip
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"format": "ladder"}, "Swiss, a round robin"),
        ({"format": "swiss", "rounds": 0}, "1 to 11 rounds"),
        ({"format": "swiss", "rounds": 12}, "1 to 11 rounds"),
        ({"format": "swiss", "rounds": 3, "cap": 8}, None),
        ({"format": "swiss", "rounds": 7, "cap": 8}, "1 to 6 rounds"),
        ({"format": "round robin", "cap": 1}, "2 to 256 players"),
        ({"format": "round robin", "cap": 257}, "2 to 256 players"),
        ({"format": "round robin", "target": 100}, "121 or 61"),
        ({"format": "round robin", "best_of": 2}, "best of 3"),
        ({"format": "round robin", "deadline_rule": "coin"}, "forfeit or by the score"),
        ({"format": "round robin", "name": "  "}, "1 to 100 characters"),
        ({"format": "round robin", "starts_at": 5.0}, "in the future"),
    ],
)
async def test_the_organisers_settings_are_checked(database, settings, words):
    run = await running(database)
    try:
        name = settings.pop("name", "Cup")
        made = await run.director.signup.create(
            CreateTournament(
                GUILD, CHANNEL, ORGANISER, name, cap=settings.pop("cap", 256), **settings
            )  # fmt: skip
        )
        if words is None:
            assert made.ok and made.view.settings.rounds == 3
        else:
            assert isinstance(made, Refusal) and words in made.message, made
            assert run.director.in_channel(CHANNEL) is None
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_a_tournament_starts_at_its_time_or_is_cancelled_without_players(database):
    run = await running(database)
    try:
        at = run.clock.now + 3600
        tid = await entered(run, "swiss", players=PLAYERS[:3], rounds=2, starts_at=at)
        assert await run.director.deadlines.sweep() == []
        run.clock.now = at
        (started,) = await run.director.deadlines.sweep()
        assert started.what == "started" and started.view.status == "running"
        assert len(started.opened) == 1  # three players: a bye
        assert [p.decided_by for p in started.view.current if p.is_bye] == ["bye"]

        lonely = await run.director.signup.create(
            CreateTournament(
                GUILD, CHANNEL + 1, ORGANISER, "Quiet", "round robin", starts_at=at + 60
            )  # fmt: skip
        )
        await run.director.signup.join(JoinTournament(lonely.view.tournament_id, PLAYERS[0]))
        run.clock.now = at + 60
        (cancelled,) = await run.director.deadlines.sweep()
        assert cancelled.what == "cancelled" and cancelled.view.status == "cancelled"
        assert tid in {run.director.view(tid).tournament_id}
    finally:
        await run.store.close()


@pytest.mark.sqlite_only
async def test_a_best_of_3_pairing_plays_its_games_in_its_thread_and_the_score_rule(database):
    run = await running(database)
    try:
        tid = await entered(
            run, "swiss", players=PLAYERS[:2], rounds=1, target=61, best_of=3,
            deadline_rule="score",
        )  # fmt: skip
        (p,) = (await run.director.signup.start(StartTournament(tid, ORGANISER))).opened
        game = await run.open(p)
        rng = random.Random(11)
        last = await play_to_end(run.manager, game.game_id, rng)
        assert last.next_game is not None  # the pairing's second game, in the same thread
        second = last.next_game
        assert second.view.channel_id == game.view.channel_id
        loser_seat = 1 - last.finished.winner_sides[0]
        assert second.view.dealer in (None, loser_seat)
        view = run.director.view(tid)
        assert view.current[0].state == "playing" and len(view.current[0].games) == 1
        # the deadline passes mid-game: the side ahead (games, then points) takes the pairing
        run.clock.now += 25 * 3600
        (decided,) = await run.director.deadlines.sweep()
        (verdict,) = decided.decided
        assert decided.finished and verdict.decided_by == "deadline"
        assert verdict.result is not None
        assert run.manager.live.view(second.game_id) is None
    finally:
        await run.store.close()
