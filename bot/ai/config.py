"""The computer players' levels, and the expert's tuning parameters.

A level is one :class:`Level` (its value is the name stored with a game and shown to players).
The expert's numbers (how many worlds it deals, how it weighs the pegging against the show, when it
plays for the chance to win) are one frozen :class:`ExpertConfig`, given to the player when it is
made (:class:`bot.ai.players.Player`); :data:`EXPERT` is the one the bot plays with. A benchmark
measures another setting by making a configuration, not by changing the modules::

    >>> import dataclasses
    >>> dataclasses.replace(EXPERT, dealer_against=0.9).dealer_against
    0.9
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Level(enum.StrEnum):
    """How well a computer plays (the values are stored in games and shown to players)."""

    EASY = "easy"
    """Keeps the best-looking four cards and lays its first safe card."""
    STANDARD = "standard"
    """Discards by the exact hand plus or minus the crib tables; pegs greedily with defence."""
    EXPERT = "expert"
    """Adds a card-removal crib model, pegging prospects and the board position to its discards,
    and pegs by searching sampled worlds of the unseen cards."""


LEVELS: tuple[Level, ...] = tuple(Level)
"""The levels offered to players, weakest first."""


@dataclass(frozen=True, slots=True)
class ExpertConfig:
    """The expert's tuning parameters (docs/research/measurements.md says how each was chosen)."""

    # ------------------------------------------------------------------ discards

    pegging_weight: float = 1.0
    """Two-handed, how much a point of the kept cards' pegging prospects counts against a point
    of hand or crib: a point is a point (heavier and lighter weights both lost; "The
    discards")."""
    pegging_weight_partners: float = 0.5
    """In partnerships, the same weight (three or four each for themselves: a point). The show
    given up grows with the square of the weight and the play gained about linearly, which puts
    the best near half a point; measured so on duplicate deals ("The discards")."""
    chance_span: tuple[float, float] = (0.01, 0.99)
    """Two-handed near the end, the seat's chance to win (at the start of the deal, from the
    scores now) between which the game is still open: it discards and pegs for the chance to win
    (outside it: points, with the board position and the endgame solver)."""
    chance_options: int = 8
    """The expert's best discards (by points and position) weighed in chances to win."""

    # ------------------------------------------------------------------ two-handed pegging

    endgame_reach: int = 31
    """Points from the target within which the expert plays for the win, not the points."""
    search_worlds: int = 400
    """Worlds the two-handed search deals at most (:func:`bot.ai.inference.weighted_worlds`), in
    the stages of :attr:`search_stages`. More worlds showed no gain that held up on other deals,
    for more time than the decision-time goals leave room for ("How many worlds")."""
    search_stages: tuple[int, ...] = (100, 200)
    """After how many worlds the two-handed search looks whether one card is clearly best."""
    search_clear: float = 0.5
    """When the best card leads the next by this many points over the first stage's worlds (less
    over more: the threshold falls as one over the square root of the worlds), the search stops
    there (the other worlds change the choice too rarely to be worth their time)."""
    dealer_against: float = 0.8
    """Two-handed and far from the end, the expert's dealer counts the pone's pegging points at
    this weight against its own (the pone counts the dealer's in full). At full weight the expert
    dealer was the cautious side, pegging less than it could for little given away; at 0.8 it
    pegs more for a little more given back, the same strength over a pair of deals put where the
    dealer lacked it ("The dealer's weight"). The coach and the review value the dealer's cards
    the same way."""
    search_worlds_end: int = 200
    """Worlds the two-handed search deals near the end of a game (the chance to win)."""
    search_clear_chance: float = 0.02
    """Likewise near the end of a game, in the chance to win
    (:func:`bot.ai.deal_chances.play_chances`)."""

    # ------------------------------------------------------------------ three and four players

    search_stages_multi: tuple[int, ...] = (64,)
    """The worlds the multi-player search deals
    (:func:`bot.ai.inference_multi.weighted_worlds_multi`) before it looks whether one card is
    clearly best (:attr:`search_clear`), then more up to the next. One stage: a second one on
    close choices gained too little for the time the decision-time goals leave ("Three and four
    players")."""
    search_depth_multi: int | None = 2
    """How many of its own cards the multi-player search chooses (None: all; past it, the
    model): two keeps a decision within its time and the seat from "knowing" the hands deep in
    the tree."""
    search_least_multi: int = 1
    """With three or four players each for themselves, the fewest worlds at a later turn of the
    seat's for the search to choose its card there (fewer: it lays as ``standard`` would)."""
    search_stages_partners: tuple[int, ...] = (96, 192)
    """The worlds of the partnership search, as :attr:`search_stages_multi`. With too few worlds
    it lost to the play-outs ("Three and four players")."""
    search_least_partners: int = 8
    """In partnerships, as :attr:`search_least_multi`: three other cards fall between two of the
    seat's, so its second card is searched only where 8 of the worlds or more agree with all it
    will have seen."""
    playout_stages: tuple[int, ...] = (96, 192)
    """Near the end of a partnership game the expert plays each card out: the worlds dealt before
    it looks whether one card is clearly best (:attr:`search_clear_chance`), then more up to the
    next. Fewer worlds lost points; more gained nothing to be seen ("Three and four players").
    The search there lost to these play-outs ("Near the end in partnerships")."""
    partner_chance_span: tuple[float, float] = (0.01, 0.99)
    """Near the end of a partnership game, the side's chance (from the table) between which the
    game is still open: the play-outs and the discard are valued in the chance to win
    (:mod:`bot.ai.team_ending`), else in points."""


EXPERT = ExpertConfig()
"""The expert the bot plays, coaches and reviews with."""
