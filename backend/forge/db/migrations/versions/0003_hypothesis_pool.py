"""The hypothesis pool: one row per hypothesis of a session (BISO, later SEARCH), its record as JSON
with the columns the pool is filtered by (round, domain, gate status, mapping score).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "hypotheses",
        sa.Column("id", BIG, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("hypothesis_id", sa.String(255), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("domain_id", sa.String(255), nullable=False),
        sa.Column("gate_status", sa.String(32), nullable=False),
        sa.Column("mapping_score", sa.Float(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_hypotheses_session_id_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_hypotheses"),
    )
    op.create_index(
        "uq_hypotheses_session_id_hypothesis_id", "hypotheses", ["session_id", "hypothesis_id"], unique=True
    )
    op.create_index("ix_hypotheses_session_id_domain_id", "hypotheses", ["session_id", "domain_id"])


def downgrade() -> None:
    op.drop_index("ix_hypotheses_session_id_domain_id", table_name="hypotheses")
    op.drop_index("uq_hypotheses_session_id_hypothesis_id", table_name="hypotheses")
    op.drop_table("hypotheses")
