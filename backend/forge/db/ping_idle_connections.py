"""Ping a pooled PostgreSQL connection at checkout only when it sat idle, not at every checkout.

SQLAlchemy's `pool_pre_ping` pings at every checkout, and asyncpg's ping is three round trips
(BEGIN, `;`, ROLLBACK: it opens a transaction for pgbouncer's sake). A step, a review or an event
page is one checkout each, so under load the pings were as many round trips as all the work's
statements. A connection checked in moments ago was alive then; one that sat in the pool may have
been cut (the server restarted, a proxy's idle timeout).

Invariants:
    - A connection idle in the pool for more than `idle_seconds` is pinged before it is handed out;
      a failed ping raises `DisconnectionError`, on which the pool discards that connection and
      checks out another (a fresh one if need be), as with `pool_pre_ping`.
    - A connection checked in less than `idle_seconds` ago is handed out unpinged. If the server
      went away in that window, the first statement on it fails with a disconnect error, which
      makes SQLAlchemy invalidate the whole pool: one operation fails per process, and the next
      ones connect afresh (tested).
    - A new connection is never pinged (it was just made).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine

_CHECKED_IN_AT = "forge_checked_in_at"


def install_idle_ping(engine: AsyncEngine, idle_seconds: float) -> None:
    pool = engine.sync_engine.pool

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info[_CHECKED_IN_AT] = time.monotonic()

    def checking_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_CHECKED_IN_AT, None)
        if since is None or time.monotonic() - since <= idle_seconds:
            return
        try:
            dbapi_connection.ping()
        except Exception as error:  # any failure: the pool replaces the connection
            raise DisconnectionError(
                f"a pooled connection idle for {time.monotonic() - since:.0f} s is gone"
            ) from error

    event.listen(pool, "checkin", checked_in)
    event.listen(pool, "checkout", checking_out)
