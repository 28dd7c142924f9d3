"""The lifecycle of a game's newest message in the channel (cogs/cribbage/table.py's
``TableState`` and its ``Stage``): the live table, the deal's record waiting for the next deal,
the final record; which message a draw edits in each, and the hands of a new deal sent once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cogs.cribbage.table import Stage, TableState

POSTED_BY_THE_GAME = (10, 20)  # where the game's record says its table is (after a restart)


def view(table: tuple[int, int] | None = POSTED_BY_THE_GAME) -> SimpleNamespace:
    messages = {}
    if table is not None:
        messages["table"] = SimpleNamespace(channel_id=table[0], message_id=table[1])
    return SimpleNamespace(messages=messages)


def test_a_new_state_edits_the_table_the_game_knows_of_or_posts_one():
    st = TableState()
    assert st.stage is Stage.TABLE and not st.waiting
    assert st.live_message(view()) == POSTED_BY_THE_GAME
    assert st.live_message(view(table=None)) is None  # nothing to edit: the draw posts


def test_a_posted_table_is_edited_rather_than_the_one_the_game_knew():
    st = TableState()
    st.posted((10, 21), Stage.TABLE)
    assert st.stage is Stage.TABLE
    assert st.live_message(view()) == (10, 21)


def test_a_deal_goes_table_then_waiting_record_then_final_record_then_new_table():
    st = TableState()
    st.posted((10, 21), Stage.TABLE)
    st.story, st.shows = ["alice plays 5♥"], []

    st.waits()  # the show: the table becomes the record, with Next deal, in place
    assert st.stage is Stage.WAITING and st.waiting
    assert st.live_message(view()) == (10, 21)  # the record waits in the same message

    st.deal_closed()  # the next deal: the record is final, its story done
    assert st.stage is Stage.RECORDED and not st.waiting
    assert st.story == [] and st.shows == []
    assert st.live_message(view()) is None  # the draw posts a new table below the record
    assert st.table == (10, 21)  # the record's message, for the post to let go of

    st.posted((10, 22), Stage.TABLE)
    assert st.stage is Stage.TABLE and st.live_message(view()) == (10, 22)


@pytest.mark.parametrize("before", list(Stage))
def test_every_stage_may_follow_every_stage(before: Stage):
    for transition, after in (
        (lambda st: st.posted((1, 2), Stage.TABLE), Stage.TABLE),
        (lambda st: st.posted((1, 2), Stage.WAITING), Stage.WAITING),
        (TableState.waits, Stage.WAITING),
        (TableState.deal_closed, Stage.RECORDED),
    ):
        st = TableState(stage=before, table=(1, 1))
        transition(st)
        assert st.stage is after
        assert (st.live_message(view()) is None) == (after is Stage.RECORDED)


def test_a_waiting_record_posted_anew_is_the_message_edited_next():
    st = TableState(stage=Stage.RECORDED, table=(10, 21))
    st.posted((10, 22), Stage.WAITING)  # a pause began with no live message: a record is posted
    assert st.waiting and st.live_message(view()) == (10, 22)


def test_a_new_deal_has_its_hands_sent_once():
    st = TableState()
    assert not st.take_hands_due()
    st.deal_started(3)
    assert st.deal == 3
    assert st.take_hands_due()
    assert not st.take_hands_due()  # sent: not again at the next outcome
