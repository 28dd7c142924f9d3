"""Near the end of a partnership game the expert's play-outs count chances to win, not points:
the first side to reach its need wins, the show in counting order."""

import dataclasses
import random

import pytest

from bot.ai.chance_tables import chance, dealer_chance
from bot.ai.coach import play_advice
from bot.ai.config import EXPERT, Level
from bot.ai.expert_pegging import expert_values, team_ending
from bot.ai.players import Player, decide
from bot.ai.playouts import multi_rollout
from bot.ai.team_discard import team_discard_chance
from bot.ai.team_ending import TeamEnding
from bot.ai.view import SeatKnowledge
from bot.engine import FULL_PACK, Card, Discard, Game, Variant, parse_cards
from tests.support.engine_positions import position

PARTNERS = Variant(players=4, partnerships=True)


def _view(scores: list[int], *, held: list[str] | None = None, pile: str = "", turn: int = 1):
    """Seat 0 deals; each seat keeps four cards; seat ``turn`` lays next."""
    game = position(
        PARTNERS,
        dealer=0,
        kept=["2C 3C 4C 9D", "5H 5D JS 10C", "6H 7H 8S KD", "AS 2S 9C QH"],
        starter="5S",
        crib="3D 4D 6D 7D",
        scores=scores,
        held=held,
        pile=pile,
        turn=turn,
    )
    return SeatKnowledge.of(game, turn)


def _unseen(view: SeatKnowledge, hands: list[tuple[int, ...]]) -> list[list[int]]:
    from bot.ai.pegging import unshown_rank_counts

    base = unshown_rank_counts(view)
    out = []
    for h in hands:
        u = list(base)
        for r in h:
            u[r] -= 1
        out.append(u)
    return out


def test_the_partnership_table_gives_the_first_dealing_side_an_edge() -> None:
    first = dealer_chance(121, 121, "partners")
    assert 0.5 < first < 0.6
    # Needing 1 at the start of a deal against a side needing 60: all but won.
    assert chance(120, 61, deal=False, kind="partners") > 0.97
    # The table is the partnerships' own, not the two-handed one.
    assert first != dealer_chance(121, 121)


def test_the_pone_side_counts_first_in_the_show() -> None:
    # Seat 1 (the pone side, to the dealer's left) holds 5H 5D JS 10C with the 5S: 21 points
    # (his own hand, counted with the suits: his nobs too).
    # Both sides need 10; nobody pegs: the pone side counts out before the dealer side counts.
    view = _view([111, 111])
    team = TeamEnding(view)
    hands = [tuple(sorted(c.rank for c in h)) for h in _hands_of(view)]
    end = team.world(hands)
    assert end.shows[1] == 21
    assert end.terminal([0, 0]) == 1.0  # seat 1's side wins
    # Pegging 10 in the play wins it for the dealer's side before any show.
    assert end.terminal([0, 9]) == 1.0
    assert end.won(0) == 0.0 and end.won(1) == 1.0


def _hands_of(view: SeatKnowledge) -> list[tuple[Card, ...]]:
    kept = ["2C 3C 4C 9D", "5H 5D JS 10C", "6H 7H 8S KD", "AS 2S 9C QH"]
    return [tuple(Card.parse(c) for c in h.split()) for h in kept]


def test_a_play_out_stops_when_a_side_reaches_its_need() -> None:
    view = _view([119, 100])  # the dealer's side (seats 0 and 2) needs 2
    team = TeamEnding(view)
    hands = [tuple(sorted(c.rank for c in h)) for h in _hands_of(view)]
    end = team.world(hands)
    weights = (-1.0, 1.0, -1.0, 1.0)
    unseen = _unseen(view, hands)
    # Seat 1 leads a 5; seat 2 answers with a 10-card... whatever it lays, the play-out ends
    # with a win or a loss for seat 1's side, or a chance from the show and the table.
    value = multi_rollout(hands, (), 0, 1, 5, unseen, weights, end)
    assert 0.0 <= value <= 1.0
    points = multi_rollout(hands, (), 0, 1, 5, unseen, weights)
    assert value != points


