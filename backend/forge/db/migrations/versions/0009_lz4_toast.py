"""PostgreSQL compresses the large JSON columns with lz4 instead of pglz.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27

Every model step rewrites `sessions.forge_state` (~130 kB of JSON by the end of a session), and
PostgreSQL compresses every value over ~2 kB before it stores it out of line. With the default
(pglz) that compression was ~27% of PostgreSQL's CPU under 20 concurrent sessions (perf:
`pglz_compress` the top symbol of the postgres processes); lz4 compresses several times faster at a
similar ratio. The step-commit benchmark (bench_step_commits.py, PostgreSQL, end-of-session states)
committed 20-25% faster with lz4.

- Only new values are written with lz4; values already stored stay readable as they are (each value
  records its own method) and are recompressed when next written.
- A server built without lz4 refuses the method: the migration then leaves pglz in place (and says
  so in the log) instead of failing; nothing else depends on the method.
- SQLite stores no compressed values: nothing to do there.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LOG = logging.getLogger("alembic.runtime.migration")

# The columns whose values are often over PostgreSQL's ~2 kB compression threshold.
LARGE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("sessions", "forge_state"),
    ("session_messages", "message"),
    ("session_events", "data"),
    ("tool_calls", "tool_input"),
    ("tool_calls", "tool_output"),
    ("hypotheses", "record"),
    ("hypothesis_memory", "record"),
)


def _set_compression(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    try:
        with bind.begin_nested():  # a savepoint: a refused method leaves the migration's transaction usable
            for table, column in LARGE_COLUMNS:
                bind.execute(sa.text(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION {method}'))
    except sa.exc.DBAPIError as refused:
        LOG.warning(
            "PostgreSQL refused %s compression (%s): the large columns keep the method they had", method, refused.orig
        )


def upgrade() -> None:
    _set_compression("lz4")


def downgrade() -> None:
    _set_compression("pglz")
