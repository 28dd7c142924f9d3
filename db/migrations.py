"""The schema's migrations: Alembic revisions (``db/alembic/versions``) on both dialects,
after, on SQLite, the frozen numbered migrations of the releases before them.

A cribbage-bot SQLite database is recognised by ``PRAGMA application_id``
(:data:`APPLICATION_ID`). Up to release 0.1.0 an SQLite file's schema grew by numbered migrations
(:data:`MIGRATIONS`, ``PRAGMA user_version`` 1 to :data:`LATEST_VERSION`): they are frozen, and
a file of an older release runs them, each in its own transaction with its version bump, up to
:data:`LATEST_VERSION`.

From there on Alembic keeps the schema (:func:`upgrade`): revision :data:`BASE_REVISION` is
release 0.1.0's schema, created whole on a fresh database, stamped on one the numbered migrations
made. Every revision still missing runs in one transaction with the ``alembic_version`` row,
under the store's lock (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock), so one process
migrates, and a crash halfway leaves the revision the database had: the next start runs them again.

PostgreSQL (:func:`migrate_postgresql`) has only Alembic: its support began at
:data:`LATEST_VERSION`, so a schema is either empty (created at the head revision), release
0.1.0's (a ``schema_version`` row of :data:`LATEST_VERSION` and no ``alembic_version``: stamped
at :data:`BASE_REVISION`, then upgraded) or already Alembic's. A lower ``schema_version`` was
made by a development build before that release, and is refused as one no release can upgrade.

To change the schema, add an Alembic revision to ``db/alembic/versions`` (its form:
``db/alembic/script.py.mako``, ``down_revision`` the current head), written for both dialects,
and change :mod:`db.schema` to match. A database at a revision this code does not know was
written by a newer cribbage-bot: it is refused (:class:`DatabaseTooNew`), as is a version above
:data:`LATEST_VERSION`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import exc as sa_exc
from sqlalchemy import text
from sqlalchemy.schema import CreateSchema

from . import diagnosis, pg
from .errors import DatabaseTooNew, NotACribbageDatabase, StoreError

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection as SyncConnection

    from .connection import Connection

APPLICATION_ID = 0x43524942  # "CRIB"

log = logging.getLogger(__name__)
# Alembic says at every opening which implementation it uses: the store says, once, what changed.
if logging.getLogger("alembic").level == logging.NOTSET:
    logging.getLogger("alembic").setLevel(logging.WARNING)


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: its number (the ``user_version`` it leaves), a title, its statements."""

    version: int
    title: str
    statements: tuple[str, ...]


