"""ORM models: the spec's eight tables plus the append-only `session_events` log.

Invariants:
    - `sessions.forge_state` (the encoded ForgeState) is the source of truth for a session's
      knowledge; knowledge_claims, evidence, claim_edges, problem_reframings,
      cross_domain_analogies and contradictions are a queryable projection of it, rebuilt by
      `save_state`.
    - Every child row belongs to one session through `session_id` with ON DELETE CASCADE, so
      deleting a session row deletes everything it owns at the database level; the ORM
      relationships use `passive_deletes=True` and never load children (`lazy="raise"`).
    - Timestamps are timezone-aware and come back as aware UTC datetimes on every backend;
      binding a naive datetime is refused.
    - `(session_id, seq)` is unique in session_events, session_messages and tool_calls: a seq is
      never reused. Event seqs come from `sessions.last_event_seq`, advanced in the transaction that
      holds the session's write lock (never max+1 read outside it).
    - `sessions.status/current_phase/current_round/awaiting_input_type` are written only from
      `derive_session_position(forge_state, cancelled)`; `version` grows with every write.
    - Sequence columns are 64-bit (BIGINT; SQLite's INTEGER is 64-bit already).
    - Every session and remembered hypothesis has an owner (`owner_id` -> users, RESTRICT); login
      sessions and API tokens are their user's (CASCADE). Credentials are stored as digests only.

Design decisions:
    - Portable types only (`Uuid`, `JSON`, `DateTime(timezone=True)`), so the same models and the
      one migration serve SQLite and PostgreSQL.
    - tool_calls carries a per-session `seq` beyond the spec's columns so `list_for` returns calls
      in recording order even when two share a timestamp.
    - The big JSON column of sessions is deferred: listing sessions never loads it.
    - The conversation is append-only rows (`session_messages`), so a step appends its messages
      instead of rewriting the whole history; only a compaction replaces them.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    Uuid,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ENUM_LENGTH = 32
# BIGINT on PostgreSQL; SQLite's INTEGER (64-bit already, and the only type that autoincrements a key).
BIG_INT = BigInteger().with_variant(Integer(), "sqlite")


class UtcDateTime(TypeDecorator[datetime]):
    """An aware datetime stored as UTC; SQLite (which has no zone) gets naive UTC text."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"Naive datetime {value.isoformat()} refused; persist aware datetimes.")
        utc = value.astimezone(UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _session_fk() -> Mapped[uuid.UUID]:
    return mapped_column(Uuid, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False, index=True)


def _user_fk() -> Mapped[uuid.UUID]:
    """The owning user: a user with anything of theirs left cannot be deleted (disable them instead)."""
    return mapped_column(Uuid, ForeignKey("users.id", ondelete="RESTRICT"), nullable=False, index=True)


def _owned() -> Any:
    """A session-owned collection: deleted by the database's ON DELETE CASCADE, never loaded."""
    return relationship(cascade="all, delete-orphan", passive_deletes=True, lazy="raise")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UserRow(Base):
    """A person's account (migration 0006). The built-in local user's row has no password."""

    __tablename__ = "users"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), nullable=False, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    role: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    disabled: Mapped[bool] = mapped_column(Boolean, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class ApiTokenRow(Base):
    """A personal API token: only the SHA-256 digest of its secret is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    prefix: Mapped[str] = mapped_column(String(16), nullable=False)
    digest: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    last_used_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)


class LoginSessionRow(Base):
    """A browser login: the digest of the cookie's secret, whose user, until when."""

    __tablename__ = "login_sessions"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    problem: Mapped[str] = mapped_column(Text, nullable=False)
    status: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False, index=True)
    current_phase: Mapped[int] = mapped_column(Integer, nullable=False)
    current_round: Mapped[int] = mapped_column(Integer, nullable=False)
    total_tokens_used: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False, index=True)
    resolved_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    forge_state: Mapped[Any] = mapped_column(JSON, nullable=False, deferred=True)
    model_label: Mapped[str] = mapped_column(String(255), nullable=False)
    total_cost_usd: Mapped[float] = mapped_column(Float, nullable=False)
    awaiting_input_type: Mapped[str | None] = mapped_column(String(ENUM_LENGTH), nullable=True)
    cancelled: Mapped[bool] = mapped_column(Boolean, nullable=False)
    version: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    last_event_seq: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    message_count: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    tool_call_count: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    # Per projected table, a digest of the rows last written (state_projection); NULL: unknown.
    projection_digest: Mapped[str | None] = mapped_column(String(128), nullable=True)
    run_owner: Mapped[str | None] = mapped_column(String(128), nullable=True)
    run_lease_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    owner_id: Mapped[uuid.UUID] = _user_fk()

    claims: Mapped[list[ClaimRow]] = _owned()
    evidence: Mapped[list[EvidenceRow]] = _owned()
    edges: Mapped[list[EdgeRow]] = _owned()
    reframings: Mapped[list[ReframingRow]] = _owned()
    analogies: Mapped[list[AnalogyRow]] = _owned()
    contradictions: Mapped[list[ContradictionRow]] = _owned()
    tool_calls: Mapped[list[ToolCallRow]] = _owned()
    events: Mapped[list[EventRow]] = _owned()
    messages: Mapped[list[MessageRow]] = _owned()


