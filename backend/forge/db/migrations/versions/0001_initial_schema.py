"""Initial schema: the spec's eight tables plus the session event log.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Every child table references sessions.id with ON DELETE CASCADE and is indexed on session_id;
claim references (evidence.claim_id, claim_edges.*_claim_id) cascade from knowledge_claims.
Types are the portable ones of forge.db.tables (Uuid, JSON, timezone-aware DateTime).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENUM = sa.String(length=32)
AT = sa.DateTime(timezone=True)


def _pk(table: str) -> list[SchemaItem]:
    return [sa.Column("id", sa.Uuid(), nullable=False), sa.PrimaryKeyConstraint("id", name=f"pk_{table}")]


def _owned_by_session(table: str) -> list[SchemaItem]:
    return [
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=f"fk_{table}_session_id_sessions", ondelete="CASCADE"
        ),
    ]


def _claim_fk(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["knowledge_claims.id"], name=f"fk_{table}_{column}_knowledge_claims", ondelete="CASCADE"
    )


def _index(table: str, *columns: str, unique: bool = False) -> None:
    prefix = "uq" if unique else "ix"
    op.create_index(f"{prefix}_{table}_{'_'.join(columns)}", table, list(columns), unique=unique)


def _create_sessions() -> None:
    op.create_table(
        "sessions",
        *_pk("sessions"),
        sa.Column("problem", sa.Text(), nullable=False),
        sa.Column("status", ENUM, nullable=False),
        sa.Column("current_phase", sa.Integer(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("message_history", sa.JSON(), nullable=False),
        sa.Column("total_tokens_used", sa.Integer(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("resolved_at", AT, nullable=True),
        sa.Column("forge_state", sa.JSON(), nullable=False),
        sa.Column("model_label", sa.String(length=255), nullable=False),
        sa.Column("total_cost_usd", sa.Float(), nullable=False),
        sa.Column("awaiting_input_type", ENUM, nullable=True),
        sa.Column("running", sa.Boolean(), nullable=False),
    )
    _index("sessions", "created_at")
    _index("sessions", "status")


def _create_knowledge_claims() -> None:
    op.create_table(
        "knowledge_claims",
        *_pk("knowledge_claims"),
        *_owned_by_session("knowledge_claims"),
        sa.Column("claim_text", sa.Text(), nullable=False),
        sa.Column("claim_type", ENUM, nullable=False),
        sa.Column("thesis_text", sa.Text(), nullable=False),
        sa.Column("antithesis_text", sa.Text(), nullable=False),
        sa.Column("phase_created", sa.Integer(), nullable=False),
        sa.Column("round_created", sa.Integer(), nullable=False),
        sa.Column("status", ENUM, nullable=False),
        sa.Column("confidence", ENUM, nullable=False),
        sa.Column("falsifiability_condition", sa.Text(), nullable=False),
        sa.Column("novelty", sa.Float(), nullable=True),
        sa.Column("groundedness", sa.Float(), nullable=True),
        sa.Column("falsifiability", sa.Float(), nullable=True),
        sa.Column("significance", sa.Float(), nullable=True),
        sa.Column("rejection_reason", sa.Text(), nullable=True),
        sa.Column("user_feedback", sa.Text(), nullable=True),
        sa.Column("cross_domain_source", sa.Text(), nullable=True),
        sa.Column("morphological_params", sa.JSON(), nullable=True),
    )
    _index("knowledge_claims", "session_id")


def _create_evidence_and_edges() -> None:
    op.create_table(
        "evidence",
        *_pk("evidence"),
        *_owned_by_session("evidence"),
        sa.Column("claim_id", sa.Uuid(), nullable=True),
        sa.Column("source_url", sa.Text(), nullable=False),
        sa.Column("source_title", sa.Text(), nullable=False),
        sa.Column("content_summary", sa.Text(), nullable=False),
        sa.Column("evidence_type", ENUM, nullable=False),
        sa.Column("contributed_by", ENUM, nullable=False),
        sa.Column("query", sa.Text(), nullable=True),
        sa.Column("retrieved_at", AT, nullable=True),
        _claim_fk("evidence", "claim_id"),
    )
    _index("evidence", "claim_id")
    _index("evidence", "session_id")
    op.create_table(
        "claim_edges",
        *_pk("claim_edges"),
        *_owned_by_session("claim_edges"),
        sa.Column("source_claim_id", sa.Uuid(), nullable=False),
        sa.Column("target_claim_id", sa.Uuid(), nullable=False),
        sa.Column("edge_type", ENUM, nullable=False),
        _claim_fk("claim_edges", "source_claim_id"),
        _claim_fk("claim_edges", "target_claim_id"),
    )
    _index("claim_edges", "session_id")
    _index("claim_edges", "source_claim_id")
    _index("claim_edges", "target_claim_id")


def _create_explore_tables() -> None:
    op.create_table(
        "problem_reframings",
        *_pk("problem_reframings"),
        *_owned_by_session("problem_reframings"),
        sa.Column("original_problem", sa.Text(), nullable=False),
        sa.Column("reframing_text", sa.Text(), nullable=False),
        sa.Column("reframing_type", ENUM, nullable=False),
        sa.Column("selected", sa.Boolean(), nullable=False),
    )
    _index("problem_reframings", "session_id")
    op.create_table(
        "cross_domain_analogies",
        *_pk("cross_domain_analogies"),
        *_owned_by_session("cross_domain_analogies"),
        sa.Column("source_domain", sa.Text(), nullable=False),
        sa.Column("target_application", sa.Text(), nullable=False),
        sa.Column("analogy_description", sa.Text(), nullable=False),
        sa.Column("semantic_distance", ENUM, nullable=False),
        sa.Column("starred", sa.Boolean(), nullable=False),
    )
    _index("cross_domain_analogies", "session_id")
    op.create_table(
        "contradictions",
        *_pk("contradictions"),
        *_owned_by_session("contradictions"),
        sa.Column("property_a", sa.Text(), nullable=False),
        sa.Column("property_b", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("resolution_direction", sa.Text(), nullable=False),
    )
    _index("contradictions", "session_id")


def _create_logs() -> None:
    op.create_table(
        "tool_calls",
        *_pk("tool_calls"),
        *_owned_by_session("tool_calls"),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("tool_name", sa.String(length=255), nullable=False),
        sa.Column("tool_input", sa.JSON(), nullable=False),
        sa.Column("tool_output", sa.JSON(), nullable=True),
        sa.Column("error_code", sa.String(length=64), nullable=True),
        sa.Column("phase", ENUM, nullable=False),
        sa.Column("created_at", AT, nullable=False),
    )
    _index("tool_calls", "session_id", "seq", unique=True)
    op.create_table(
        "session_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_session_events"),
        *_owned_by_session("session_events"),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", ENUM, nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
    )
    _index("session_events", "session_id", "seq", unique=True)


def upgrade() -> None:
    _create_sessions()
    _create_knowledge_claims()
    _create_evidence_and_edges()
    _create_explore_tables()
    _create_logs()


def downgrade() -> None:
    for table in (
        "session_events",
        "tool_calls",
        "contradictions",
        "cross_domain_analogies",
        "problem_reframings",
        "claim_edges",
        "evidence",
        "knowledge_claims",
        "sessions",
    ):
        op.drop_table(table)