_V1 = (
    # One row per lobby or game. A channel has at most one open (lobby or active) game.
    """CREATE TABLE games (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER,
        channel_id   INTEGER NOT NULL,
        status       TEXT NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')),
        players      INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
        partnerships INTEGER NOT NULL DEFAULT 0 CHECK (partnerships IN (0, 1)),
        target       INTEGER NOT NULL CHECK (target IN (61, 121)),
        seed         TEXT,
        first_dealer INTEGER,
        host_id      INTEGER NOT NULL,
        step         INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
        created_at   REAL NOT NULL,
        updated_at   REAL NOT NULL,
        warned_at    REAL,
        started_at   REAL,
        ended_at     REAL,
        end_reason   TEXT CHECK (end_reason IN ('won', 'forfeit', 'abandoned', 'cancelled')),
        winner_side  INTEGER,
        forfeit_seat INTEGER
    ) STRICT""",
    """CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active')""",
    "CREATE INDEX games_by_status ON games (status, updated_at)",
    "CREATE INDEX games_by_guild ON games (guild_id, status)",
    # The public messages the cogs edit (lobby message, table message, ...), by kind.
    """CREATE TABLE game_messages (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    ) STRICT, WITHOUT ROWID""",
    # Who sits where: a Discord user or a computer level; team in partnerships.
    """CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id   INTEGER,
        computer  TEXT CHECK (computer IN ('easy', 'standard', 'expert')),
        team      INTEGER,
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (computer IS NULL))
    ) STRICT, WITHOUT ROWID""",
    "CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL",
    "CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL",
    # The append-only log: (variant, seed, first_dealer) + these actions rebuild the game.
    """CREATE TABLE actions (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        seat       INTEGER NOT NULL,
        action     TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) STRICT, WITHOUT ROWID""",
    """CREATE TRIGGER actions_are_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
    """CREATE TRIGGER actions_are_append_only_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
    # Game.to_dict() after action `seq` (0 = the new game), written with that action.
    # `ready`: per seat, the step since which that seat's buttons are current.
    """CREATE TABLE snapshots (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        seq     INTEGER NOT NULL CHECK (seq >= 0),
        state   TEXT NOT NULL,
        ready   TEXT NOT NULL
    ) STRICT""",
    # Per deal and seat: points actually pegged (capped at the target) by source, and the
    # hand / crib as shown (public once shown), for statistics and "best hand".
    """CREATE TABLE deal_points (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        deal       INTEGER NOT NULL CHECK (deal >= 1),
        seat       INTEGER NOT NULL,
        pegging    INTEGER NOT NULL DEFAULT 0,
        hand       INTEGER NOT NULL DEFAULT 0,
        crib       INTEGER NOT NULL DEFAULT 0,
        heels      INTEGER NOT NULL DEFAULT 0,
        hand_value INTEGER,
        hand_cards TEXT,
        crib_value INTEGER,
        crib_cards TEXT,
        PRIMARY KEY (game_id, deal, seat)
    ) STRICT, WITHOUT ROWID""",
    # One row per seat of an ended game (finished or abandoned).
    """CREATE TABLE results (
        game_id         INTEGER NOT NULL,
        seat            INTEGER NOT NULL,
        side            INTEGER NOT NULL,
        outcome         TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'forfeited', 'abandoned')),
        won             INTEGER NOT NULL CHECK (won IN (0, 1)),
        final_score     INTEGER NOT NULL,
        skunk_given     INTEGER NOT NULL DEFAULT 0 CHECK (skunk_given BETWEEN 0 AND 2),
        skunk_taken     INTEGER NOT NULL DEFAULT 0 CHECK (skunk_taken BETWEEN 0 AND 2),
        pegging         INTEGER NOT NULL DEFAULT 0,
        hand            INTEGER NOT NULL DEFAULT 0,
        crib            INTEGER NOT NULL DEFAULT 0,
        heels           INTEGER NOT NULL DEFAULT 0,
        best_hand       INTEGER,
        best_hand_cards TEXT,
        PRIMARY KEY (game_id, seat),
        FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
    ) STRICT, WITHOUT ROWID""",
    f"PRAGMA application_id = {APPLICATION_ID}",
)

_V2 = (
    # Small facts the bot keeps about itself, e.g. the hash of the last slash-command sync.
    """CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) STRICT, WITHOUT ROWID""",
)

