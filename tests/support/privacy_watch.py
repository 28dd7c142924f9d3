"""The privacy check of the scripted players (:mod:`tests.support.discord_players`): every public
message version a click produces is checked against the cards the engine still hides.

Test-only: it peeks at the engine's state (``hidden_cards``), which no player could.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.app.client import CribbageBot
    from tests.support.discord_players import Driver


def hidden_cards(bot: CribbageBot, game_id: int) -> set:
    """Every card no player may see publicly now (test-only peek at the engine's state)."""
    from bot.engine import FULL_PACK

    session = bot.manager.live.get(game_id)
    game = session.game if session is not None else None
    if game is None or game.is_over:
        return set()
    public = {c for _, c in game.played} | set(game.cut_cards.values())
    if game.starter is not None:
        public.add(game.starter)
    return set(FULL_PACK) - public


class PrivacyWatch:
    """Checks every public message version a click produces against the engine's hidden cards."""

    def __init__(self, driver: Driver) -> None:
        from bot.engine import CutForDeal, Dealt, Played, Shown, StarterCut

        self.driver = driver
        self.revealing = (CutForDeal, Played, Shown, StarterCut)
        self.dealt = Dealt
        # cards shown since the last deal (a tie in the cut for deal puts cut cards back into a
        # fresh pack: they were seen, so showing them again reveals nothing)
        self.seen_this_deal: set = set()
        self.outcomes: list = []
        self.checked_versions = 0
        self.checked_descriptions = 0  # public pictures' alt texts read
        table = driver.bot.get_cog("Cribbage").table
        publish = table.publish

        async def recording(outcome, **kwargs):
            self.outcomes.append(outcome)
            self._follow_deals([outcome])  # what it shows is seen (a click's, a loop's)
            await publish(outcome, **kwargs)

        table.publish = recording

        def watched(original):
            async def act(user, message, *args, **kwargs):
                try:
                    game_id = driver.game_id()
                except LookupError:
                    return await original(user, message, *args, **kwargs)
                before = hidden_cards(driver.bot, game_id) - self.seen_this_deal
                seen = {m.id: len(m.versions) for m in driver.emu.public_messages(driver.channel)}
                self.outcomes.clear()
                result = await original(user, message, *args, **kwargs)
                after = hidden_cards(driver.bot, game_id) - self.seen_this_deal
                self.check(before, after, seen)
                return result

            return act

        driver.click = watched(driver.click)
        driver.select = watched(driver.select)  # muggins claims are picked, not clicked

    def _follow_deals(self, outcomes: list) -> None:
        for outcome in outcomes:
            for step_event in outcome.events:
                event = step_event.event
                if isinstance(event, self.dealt):
                    self.seen_this_deal = set()
                elif isinstance(event, self.revealing):
                    self.seen_this_deal |= set(getattr(event, "cards", ()) or (event.card,))

    def _revealed(self) -> set:
        cards = set()
        for outcome in self.outcomes:
            for step_event in outcome.events:
                event = step_event.event
                if isinstance(event, self.revealing):
                    cards |= set(getattr(event, "cards", ()) or (event.card,))
        return cards

    def check(self, before: set, after: set, seen: dict) -> None:
        from bot.render.images import card_words

        secret = (before & after) - self._revealed()
        for message in self.driver.emu.public_messages(self.driver.channel):
            live_table = any(b.label == "Your hand" for b in message.buttons)
            for version in message.versions[seen.get(message.id, 0) :]:
                self.checked_versions += 1
                text = version.text
                # a picture's alt text is read out too: it names cards in words
                alt = "\n".join(a.description or "" for a in version.attachments)
                self.checked_descriptions += sum(1 for a in version.attachments if a.description)
                leaked = [
                    str(c)
                    for c in (after if live_table else secret)
                    if str(c) in text or card_words(c) in alt
                ]
                assert not leaked, f"public message shows hidden cards {leaked}:\n{text}\n{alt}"
