"""SAGA Layer 3 pattern memory (seed 000 §5.3): one row per hypothesis whose pattern was seen, kept
across sessions, keyed by (session, hypothesis) so a repeated checkpoint writes nothing twice.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saga_patterns",
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("hypothesis_id", sa.String(255), nullable=False),
        sa.Column("hash", sa.BigInteger(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id", "hypothesis_id", name="pk_saga_patterns"),
    )
    op.create_index("ix_saga_patterns_created_at", "saga_patterns", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_saga_patterns_created_at", table_name="saga_patterns")
    op.drop_table("saga_patterns")
