"""Hypothesis memory (seed 004): one row per remembered hypothesis, kept across sessions; its
episode (vector, C, links, usage history) as JSON with the columns retrieval filters by (C).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "hypothesis_memory",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("c", sa.Float(), nullable=False),
        sa.Column("origin_session_id", sa.Uuid(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("updated_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_hypothesis_memory"),
    )
    op.create_index("ix_hypothesis_memory_c", "hypothesis_memory", ["c"])


def downgrade() -> None:
    op.drop_index("ix_hypothesis_memory_c", table_name="hypothesis_memory")
    op.drop_table("hypothesis_memory")