_V3 = (
    # Standings and ratings (db/standings.py). A finished game is counted exactly once, in the
    # order games ended: `rated_at` marks it, and the partial index finds the ones still due.
    "ALTER TABLE games ADD COLUMN rated_at REAL",
    """CREATE INDEX games_to_rate ON games (ended_at, id)
        WHERE status = 'finished' AND rated_at IS NULL""",
    # Per pool ('people': games where only people sat; 'computers': games with a computer
    # seat; 'all': every game), scope (0 for everywhere, else a guild id) and player (a user
    # id; computers -1 easy, -2 standard, -3 expert): the current rating and the running
    # totals the leaderboard sorts on (win rate: provisional players, under 5 games, last).
    """CREATE TABLE standings (
        pool         TEXT NOT NULL CHECK (pool IN ('people', 'computers', 'all')),
        scope        INTEGER NOT NULL,
        player       INTEGER NOT NULL,
        mu           REAL NOT NULL,
        sigma        REAL NOT NULL,
        ordinal      REAL NOT NULL,
        games        INTEGER NOT NULL CHECK (games >= 1),
        wins         INTEGER NOT NULL,
        forfeits     INTEGER NOT NULL,
        skunks_given INTEGER NOT NULL,
        skunks_taken INTEGER NOT NULL,
        last_game    INTEGER NOT NULL,
        PRIMARY KEY (pool, scope, player)
    ) STRICT, WITHOUT ROWID""",
    "CREATE INDEX standings_by_rating ON standings (pool, scope, ordinal DESC)",
    "CREATE INDEX standings_by_wins ON standings (pool, scope, wins DESC)",
    "CREATE INDEX standings_by_skunks ON standings (pool, scope, skunks_given DESC)",
    """CREATE INDEX standings_by_win_rate ON standings
        (pool, scope, (games >= 5) DESC, (CAST(wins AS REAL) / games) DESC)""",
    # Every rating change: one row per rated game, pool, scope and player.
    """CREATE TABLE rating_history (
        game_id      INTEGER NOT NULL REFERENCES games (id),
        scope        INTEGER NOT NULL,
        player       INTEGER NOT NULL,
        pool         TEXT NOT NULL,
        mu_before    REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after     REAL NOT NULL,
        sigma_after  REAL NOT NULL,
        rated_at     REAL NOT NULL,
        PRIMARY KEY (game_id, pool, scope, player)
    ) STRICT, WITHOUT ROWID""",
    "CREATE INDEX rating_history_by_player ON rating_history (player, pool, scope, game_id)",
)

_V4 = (
    # Per-server settings (db/settings.py); a server without a row has the defaults.
    # turn_minutes 0: turns are not timed.
    """CREATE TABLE guild_settings (
        guild_id             INTEGER PRIMARY KEY,
        target               INTEGER NOT NULL CHECK (target IN (61, 121)),
        images               INTEGER NOT NULL CHECK (images IN (0, 1)),
        turn_minutes         INTEGER NOT NULL CHECK (turn_minutes BETWEEN 0 AND 1440),
        muggins              INTEGER NOT NULL CHECK (muggins IN (0, 1)),
        computer_games_count INTEGER NOT NULL CHECK (computer_games_count IN (0, 1)),
        updated_at           REAL NOT NULL,
        updated_by           INTEGER
    ) STRICT""",
    # Turn timers (db/turns.py): a turn is a seat having to act since `turn_step` (its ready
    # step); its deadline comes from the log. Only reminders sent and turns run out are kept.
    """CREATE TABLE turn_marks (
        game_id     INTEGER NOT NULL REFERENCES games (id),
        seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        turn_step   INTEGER NOT NULL CHECK (turn_step >= 0),
        reminded_at REAL,
        expired_at  REAL,
        PRIMARY KEY (game_id, seat, turn_step)
    ) STRICT, WITHOUT ROWID""",
)

_V5 = (
    # Matches of 3 or 5 games and rematches (db/matches.py). `seats`: JSON [[seat, user_id,
    # computer], ...] as the first game started; `wins`: JSON games held per side (a skunk
    # counts two, a double skunk three).
    """CREATE TABLE matches (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        best_of     INTEGER NOT NULL CHECK (best_of IN (3, 5)),
        status      TEXT NOT NULL CHECK (status IN
                    ('forming', 'playing', 'won', 'conceded', 'abandoned', 'cancelled')),
        wins        TEXT NOT NULL,
        winner_side INTEGER,
        seats       TEXT NOT NULL,
        created_at  REAL NOT NULL,
        ended_at    REAL
    ) STRICT""",
    "ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches (id)",
    "CREATE INDEX games_by_match ON games (match_id) WHERE match_id IS NOT NULL",
    # A rematch lobby (and the game it becomes) names the game it replays; it starts once every
    # person seated has accepted.
    "ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id)",
    """CREATE TABLE rematch_accepted (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        at      REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    ) STRICT, WITHOUT ROWID""",
)

