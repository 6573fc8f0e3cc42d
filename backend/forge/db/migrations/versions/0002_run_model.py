"""The run model: derived status, per-session write versions, run leases, append-only messages,
64-bit sequences.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

- sessions: + cancelled, version, last_event_seq (the event seq counter, advanced under the
  session's write lock), message_count, run_owner + run_lease_expires_at (which run holds the
  session); - running (a crash left it stale), - message_history (moved to session_messages).
- session_messages: the conversation as append-only rows, copied from message_history.
- session_events.id/seq, tool_calls.seq: BIGINT on PostgreSQL (SQLite's INTEGER is 64-bit).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
WIDENED = (("session_events", "id"), ("session_events", "seq"), ("tool_calls", "seq"))


def _json(value: object) -> list[object]:
    decoded = json.loads(value) if isinstance(value, str) else value
    return list(decoded) if isinstance(decoded, list) else []


def _create_messages_table() -> None:
    op.create_table(
        "session_messages",
        sa.Column("id", BIG, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("seq", BIG, nullable=False),
        sa.Column("message", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_session_messages_session_id_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_session_messages"),
    )
    op.create_index("uq_session_messages_session_id_seq", "session_messages", ["session_id", "seq"], unique=True)


SESSIONS = sa.table(
    "sessions",
    sa.column("id", sa.Uuid()),
    sa.column("message_history", sa.JSON()),
    sa.column("message_count", BIG),
)
MESSAGES = sa.table(
    "session_messages", sa.column("session_id", sa.Uuid()), sa.column("seq", BIG), sa.column("message", sa.JSON())
)


def _copy_history_to_rows() -> None:
    bind = op.get_bind()
    for session_id, history in bind.execute(sa.select(SESSIONS.c.id, SESSIONS.c.message_history)).all():
        rows = [{"session_id": session_id, "seq": i, "message": m} for i, m in enumerate(_json(history), 1)]
        if rows:
            bind.execute(sa.insert(MESSAGES), rows)
        bind.execute(sa.update(SESSIONS).where(SESSIONS.c.id == session_id).values(message_count=len(rows)))


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("cancelled", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("version", BIG, nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_event_seq", BIG, nullable=False, server_default="0"))
        batch.add_column(sa.Column("message_count", BIG, nullable=False, server_default="0"))
        batch.add_column(sa.Column("run_owner", sa.String(length=128), nullable=True))
        batch.add_column(sa.Column("run_lease_expires_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE sessions SET cancelled = (status = 'cancelled')")
    op.execute(
        "UPDATE sessions SET last_event_seq = COALESCE("
        "(SELECT MAX(seq) FROM session_events WHERE session_events.session_id = sessions.id), 0)"
    )
    _create_messages_table()
    _copy_history_to_rows()
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("running")
        batch.drop_column("message_history")
    if op.get_bind().dialect.name == "postgresql":
        for table, column in WIDENED:
            op.alter_column(table, column, type_=sa.BigInteger(), existing_nullable=False)
        op.execute("ALTER SEQUENCE session_events_id_seq AS bigint")  # 0001 made it AS integer


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER SEQUENCE session_events_id_seq AS integer")
        for table, column in WIDENED:
            op.alter_column(table, column, type_=sa.Integer(), existing_nullable=False)
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("running", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("message_history", sa.JSON(), nullable=False, server_default="[]"))
    bind = op.get_bind()
    ordered = sa.select(MESSAGES.c.session_id, MESSAGES.c.message).order_by(MESSAGES.c.session_id, MESSAGES.c.seq)
    histories: dict[object, list[object]] = {}
    for session_id, message in bind.execute(ordered):
        histories.setdefault(session_id, []).append(json.loads(message) if isinstance(message, str) else message)
    for session_id, history in histories.items():
        bind.execute(sa.update(SESSIONS).where(SESSIONS.c.id == session_id).values(message_history=history))
    op.drop_index("uq_session_messages_session_id_seq", table_name="session_messages")
    op.drop_table("session_messages")
    with op.batch_alter_table("sessions") as batch:
        for column in ("run_lease_expires_at", "run_owner", "message_count", "last_event_seq", "version", "cancelled"):
            batch.drop_column(column)
