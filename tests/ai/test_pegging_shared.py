"""The pieces of bot.ai.pegging the two-handed and multi-player searches and inferences share."""

from bot.ai.pegging import next_holder, unseen_by_seat


def test_the_next_holder_skips_seats_with_no_cards_and_comes_back_to_the_layer():
    assert next_holder([2, 1, 3, 0], 0) == 1
    assert next_holder([2, 0, 3, 0], 0) == 2
    assert next_holder([2, 0, 0, 1], 3) == 0  # round the table
    assert next_holder([1, 0, 0], 0) == 0  # nobody else holds a card: the layer itself
    assert next_holder([0, 0, 0, 0], 2) == 2


def test_each_seat_cannot_see_the_unshown_cards_but_its_own():
    unshown = [0] + [4] * 13
    unshown[5] = 3  # a five is the starter
    hands = ((5, 5, 11), (1, 13), ())
    mine, theirs, empty = unseen_by_seat(unshown, hands)
    assert (mine[5], mine[11], mine[1]) == (1, 3, 4)
    assert (theirs[5], theirs[1], theirs[13]) == (3, 3, 3)
    assert empty == tuple(unshown)
    assert unshown[5] == 3  # the counts passed in are left as they were
