"""The session row carries the tool-call counter and the projection's digest.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

- sessions.tool_call_count: the last tool-call seq, advanced under the session's write lock like
  last_event_seq (a step no longer reads MAX(seq) of tool_calls); backfilled from tool_calls.
- sessions.projection_digest: one digest per projected table of the rows last written for the
  session; a refresh rewrites only the tables whose rows changed. NULL (every existing session)
  means "unknown": the next refresh rewrites every table.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("tool_call_count", BIG, nullable=False, server_default="0"))
        batch.add_column(sa.Column("projection_digest", sa.String(length=128), nullable=True))
    op.execute(
        "UPDATE sessions SET tool_call_count = COALESCE("
        "(SELECT MAX(seq) FROM tool_calls WHERE tool_calls.session_id = sessions.id), 0)"
    )


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("projection_digest")
        batch.drop_column("tool_call_count")
