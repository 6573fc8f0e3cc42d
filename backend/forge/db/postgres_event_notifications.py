"""PostgreSQL LISTEN/NOTIFY for committed session events: how one API process learns of another's commits.

Invariants:
    - The committing side sends `pg_notify(NOTIFY_CHANNEL, encode_payload(session_id, last_seq))`
      inside the transaction that appends the events (`notify_statement`, or the session row's
      UPDATE ... RETURNING under its lock): PostgreSQL delivers it at commit, after the rows are
      visible, and never for a rolled-back transaction.
    - A payload is "<session uuid>:<last seq>"; `parse_payload` returns None for anything else, and
      the listener ignores it.
    - One dedicated asyncpg connection per process, outside the SQLAlchemy pool, does LISTEN. When it
      drops (or stops answering a periodic health check) the listener reconnects with backoff and,
      once LISTEN is in place again, calls `on_reconnect`: everything committed after that point is
      notified, and the callback's re-read of the source covers what came before.
    - With `on_live`, the same connection also LISTENs to the live channel (`postgres_live_relay`):
      live events relayed by other processes reach `on_live`; this process's own (`origin`) are
      skipped — it published them to its followers already.
    - Nothing here raises into the application: connection failures and callback errors are logged,
      and the listener keeps trying until `stop()`.

Design decisions:
    - `start()` makes the first attempt itself, so when it returns the process is listening if the
      server is up; later attempts run in the background task.
    - The DSN is derived from the SQLAlchemy URL: same host, credentials and database, SQLAlchemy's
      driver suffix removed, `ssl` spelled as the DSN's `sslmode`, and connect arguments that only
      SQLAlchemy or `asyncpg.connect` understand dropped (asyncpg would send unknown DSN query keys
      to the server as settings).
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import URL, TextClause, make_url, text

from forge.core.domain_types import SessionId
from forge.core.llm.backoff_schedule import RetryPolicy, backoff_delay
from forge.core.session.events import SessionEvent
from forge.db.postgres_live_relay import LIVE_CHANNEL, origin_prefix, parse_live

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "forge_session_events"
NOTIFY_SQL = "SELECT pg_notify(:channel, :payload)"
DEFAULT_RECONNECT = RetryPolicy(base_delay_s=0.5, max_delay_s=30.0, jitter=0.25)

# Query keys asyncpg reads from a DSN itself; any other key would become a server setting.
_DSN_KEYS = frozenset(
    {
        "sslmode", "sslcert", "sslkey", "sslrootcert", "sslcrl", "sslpassword", "sslnegotiation",
        "ssl_min_protocol_version", "ssl_max_protocol_version", "target_session_attrs", "passfile",
        "service", "krbsrvname", "gsslib",
    }
)  # fmt: skip


def encode_payload(session_id: SessionId, last_seq: int) -> str:
    return f"{session_id}:{last_seq}"


def parse_payload(payload: str) -> tuple[SessionId, int] | None:
    """The session and last seq of a payload, or None when it is not one of ours."""
    raw_id, separator, raw_seq = payload.rpartition(":")
    if not separator or not raw_seq.isdigit():
        return None
    try:
        return SessionId(uuid.UUID(raw_id)), int(raw_seq)
    except ValueError:
        return None


def notify_statement(session_id: SessionId, last_seq: int) -> TextClause:
    """What the committing transaction executes after appending events up to `last_seq`."""
    return text(NOTIFY_SQL).bindparams(channel=NOTIFY_CHANNEL, payload=encode_payload(session_id, last_seq))


def asyncpg_dsn(url: str | URL) -> str:
    """The asyncpg DSN for a SQLAlchemy PostgreSQL URL (`postgresql+asyncpg://...` or `postgresql://...`)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(f"LISTEN/NOTIFY needs PostgreSQL, not {parsed.get_backend_name()!r}.")
    query = {("sslmode" if key == "ssl" else key): value for key, value in parsed.query.items()}
    kept = {key: value for key, value in query.items() if key in _DSN_KEYS}
    return parsed.set(drivername="postgresql", query=kept).render_as_string(hide_password=False)


