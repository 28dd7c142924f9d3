"""The expert's search near the end of a game (bot.ai.pegging_search with an Ending): reaching
the target wins at once, and the end of the play is valued by the ending."""

import random

import pytest

from bot.ai.pegging import WIN, unseen_rank_counts
from bot.ai.pegging_search import Got, search_values
from bot.ai.playouts import model_choice
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Game, GameOver, Phase, Play, Scored, ScoreReason, Shown
from tests.support.engine_positions import random_two_handed

PLAY_REASONS = (ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)


class Recorded:
    """An ending that values the play's end by the points and (a little) by the cards the
    opponent laid, so a test sees both reach it."""

    def __init__(self, needs: tuple[int, int]) -> None:
        self.needs = needs

    def value(self, got: Got, laid: tuple[int, ...]) -> float:
        return got[0] - got[1] + 0.001 * sum(r * r for r in laid)


def _engine_value(game: Game, seat: int, got: list[int], laid: list[int], ending) -> float:
    """Through the engine: ``seat`` lays its best card (it sees the other hand: one world), the
    other lays as the ``standard`` model would; the engine says who reached the target."""
    mover = game.to_act[0]
    if mover != seat:
        view = SeatKnowledge.of(game, mover)
        rank = model_choice(
            tuple(sorted(c.rank for c in view.hand)),
            tuple(c.rank for c in view.pile),
            view.count,
            unseen_rank_counts(view),
            len(game.hand(seat)),
        )
        card = next(c for c in view.hand if c.rank == rank and view.count + c.value <= 31)
        return _after(game, seat, mover, Play(card), got, [*laid, rank], ending)
    return max(
        _after(game, seat, mover, action, got, laid, ending) for action in game.legal_actions(mover)
    )


def _after(game, seat, mover, action, got, laid, ending) -> float:
    child = game.copy()
    got = list(got)
    for event in child.apply(mover, action):
        if isinstance(event, Scored) and event.reason in PLAY_REASONS:
            got[0 if event.side == seat else 1] += event.points
        if isinstance(event, GameOver):  # in the play: the show comes after
            return WIN if event.winner == seat else -WIN
        if isinstance(event, Shown):  # the play is over with nobody out
            return ending.value((got[0], got[1]), tuple(laid))
    assert child.phase is Phase.PLAY
    return _engine_value(child, seat, got, laid, ending)


@pytest.mark.parametrize("seed", range(10))
def test_near_the_end_the_search_follows_the_engine_to_the_win(seed):
    rng = random.Random(seed)
    game, pone, dealer = random_two_handed(rng)
    state = game.to_dict()
    state["scores"] = [rng.randint(112, 120), rng.randint(112, 120)]  # dealer, pone
    game = Game.from_dict(state)
    needs = (121 - state["scores"][1], 121 - state["scores"][0])  # the pone searches
    ending = Recorded(needs)
    me = tuple(sorted(c.rank for c in pone))
    them = tuple(sorted(c.rank for c in dealer))
    unseen = tuple(unseen_rank_counts(SeatKnowledge.of(game, 0)))
    values = search_values(me, (), 0, [(1.0, them)], unseen, sorted(set(me)), ending)
    for card in pone:
        expected = _after(game, 1, 1, Play(card), [0, 0], [], ending)
        assert values[card.rank] == pytest.approx(expected), (pone, dealer, card, needs)


def test_an_ending_that_never_ends_the_game_values_as_the_points():
    rng = random.Random(7)
    for _ in range(5):
        cards = rng.sample(FULL_PACK, 9)
        me = tuple(sorted(c.rank for c in cards[:4]))
        unseen = [0] + [4] * 13
        unseen[cards[8].rank] -= 1
        pool = [r for r in range(1, 14) for _ in range(unseen[r] - me.count(r))]
        worlds = [(rng.choice((0.5, 1.0)), tuple(sorted(rng.sample(pool, 4)))) for _ in range(9)]

        class Points:
            needs = (999, 999)

            def value(self, got: Got, laid: tuple[int, ...]) -> float:
                return got[0] - got[1]

        ranks = sorted(set(me))
        plain = search_values(me, (), 0, worlds, tuple(unseen), ranks)
        ended = search_values(me, (), 0, worlds, tuple(unseen), ranks, Points())
        assert ended == pytest.approx(plain)


def test_a_card_that_pegs_out_is_a_win_and_the_ending_sees_what_was_laid():
    # The seat needs 2 and holds a 5 on a count of 10: fifteen wins at once, whatever follows.
    seen: list[tuple[int, ...]] = []

    class Watching(Recorded):
        def value(self, got: Got, laid: tuple[int, ...]) -> float:
            seen.append(tuple(sorted(laid)))
            return super().value(got, laid)

    unseen = tuple([0] + [4] * 13)
    worlds = [(1.0, (2, 9, 12)), (2.0, (3, 4, 13))]
    values = search_values(
        (1, 5, 8, 13), (10,), 10, worlds, unseen, [1, 5, 8, 13], Watching((2, 60))
    )
    assert values[5] == pytest.approx(WIN)
    assert all(v <= WIN for v in values.values())
    assert seen and set(seen) <= {(2, 9, 12), (3, 4, 13)}  # a world's own cards, all laid
