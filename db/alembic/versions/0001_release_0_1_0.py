"""Release 0.1.0's schema (version 8)

Every table of :mod:`db.schema`, with each dialect's triggers.

A fresh database gets it here. A database an older release made does not run this: the store
brings it to schema version 8 with the frozen numbered migrations (:data:`db.migrations.MIGRATIONS`)
and stamps it at this revision (:func:`db.migrations.upgrade`). The two give the same schema:
``tests/db/test_schema.py`` and ``tests/db/test_migrations.py`` hold them equal.

It creates the tables release 0.1.0 had, by name (:data:`TABLES`), from :mod:`db.schema`: a
later revision that adds a table leaves this one as it is. A later revision that changes one of
these tables must first copy that table's definition here, frozen, so that this revision goes on
creating release 0.1.0's table.

Revision ID: 0001_release_0_1_0
Revises:
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from db.migrations import APPLICATION_ID
from db.schema import metadata

revision: str = "0001_release_0_1_0"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Release 0.1.0's numbered schema version, frozen here (an older release reads it and refuses a
#: newer file by it).
RELEASE_VERSION = 8

#: Release 0.1.0's tables, each still defined as it was then by :mod:`db.schema`.
TABLES = (
    "actions",
    "archive_parts",
    "deal_points",
    "game_archive",
    "game_messages",
    "games",
    "guild_settings",
    "matches",
    "meta",
    "player_settings",
    "rating_history",
    "rematch_accepted",
    "results",
    "seats",
    "snapshots",
    "standings",
    "turn_marks",
)


def upgrade() -> None:
    bind = op.get_bind()
    tables = [metadata.tables[name] for name in TABLES]
    metadata.create_all(bind, tables=tables, checkfirst=False)  # with their triggers (events)
    if bind.dialect.name == "sqlite":
        # Ours, at the last numbered version: older releases recognise the file and refuse it
        # as newer than they understand instead of taking it for another application's.
        op.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        op.execute(f"PRAGMA user_version = {RELEASE_VERSION}")
    else:
        op.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        op.execute("DELETE FROM schema_version")
        op.execute(f"INSERT INTO schema_version VALUES ({RELEASE_VERSION})")


def downgrade() -> None:
    """The store never downgrades: a backup taken before the upgrade is the way back."""
    raise NotImplementedError("restore the backup taken before upgrading")