class PostgresEventListener:
    def __init__(
        self,
        dsn: str,
        on_commit: Callable[[SessionId, int], None],
        on_reconnect: Callable[[], None],
        *,
        on_live: Callable[[SessionId, SessionEvent], None] | None = None,
        origin: str = "",
        reconnect: RetryPolicy = DEFAULT_RECONNECT,
        health_check_seconds: float = 30.0,
        connect_timeout_seconds: float = 10.0,
        application_name: str = "forge-event-listener",
    ) -> None:
        self._dsn = dsn
        self._on_commit = on_commit
        self._on_reconnect = on_reconnect
        self._on_live = on_live
        self._origin = origin  # live events this process relayed itself are skipped
        self._own_prefix = origin_prefix(origin) if origin is not None else None
        self._reconnect = reconnect
        self._health_check_seconds = health_check_seconds
        self._connect_timeout = connect_timeout_seconds
        self._application_name = application_name
        self._wake = asyncio.Event()  # the current connection was lost, or stop was requested
        self._stopping = False
        self._current: Any = None  # the connection that LISTENs
        self._task: asyncio.Task[None] | None = None

    @property
    def listening(self) -> bool:
        return self._current is not None

    async def start(self) -> None:
        if self._task is not None:
            return
        self._stopping = False
        connection = await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._supervise(connection), name="forge-event-listener")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), self._connect_timeout)
        except TimeoutError:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    # ---- the connection's life ----------------------------------------------------------------

    async def _supervise(self, connection: Any) -> None:
        attempt = 0
        try:
            while not self._stopping:
                if connection is None:
                    attempt += 1
                    await self._pause(backoff_delay(self._reconnect, attempt, random.random()))
                    connection = None if self._stopping else await self._connect()
                    if connection is None:
                        continue
                    attempt = 0
                    self._call("on_reconnect", self._on_reconnect)
                await self._watch(connection)
                await self._close(connection)
                connection = None
        finally:
            self._current = None
            if connection is not None:
                connection.terminate()  # cancelled while connected

    async def _connect(self) -> Any:
        """A connection that LISTENs, or None (logged) when the server cannot be reached."""
        try:
            connection = await asyncpg.connect(
                self._dsn,
                timeout=self._connect_timeout,
                server_settings={"application_name": self._application_name},
            )
        except Exception as exc:
            log.warning("event listener cannot connect (%s: %s); retrying", type(exc).__name__, exc)
            return None
        try:
            connection.add_termination_listener(self._on_terminated)
            await connection.add_listener(NOTIFY_CHANNEL, self._on_notification)
            if self._on_live is not None:
                await connection.add_listener(LIVE_CHANNEL, self._on_live_notification)
        except Exception:
            log.warning("event listener cannot LISTEN; retrying", exc_info=True)
            connection.terminate()
            return None
        self._current = connection
        return connection

    async def _watch(self, connection: Any) -> None:
        """Return when the connection is lost, stops answering, or stop() is called."""
        while not self._stopping and not connection.is_closed():
            woken = await self._pause(self._health_check_seconds)
            if not woken and not await self._healthy(connection):
                log.warning("event listener connection stopped answering; reconnecting")
                return

    async def _healthy(self, connection: Any) -> bool:
        try:
            async with asyncio.timeout(self._connect_timeout):
                await connection.fetchval("SELECT 1")
        except Exception:
            return False
        return True

    async def _close(self, connection: Any) -> None:
        self._current = None
        try:
            await connection.close(timeout=self._connect_timeout)
        except Exception:
            connection.terminate()

    async def _pause(self, seconds: float) -> bool:
        """Wait up to `seconds`; True when woken (connection lost or stop requested)."""
        try:
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        except TimeoutError:
            return False
        self._wake.clear()
        return True

    # ---- callbacks ------------------------------------------------------------------------------

    def _on_terminated(self, connection: Any) -> None:
        if connection is self._current:
            self._wake.set()  # lost; our own close() of a connection we gave up on wakes nobody

    def _on_notification(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is None:
            log.debug("ignoring notification payload %r", payload)
            return
        self._call("on_commit", self._on_commit, *parsed)

    def _on_live_notification(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        if self._own_prefix is not None and payload.startswith(self._own_prefix):
            return  # this process's own: published to its followers already (cheap check, no parse)
        parsed = parse_live(payload)
        if parsed is None or self._on_live is None:
            log.debug("ignoring live payload %r", payload[:200])
            return
        origin, session_id, event = parsed
        if origin != self._origin:
            self._call("on_live", self._on_live, session_id, event)

    @staticmethod
    def _call(name: str, callback: Callable[..., None], *args: Any) -> None:
        try:
            callback(*args)
        except Exception:
            log.exception("event listener callback %s failed", name)