class ClaimRow(Base):
    __tablename__ = "knowledge_claims"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    claim_text: Mapped[str] = mapped_column(Text, nullable=False)
    claim_type: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    thesis_text: Mapped[str] = mapped_column(Text, nullable=False)
    antithesis_text: Mapped[str] = mapped_column(Text, nullable=False)
    phase_created: Mapped[int] = mapped_column(Integer, nullable=False)
    round_created: Mapped[int] = mapped_column(Integer, nullable=False)
    status: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    confidence: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    falsifiability_condition: Mapped[str] = mapped_column(Text, nullable=False)
    novelty: Mapped[float | None] = mapped_column(Float, nullable=True)
    groundedness: Mapped[float | None] = mapped_column(Float, nullable=True)
    falsifiability: Mapped[float | None] = mapped_column(Float, nullable=True)
    significance: Mapped[float | None] = mapped_column(Float, nullable=True)
    rejection_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    user_feedback: Mapped[str | None] = mapped_column(Text, nullable=True)
    cross_domain_source: Mapped[str | None] = mapped_column(Text, nullable=True)
    morphological_params: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class EvidenceRow(Base):
    __tablename__ = "evidence"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    claim_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("knowledge_claims.id", ondelete="CASCADE"), nullable=True, index=True
    )
    source_url: Mapped[str] = mapped_column(Text, nullable=False)
    source_title: Mapped[str] = mapped_column(Text, nullable=False)
    content_summary: Mapped[str] = mapped_column(Text, nullable=False)
    evidence_type: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    contributed_by: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    query: Mapped[str | None] = mapped_column(Text, nullable=True)
    retrieved_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)


class EdgeRow(Base):
    __tablename__ = "claim_edges"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    source_claim_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("knowledge_claims.id", ondelete="CASCADE"), nullable=False, index=True
    )
    target_claim_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("knowledge_claims.id", ondelete="CASCADE"), nullable=False, index=True
    )
    edge_type: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)


class ReframingRow(Base):
    __tablename__ = "problem_reframings"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    original_problem: Mapped[str] = mapped_column(Text, nullable=False)
    reframing_text: Mapped[str] = mapped_column(Text, nullable=False)
    reframing_type: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    selected: Mapped[bool] = mapped_column(Boolean, nullable=False)


class AnalogyRow(Base):
    __tablename__ = "cross_domain_analogies"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    source_domain: Mapped[str] = mapped_column(Text, nullable=False)
    target_application: Mapped[str] = mapped_column(Text, nullable=False)
    analogy_description: Mapped[str] = mapped_column(Text, nullable=False)
    semantic_distance: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    starred: Mapped[bool] = mapped_column(Boolean, nullable=False)


class ContradictionRow(Base):
    __tablename__ = "contradictions"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = _session_fk()
    property_a: Mapped[str] = mapped_column(Text, nullable=False)
    property_b: Mapped[str] = mapped_column(Text, nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False)
    resolution_direction: Mapped[str] = mapped_column(Text, nullable=False)