_V6 = (
    # Muggins (docs/players/muggins.md): players count their own hands. Part of the variant,
    # like the target.
    "ALTER TABLE games ADD COLUMN muggins INTEGER NOT NULL DEFAULT 0 CHECK (muggins IN (0, 1))",
)

_V7 = (
    # Ended games are compacted (db/archive.py): their actions, last snapshot and points per
    # deal become two compressed blobs (db/logcodec.py), the points and the log, cut into
    # parts of at most 400 bytes in `archive_parts` (small rows fill the pages; appended in the
    # order games end, from `first_part`: first the points', then the log's). `log_parts` is NULL
    # once a retention pruned the log; `last_seq`: the log's last seq; `deals`: MAX(deal).
    """CREATE TABLE game_archive (
        game_id      INTEGER PRIMARY KEY REFERENCES games (id),
        last_seq     INTEGER NOT NULL CHECK (last_seq >= 0),
        deals        INTEGER,
        first_part   INTEGER NOT NULL,
        points_parts INTEGER NOT NULL CHECK (points_parts >= 1),
        log_parts    INTEGER CHECK (log_parts >= 1)
    ) STRICT""",
    """CREATE TABLE archive_parts (
        id      INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL,
        data    BLOB NOT NULL
    ) STRICT""",
    # Ended games still to compact (those of older versions; any that could not be): few.
    "ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1))",
    """CREATE INDEX games_to_archive ON games (id)
        WHERE archived = 0 AND started_at IS NOT NULL AND status IN ('finished', 'abandoned')""",
    # The log stays append-only: only the archive step, which writes the archive row first,
    # may delete the actions of an ended game. The archive is kept and never rewritten: only a
    # retention may drop a log (its parts, once `log_parts` is NULL).
    "DROP TRIGGER actions_are_append_only_delete",
    """CREATE TRIGGER actions_are_append_only_delete BEFORE DELETE ON actions
        WHEN NOT EXISTS (SELECT 1 FROM game_archive z JOIN games g ON g.id = z.game_id
                         WHERE z.game_id = OLD.game_id AND g.status IN ('finished', 'abandoned'))
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
    """CREATE TRIGGER game_archive_is_kept BEFORE DELETE ON game_archive
        BEGIN SELECT RAISE(ABORT, 'the game archive is kept'); END""",
    """CREATE TRIGGER game_archive_only_prunes BEFORE UPDATE ON game_archive
        WHEN NEW.log_parts IS NOT NULL OR NEW.game_id IS NOT OLD.game_id
             OR NEW.last_seq IS NOT OLD.last_seq OR NEW.deals IS NOT OLD.deals
             OR NEW.first_part IS NOT OLD.first_part
             OR NEW.points_parts IS NOT OLD.points_parts
        BEGIN SELECT RAISE(ABORT, 'an archived log can only be pruned'); END""",
    """CREATE TRIGGER archive_parts_are_kept BEFORE UPDATE ON archive_parts
        BEGIN SELECT RAISE(ABORT, 'the game archive is kept'); END""",
    """CREATE TRIGGER archive_parts_only_pruned BEFORE DELETE ON archive_parts
        WHEN NOT EXISTS (SELECT 1 FROM game_archive z WHERE z.game_id = OLD.game_id
                         AND z.log_parts IS NULL AND OLD.id >= z.first_part + z.points_parts)
        BEGIN SELECT RAISE(ABORT, 'the game archive is kept'); END""",
)

_V8 = (
    # The pause between deals (0: at once) and a thread per game, per server.
    """ALTER TABLE guild_settings ADD COLUMN next_deal_seconds INTEGER NOT NULL DEFAULT 20
        CHECK (next_deal_seconds BETWEEN 0 AND 600)""",
    """ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 1
        CHECK (threads IN (0, 1))""",
    # Each person's own settings (db/players.py); a user without a row has the defaults.
    """CREATE TABLE player_settings (
        user_id    INTEGER PRIMARY KEY,
        notify     INTEGER NOT NULL CHECK (notify IN (0, 1)),
        autoplay   INTEGER NOT NULL CHECK (autoplay IN (0, 1)),
        updated_at REAL NOT NULL
    ) STRICT""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, seats, action log, snapshots, per-deal points, results", _V1),
    Migration(2, "meta: the bot's own key-value facts", _V2),
    Migration(3, "standings, ratings and their history", _V3),
    Migration(4, "server settings and turn timers", _V4),
    Migration(5, "matches and rematches", _V5),
    Migration(6, "muggins: the variant flag of a game", _V6),
    Migration(7, "ended games compacted: one archive row instead of their log rows", _V7),
    Migration(8, "the pause between deals, threads, and each player's settings", _V8),
)

