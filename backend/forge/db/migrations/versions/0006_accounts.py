"""Accounts: users, API tokens, login sessions; every session and remembered hypothesis gets an owner.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23

- users (email unique, argon2 password hash, role, disabled), with the built-in local user (no
  password) that owns everything made while FORGE_AUTH is off — including every existing row.
- api_tokens (SHA-256 digest of the secret, unique; last_used_at; revoked_at) and login_sessions
  (digest of the cookie secret, expiry), both deleted with their user.
- sessions.owner_id and hypothesis_memory.owner_id -> users.id (RESTRICT), indexed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AT = sa.DateTime(timezone=True)
LOCAL_USER_ID = uuid.UUID("00000000-0000-4000-8000-000000000001")  # forge.core.accounts.users.LOCAL_USER_ID
OWNED = ("sessions", "hypothesis_memory")


def _create_account_tables() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("email", name="uq_users_email"),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("last_used_at", AT, nullable=True),
        sa.Column("revoked_at", AT, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_api_tokens_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_api_tokens"),
        sa.UniqueConstraint("digest", name="uq_api_tokens_digest"),
    )
    op.create_table(
        "login_sessions",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("expires_at", AT, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_login_sessions_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("digest", name="pk_login_sessions"),
    )
    for table in ("api_tokens", "login_sessions"):
        op.create_index(f"ix_{table}_user_id", table, ["user_id"])


def upgrade() -> None:
    _create_account_tables()
    users = sa.table(
        "users",
        sa.column("id", sa.Uuid()),
        sa.column("email", sa.String()),
        sa.column("password_hash", sa.String()),
        sa.column("role", sa.String()),
        sa.column("disabled", sa.Boolean()),
        sa.column("created_at", AT),
    )
    created = datetime.now(UTC)
    if op.get_bind().dialect.name == "sqlite":
        created = created.replace(tzinfo=None)  # SQLite rows hold naive UTC (tables.UtcDateTime)
    op.bulk_insert(
        users,
        [
            {
                "id": LOCAL_USER_ID,
                "email": "local@localhost",
                "password_hash": None,
                "role": "admin",
                "disabled": False,
                "created_at": created,
            }
        ],
    )
    for table in OWNED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("owner_id", sa.Uuid(), nullable=True))
        rows = sa.table(table, sa.column("owner_id", sa.Uuid()))
        op.execute(sa.update(rows).values(owner_id=LOCAL_USER_ID))
        with op.batch_alter_table(table) as batch:
            batch.alter_column("owner_id", existing_type=sa.Uuid(), nullable=False)
            batch.create_foreign_key(f"fk_{table}_owner_id_users", "users", ["owner_id"], ["id"], ondelete="RESTRICT")
            batch.create_index(f"ix_{table}_owner_id", ["owner_id"])


def downgrade() -> None:
    for table in OWNED:
        with op.batch_alter_table(table) as batch:
            batch.drop_index(f"ix_{table}_owner_id")
            batch.drop_constraint(f"fk_{table}_owner_id_users", type_="foreignkey")
            batch.drop_column("owner_id")
    for table in ("login_sessions", "api_tokens"):
        op.drop_index(f"ix_{table}_user_id", table_name=table)
        op.drop_table(table)
    op.drop_table("users")