class ToolCallRow(Base):
    __tablename__ = "tool_calls"
    __table_args__ = (Index("uq_tool_calls_session_id_seq", "session_id", "seq", unique=True),)

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False)
    seq: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    tool_name: Mapped[str] = mapped_column(String(255), nullable=False)
    tool_input: Mapped[Any] = mapped_column(JSON, nullable=False)
    tool_output: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    error_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    phase: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class EventRow(Base):
    """One stored SessionEvent; the unique (session_id, seq) index is also the lookup index."""

    __tablename__ = "session_events"
    __table_args__ = (Index("uq_session_events_session_id_seq", "session_id", "seq", unique=True),)

    id: Mapped[int] = mapped_column(BIG_INT, primary_key=True, autoincrement=True)
    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False)
    seq: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    type: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    data: Mapped[Any] = mapped_column(JSON, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class MessageRow(Base):
    """One message of the session's conversation with the model, in order (`seq` from 1)."""

    __tablename__ = "session_messages"
    __table_args__ = (Index("uq_session_messages_session_id_seq", "session_id", "seq", unique=True),)

    id: Mapped[int] = mapped_column(BIG_INT, primary_key=True, autoincrement=True)
    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False)
    seq: Mapped[int] = mapped_column(BIG_INT, nullable=False)
    message: Mapped[Any] = mapped_column(JSON, nullable=False)


class HypothesisRow(Base):
    """One hypothesis of the session's pool (engine BISO / SEARCH), with its mapping table and gate."""

    __tablename__ = "hypotheses"
    __table_args__ = (
        Index("uq_hypotheses_session_id_hypothesis_id", "session_id", "hypothesis_id", unique=True),
        Index("ix_hypotheses_session_id_domain_id", "session_id", "domain_id"),
    )

    id: Mapped[int] = mapped_column(BIG_INT, primary_key=True, autoincrement=True)
    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False)
    hypothesis_id: Mapped[str] = mapped_column(String(255), nullable=False)
    round: Mapped[int] = mapped_column(Integer, nullable=False)
    domain_id: Mapped[str] = mapped_column(String(255), nullable=False)
    gate_status: Mapped[str] = mapped_column(String(ENUM_LENGTH), nullable=False)
    mapping_score: Mapped[float] = mapped_column(Float, nullable=False)
    record: Mapped[Any] = mapped_column(JSON, nullable=False)  # the whole Hypothesis, encoded
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class HypothesisMemoryRow(Base):
    """One remembered hypothesis (seed 004 episode), kept across sessions: no session foreign key, so
    deleting the session it came from keeps what it taught."""

    __tablename__ = "hypothesis_memory"
    __table_args__ = (Index("ix_hypothesis_memory_c", "c"),)

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    c: Mapped[float] = mapped_column(Float, nullable=False)
    origin_session_id: Mapped[uuid.UUID] = mapped_column(Uuid, nullable=False)
    owner_id: Mapped[uuid.UUID] = _user_fk()  # memory is per person: one user's verdicts never move another's
    record: Mapped[Any] = mapped_column(JSON, nullable=False)  # the whole HypothesisEpisode, encoded
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


class SagaPatternRow(Base):
    """A hypothesis pattern SAGA saw (Layer 3), kept across sessions: no session foreign key, so a
    deleted session's patterns still count. `hash` is the 64-bit SimHash stored as a signed integer."""

    __tablename__ = "saga_patterns"
    __table_args__ = (Index("ix_saga_patterns_created_at", "created_at"),)

    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    hypothesis_id: Mapped[str] = mapped_column(String(255), primary_key=True)
    hash: Mapped[int] = mapped_column(BigInteger, nullable=False)
    label: Mapped[str] = mapped_column(Text, nullable=False)
    score: Mapped[float] = mapped_column(Float, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, nullable=False)


CHILD_TABLES = (
    ClaimRow,
    EvidenceRow,
    EdgeRow,
    ReframingRow,
    AnalogyRow,
    ContradictionRow,
    ToolCallRow,
    EventRow,
    MessageRow,
    HypothesisRow,
)
"""Every table whose rows a session owns."""
