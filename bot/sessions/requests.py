"""A person's requests on a table: one frozen value per click or command.

Each request names the game and the user, and ``where`` it was made (the :class:`Place` of
the interaction: server and channel). The part that owns the request handles it
(``manager.play.act(Move(...))``, ``manager.lobbies.join(Join(...))``, ...), and every part
checks it with the one :class:`~bot.sessions.guard.Guard` first: the place, then (under the
game's lock) the seat and the freshness of the button's step. A request without ``where``
comes from a trusted caller (the terminal, the tests): its place is not checked.

>>> from bot.engine import Cut
>>> Move(7, 101, Cut(20), step=3, where=Place(1, 10))
Move(game_id=7, user_id=101, where=Place(guild_id=1, channel_id=10), action=Cut(20), step=3)
>>> known_game_id(1), known_game_id(2**63 - 1), known_game_id(2**63), known_game_id(0)
(True, True, False, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine import Action, Variant

from .views import Level

__all__ = [
    "MAX_GAME_ID",
    "AcceptRematch",
    "AddComputer",
    "AskCoach",
    "AskRematch",
    "Cancel",
    "ChangeVariant",
    "DeclineRematch",
    "Forfeit",
    "Join",
    "Leave",
    "Move",
    "OpenLobby",
    "Place",
    "RemoveComputer",
    "Request",
    "ShowHand",
    "Start",
    "known_game_id",
]

MAX_GAME_ID = 2**63 - 1  # the largest integer SQLite stores


def known_game_id(game_id: object) -> bool:
    """Whether ``game_id`` can name a game at all (an int SQLite can store, from 1)."""
    return (
        isinstance(game_id, int) and not isinstance(game_id, bool) and 1 <= game_id <= MAX_GAME_ID
    )


@dataclass(frozen=True, slots=True)
class Place:
    """Where a request was made: the server (``None`` in a DM) and the channel."""

    guild_id: int | None
    channel_id: int


@dataclass(frozen=True, slots=True)
class Request:
    """``user_id``'s request on the table ``game_id``, made at ``where`` (``None``: trusted)."""

    game_id: int
    user_id: int
    where: Place | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Move(Request):
    """Make ``action`` with a button drawn at ``step`` (``PrivateView.step``)."""

    action: Action
    step: int


@dataclass(frozen=True, slots=True)
class Forfeit(Request):
    """Concede the game: the user's side loses."""


@dataclass(frozen=True, slots=True)
class ShowHand(Request):
    """Open the user's own hand (their private view)."""


@dataclass(frozen=True, slots=True)
class AskCoach(Request):
    """The coach's advice on the user's position."""


@dataclass(frozen=True, slots=True)
class Join(Request):
    """Take a free seat of a lobby (the lowest, or ``seat``)."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class AddComputer(Request):
    """The host seats a computer of ``level`` (in the lowest free seat, or ``seat``)."""

    level: Level = "standard"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Leave(Request):
    """Leave a lobby (a rematch lobby: decline the rematch)."""


@dataclass(frozen=True, slots=True)
class RemoveComputer(Request):
    """The host frees the computer's ``seat``."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChangeVariant(Request):
    """The host picks the lobby's variant."""

    variant: Variant


@dataclass(frozen=True, slots=True)
class Cancel(Request):
    """The host closes a lobby that has not started."""


@dataclass(frozen=True, slots=True)
class Start(Request):
    """The host starts a full lobby (``first_dealer``: no cut, that seat deals)."""

    first_dealer: int | None = None


@dataclass(frozen=True, slots=True)
class AskRematch(Request):
    """A player of the ended game ``game_id`` asks for a rematch."""


@dataclass(frozen=True, slots=True)
class AcceptRematch(Request):
    """A player accepts the rematch lobby ``game_id``."""


@dataclass(frozen=True, slots=True)
class DeclineRematch(Request):
    """A player turns the rematch lobby ``game_id`` down."""


@dataclass(frozen=True, slots=True)
class OpenLobby:
    """Open a lobby in ``channel_id``, ``host_id`` in seat 0 (``best_of`` 3 or 5: a match)."""

    guild_id: int | None
    channel_id: int
    host_id: int
    variant: Variant | None = None
    best_of: int = 1