#: The last numbered version (release 0.1.0's): SQLite's ``user_version`` stays at it, as
#: PostgreSQL's ``schema_version`` row does (the only version a PostgreSQL schema of a release
#: has had); Alembic's revisions follow.
LATEST_VERSION = MIGRATIONS[-1].version
#: Alembic's script directory (env.py, the revisions).
ALEMBIC_DIR = Path(__file__).parent / "alembic"
#: The revision that is release 0.1.0's schema, :data:`LATEST_VERSION`.
BASE_REVISION = "0001_release_0_1_0"
REQUIRED_TABLES = frozenset(
    {"games", "game_messages", "seats", "actions", "snapshots", "deal_points", "results"}
)


async def _pragma(conn: Connection, name: str) -> int:
    """The number a pragma holds (``application_id``, ``user_version``)."""
    cursor = await conn.execute(f"PRAGMA {name}")
    row = await cursor.fetchone()
    assert row is not None, f"PRAGMA {name} returned no row"
    value: int = row[0]
    return value


async def identify(conn: Connection, path: Path) -> tuple[int, int]:
    """Read (application_id, user_version), refusing files that are not ours. Writes nothing.

    Raises :class:`NotACribbageDatabase` (not an SQLite database, another application's, or one
    of ours missing tables), :class:`DatabaseTooNew`, or, when SQLite cannot read the file, the
    error :func:`db.diagnosis.explain` tells from its result code (``DatabaseCorrupt``,
    ``DatabaseBusy``, ``DatabaseNotWritable``, ``CannotOpenDatabase``); each names the file.
    """
    try:
        app_id = await _pragma(conn, "application_id")
        version = await _pragma(conn, "user_version")
        rows = await conn.execute_fetchall(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    except sqlite3.Error as err:
        # Told apart by SQLite's result code: not a database, damaged, locked by another
        # program, read-only, cannot be opened (db/diagnosis.py).
        raise diagnosis.explain(err, path, "reading its header") from err
    tables = sorted(r[0] for r in rows)
    if app_id == 0 and version == 0 and not tables:
        return app_id, version  # a new, empty database
    if app_id != APPLICATION_ID:
        held = ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "")
        raise NotACribbageDatabase(
            f"{path} is an SQLite database of another application (it holds: {held or 'no tables'})"
            ". cribbage-bot did not change it. Point CRIBBAGE_DB at the bot's own database "
            "file, or at a new file name."
        )
    if version > LATEST_VERSION:
        raise DatabaseTooNew(
            f"{path} was written by a newer cribbage-bot (schema version {version}; this version "
            f"understands up to {LATEST_VERSION}). It was not changed. Upgrade cribbage-bot "
            "(or run the newer version that wrote it); its games are intact."
        )
    if "alembic_version" in tables:
        await _check_known(conn, str(path))
    missing = REQUIRED_TABLES - set(tables) if version >= 1 else set()
    if missing:
        raise NotACribbageDatabase(
            f"{path} claims to be a cribbage-bot database (schema version {version}) but lacks "
            f"the tables {', '.join(sorted(missing))}: it is damaged. It was not changed. Stop "
            "the bot, restore your latest backup over it and run `cribbage-bot check` "
            "(docs/admin/operations.md: Restore)."
        )
    return app_id, version


