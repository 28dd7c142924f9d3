"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op
${imports if imports else ""}
revision: str = ${repr(up_revision)}
down_revision: str | Sequence[str] | None = ${repr(down_revision)}
branch_labels: str | Sequence[str] | None = ${repr(branch_labels)}
depends_on: str | Sequence[str] | None = ${repr(depends_on)}


def upgrade() -> None:
    """Runs inside the store's one migration transaction, on SQLite and on PostgreSQL alike:
    write each step for both dialects (``op.get_bind().dialect.name``)."""
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    """The store never downgrades: a backup taken before the upgrade is the way back."""
    raise NotImplementedError("restore the backup taken before upgrading")