# ---------------------------------------------------------------------- tournaments


@dataclass(frozen=True, slots=True)
class CreateTournament:
    """``organiser_id`` opens a tournament for sign-up in ``channel_id`` (the cog checked that
    they may organise). ``format``: ``"swiss"`` (``rounds`` of them), ``"round robin"`` or
    ``"single elimination"``; each pairing one game to ``target`` (``best_of`` 1) or a best of 3
    or 5; at most ``cap`` players; it starts at ``starts_at`` (a time on the manager's clock)
    or when the organiser starts it; each round lasts ``deadline_minutes``, after which an
    unfinished pairing is decided by ``deadline_rule`` (``"forfeit"``: the absent side
    forfeits, ``"score"``: the side ahead wins). ``spread_cap``, ``bye_spread``,
    ``forfeit_spread``: :class:`bot.tournament.Scoring`."""

    guild_id: int | None
    channel_id: int
    organiser_id: int
    name: str
    format: str
    rounds: int = 0
    target: int = 121
    best_of: int = 1
    cap: int = 64
    starts_at: float | None = None
    deadline_minutes: int = 24 * 60
    deadline_rule: str = "forfeit"
    spread_cap: int | None = None
    bye_spread: int = 0
    forfeit_spread: int = 0


@dataclass(frozen=True, slots=True)
class TournamentRequest:
    """``user_id``'s request on the tournament ``tournament_id``, made at ``where`` (``None``:
    trusted). ``organiser_rights``: the cog found that the user may manage the server, so they
    may do what the organiser may."""

    tournament_id: int
    user_id: int
    where: Place | None = field(default=None, kw_only=True)
    organiser_rights: bool = field(default=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class JoinTournament(TournamentRequest):
    """Enter a tournament during its sign-up."""


@dataclass(frozen=True, slots=True)
class LeaveTournament(TournamentRequest):
    """Leave a tournament during its sign-up."""


@dataclass(frozen=True, slots=True)
class StartTournament(TournamentRequest):
    """The organiser closes the sign-up: the field is seeded and round 1 paired."""


@dataclass(frozen=True, slots=True)
class PauseTournament(TournamentRequest):
    """The organiser stops the clock: no deadline passes and no round opens until resumed."""


@dataclass(frozen=True, slots=True)
class ResumeTournament(TournamentRequest):
    """The organiser restarts the clock: the round's deadlines move on by the pause."""


@dataclass(frozen=True, slots=True)
class ExtendDeadline(TournamentRequest):
    """The organiser gives the round's unfinished pairings ``minutes`` more."""

    minutes: int


@dataclass(frozen=True, slots=True)
class DropPlayer(TournamentRequest):
    """The organiser drops ``player`` (a place's user id): their open pairing is forfeited and
    they are paired no more."""

    player: int


@dataclass(frozen=True, slots=True)
class ReplacePlayer(TournamentRequest):
    """The organiser has ``by`` play ``player``'s place from its next game on."""

    player: int
    by: int


@dataclass(frozen=True, slots=True)
class CancelTournament(TournamentRequest):
    """The organiser calls the tournament off."""


@dataclass(frozen=True, slots=True)
class WithdrawFromTournament(TournamentRequest):
    """A player leaves a started tournament: their open pairing is forfeited."""


@dataclass(frozen=True, slots=True)
class OpenPairing:
    """Start the game of pairing ``table`` of round ``round`` in the thread ``thread_id`` (the
    cog made it under the tournament's message), both players seated."""

    tournament_id: int
    round: int
    table: int
    thread_id: int


__all__ += [
    "CancelTournament",
    "CreateTournament",
    "DropPlayer",
    "ExtendDeadline",
    "JoinTournament",
    "LeaveTournament",
    "OpenPairing",
    "PauseTournament",
    "ReplacePlayer",
    "ResumeTournament",
    "StartTournament",
    "TournamentRequest",
    "WithdrawFromTournament",
]
