"""No forced clicks: a person's last card, and their only legal card unless
they turned ``autoplay`` off, is laid for them after every step, on every path (a click, the
turn timers, muggins windows let go, deals whose pause ran out, the resume), as a normal
durable step marked ``automatic``. And each person's settings through the manager."""

from __future__ import annotations

import random

import pytest

from bot.engine import Phase, Play, Played, Variant
from bot.sessions import GameSessionManager, Outcome, PlayerSettings, PrivateView, ShowHand
from db import Store
from tests.support.sessions import (
    BOB,
    HOST,
    assert_durable,
    play_one,
    running,
    started_game,
)

SHORT = Variant(2, False, 61)
MUGGINS = Variant(2, False, 61, muggins=True)


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def forced(outcome: Outcome, autoplay: dict[int, bool]) -> list[tuple[int, PrivateView]]:
    """The people the outcome leaves owing a card they have no choice about."""
    found = []
    for user, mine in outcome.hands.items():
        if not mine.must_act or mine.phase is not Phase.PLAY:
            continue
        if len(mine.hand) == 1 or (len(mine.legal_actions) == 1 and autoplay.get(user, True)):
            found.append((user, mine))
    return found


def automatic_plays(outcome: Outcome) -> list[Played]:
    return [e.event for e in outcome.events if e.automatic and isinstance(e.event, Played)]


@pytest.mark.sqlite_only
async def test_no_person_is_ever_asked_for_a_card_they_have_no_choice_about(databases):
    path = databases("clicks")
    async with running(path) as manager:
        game_id = (await started_game(manager, variant=SHORT)).game_id
        rng = random.Random(1)
        laid_by_themselves = 0
        for _ in range(2000):
            outcome = await play_one(manager, game_id, rng)
            assert outcome is not None
            assert forced(outcome, {}) == []
            laid_by_themselves += len(automatic_plays(outcome))
            if outcome.finished is not None:
                break
        deals = outcome.view.deal_number
        assert laid_by_themselves >= deals  # at least each deal's last card
        assert outcome.players == {HOST: PlayerSettings(), BOB: PlayerSettings()}
    assert_durable(path, game_id, manager)


@pytest.mark.sqlite_only
async def test_with_autoplay_off_only_the_last_card_is_laid_by_itself(databases):
    # a fixed deal: with the manager's random seeds, a short game may never ask the host to
    # choose their one legal card among several, and the check below would fail by chance
    async with running(databases("off"), seed_source=lambda: 2024) as manager:
        changed = await manager.settings.update_player(HOST, autoplay=False)
        assert changed == PlayerSettings(notify=True, autoplay=False)
        game_id = (await started_game(manager, variant=SHORT)).game_id
        rng = random.Random(2)
        chose_a_single_card = 0
        for _ in range(2000):
            outcome = await play_one(manager, game_id, rng)
            assert forced(outcome, {HOST: False}) == []
            mine = outcome.hands[HOST]
            if mine.must_act and mine.phase is Phase.PLAY and len(mine.legal_actions) == 1:
                assert len(mine.hand) > 1  # asked: one legal card of several
                chose_a_single_card += 1
            if outcome.finished is not None:
                break
        assert chose_a_single_card > 0
        assert outcome.players[HOST].autoplay is False


@pytest.mark.parametrize("variant", [SHORT, MUGGINS], ids=["plain", "muggins"])
@pytest.mark.sqlite_only
async def test_an_absent_persons_game_goes_on_without_forced_cards(databases, variant):
    """The person never clicks: the turn timers move for them, the muggins windows are let
    go, the pauses between deals run out; after each, no forced card is left waiting."""
    clock = Clock()
    path = databases("absent")
    async with running(path, clock=clock, forfeit_after=10**6) as manager:
        game_id = (
            await started_game(manager, humans=(HOST,), computers=("easy",), variant=variant)
        ).game_id
        automatic = 0
        for _ in range(400):
            clock.now += 24 * 3600
            report = await manager.timers.sweep()
            outcomes = [*report.expired, *report.forfeits]
            outcomes += await manager.muggins.close_due()
            outcomes += await manager.deals.start_due()
            for outcome in outcomes:
                assert forced(outcome, {}) == []
                automatic += len(automatic_plays(outcome))
            if manager.live.view(game_id) is None:
                break
        else:
            raise AssertionError("the game never ended")
        assert automatic > 0
    assert_durable(path, game_id, manager)


async def test_the_resume_lays_a_card_that_became_forced(databases):
    path = databases("resume")
    # a fixed deal: with the manager's random seeds a whole game could pass without the host
    # ever holding one legal card among several (seen once: the game ended, and the view of a
    # finished game is a refusal)
    async with running(path, seed_source=lambda: 2024) as manager:
        await manager.settings.update_player(HOST, autoplay=False)
        game_id = (await started_game(manager, humans=(HOST,), computers=("easy",))).game_id
        rng = random.Random(3)
        for _ in range(2000):
            mine = manager.hands.private_view(ShowHand(game_id, HOST))
            assert isinstance(mine, PrivateView), mine
            if mine.phase is Phase.PLAY and mine.must_act and len(mine.legal_actions) == 1:
                break
            assert (await play_one(manager, game_id, rng)) is not None
        else:
            raise AssertionError("no single legal card came")
        (card,) = [a.card for a in mine.legal_actions if isinstance(a, Play)]
    store = await Store.open(path)
    try:
        await store.players.update(HOST, autoplay=True)  # while the bot was down
        manager = GameSessionManager(store)
        report = await manager.resume()  # lays it
        (outcome,) = report.outcomes
        first = outcome.events[0]
        assert first.step == mine.step + 1 and first.automatic
        assert first.event == Played(mine.seat, card, first.event.count, first.event.breakdown)
        assert forced(outcome, {}) == []
        assert_durable(path, game_id, manager)
    finally:
        await store.close()


async def test_player_settings_through_the_manager(databases):
    async with running(databases("p")) as manager:
        assert await manager.settings.player(HOST) == PlayerSettings(notify=True, autoplay=True)
        assert (await manager.settings.update_player(HOST, notify=False)).notify is False
        for bad in ({"notify": "off"}, {"volume": 3}):
            with pytest.raises(ValueError):
                await manager.settings.update_player(HOST, **bad)
        assert await manager.settings.player(HOST) == PlayerSettings(notify=False)
        started = await started_game(manager, humans=(HOST,), computers=("easy",))
        assert dict(started.players) == {HOST: PlayerSettings(notify=False)}  # people only
