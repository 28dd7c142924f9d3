"""Which of the bot's gateway shards a process runs, and so which servers' games it owns.

Discord routes every event of a server to one shard: ``(guild_id >> 22) % shard_count``;
events without a server (DMs) go to shard 0 (Discord's Gateway docs, "Sharding": "Sharding
Formula", and "Gateway events that do not contain a guild_id will only be sent to the first
shard"). ``CRIBBAGE_SHARD_COUNT`` (default 1) is that count; ``CRIBBAGE_SHARDS`` (default: all
of them) the shards this process connects, as ids and ranges: ``0-3``, ``1``, ``0,2``.

A process resumes, sweeps and answers only the games of the servers its shards own
(:meth:`Shards.owns`, handed to the session manager), and only the process running shard 0
syncs the slash commands. On PostgreSQL it holds an advisory lock per shard it runs
(:func:`lock_name`) from before it resumes their games until it closes: a second process
started with one of those shards on the same database refuses to start (:class:`ShardTaken`).

>>> parse_shards("4", "1-2")
Shards(count=4, ids=(1, 2))
>>> s = parse_shards("2", "1")
>>> s.owns(1 << 22), s.owns(2 << 22), s.owns(None), s.complete, s.syncs_commands
(True, False, False, False, False)
>>> parse_shards("", "")
Shards(count=1, ids=(0,))
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 65536
ABOUT = (
    "CRIBBAGE_SHARD_COUNT is the bot's total number of gateway shards (default 1) and "
    "CRIBBAGE_SHARDS the ones this process runs, as ids and ranges from 0 to the count minus "
    "one (e.g. 0-3, 1, or 0,2; default: all of them)."
)


class ShardError(ValueError):
    """``CRIBBAGE_SHARD_COUNT`` / ``CRIBBAGE_SHARDS`` do not name a shard set; says why."""


class ShardTaken(RuntimeError):
    """Another process on the same database already runs ``shard`` (it holds the shard's
    advisory lock, :func:`lock_name`); says what to do."""

    def __init__(self, shard: int, count: int, database: object) -> None:
        self.shard = shard
        super().__init__(
            f"Shard {shard} of {count} is already run by another process on the database "
            f"{database}: two processes must never run the same shard (both would answer and "
            "resume its servers' games). Stop the other process, or give this one other shards "
            "with CRIBBAGE_SHARDS, then start again. If that process's machine died, PostgreSQL "
            "frees the shard once it drops the dead connection; pg_terminate_backend ends it at "
            "once."
        )


def lock_name(shard: int) -> str:
    """The name of the advisory lock a process holds while it runs ``shard``
    (``Store.hold``)."""
    return f"shard/{shard}"


@dataclass(frozen=True)
class Shards:
    """``count`` shards in all, of which this process runs ``ids`` (sorted, distinct)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord sends a server's events to (a DM's: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (``None``: a DM, shard 0)."""
        return self.shard_of(guild_id) in self.ids

    @property
    def complete(self) -> bool:
        """This process runs every shard (one process serves every server)."""
        return len(self.ids) == self.count

    @property
    def syncs_commands(self) -> bool:
        """Only the process running shard 0 syncs the slash commands (one sync per bot)."""
        return 0 in self.ids


def _number(text: str, what: str) -> int:
    if not text.isdigit():
        raise ShardError(f"{what} must be a whole number, not {text!r}. {ABOUT}")
    return int(text)


def parse_shards(count_text: str, ids_text: str) -> Shards:
    """The shards named by the two settings' texts (empty: the defaults); :class:`ShardError`
    with one sentence on what is wrong and how the settings are written."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text and ids_text != "0":
            raise ShardError(
                f"CRIBBAGE_SHARDS={ids_text} needs CRIBBAGE_SHARD_COUNT (how many shards the "
                f"bot has in all). {ABOUT}"
            )
        return Shards()
    count = _number(count_text, "CRIBBAGE_SHARD_COUNT")
    if not 1 <= count <= MAX_SHARDS:
        raise ShardError(
            f"CRIBBAGE_SHARD_COUNT must be from 1 to {MAX_SHARDS}, not {count}. {ABOUT}"
        )
    if not ids_text:
        return Shards(count, tuple(range(count)))
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        low = _number(first.strip(), "Each shard in CRIBBAGE_SHARDS")
        high = _number(last.strip(), "Each shard in CRIBBAGE_SHARDS") if dash else low
        if low > high:
            raise ShardError(f"CRIBBAGE_SHARDS: the range {part.strip()} runs backwards. {ABOUT}")
        if high >= count:
            raise ShardError(
                f"CRIBBAGE_SHARDS names shard {high}, but with CRIBBAGE_SHARD_COUNT={count} the "
                f"shards are 0 to {count - 1}. {ABOUT}"
            )
        ids.update(range(low, high + 1))
    return Shards(count, tuple(sorted(ids)))
