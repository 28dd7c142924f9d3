"""The expert's search with three or four players (bot.ai.pegging_search_multi)."""

import dataclasses
import random
from collections import Counter

import pytest

from bot.ai.config import EXPERT
from bot.ai.inference_multi import weighted_worlds_multi
from bot.ai.pegging import (
    distinct_by_rank,
    legal_cards,
    unseen_rank_counts,
    unshown_rank_counts,
)
from bot.ai.pegging_search_multi import search_values_multi
from bot.ai.playouts import model_choice, multi_rollout
from bot.ai.review import play_values
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Game, Go, Phase, Play, Played, Scored, ScoreReason, Variant
from tests.support.engine_positions import position

PLAY_REASONS = (ScoreReason.PLAY, ScoreReason.GO, ScoreReason.LAST_CARD)
VARIANTS = {
    "three": Variant(players=3),
    "four": Variant(players=4),
    "partners": Variant(players=4, partnerships=True),
}


def _weights(variant: Variant, seat: int) -> tuple[float, ...]:
    """Per seat, what its points count for ``seat``'s side (as the expert weighs them)."""
    own = variant.side_of(seat)
    other = -1.0 / (variant.sides - 1)
    return tuple(1.0 if variant.side_of(s) == own else other for s in range(variant.players))


def _gained(events, variant: Variant, seat: int, seen: Counter) -> float:
    """The pegging points in ``events``, weighed for ``seat``'s side; tallies what happened."""
    own = variant.side_of(seat)
    other = -1.0 / (variant.sides - 1)
    diff = 0.0
    last = None
    for event in events:
        if isinstance(event, Scored) and event.reason in PLAY_REASONS:
            diff += event.points * (1.0 if event.side == own else other)
            seen[event.reason] += 1
        if isinstance(event, Played):
            seen["31"] += event.count == 31
            last = event.seat
        if isinstance(event, Go):
            seen["go said"] += 1
    if last is not None and events and isinstance(events[-1], Go):
        seen["passed over"] += 1
    return diff


def _engine_value(game: Game, seat: int, seen: Counter) -> float:
    """Through the engine itself: ``seat`` lays its best card at each turn (it sees every hand:
    one world), every other seat lays as the ``standard`` model would from its own view, told
    the cards held by the next seat that still holds any."""
    if game.phase is not Phase.PLAY:
        return 0.0
    variant = game.variant
    mover = game.to_act[0]
    if mover != seat:
        view = SeatKnowledge.of(game, mover)
        after = (mover + 1) % game.players
        while not game.hand(after) and after != mover:
            after = (after + 1) % game.players
        rank = model_choice(
            tuple(sorted(c.rank for c in view.hand)),
            tuple(c.rank for c in view.pile),
            view.count,
            unseen_rank_counts(view),
            len(game.hand(after)),
        )
        card = next(c for c in view.hand if c.rank == rank and view.count + c.value <= 31)
        child = game.copy()
        diff = _gained(child.apply(mover, Play(card)), variant, seat, seen)
        return diff + _engine_value(child, seat, seen)
    best = None
    done = set()
    for action in game.legal_actions(mover):
        if action.card.rank in done:
            continue
        done.add(action.card.rank)
        child = game.copy()
        value = _gained(child.apply(mover, action), variant, seat, seen)
        value += _engine_value(child, seat, seen)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def _one_world(game: Game):
    hands = tuple(tuple(sorted(c.rank for c in game.hand(s))) for s in range(game.players))
    views = [SeatKnowledge.of(game, s) for s in range(game.players)]
    unseen = tuple(tuple(unseen_rank_counts(view)) for view in views)
    return [(1.0, hands, unseen)]


def _check_against_engine(game: Game, seen: Counter) -> None:
    seat = game.to_act[0]
    me = tuple(sorted(c.rank for c in game.hand(seat)))
    legal = {a.card.rank: a.card for a in game.legal_actions(seat)}
    pile = tuple(c.rank for c in game.pile)
    weights = _weights(game.variant, seat)
    one = _one_world(game)
    values = search_values_multi(seat, me, pile, game.count, one, weights, sorted(legal))
    # The same world twice: the search's general path (a single world takes a faster one).
    twice = [(0.5, one[0][1], one[0][2])] * 2
    general = search_values_multi(seat, me, pile, game.count, twice, weights, sorted(legal))
    for rank, card in legal.items():
        child = game.copy()
        expected = _gained(child.apply(seat, Play(card)), game.variant, seat, seen)
        expected += _engine_value(child, seat, seen)
        assert values[rank] == pytest.approx(expected), (game.played, game.pile, card)
        assert general[rank] == pytest.approx(expected), (game.played, game.pile, card)


