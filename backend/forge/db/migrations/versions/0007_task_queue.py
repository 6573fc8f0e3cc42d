"""The task engine's queue (procrastinate) for session runs on workers, on PostgreSQL only.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26

- PostgreSQL: procrastinate's own schema SQL (`procrastinate.schema.SchemaManager.get_schema()`,
  the version pinned in pyproject) — its tables, types, functions and triggers, all named
  `procrastinate_*`. `forge migrate` and `forge serve` apply it, like every other migration.
- SQLite: nothing (the embedded default runs sessions in-process; there is no queue).
- Upgrading procrastinate to a version with schema changes needs a new migration that runs its
  migration files (procrastinate/sql/migrations) from the pinned version on.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op
from sqlalchemy.util import await_only

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DROP_TASK_ENGINE = """
DO $$
DECLARE
    found record;
BEGIN
    FOR found IN SELECT tablename FROM pg_tables
                 WHERE schemaname = current_schema() AND tablename LIKE 'procrastinate\\_%' LOOP
        EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', found.tablename);
    END LOOP;
    FOR found IN SELECT p.oid::regprocedure AS signature FROM pg_proc p
                 JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = current_schema() AND p.proname LIKE 'procrastinate\\_%' LOOP
        EXECUTE format('DROP FUNCTION IF EXISTS %s CASCADE', found.signature);
    END LOOP;
    FOR found IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                 WHERE n.nspname = current_schema() AND t.typname LIKE 'procrastinate\\_%' AND t.typtype IN ('e', 'c') LOOP
        EXECUTE format('DROP TYPE IF EXISTS %I CASCADE', found.typname);
    END LOOP;
END;
$$;
"""


def _run_script(sql: str) -> None:
    """Several statements (with $$ bodies) at once: asyncpg's simple protocol, in Alembic's transaction."""
    driver_connection = op.get_bind().connection.driver_connection
    if driver_connection is None:
        raise RuntimeError("migration 0007 needs a live database connection (not --sql mode)")
    await_only(driver_connection.execute(sql))


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    from procrastinate.schema import SchemaManager

    _run_script(SchemaManager.get_schema())


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _run_script(DROP_TASK_ENGINE)