async def migrate(conn: Connection, path: Path) -> int:
    """Check the database is ours (or new), bring an older release's up to :data:`LATEST_VERSION`
    by the numbered migrations, then apply the missing Alembic revisions (:func:`upgrade`);
    return the version.

    Idempotent: an up-to-date database is only read. Raises :class:`NotACribbageDatabase` or
    :class:`DatabaseTooNew` before writing anything.
    """
    _, version = await identify(conn, path)
    if version >= 1 or not numbered_complete():  # 0: new, created whole by the first revision
        version = await migrate_numbered(conn, MIGRATIONS[-1].version)
    if version != LATEST_VERSION and version != 0:
        return version
    await conn.driver_sql("BEGIN IMMEDIATE")
    try:
        await upgrade(conn, str(path))
        await conn.driver_sql("COMMIT")
    except BaseException:
        await conn.driver_sql("ROLLBACK")
        raise
    return await _pragma(conn, "user_version")


def numbered_complete() -> bool:
    """Whether :data:`MIGRATIONS` reach :data:`LATEST_VERSION`: always, but for the tests, which
    make an older release's database by shortening them (then nothing goes past their last)."""
    return MIGRATIONS[-1].version == LATEST_VERSION


async def migrate_numbered(conn: Connection, up_to: int) -> int:
    """SQLite: the frozen numbered migrations up to version ``up_to``, each in its own
    ``BEGIN IMMEDIATE`` transaction with its ``user_version``; the version reached."""
    version = await _pragma(conn, "user_version")
    for migration in MIGRATIONS:
        if migration.version <= version or migration.version > up_to:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await _pragma(conn, "user_version")
            if current < migration.version:  # another process may have migrated meanwhile
                for statement in migration.statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {migration.version}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        version = migration.version
    return version


# ---------------------------------------------------------------------- PostgreSQL

_PG_TABLES = text("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema")
_PG_VERSION = text("SELECT version FROM schema_version")


async def migrate_postgresql(conn: Connection) -> int:
    """Create the connection's PostgreSQL schema, or bring it to the head revision, under the
    advisory lock (processes starting together: one migrates, the others find it done); return
    its version, :data:`LATEST_VERSION`.

    An empty schema gets every revision; release 0.1.0's (``schema_version`` at
    :data:`LATEST_VERSION`, no ``alembic_version``) is stamped at :data:`BASE_REVISION` and
    upgraded; the missing revisions run in one transaction with their version row. Raises,
    before writing anything, :class:`NotACribbageDatabase` (another application's tables),
    :class:`DatabaseTooNew`, or :class:`StoreError` for a version no release made.
    """
    where = f"The PostgreSQL schema {conn.schema}"
    async with _pg_migration_lock(conn):
        await conn.execute(CreateSchema(conn.schema, if_not_exists=True))
        await _pg_version(conn, where)  # read again under the lock
        await conn.driver_sql("BEGIN")
        try:
            await upgrade(conn, where)
            await conn.driver_sql("COMMIT")
        except BaseException:
            with contextlib.suppress(StoreError):  # a lost connection has rolled it back
                await conn.driver_sql("ROLLBACK")
            raise
    return LATEST_VERSION


async def current_postgresql(conn: Connection) -> int:
    """The PostgreSQL schema's version, migrating nothing (a read-only opening). Refuses what
    :func:`migrate_postgresql` refuses, a revision this code does not know, and a schema
    holding no cribbage tables (:class:`NotACribbageDatabase`)."""
    where = f"The PostgreSQL schema {conn.schema}"
    version = await _pg_version(conn, where)
    if version is None:
        raise NotACribbageDatabase(f"{where} holds no cribbage tables.")
    await _check_known(conn, where)
    return version