def _random_position(variant: Variant, rng: random.Random, laid: int) -> Game:
    """A deal in the play, after ``laid`` cards laid at random (legal) by whoever's turn."""
    n = variant.players
    cards = rng.sample(FULL_PACK, 4 * n + 1)
    game = position(
        variant,
        dealer=rng.randrange(n),
        kept=[" ".join(c.code for c in cards[4 * s : 4 * s + 4]) for s in range(n)],
        starter=cards[-1].code,
    )
    for _ in range(laid):
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_with_the_other_hands_known_the_search_is_the_best_answer_through_the_engine(name):
    variant = VARIANTS[name]
    rng = random.Random(f"{name}-engine")
    seen: Counter = Counter()
    for laid in (0, 0, 2, 4, 5, 6, 7, 8, 9):
        game = _random_position(variant, rng, laid)
        _check_against_engine(game, seen)
    # The positions went through the multi-player go rules, not around them.
    for what in (ScoreReason.GO, ScoreReason.LAST_CARD, "go said", "passed over"):
        assert seen[what], (what, seen)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_goes_thirty_ones_and_seats_out_of_cards_follow_the_engine(name):
    variant = VARIANTS[name]
    n = variant.players
    # Low cards for seat 1 (it lays on where the others must say go), tens for the rest, and
    # seats that run out early: 31s, goes with a seat passed over, leads that skip empty seats.
    kept = ["KH QH JH 10H", "AS 2S 3S 4S", "9D 8D 7D 6D", "5C 5D 5S 5H"][:n]
    seen: Counter = Counter()
    for starter in ("KC", "2C"):
        game = position(variant, dealer=0, kept=kept, starter=starter)
        _check_against_engine(game, seen)
    # Mid-count, the pone first: 21 (three players: seat 0 can make 31) or 26 (four: seat 0
    # must say go and is passed over).
    game = position(
        variant,
        dealer=n - 1,
        kept=kept,
        starter="KC",
        held=["KH JH 10H", "AS 2S 3S", "9D 8D 6D", "5C 5D 5S"][:n],
        pile="QH 4S 7D 5H"[: 8 if n == 3 else 11],
        turn=0,
    )
    _check_against_engine(game, seen)
    assert seen["31"] and seen[ScoreReason.GO] and seen["passed over"], seen


def test_the_search_is_never_worse_than_standard_and_never_better_than_seeing_the_cards():
    rng = random.Random(16)
    for variant in VARIANTS.values():
        n = variant.players
        for _ in range(2):
            seat = rng.randrange(n)
            cards = rng.sample(FULL_PACK, 4 + 1)
            me = tuple(sorted(c.rank for c in cards[:4]))
            base = [4] * 14
            base[0] = 0
            base[cards[4].rank] -= 1
            for r in me:
                base[r] -= 1
            pool = [r for r in range(1, 14) for _ in range(base[r])]
            worlds = []
            for _ in range(6):
                rest = rng.sample(pool, 4 * (n - 1))
                hands: list[tuple[int, ...]] = []
                unseen: list[tuple[int, ...]] = []
                for s in range(n):
                    if s == seat:
                        hands.append(me)
                        unseen.append(tuple(base))
                        continue
                    hand = tuple(sorted(rest[:4]))
                    rest = rest[4:]
                    u = [4] * 14
                    u[0] = 0
                    u[cards[4].rank] -= 1
                    for r in hand:
                        u[r] -= 1
                    hands.append(hand)
                    unseen.append(tuple(u))
                worlds.append((rng.choice((0.5, 1.0)), tuple(hands), tuple(unseen)))
            total = sum(w for w, _, _ in worlds)
            weights = _weights(variant, seat)
            ranks = sorted(set(me))
            values = search_values_multi(seat, me, (), 0, worlds, weights, ranks)
            first = search_values_multi(seat, me, (), 0, worlds, weights, ranks, depth=1)
            second = search_values_multi(seat, me, (), 0, worlds, weights, ranks, depth=2)
            for r in ranks:
                fixed = seeing = 0.0
                for w, hands, unseen in worlds:
                    fixed += w * multi_rollout(
                        list(hands), (), 0, seat, r, [list(u) for u in unseen], weights
                    )
                    one = [(1.0, hands, unseen)]
                    seeing += w * search_values_multi(seat, me, (), 0, one, weights, [r])[r]
                assert values[r] >= fixed / total - 1e-9
                assert values[r] <= seeing / total + 1e-9
                # Searching only the first card is the play-outs; a second card lies between.
                assert first[r] == pytest.approx(fixed / total)
                assert first[r] - 1e-9 <= second[r] <= values[r] + 1e-9


