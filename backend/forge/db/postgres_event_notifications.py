"""PostgreSQL LISTEN/NOTIFY for committed session events (placeholder until the listener lands).

Invariants:
    - The committing transaction runs NOTIFY_SQL with `encode_payload(session_id, last_seq)`;
      PostgreSQL delivers it at commit and never for a rolled-back transaction.
"""

from __future__ import annotations

import uuid

NOTIFY_CHANNEL = "forge_session_events"
NOTIFY_SQL = f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)"


def encode_payload(session_id: uuid.UUID, last_seq: int) -> str:
    return f"{session_id}:{last_seq}"
