"""The statements every step and command runs, built once instead of at every call.

Building a statement (`update(...).where(column == value).values(...)`) and then deriving its cache
key was ~7% of an offline session's CPU: each `column == value` makes a comparison and a typed bind
parameter, each `.values()`/`.where()` copies the statement, and a new statement object has no
memoised cache key. These are built once with named bind parameters and executed with values.

Invariants:
    - The same SQL as the statements they replace: each compares against a `bindparam` that takes
      its column's type (so UUIDs, datetimes and JSON are bound as before).
    - Bind names start with `b_`, never a column's name: an UPDATE without `.values()` takes its SET
      clause from the other execution parameters (`UPDATE_SESSION`), and SQLAlchemy reserves a
      column's name for that.
    - Built from the table metadata only: nothing is opened or executed at import.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, Text, bindparam, delete, func, insert, select, update
from sqlalchemy import cast as cast_sql

from forge.db.state_projection import PROJECTED_TABLES_DELETE_ORDER
from forge.db.tables import Base, EventRow, MessageRow, SessionRow, ToolCallRow


def table_of(model: type[Base]) -> Table:
    return cast(Table, model.__table__)


SESSIONS = table_of(SessionRow)
SCALAR_COLUMNS = tuple(c for c in SESSIONS.c if c.name != "forge_state")
_THIS_SESSION = SESSIONS.c.id == bindparam("b_id")

# The session's write lock: the version bump as a transaction's first statement (see repositories).
LOCK = update(SESSIONS).where(_THIS_SESSION).values(version=SESSIONS.c.version + 1).returning(*SCALAR_COLUMNS)
GET = select(*SCALAR_COLUMNS).where(_THIS_SESSION)
LOAD_STATE = select(cast_sql(SESSIONS.c.forge_state, Text)).where(_THIS_SESSION)
CANCELLED = select(SESSIONS.c.cancelled).where(_THIS_SESSION)
EXISTS = select(SESSIONS.c.id).where(_THIS_SESSION)
LAST_EVENT_SEQ = select(SESSIONS.c.last_event_seq).where(_THIS_SESSION)
# SET from the execution's other parameters (column name -> plain value).
UPDATE_SESSION = update(SESSIONS).where(_THIS_SESSION)
# The same, announcing appended events (PostgreSQL): the NOTIFY is sent at commit, as on its own.
UPDATE_SESSION_NOTIFYING = UPDATE_SESSION.returning(func.pg_notify(bindparam("b_channel"), bindparam("b_payload")))
ALLOCATE_MESSAGES = (
    update(SESSIONS)
    .where(_THIS_SESSION)
    .values(message_count=SESSIONS.c.message_count + bindparam("b_n"))
    .returning(SESSIONS.c.message_count)
)
ALLOCATE_EVENTS = (
    update(SESSIONS)
    .where(_THIS_SESSION)
    .values(last_event_seq=SESSIONS.c.last_event_seq + bindparam("b_n"))
    .returning(SESSIONS.c.last_event_seq)
)

INSERT_MESSAGES = insert(table_of(MessageRow))
MESSAGES_AS_TEXT = (
    select(cast_sql(MessageRow.message, Text))
    .where(MessageRow.session_id == bindparam("b_id"))
    .order_by(MessageRow.seq)
)
INSERT_EVENTS = insert(table_of(EventRow))
INSERT_TOOL_CALLS = insert(table_of(ToolCallRow))
ALLOCATE_TOOL_CALLS = (
    update(SESSIONS)
    .where(_THIS_SESSION)
    .values(tool_call_count=SESSIONS.c.tool_call_count + bindparam("b_n"))
    .returning(SESSIONS.c.tool_call_count)
)

# The projection's tables: each emptied for one session, then refilled.
DELETE_PROJECTED = {
    model: delete(table_of(model)).where(table_of(model).c.session_id == bindparam("b_id"))
    for model in PROJECTED_TABLES_DELETE_ORDER
}
INSERT_PROJECTED = {model: insert(table_of(model)) for model in PROJECTED_TABLES_DELETE_ORDER}