def test_the_search_refuses_no_worlds_and_short_worlds():
    with pytest.raises(ValueError):
        search_values_multi(0, (1, 2, 3, 4), (), 0, [], (1.0, -0.5, -0.5), [1])
    world = (1.0, ((1, 2, 3, 4), (5, 6, 7, 8)), ((0,) * 14, (0,) * 14))
    with pytest.raises(ValueError):
        search_values_multi(0, (1, 2, 3, 4), (), 0, [world], (1.0, -0.5, -0.5), [1])


def test_the_review_reads_the_search_in_points_per_deal():
    # Three players, a ten led: the five makes fifteen for two. The review's values are points
    # (the search's averages), not sums over worlds.
    game = position(
        Variant(players=3),
        dealer=1,
        kept=["5H KS 2C 3D", "9C 9D 8H 7H", "10C QD JH 4C"],
        starter="8S",
        held=["5H KS 2C 3D", "9C 9D 8H 7H", "QD JH 4C"],
        pile="10C",
        turn=0,
    )
    view = SeatKnowledge.of(game, 0)
    values = play_values(view, list(view.hand), random.Random(1))
    assert set(values) == {2, 3, 5, 13}
    assert values[5] == max(values.values()) and values[5] > values[2] + 1
    assert all(abs(v) < 15 for v in values.values())


def _dealt(monkeypatch, game: Game, module: str, name: str, config=EXPERT) -> list[int]:
    """The expert's play on ``game`` (the seat to lay; tuned by ``config``): how many worlds
    each stage dealt."""
    import importlib

    from bot.ai import expert_pegging

    target = importlib.import_module(module)
    real = getattr(target, name)
    sizes: list[int] = []

    def counting(view, rng, samples):
        sizes.append(samples)
        return real(view, rng, samples)

    monkeypatch.setattr(target, name, counting)
    seat = game.to_act[0]
    view = SeatKnowledge.of(game, seat)
    legal = distinct_by_rank(legal_cards(view))  # as expert_play asks
    expert_pegging.expert_values(view, random.Random(2), legal, config)
    return sizes


def test_the_partnership_search_deals_more_worlds_only_on_a_close_choice(monkeypatch):
    kept = ["KH QH 9D 2C", "5C 5D 3S 4S", "7D 8D 6C AH", "JS 10S 9S 8S"]
    # Seat 0 led the K: seat 1's 5 makes fifteen and nothing else comes near.
    clear = position(
        VARIANTS["partners"],
        dealer=3,
        kept=kept,
        starter="KC",
        held=["QH 9D 2C", *kept[1:]],
        pile="KH",
        turn=1,
    )
    searched = "bot.ai.inference_multi", "weighted_worlds_multi"
    assert _dealt(monkeypatch, clear, *searched) == [96]
    # Seat 1 to lead from 9-10-Q-Q (nothing under five, every lead gives a fifteen away): close,
    # so 96 more.
    close = position(
        VARIANTS["partners"],
        dealer=0,
        kept=["KH QH 9D 2C", "9C 10D QS QC", "7H 8D 6D AH", "JS 10S 9S 8S"],
        starter="KC",
    )
    assert _dealt(monkeypatch, close, *searched) == [96, 96]


def test_near_the_end_of_a_partnership_game_the_expert_plays_out_for_the_chance(monkeypatch):
    # The same close lead, both sides within reach of 121: the play-outs that value the chance
    # to win (bot.ai.team_ending), not the search for points.
    def dealt(scores: list[int], module: str, name: str) -> list[int]:
        game = position(
            VARIANTS["partners"],
            dealer=0,
            kept=["KH QH 9D 2C", "9C 10D QS QC", "7H 8D 6D AH", "JS 10S 9S 8S"],
            starter="KC",
            scores=scores,
        )
        return _dealt(monkeypatch, game, module, name)

    searched = "bot.ai.inference_multi", "weighted_worlds_multi"
    played_out = "bot.ai.inference", "sample_others"
    assert dealt([100, 104], *searched) == []
    assert dealt([100, 104], *played_out) in ([96], [96, 96])
    assert dealt([40, 44], *searched) == [96, 96]
    assert dealt([40, 44], *played_out) == []


