"""Display names of players: learned from their interactions, fetched when unknown, and made
harmless wherever they are written.

The bot runs without the privileged members intent, so names come from the interactions
players make (which carry their member data) and, after a restart, from one REST lookup each.

A display name is whatever its owner typed, and every text the bot writes a name into is
shared with the whole channel. So every name is passed through :func:`plain_name` as it is
learned (the :class:`NameBook` gives out no other) and, where the text is markdown, through
:func:`markdown_name` as it is written:

* control characters (a line break, a tab, ...) become a space: a name stays on its line,
  and the pictures can draw it;
* a name that can reorder the text around it -- right-to-left letters, or Unicode's explicit
  direction controls such as U+202E RIGHT-TO-LEFT OVERRIDE -- is isolated between U+2068
  FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (Unicode's bidirectional algorithm,
  UAX #9, "Explicit Directional Isolates"): whatever it does ends with it, so the rest of the
  line reads as written. Any isolate characters of its own are dropped first, so that it cannot
  close the isolate early. A name of left-to-right letters, digits and punctuation alone cannot
  reorder anything and is left exactly as typed;
* in markdown (the channel's line, embeds through :func:`bot.render.words.escape`), markdown
  is escaped and a mention (``<@id>``) cannot form: the name shows as typed, never as someone
  else's mention or as bold.
"""

from __future__ import annotations

import logging
import re
import unicodedata

import discord

from bot.render.words import escape
from bot.sessions import GameView

log = logging.getLogger(__name__)

# one form for every level, as the lobby's menu names them
COMPUTER_NAMES = {level: f"Computer ({level})" for level in ("easy", "standard", "expert")}

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
# U+2066..U+2069: LEFT-TO-RIGHT, RIGHT-TO-LEFT and FIRST STRONG ISOLATE, POP DIRECTIONAL ISOLATE
_ISOLATES = dict.fromkeys(range(0x2066, 0x206A))
# the bidirectional classes (UAX #9, table 4) that can move the text around them: strong
# right-to-left letters, Arabic numbers, and the explicit embeddings, overrides and isolates
_REORDERING = {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
# C0 and C1 control characters, LINE SEPARATOR and PARAGRAPH SEPARATOR: each breaks a line or
# is no character to show
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def plain_name(name: str) -> str:
    """``name`` as any text shows it (a thread's name, a label; see the module): on one line,
    and isolated if it could reorder the text around it. The same for a name given twice."""
    name = _CONTROLS.sub(" ", name).translate(_ISOLATES).strip()
    if any(unicodedata.bidirectional(c) in _REORDERING for c in name):
        return f"{FIRST_STRONG_ISOLATE}{name}{POP_DIRECTIONAL_ISOLATE}"
    return name


def markdown_name(name: str) -> str:
    """``name`` written into markdown (a message's content, an embed): :func:`plain_name`,
    its markdown escaped and no mention can form (``<@id>``, ``<#id>``, ``<t:...>``: a
    backslash before each ``<`` shows it as typed)."""
    return escape(plain_name(name))


class NameBook:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._names: dict[int, str] = {}

    def learn(self, user: discord.abc.User) -> None:
        """Remember the name a user shows in the server (from an interaction)."""
        self._names[user.id] = plain_name(user.display_name) or self._stand_in(user.id)

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        """The player's display name, as :func:`plain_name` makes it."""
        known = self._names.get(user_id)
        if known is not None:
            return known
        name = await self._fetch(user_id, guild_id)
        self._names[user_id] = name
        return name

    @staticmethod
    def _stand_in(user_id: int) -> str:
        """The name of a player whose own cannot be had (or shows nothing)."""
        return f"Player {str(user_id)[-4:]}"

    async def _fetch(self, user_id: int, guild_id: int | None) -> str:
        try:
            if guild_id is not None:
                guild = self.bot.get_guild(guild_id)
                if guild is not None:
                    member = await guild.fetch_member(user_id)
                    return plain_name(member.display_name) or self._stand_in(user_id)
            user = await self.bot.fetch_user(user_id)
            return plain_name(user.display_name) or self._stand_in(user_id)
        except discord.HTTPException:
            log.info("Could not look up the name of user %d", user_id)
            return self._stand_in(user_id)

    async def seat_names(self, view: GameView) -> list[str]:
        """One display name per seat (``"open seat"`` for a lobby's empty ones)."""
        names = []
        for seat in view.seats:
            if seat is None:
                names.append("open seat")
            elif seat.user_id is None:
                names.append(COMPUTER_NAMES.get(seat.level or "standard", "Computer (standard)"))
            else:
                names.append(await self.name(seat.user_id, view.guild_id))
        # two computers of the same level need telling apart
        for i, name in enumerate(names):
            if names.count(name) > 1 and view.seats[i] is not None:
                names[i] = f"{name} {i + 1}"
        return names
