"""Tournaments: the tournament, its players and its pairings; seasons

The three tables of :mod:`db.tournaments` and the table of :mod:`db.seasons`, written out here
as they are at this revision (not taken from :mod:`db.schema`), so that a later change of the
schema module does not change what this revision creates. ``tests/db/test_schema.py`` holds a
database migrated to the head equal to :mod:`db.schema`'s tables, on both dialects.

Revision ID: 0002_tournaments
Revises: 0001_release_0_1_0
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002_tournaments"
down_revision: str | Sequence[str] | None = "0001_release_0_1_0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
FLOAT: sa.types.TypeEngine[float] = sa.REAL[float]().with_variant(
    postgresql.DOUBLE_PRECISION(), "postgresql"
)
TEXT = sa.Text()
STRICT: dict[str, Any] = {"sqlite_strict": True}
KEYED: dict[str, Any] = {"sqlite_strict": True, "sqlite_with_rowid": False}
OPEN = "status IN ('signup', 'running', 'paused')"


def _where(condition: str) -> dict[str, Any]:
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", INT, sa.Identity(), primary_key=True),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("channel_id", INT, nullable=False),
        sa.Column("message_id", INT),
        sa.Column("organiser_id", INT, nullable=False),
        sa.Column(
            "name", TEXT, sa.CheckConstraint("length(name) BETWEEN 1 AND 100"), nullable=False
        ),
        sa.Column(
            "format",
            TEXT,
            sa.CheckConstraint("format IN ('swiss', 'round robin', 'single elimination')"),
            nullable=False,
        ),
        sa.Column("rounds", INT, sa.CheckConstraint("rounds >= 0"), nullable=False),
        sa.Column("target", INT, sa.CheckConstraint("target IN (61, 121)"), nullable=False),
        sa.Column(
            "games_to_win", INT, sa.CheckConstraint("games_to_win IN (1, 2, 3)"), nullable=False
        ),
        sa.Column("spread_cap", INT, sa.CheckConstraint("spread_cap >= 1")),
        sa.Column("bye_spread", INT, sa.CheckConstraint("bye_spread >= 0"), nullable=False),
        sa.Column("forfeit_spread", INT, sa.CheckConstraint("forfeit_spread >= 0"), nullable=False),
        sa.Column("cap", INT, sa.CheckConstraint("cap BETWEEN 2 AND 256"), nullable=False),
        sa.Column("starts_at", FLOAT),
        sa.Column(
            "deadline_seconds", INT, sa.CheckConstraint("deadline_seconds >= 60"), nullable=False
        ),
        sa.Column(
            "deadline_rule",
            TEXT,
            sa.CheckConstraint("deadline_rule IN ('forfeit', 'score')"),
            nullable=False,
        ),
        sa.Column(
            "status",
            TEXT,
            sa.CheckConstraint(
                "status IN ('signup', 'running', 'paused', 'finished', 'cancelled')"
            ),
            nullable=False,
        ),
        sa.Column(
            "round",
            INT,
            sa.CheckConstraint("round >= 0"),
            nullable=False,
            server_default=sa.text("0"),
        ),
        sa.Column("seed", TEXT, nullable=False),
        sa.Column("season_id", INT),
        sa.Column("created_at", FLOAT, nullable=False),
        sa.Column("started_at", FLOAT),
        sa.Column("paused_at", FLOAT),
        sa.Column("ended_at", FLOAT),
        **STRICT,
    )
    op.create_index(
        "tournaments_one_open_per_channel",
        "tournaments",
        ["channel_id"],
        unique=True,
        **_where(OPEN),
    )
    op.create_index("tournaments_open", "tournaments", ["status"], **_where(OPEN))
    op.create_index("tournaments_by_guild", "tournaments", ["guild_id", "created_at"])

    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id",
            INT,
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", INT, nullable=False),
        sa.Column("rating", FLOAT),
        sa.Column("seed", INT, sa.CheckConstraint("seed >= 1")),
        sa.Column("joined_at", FLOAT, nullable=False),
        sa.Column(
            "status",
            TEXT,
            sa.CheckConstraint("status IN ('entered', 'dropped', 'withdrew')"),
            nullable=False,
            server_default=sa.text("'entered'"),
        ),
        sa.Column("left_at", FLOAT),
        sa.Column("replaced_by", INT),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
        **KEYED,
    )
    op.create_index("tournament_players_by_user", "tournament_players", ["user_id"])
    op.create_index(
        "tournament_players_by_replacement",
        "tournament_players",
        ["replaced_by"],
        **_where("replaced_by IS NOT NULL"),
    )

    op.create_table(
        "tournament_pairings",
        sa.Column(
            "tournament_id",
            INT,
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", INT, sa.CheckConstraint("round >= 1"), nullable=False),
        sa.Column("table_no", INT, sa.CheckConstraint("table_no >= 1"), nullable=False),
        sa.Column("first_id", INT, nullable=False),
        sa.Column("second_id", INT),
        sa.Column("thread_id", INT),
        sa.Column("game_id", INT, sa.ForeignKey("games.id")),
        sa.Column("games", TEXT, nullable=False, server_default=sa.text("'[]'")),
        sa.Column("deadline_at", FLOAT),
        sa.Column(
            "state",
            TEXT,
            sa.CheckConstraint("state IN ('waiting', 'playing', 'decided')"),
            nullable=False,
        ),
        sa.Column("forfeited_by", INT),
        sa.Column(
            "decided_by",
            TEXT,
            sa.CheckConstraint(
                "decided_by IN ('played', 'bye', 'deadline', 'organiser', 'withdrawal', 'drop')"
            ),
        ),
        sa.Column("decided_at", FLOAT),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no"),
        sa.CheckConstraint("(state = 'decided') = (decided_by IS NOT NULL)"),
        **KEYED,
    )
    op.create_index(
        "tournament_pairings_by_game",
        "tournament_pairings",
        ["game_id"],
        unique=True,
        **_where("game_id IS NOT NULL"),
    )
    op.create_index(
        "tournament_pairings_due",
        "tournament_pairings",
        ["deadline_at"],
        **_where("state <> 'decided'"),
    )

    op.create_table(
        "seasons",
        sa.Column("id", INT, sa.Identity(), primary_key=True),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column(
            "name", TEXT, sa.CheckConstraint("length(name) BETWEEN 1 AND 50"), nullable=False
        ),
        sa.Column("carry", TEXT, sa.CheckConstraint("carry IN ('soft', 'reset')"), nullable=False),
        sa.Column("widen", FLOAT, sa.CheckConstraint("widen >= 1"), nullable=False),
        sa.Column("started_by", INT, nullable=False),
        sa.Column("started_at", FLOAT, nullable=False),
        sa.Column("ended_at", FLOAT),
        **STRICT,
    )
    op.create_index("seasons_by_name", "seasons", ["guild_id", "name"], unique=True)
    op.create_index("seasons_by_start", "seasons", ["guild_id", "started_at"])
    op.create_index(
        "seasons_one_open", "seasons", ["guild_id"], unique=True, **_where("ended_at IS NULL")
    )


def downgrade() -> None:
    """The store never downgrades: a backup taken before the upgrade is the way back."""
    raise NotImplementedError("restore the backup taken before upgrading")