def _partnership_lead(kept: list[str], dealer: int, seed: int):
    """The seat after ``dealer`` to lead a partnership play (starter KC): its view, 60 worlds
    dealt for it, and its search's values over them (``search_values_multi``'s keywords)."""
    variant = VARIANTS["partners"]
    game = position(variant, dealer=dealer, kept=kept, starter="KC")
    seat = game.to_act[0]
    view = SeatKnowledge.of(game, seat)
    worlds = weighted_worlds_multi(view, random.Random(seed), 60)
    me = tuple(sorted(c.rank for c in view.hand))
    weights = _weights(variant, seat)

    def values(**kw) -> dict[int, float]:
        return search_values_multi(seat, me, (), 0, worlds, weights, sorted(set(me)), **kw)

    return view, worlds, values


def test_the_partnership_search_chooses_a_later_card_only_over_enough_worlds():
    # A partnership lead: between two of the seat's cards the three others lay theirs, so the
    # worlds split fast. At a later turn with fewer than ``least`` worlds the seat lays as the
    # model would; so the values lie between the play-outs (every later card the model's) and
    # the search that chooses over however few worlds are left.
    kept = ["KH QH 9D 2C", "6C 7D 3S 9C", "7H 8D 6D AH", "JS 10S 5S 4S"]
    _, worlds, values = _partnership_lead(kept, dealer=3, seed=8)
    fixed, chosen_anywhere = values(depth=1), values()
    some = values(least=4)
    assert values(least=len(worlds) + 1) == pytest.approx(fixed)
    assert values(least=1) == chosen_anywhere
    for r in fixed:
        assert fixed[r] - 1e-9 <= some[r] <= chosen_anywhere[r] + 1e-9
    # Not a switch that does nothing: choosing over 1-3 worlds is worth more than it can be.
    assert sum(chosen_anywhere.values()) > sum(some.values()) + 0.05
    assert sum(some.values()) > sum(fixed.values())


def test_the_three_player_search_deals_its_stages(monkeypatch):
    two_stages = dataclasses.replace(EXPERT, search_stages_multi=(64, 128))

    def dealt(hand: str, config=two_stages) -> list[int]:
        kept = ["KH QH 9D 2H", hand, "7H 8D 6D AH"]
        game = position(VARIANTS["three"], dealer=0, kept=kept, starter="KC")
        return _dealt(monkeypatch, game, "bot.ai.inference_multi", "weighted_worlds_multi", config)

    assert dealt("6C 7D 3S 9C") == [64]  # the 9 is clearly the lead: one stage
    assert dealt("9C 10D JS QC") == [64, 64]  # four ten-ish cards: close, a second stage
    assert dealt("9C 10D JS QC", EXPERT) == [64]  # the expert plays one stage


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_shared_model_answers_as_if_every_world_read_the_same_cards(name):
    # The fast path: with ``unshown`` every other seat's model scores its ranks once a turn for
    # all the worlds. It must value every card exactly as the slow path does when each world's
    # other seats are given ``unshown`` as what they cannot see (the seat's own view unchanged).
    variant = VARIANTS[name]
    rng = random.Random(f"{name}-shared")
    for laid in (0, 2, 5):
        game = _random_position(variant, rng, laid)
        seat = game.to_act[0]
        view = SeatKnowledge.of(game, seat)
        worlds = weighted_worlds_multi(view, random.Random(laid), 40)
        unshown = tuple(unshown_rank_counts(view))
        read_alike = [
            (w, hands, tuple(u if s == seat else unshown for s, u in enumerate(unseen)))
            for w, hands, unseen in worlds
        ]
        me = tuple(sorted(c.rank for c in view.hand))
        pile = tuple(c.rank for c in game.pile)
        ranks = sorted({c.rank for c in distinct_by_rank(legal_cards(view))})
        weights = _weights(variant, seat)
        for kw in ({}, {"depth": 2, "least": 8}, {"depth": 1}):
            shared = search_values_multi(
                seat, me, pile, game.count, worlds, weights, ranks, unshown=unshown, **kw
            )
            slow = search_values_multi(seat, me, pile, game.count, read_alike, weights, ranks, **kw)
            assert shared == pytest.approx(slow), (laid, kw)


def test_the_shared_model_is_a_different_model_from_each_worlds_own_view():
    # Not a switch that does nothing: on a partnership lead the values move when the others'
    # model reads the shared cards (its own not taken out) instead of each world's own view.
    kept = ["KH QH 9D 2C", "6C 7D 3S 9C", "7H 8D 6D AH", "JS 10S 9S 8S"]
    view, _, values = _partnership_lead(kept, dealer=0, seed=5)
    own = values(depth=2, least=8)
    shared = values(depth=2, least=8, unshown=tuple(unshown_rank_counts(view)))
    assert max(abs(own[r] - shared[r]) for r in own) > 0.05
