import copy
import pickle

import pytest

from bot.engine import FULL_PACK, Card, Suit, card_from_code, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10H", 10, Suit.HEARTS),
        ("as", 1, Suit.SPADES),
        ("QD", 12, Suit.DIAMONDS),
        ("5♠", 5, Suit.SPADES),
        ("tc", 10, Suit.CLUBS),
        ("kh", 13, Suit.HEARTS),
        ("J♦", 11, Suit.DIAMONDS),
        (" 2c ", 2, Suit.CLUBS),
        ("10♥", 10, Suit.HEARTS),
    ],
)
def test_parse_reads_every_spelling(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1H", "11H", "ZZ", "10", "H", "AX", "5♠♠", "0C", "JOKER"])
def test_parse_rejects_bad_text_naming_it(text):
    with pytest.raises(ValueError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)


def test_values_and_str():
    assert [Card.parse(t).value for t in ("AH", "5H", "10H", "JH", "QH", "KH")] == [
        1,
        5,
        10,
        10,
        10,
        10,
    ]
    assert str(Card.parse("10H")) == "10♥"
    assert str(Card.parse("as")) == "A♠"
    assert repr(Card.parse("QD")) == "Card.parse('QD')"


def test_cards_are_immutable_hashable_and_sort_by_rank_then_suit():
    card = Card.parse("5H")
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]
    assert len({Card.parse("5H"), Card.parse("5h"), Card.parse("5♥")}) == 1
    assert sorted(parse_cards("KC 5S AH 5C")) == parse_cards("AH 5C 5S KC")
    # the whole pack: the order of (rank, suit), and equal only to the same card
    pairs = [(a, b) for a in FULL_PACK for b in FULL_PACK]
    assert all((a < b) == ((a.rank, a.suit) < (b.rank, b.suit)) for a, b in pairs)
    assert all((a >= b) == ((a.rank, a.suit) >= (b.rank, b.suit)) for a, b in pairs)
    assert all((a == b) == (a is b) for a, b in pairs)
    assert card != "5H" and card != (5, Suit.HEARTS) and card == Card(5, 2)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(card)) == card and copy.deepcopy(card) == card
    with pytest.raises(TypeError):
        assert card < 6  # type: ignore[operator]


def test_pack_and_codes_round_trip():
    assert len(FULL_PACK) == 52 == len(set(FULL_PACK))
    for card in FULL_PACK:
        assert Card.parse(card.code) == card == card_from_code(card.code)
        assert Card.from_index(card.index) == card


def test_rank_out_of_range_is_refused():
    with pytest.raises(ValueError):
        Card(0, Suit.CLUBS)
    with pytest.raises(ValueError):
        Card(14, Suit.CLUBS)
