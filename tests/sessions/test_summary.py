"""After the game: the summary (points by kind, best hands, biggest pegs, luck, skunk lines) and
the manager's summary and review (ended games only, seated players only, in a worker)."""

from __future__ import annotations

import random

import pytest

from bot.ai.luck import AVERAGE_DEALT, average_dealt, dealt_value
from bot.ai.review import Review
from bot.engine import Played, Scored, ScoreReason, Shown, Variant
from bot.sessions import Refusal, RefusalReason
from bot.sessions.summary import PEGGING_REASONS, GameSummary, skunk_lines, summarize
from tests.support.replays import played_replay
from tests.support.sessions import BOB, CAROL, HOST, play_to_end, running, started_game

R = RefusalReason


@pytest.fixture(scope="module")
def game():
    return played_replay(21, Variant(target=61))


def _events(replay):
    return [e for step in replay.steps for e in step.events]


def test_points_by_kind_add_up_to_the_score(game):
    summary = summarize(game)
    scored = [e for e in _events(game) if isinstance(e, Scored)]
    for side in summary.sides:
        mine = [e for e in scored if e.side == side.side]
        on_board = [
            (e.reason, e.score - (b.score if b else 0))
            for b, e in zip([None, *mine], mine, strict=False)
        ]
        assert side.pegging == sum(p for r, p in on_board if r in PEGGING_REASONS)
        assert side.hand == sum(p for r, p in on_board if r is ScoreReason.HAND)
        assert side.crib == sum(p for r, p in on_board if r is ScoreReason.CRIB)
        if not side.won:  # the loser's points all went on the board
            assert side.score == sum(e.points for e in mine)
        assert side.pegging + side.hand + side.crib + side.muggins == side.score
        assert side.score == game.scores[side.side]
    assert summary.winner == game.winner and summary.sides[game.winner].won
    assert summary.deals == len(game.deals)


def test_the_best_hand_and_the_biggest_peg(game):
    summary = summarize(game)
    shown = [e for e in _events(game) if isinstance(e, Shown)]
    for side in summary.sides:
        best = max(e.breakdown.total for e in shown if e.seat in side.seats)
        assert side.best_hand is not None and side.best_hand.points == best
        assert len(side.best_hand.cards) == 4
        pegs = [
            e.points
            for e in _events(game)
            if isinstance(e, Scored) and e.side == side.side and e.reason in PEGGING_REASONS
        ]
        if pegs:
            peg = side.biggest_peg
            assert peg is not None and peg.points == max(pegs)
            if peg.reason is ScoreReason.PLAY:
                deal = game.deals[peg.deal - 1]
                laid = [
                    e
                    for step in deal.steps
                    for e in step.events
                    if isinstance(e, Played) and e.card == peg.card
                ]
                assert laid and laid[0].count == peg.count


def test_how_the_cards_ran(game):
    summary = summarize(game)
    for side in summary.sides:
        assert side.luck.hands == len(game.deals)
        expected = sum(
            dealt_value(d.hands[side.side], own=d.dealer == side.side) for d in game.deals
        )
        average = sum(AVERAGE_DEALT[("2", d.dealer == side.side)] for d in game.deals)
        assert side.luck.expected == pytest.approx(expected)
        assert side.luck.average == pytest.approx(average)
        assert side.luck.per_hand == pytest.approx(side.luck.difference / len(game.deals))
    assert "seed" in summary.luck_method


def test_the_shipped_averages_are_what_a_fresh_sample_gives():
    for own in (True, False):
        fresh = average_dealt(2, False, own, samples=400, seed=99)
        assert fresh == pytest.approx(AVERAGE_DEALT[("2", own)], abs=0.5)


def test_teams_and_three_sides():
    teams = summarize(played_replay(2, Variant(players=4, partnerships=True, target=61)))
    assert [s.seats for s in teams.sides] == [(0, 2), (1, 3)]
    assert all(s.luck.hands == 2 * teams.deals for s in teams.sides)
    three = summarize(played_replay(3, Variant(players=3, target=61)))
    assert len(three.sides) == 3 and sum(s.won for s in three.sides) == 1


def test_skunk_lines_when_they_matter():
    assert skunk_lines(Variant(), (121, 88), 0) == (91,)
    assert skunk_lines(Variant(), (40, 121), 1) == (91, 61)
    assert skunk_lines(Variant(), (121, 101), 0) == ()
    assert skunk_lines(Variant(target=61), (61, 29), 0) == (31,)
    assert skunk_lines(Variant(target=61), (61, 45), 0) == ()
    assert skunk_lines(Variant(players=3), (121, 120, 70), 0) == (91, 61)
    assert skunk_lines(Variant(), (80, 70), None) == ()


# ---------------------------------------------------------------------- through the manager


@pytest.mark.slow  # a whole flow: in make test, not the quick loop
async def test_summary_and_review_of_an_ended_game_only_for_its_players(tmp_path):
    async with running(tmp_path / "after.db") as manager:
        short = Variant(target=61)
        ended = await started_game(manager, humans=(HOST, BOB), variant=short)
        final = await play_to_end(manager, ended.view.game_id, random.Random(5))
        live = await started_game(manager, humans=(HOST, CAROL), variant=short, channel_id=501)
        game_id, live_id = final.view.game_id, live.view.game_id

        summary = await manager.analysis.summary(game_id)
        assert isinstance(summary, GameSummary) and summary.winner is not None
        for user in (HOST, BOB, CAROL):  # a game in progress: for nobody
            for request in (
                manager.analysis.review(live_id, user),
                manager.analysis.summary(live_id),
            ):
                refused = await request
                assert isinstance(refused, Refusal) and refused.reason is R.HIDDEN
        refused = await manager.analysis.review(game_id, CAROL)  # not at that table
        assert isinstance(refused, Refusal) and refused.reason is R.NOT_SEATED
        for bad in (0, -1, 10**30):
            refused = await manager.analysis.review(bad, HOST)
            assert isinstance(refused, Refusal) and refused.reason is R.UNKNOWN_GAME

        try:
            mine = await manager.analysis.review(game_id, BOB)  # in the worker process
        finally:
            manager.shutdown()
        assert isinstance(mine, Review) and mine.seat == 1 and mine.game_id == game_id
        assert len(mine.deals) == summary.deals
        assert (
            await manager.analysis.review(game_id, BOB) is mine
        )  # kept: an ended game never changes
