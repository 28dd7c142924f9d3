"""The one check of a person's request: where it was made, who makes it, how fresh its button is.

A click or a command reaches the bot with the ids it carries: the game's from the button's
custom id (which a modified client may forge), the server's and channel's from Discord. Every
part that handles a :class:`~bot.sessions.requests.Request` asks the :class:`Guard` first,
which refuses, before anything is read or written (:meth:`Guard.place`):

* a game id outside ``1 .. 2**63 - 1`` (SQLite's integers): ``UNKNOWN_GAME``, as for any game
  that does not exist; a user id outside it (no Discord account has one yet): ``NOT_SEATED``;
* a game of another server or channel than the request's: ``WRONG_CHANNEL``, "That button
  belongs to a game in another channel." (a lobby, a game, or for a rematch the ended game);
* any request from a server this process does not serve (the bot runs as several shard
  processes, and Discord sent this one to the wrong one): ``UNKNOWN_GAME``,
  :data:`OTHER_PROCESS`. Its games are not loaded here, so nothing here may touch them.

A game moved to a thread (:meth:`Tables.move <bot.sessions.tables.Tables.move>`) lives there:
its moves, hand and forfeit are taken only from the thread. A lobby request (join, leave, seat
or free a computer, the variant, cancel, start) is also let in from the channel of the game's
lobby message, so a late click on the lobby gets the lobby's own answer ("This game has already
started."). A request without ``where`` comes from a trusted caller: its place is not checked.

Under the game's lock, the part asks the guard again: the user's seat (:meth:`Guard.seat`) and,
for a move, whether the button is still current (:meth:`Guard.stale`).
"""

from __future__ import annotations

from db.games import Games

from .requests import Request, known_game_id
from .session import Session
from .tables import Tables
from .views import Refusal, RefusalReason

R = RefusalReason

UNKNOWN_GAME = "I can't find that game."
ELSEWHERE = "That button belongs to a game in another channel."
OTHER_PROCESS = "Another of the bot's processes serves this server: please try again."
NOT_PLAYING = "You're not playing in this game."
STALE_MESSAGE = (
    "That button is out of date: the game has moved on since it was shown. "
    "Open your hand again for fresh buttons."
)


class Guard:
    """Checks every request (see the module docstring)."""

    def __init__(self, tables: Tables, games: Games) -> None:
        self._tables = tables
        self._games = games

    def place(self, request: Request, *, lobby: bool = False) -> Refusal | None:
        """Why ``request`` is refused at once for where it was made (``None``: let it in). A
        game that is not live is left to the part (over, or unknown). ``lobby``: a lobby
        request, also let in from the channel of the lobby message."""
        where = request.where
        if where is None:
            return None
        if not known_game_id(request.game_id):
            return Refusal(R.UNKNOWN_GAME, UNKNOWN_GAME)
        if not self._tables.owns(where.guild_id):
            return Refusal(R.UNKNOWN_GAME, OTHER_PROCESS)
        if not known_game_id(request.user_id):  # the same bounds: the store keeps players by id
            return Refusal(R.NOT_SEATED, "This account can't take a seat here.")
        s = self._tables.sessions.get(request.game_id)
        if s is None:
            return None
        if s.guild_id != where.guild_id:
            return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        channels = {s.channel_id}
        if lobby and "lobby" in s.messages:
            channels.add(s.messages["lobby"].channel_id)
        if where.channel_id not in channels:
            return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return None

    async def place_of_ended(self, request: Request) -> Refusal | None:
        """:meth:`place`, and for a game that has ended, the place where it was played (a
        rematch is asked there)."""
        if refused := self.place(request):
            return refused
        where = request.where
        if where is None or request.game_id in self._tables.sessions:
            return None
        record = await self._games.load_game(request.game_id)
        if record is not None and (record.guild_id, record.channel_id) != (
            where.guild_id,
            where.channel_id,
        ):
            return Refusal(R.WRONG_CHANNEL, ELSEWHERE)
        return None

    @staticmethod
    def seat(s: Session, user_id: int, text: str = NOT_PLAYING) -> int | Refusal:
        """``user_id``'s seat at ``s``, or the refusal ``text`` for someone not seated."""
        seat = s.seat_of(user_id)
        return Refusal(R.NOT_SEATED, text) if seat is None else seat

    @staticmethod
    def stale(s: Session, seat: int, step: object) -> Refusal | None:
        """Whether a button drawn at ``step`` is out of date for ``seat`` (under the lock).

        A button stays current until that player's own situation changes: their turn begins,
        or they act. So a discard (or cut for the deal) button still works after another
        player has laid away (or cut), while any button from before the player's last action
        or turn is stale."""
        if not isinstance(step, int) or not s.ready[seat] <= step <= s.step:
            return Refusal(R.STALE, STALE_MESSAGE)
        return None
