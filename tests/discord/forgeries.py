"""The forged interactions of the fuzz test (tests/discord/test_fuzz.py), drawn from a seeded rng.

A :class:`Forger` looks at the world (two servers, four channels, DMs, a game, a lobby, a game in
the other server) and draws interactions a person could not send from Discord's own client:
malformed, huge and foreign-digit ids; real moves of the real players sent from another
server's channel, another channel of the same server or a DM; clicks by people not seated;
claims outside 0..29; slash commands from DMs and with values outside their choices and ranges,
and user options that name nobody (an id without the resolved data Discord always sends, text).

Every forgery must be refused (or be a pure read): the fuzz test asserts that none changes a
row of the database. So a forgery that *would* be a legal request where it is sent — the
player to move, their current step, a legal card, in the game's own channel — is never drawn;
in the game's own channel a seated player's move carries a step from the future (always
refused: a button is never newer than the game), and the lobby's own channel gets only the
lobby clicks its seated people may not make.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import FULL_PACK, Claim, Cut, Discard, LetGo, Muggins, Play
from discord_emulator import DiscordEmulator, EmuChannel, EmuMessage, EmuUser

HUGE = (0, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**25, 10**60)
# superscript two, Arabic-Indic, fullwidth, Devanagari, mathematical bold digits: str.isdigit
# takes them all, int() takes some; a custom id is ASCII digits or nothing
ODD_DIGITS = ("²", "١٢", "１２", "४२", "𝟏𝟐", "Ⅻ", "1_0", "+1", "-1", " 1", "0x1", "1e3")
JUNK_IDS = (
    "", " ", ":", "crib", "crib:", "crib::", "crib:h", "crib:h:", "crib:p:1", "crib:x:1:2",
    "CRIB:H:1", "crib:h:1\n", "crib:h:1:extra", "crib:l:1:join:again", "crib:\x00:1", "🂠",
    "crib:p:1:1:5h", "crib:p:1:1:11S", "crib:p:1:1:1H", "crib:p:1:1:ZZ", "crib:s:1:1:1:",
    "crib:d:1:1:", "crib:c:1:1:q", "crib:m:1:1:maybe", "crib:rm:1:perhaps", "crib:b:1:xyz:0:n",
    "crib:n:1:1:z", "{game}", "%s%s%s", "crib:" + "9" * 95, "x" * 100, "crib:h:" + "1" * 93,
)
CLAIMS_OUTSIDE = ("30", "99", "-1", "", "abc", "٣", "²", "1e1", "29.0", "1" * 40, " 5", "5 ")
LOBBY_VERBS = ("join", "leave", "cpu_easy", "cpu_standard", "cpu_expert", "start", "cancel")
START_BAD = {  # /cribbage start options outside their choices and ranges (declared types kept)
    "players": (0, 1, 5, 9, -3, 2**40),
    "target": (0, 60, 62, 100, 120, 122, -121, 2**31),
    "computer": ("godlike", "", "NONE", "Easy", "expert ", "x" * 100),
    "match": (0, 2, 4, 7, -1, 99),
}
START_FINE = {"players": (2, 3, 4), "target": (61, 121), "computer": ("none", "easy"),
              "match": (1, 3), "muggins": (True, False), "partnerships": (False, True)}
BAD_SETTINGS = {"target": (0, 62, 120, -61, 2**40), "turn_time": (
    "99999", "1441", "-5", "abc", "²", "", "5 hours", "1" * 50, "NaN")}
SCOPES = ("server", "global", "galaxy", "", "SERVER")
SORTS = ("rating", "wins", "win rate", "skunks", "bogus", "")
AGAINST = ("people", "computers", "anyone", "robots", "")
# a user option as only a forged client sends it: an id with no resolved data, or text
UNRESOLVED_USERS = ("1099511627776", "1", str(2**64), "alice", "", "<@1>", "１２", "x" * 120)


@dataclass
class Forgery:
    category: str
    what: str  # a short description for failure reports
    send: Callable[[], Awaitable[Any]]


@dataclass
class Game:
    """A game of the world: its id, channel and seated people (user objects)."""

    id: int
    channel: EmuChannel
    seated: list[EmuUser]
    host: EmuUser


class Forger:
    """Draws forged interactions; ``peek(game_id, user)`` gives the test's view of a seated
    user's position (the manager's private view), or None."""

    def __init__(
        self,
        emu: DiscordEmulator,
        rng: random.Random,
        *,
        games: dict[str, Game],
        places: dict[str, EmuChannel],
        people: dict[str, EmuUser],
        sources: Callable[[], list[EmuMessage]],
        peek: Callable[[int, EmuUser], Any],
        game_step: Callable[[int], int],
    ) -> None:
        self.emu, self.rng = emu, rng
        self.games, self.places, self.people = games, places, people
        self.sources, self.peek, self.game_step = sources, peek, game_step

    # ------------------------------------------------------------------ drawing

    def draw(self) -> Forgery:
        kinds = (
            (self.junk_click, 3), (self.odd_ids, 3), (self.move_elsewhere, 6),
            (self.move_by_stranger, 3), (self.future_move, 2), (self.bad_claim, 2),
            (self.lobby_click, 3), (self.read_click, 2), (self.start_command, 4),
            (self.other_command, 3), (self.settings_command, 2), (self.standings_command, 2),
        )
        draw = self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        return draw()

    def _user(self) -> EmuUser:
        return self.rng.choice(list(self.people.values()))

    def _source(self) -> EmuMessage:
        return self.rng.choice(self.sources())

    def _place(self, user: EmuUser, *, not_in: EmuChannel | None = None) -> EmuChannel:
        """A channel to send from: any guild channel but ``not_in``, or the user's DM."""
        choices = [c for c in self.places.values() if c is not not_in]
        choices.append(self.emu.dm_channel(user))
        return self.rng.choice(choices)

    def _click(self, category: str, user: EmuUser, place: EmuChannel, custom_id: str) -> Forgery:
        source = self._source()

        async def send() -> Any:
            return await self.emu.forge_click(user, place, custom_id, message=source)

        return Forgery(category, f"{user.name} in {place.name}: click {custom_id!r}", send)

    def _select(
        self, category: str, user: EmuUser, place: EmuChannel, custom_id: str, values: list[str]
    ) -> Forgery:
        source = self._source()

        async def send() -> Any:
            return await self.emu.forge_select(user, place, custom_id, values, message=source)

        what = f"{user.name} in {place.name}: select {custom_id!r} {values!r}"
        return Forgery(category, what, send)

    def _slash(self, category: str, user: EmuUser, place: EmuChannel, path: str,
               options: dict[str, Any]) -> Forgery:
        async def send() -> Any:
            return await self.emu.forge_slash(user, place, path, options=options)

        shown = {k: getattr(v, "name", v) for k, v in options.items()}
        return Forgery(category, f"{user.name} in {place.name}: /{path} {shown}", send)

    def _game_id(self) -> str:
        games = [str(g.id) for g in self.games.values()]
        return self.rng.choice(games + [str(n) for n in HUGE] + list(ODD_DIGITS[:6]))

    # ------------------------------------------------------------------ clicks

    def junk_click(self) -> Forgery:
        user = self._user()
        return self._click("junk id", user, self._place(user), self.rng.choice(JUNK_IDS))

    def odd_ids(self) -> Forgery:
        """Well-formed templates with huge, negative or foreign-digit numbers."""
        r = self.rng
        g, s = self._game_id(), r.choice([*map(str, HUGE), *ODD_DIGITS])
        card = r.choice(FULL_PACK).code
        custom_id = r.choice((
            f"crib:h:{g}", f"crib:p:{g}:{s}:{card}", f"crib:s:{g}:{s}:{s}:{r.randrange(10)}",
            f"crib:d:{g}:{s}:{s}", f"crib:c:{g}:{s}:{r.choice('tmb')}", f"crib:i:{g}:{s}",
            f"crib:r:{g}", f"crib:rm:{g}:{r.choice(('yes', 'no'))}",
            f"crib:m:{g}:{s}:{r.choice(('call', 'pass'))}", f"crib:l:{s}:{r.choice(LOBBY_VERBS)}",
            f"crib:b:{s}:srh:{s}:{r.choice('pn')}", f"crib:n:{g}:{s}:{r.choice('lh')}",
        ))
        user = self._user()
        if custom_id.startswith("crib:n:"):
            points = [str(r.randrange(30))]
            return self._select("odd id", user, self._place(user), custom_id, points)
        return self._click("odd id", user, self._place(user), custom_id)

    def _legal_move(self, game: Game, user: EmuUser, step: int | None = None) -> Forgery | None:
        """A seated user's legal move as its button would carry it (at ``step``, default the
        current one), sent from a channel that is not the game's."""
        mine = self.peek(game.id, user)
        if mine is None or not mine.legal_actions:
            return None
        action = self.rng.choice(mine.legal_actions)
        step = mine.step if step is None else step
        place = self._place(user, not_in=game.channel) if step == mine.step else game.channel
        category = "move elsewhere" if place is not game.channel else "future step"
        g = game.id
        if isinstance(action, Play):
            return self._click(category, user, place, f"crib:p:{g}:{step}:{action.card.code}")
        if isinstance(action, Discard):
            mask = sum(1 << mine.hand.index(card) for card in action.cards)
            return self._click(category, user, place, f"crib:d:{g}:{step}:{mask}")
        if isinstance(action, Cut):
            where = self.rng.choice("tmb")
            return self._click(category, user, place, f"crib:c:{g}:{step}:{where}")
        if isinstance(action, Claim):
            part = "l" if action.points < 15 else "h"
            custom_id = f"crib:n:{g}:{step}:{part}"
            return self._select(category, user, place, custom_id, [str(action.points)])
        if isinstance(action, LetGo | Muggins):
            verb = "pass" if isinstance(action, LetGo) else "call"
            return self._click(category, user, place, f"crib:m:{g}:{step}:{verb}")
        return None

    def move_elsewhere(self) -> Forgery:
        """The player to move, their current step and a legal action: from elsewhere."""
        games = [g for g in self.games.values() if g.seated and g is not self.games.get("lobby")]
        for _ in range(10):
            game = self.rng.choice(games)
            forgery = self._legal_move(game, self.rng.choice(game.seated))
            if forgery is not None:
                return forgery
        return self.junk_click()

    def future_move(self) -> Forgery:
        """In the game's own channel, a seated player's move with a step the game never had."""
        game = self.games["home"]
        ahead = self.game_step(game.id) + self.rng.choice((1, 2, 7, 1000, 2**40))
        forgery = self._legal_move(game, self.rng.choice(game.seated), ahead)
        return forgery or self.junk_click()

    def move_by_stranger(self) -> Forgery:
        """A move in the game's own channel by someone not seated, at the game's step."""
        game = self.rng.choice([g for g in self.games.values() if g.seated])
        strangers = [u for u in self.people.values() if u not in game.seated]
        user, g, step = self.rng.choice(strangers), game.id, self.game_step(game.id)
        card = self.rng.choice(FULL_PACK).code
        custom_id = self.rng.choice((
            f"crib:p:{g}:{step}:{card}", f"crib:d:{g}:{step}:{self.rng.choice((3, 5, 48))}",
            f"crib:c:{g}:{step}:m", f"crib:m:{g}:{step}:call", f"crib:m:{g}:{step}:pass",
            f"crib:rm:{g}:yes", f"crib:r:{g}", f"crib:i:{g}:{step}",
        ))
        if self.rng.random() < 0.2:
            custom_id = f"crib:n:{g}:{step}:l"
            return self._select("stranger", user, game.channel, custom_id, ["3"])
        return self._click("stranger", user, game.channel, custom_id)

    def bad_claim(self) -> Forgery:
        """A claim picker answered with a value that is no option (0..29 are)."""
        game = self.games["home"]
        user = self.rng.choice(game.seated)
        mine = self.peek(game.id, user)
        step = mine.step if mine is not None else self.game_step(game.id)
        values = [self.rng.choice(CLAIMS_OUTSIDE)]
        if self.rng.random() < 0.2:
            values.append(self.rng.choice(CLAIMS_OUTSIDE))
        custom_id = f"crib:n:{game.id}:{step}:{self.rng.choice('lh')}"
        return self._select("claim outside 0..29", user, game.channel, custom_id, values)

    def lobby_click(self) -> Forgery:
        lobby = self.games["lobby"]
        verb = self.rng.choice(LOBBY_VERBS + ("nuke", "join_", "cpu_godlike"))
        custom_id = f"crib:l:{lobby.id}:{verb}"
        if self.rng.random() < 0.6:  # from elsewhere: anyone, any verb
            user = self._user()
            return self._click("lobby elsewhere", user, self._place(user, not_in=lobby.channel),
                               custom_id)
        # in the lobby's channel: only what its seated people may not do
        user = self.rng.choice(lobby.seated)
        if user is lobby.host:
            verb = self.rng.choice(("join", "start", "nuke"))  # seated already; not full yet
        else:
            verb = self.rng.choice(("join", "start", "cancel", "cpu_easy", "cpu_expert", "nuke"))
        return self._click("lobby", user, lobby.channel, f"crib:l:{lobby.id}:{verb}")

    def read_click(self) -> Forgery:
        """Clicks that only read: a hand, a pick toggle, a hint, a leaderboard page."""
        game = self.rng.choice([g for g in self.games.values() if g.seated])
        user = self._user()
        step = self.game_step(game.id) - self.rng.randrange(3)
        mask, index = self.rng.choice((0, 1, 3, 63, 2**40)), self.rng.randrange(10)
        custom_id = self.rng.choice((
            f"crib:h:{game.id}", f"crib:s:{game.id}:{step}:{mask}:{index}",
            f"crib:i:{game.id}:{step}", f"crib:b:{user.id}:grh:{self.rng.randrange(9)}:n",
            f"crib:b:{self.people['alice'].id}:sws:0:p",
        ))
        return self._click("read", user, self._place(user), custom_id)

    # ------------------------------------------------------------------ slash commands

    def start_command(self) -> Forgery:
        r = self.rng
        user = self._user()
        options = {k: r.choice(v) for k, v in START_FINE.items() if r.random() < 0.5}
        if r.random() < 0.35:  # a DM: whatever the options, nothing may open
            return self._slash("start in a DM", user, self.emu.dm_channel(user), "cribbage start",
                               options)
        bad = r.sample(sorted(START_BAD), r.randint(1, 2))
        options |= {k: r.choice(START_BAD[k]) for k in bad}
        place = r.choice(list(self.places.values()))
        return self._slash("start outside choices", user, place, "cribbage start", options)

    def other_command(self) -> Forgery:
        """hand, board, watch, rules, help, forfeit: from DMs, other servers, by non-players."""
        r = self.rng
        user = self._user()
        name = r.choice(("hand", "board", "watch", "rules", "help", "forfeit"))
        quiet = [self.places["quiet"], self.emu.dm_channel(user)]
        if name in ("board", "watch"):  # both write in a channel with a game
            place = r.choice(quiet)
        elif name == "forfeit":  # allowed to a seated player in their game's channel only
            seated_in = {g.channel for g in self.games.values() if user in g.seated}
            place = r.choice([c for c in [*self.places.values(), *quiet] if c not in seated_in])
        else:
            place = self._place(user)
        return self._slash("command elsewhere", user, place, f"cribbage {name}", {})

    def settings_command(self) -> Forgery:
        r = self.rng
        user = self._user()
        options = {k: r.choice(v) for k, v in BAD_SETTINGS.items() if r.random() < 0.6}
        if not options:
            options = {"target": r.choice(BAD_SETTINGS["target"])}
        for name in ("images", "muggins", "computer_games"):
            if r.random() < 0.3:
                options[name] = r.choice((True, False))
        return self._slash("settings outside ranges", user, self._place(user),
                           "cribbage settings", options)

    def standings_command(self) -> Forgery:
        r = self.rng
        user = self._user()
        name = r.choice(("leaderboard", "stats", "history"))
        options: dict[str, Any] = {"scope": r.choice(SCOPES)}
        if name == "leaderboard":
            options |= {"sort": r.choice(SORTS), "against": r.choice(AGAINST)}
        elif r.random() < 0.3:
            options["user"] = r.choice(UNRESOLVED_USERS)
            return self._slash("user option unresolved", user, self._place(user),
                               f"cribbage {name}", options)
        elif r.random() < 0.7:
            options["user"] = self._user()
        return self._slash("standings outside choices", user, self._place(user),
                           f"cribbage {name}", options)