async def _pg_version(conn: Connection, where: str) -> int | None:
    """The schema's ``schema_version`` (:data:`LATEST_VERSION` for every schema a release
    made); ``None`` when the schema holds no table at all. Refuses another application's
    tables, a newer version and one below :data:`LATEST_VERSION`."""
    tables = sorted(str(name) for (name,) in await conn.execute_fetchall(
        _PG_TABLES, {"schema": conn.schema}
    ))  # fmt: skip
    if "schema_version" not in tables:
        if tables:
            held = ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "")
            raise NotACribbageDatabase(
                f"{where} holds tables that are not cribbage-bot's ({held}). It was not "
                "changed. Choose another schema (?schema=... in CRIBBAGE_DATABASE_URL) or "
                "database."
            )
        return None
    rows = await conn.execute_fetchall(_PG_VERSION)
    version = int(rows[0][0]) if rows else 0
    if version > LATEST_VERSION:
        raise DatabaseTooNew(
            f"{where} was written by a newer cribbage-bot (schema version {version}; this "
            f"version understands up to {LATEST_VERSION}). It was not changed. Upgrade "
            "cribbage-bot."
        )
    if version < LATEST_VERSION:
        raise StoreError(unreleased_message(where, conn.schema, version))
    return version


def unreleased_message(where: str, schema: str, version: int) -> str:
    """Why a PostgreSQL schema below :data:`LATEST_VERSION` is refused, and what to do."""
    return (
        f"{where} is at schema version {version}, which no release of cribbage-bot made: "
        f"PostgreSQL support was released at version {LATEST_VERSION} (release 0.1.0), so a "
        "development build made it, and no release can upgrade it. It was not changed. To "
        f"keep what it holds, save it with `pg_dump --schema={schema}`; then point "
        "CRIBBAGE_DATABASE_URL at a new schema (?schema=...) or an empty database, where the "
        f"bot creates its current schema (or drop the schema {schema} and start the bot "
        "again)."
    )


@contextlib.asynccontextmanager
async def _pg_migration_lock(conn: Connection) -> AsyncIterator[None]:
    """The session's advisory lock on the schema (:data:`~db.pg.LOCK_SPACE`, the hash of its
    name) while the block runs."""
    key = {"space": pg.LOCK_SPACE, "key": conn.schema}
    await conn.execute(pg.lock_statement(), key)
    try:
        yield
    finally:
        with contextlib.suppress(StoreError):  # a lost connection has let it go
            await conn.execute(pg.unlock_statement(), key)


# ---------------------------------------------------------------------- Alembic


@functools.cache
def script() -> ScriptDirectory:
    """The revisions (loaded once per process)."""
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    return ScriptDirectory.from_config(config)


def head_revision() -> str:
    """The revision this code brings a database to."""
    head = script().get_current_head()
    assert head is not None, "db/alembic/versions holds no revision"
    return head


def known_revisions() -> frozenset[str]:
    return frozenset(r.revision for r in script().walk_revisions())


async def current_revision(conn: Connection) -> str | None:
    """The Alembic revision the database is at; ``None`` before its first (not yet stamped)."""
    rows = await _revisions(conn)
    return ", ".join(sorted(rows)) if rows else None


async def _revisions(conn: Connection) -> list[str]:
    """The ``alembic_version`` rows. ``conn``: the store's, or (SQLite) aiosqlite's own, as
    :func:`identify` takes."""
    if getattr(conn, "dialect", "sqlite") == "postgresql":
        if not await _pg_has_table(conn, "alembic_version"):
            return []
        rows = await conn.execute_fetchall(text(_VERSION_NUMS))
    else:
        held = await conn.execute_fetchall(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'alembic_version'"
        )
        if not held:
            return []
        rows = await conn.execute_fetchall(_VERSION_NUMS)
    return [str(r[0]) for r in rows]