def test_the_expert_values_cards_in_chances_near_the_end_of_a_partnership_game() -> None:
    view = _view([112, 110])
    assert team_ending(view) is not None
    values = expert_values(view, random.Random(3), [Card.parse("5H"), Card.parse("10C")])
    assert all(0.0 <= v <= 1.0 for v in values.values())
    # Far from the end it counts points (the side's minus the others').
    far = _view([40, 52])
    assert team_ending(far) is None


def test_a_decided_game_is_played_for_points() -> None:
    assert team_ending(_view([120, 30])) is None  # the chance is past 99%


def test_the_configuration_says_when_the_game_is_near_the_end_and_still_open() -> None:
    view = _view([112, 110])
    assert team_ending(view, EXPERT) is not None
    assert team_ending(view, dataclasses.replace(EXPERT, partner_chance_span=(0.0, 0.0))) is None
    assert team_ending(view, dataclasses.replace(EXPERT, endgame_reach=5)) is None


def test_the_coach_speaks_in_chances_near_the_end_of_a_partnership_game() -> None:
    advice = play_advice(_view([112, 110]), seed=1)
    assert advice.chances
    if advice.comparison:
        assert "chance to win" in advice.comparison
    far = play_advice(_view([40, 52]), seed=1)
    assert not far.chances


# --------------------------------------------------------------------------- the discard


def _discard_view(seat: int, scores: list[int], hand: str) -> SeatKnowledge:
    """Seat 0 deals; ``seat`` holds ``hand`` (five cards) and lays one away."""
    game = Game.new(PARTNERS, seed=11, first_dealer=0)
    state = game.to_dict()
    cards = parse_cards(hand)
    others = [c for c in FULL_PACK if c not in cards]
    hands = [[c.code for c in others[5 * s : 5 * s + 5]] for s in range(4)]
    hands[seat] = [c.code for c in cards]
    state.update(hands=hands, scores=scores)
    return SeatKnowledge.of(Game.from_dict(state), seat)


def test_a_hand_that_counts_out_first_all_but_wins() -> None:
    # Seat 1 counts first; keeping 5-5-5-J (14 at least with any starter) when its side needs
    # 10: only the other side pegging out first can beat it.
    view = _discard_view(1, [100, 111], "5H 5D 5C JS 2C")
    kept = parse_cards("5H 5D 5C JS")
    assert team_discard_chance(view, kept, 4.5) > 0.9
    # The same cards kept by the dealer (his side needs 10), who counts last, against a pone
    # side needing 5.
    dealer = _discard_view(0, [111, 116], "5H 5D 5C JS 2C")
    assert team_discard_chance(dealer, kept, 4.5) < 0.5


def test_the_expert_lays_away_for_the_chance_near_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    from bot.ai import team_discard

    original = team_discard.team_discard_chance

    def spy(view, kept, crib_mean, *, peg_shift=0.0):
        asked.append(len(kept))
        return original(view, kept, crib_mean, peg_shift=peg_shift)

    monkeypatch.setattr(team_discard, "team_discard_chance", spy)
    view = _discard_view(1, [110, 108], "5H 6D 7C JS 2C")
    action = decide(view, level="expert", seed=1)
    assert isinstance(action, Discard) and len(action.cards) == 1
    assert set(action.cards) <= set(view.hand)
    assert asked == [4] * 5  # every way to lay away valued in chances
    asked.clear()
    far = _discard_view(1, [50, 48], "5H 6D 7C JS 2C")
    decide(far, level="expert", seed=1)
    assert asked == []  # far from the end: points
    closed = dataclasses.replace(EXPERT, partner_chance_span=(0.0, 0.0))
    Player(Level.EXPERT, closed).decide(view, seed=1)
    assert asked == []  # an expert configured to count the game as decided: points