_VERSION_NUMS = "SELECT version_num FROM alembic_version"
_PG_TABLE = text(
    "SELECT 1 FROM information_schema.tables WHERE table_schema = :schema AND table_name = :name"
)


async def _pg_has_table(conn: Connection, name: str) -> bool:
    """Whether the connection's PostgreSQL schema holds the table ``name``."""
    return bool(await conn.execute_fetchall(_PG_TABLE, {"schema": conn.schema, "name": name}))


def too_new_message(where: str, revision: str) -> str:
    return (
        f"{where} was written by a newer cribbage-bot (schema revision {revision}; this version "
        f"understands up to {head_revision()}). It was not changed. Upgrade cribbage-bot "
        "(or run the newer version that wrote it); its games are intact."
    )


async def _check_known(conn: Connection, where: str) -> None:
    """Refuse a database at a revision this code does not know (:class:`DatabaseTooNew`)."""
    unknown = sorted(set(await _revisions(conn)) - known_revisions())
    if unknown:
        raise DatabaseTooNew(too_new_message(where, ", ".join(unknown)))


async def upgrade(conn: Connection, where: str) -> tuple[str | None, str]:
    """Apply the missing Alembic revisions on the store's connection, inside the transaction
    the caller began under its lock (and commits: nothing here begins or commits). A database
    at :data:`LATEST_VERSION` without a revision (made by the numbered migrations) is stamped at
    :data:`BASE_REVISION` first. The revision before (``None``: none) and after.

    Raises :class:`DatabaseTooNew` for a revision this code does not know; a driver's error as
    the driver's own (SQLite's ``sqlite3.Error``) or the store's (PostgreSQL)."""
    await _check_known(conn, where)  # read again under the lock
    if conn.dialect == "postgresql":
        legacy = await _pg_has_table(conn, "schema_version") and await conn.execute_fetchall(
            _PG_VERSION
        )
        numbered = int(legacy[0][0]) if legacy else 0
    else:
        numbered = await _pragma(conn, "user_version")
    try:
        async with _alembic_lock():
            return await conn.sa.run_sync(_upgrade, numbered == LATEST_VERSION)
    except sa_exc.DBAPIError as err:
        if isinstance(err.orig, sqlite3.Error):
            raise err.orig from None
        raise conn._driver_error(err) from err.orig


#: Alembic's environment is a module-global proxy (``alembic.context``) that each run installs
#: and removes, and a run waits on the database inside it: two stores migrating at once in one
#: process (on one event loop or on two threads' loops) would remove each other's. One lock for
#: the process, polled so that the event loop never blocks on it (and a cancelled wait holds
#: nothing).
_ALEMBIC = threading.Lock()


@contextlib.asynccontextmanager
async def _alembic_lock() -> AsyncIterator[None]:
    while not _ALEMBIC.acquire(blocking=False):
        await asyncio.sleep(0.005)
    try:
        yield
    finally:
        _ALEMBIC.release()


def _upgrade(sync: SyncConnection, numbered_done: bool) -> tuple[str | None, str]:
    # Alembic begins (and commits) a transaction of its own unless the connection is in one: the
    # store's connection runs in AUTOCOMMIT with the caller's transaction, which a commit of
    # the driver's would end early. SQLAlchemy's begin here emits nothing.
    if not sync.in_transaction():
        sync.begin()
    directory = script()
    context = MigrationContext.configure(sync, opts={"transactional_ddl": True})
    heads = context.get_current_heads()
    before = ", ".join(heads) if heads else None
    if not heads and numbered_done:
        context.stamp(directory, BASE_REVISION)
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    config.attributes["connection"] = sync

    def steps(revision: Any, _: MigrationContext) -> Any:
        return directory._upgrade_revs("head", revision)

    with EnvironmentContext(config, directory, fn=steps, destination_rev="head"):
        directory.run_env()
    after = head_revision()
    if before != after:
        log.info("database schema: revision %s, now %s", before or "none", after)
    return before, after
