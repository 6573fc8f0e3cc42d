"""Live (never stored) session events across processes: a worker's text deltas and engine progress
reach the followers of every API process through PostgreSQL NOTIFY.

Invariants:
    - Best effort, never in the way: `send` is synchronous and never waits; a full queue, a lost
      connection or an oversized event drops live events (logged), never a step. Stored events do
      not travel here (they have their own notification, sent by the committing transaction).
    - Order: one sender task sends in the order `send` was called, everything queued at once in one
      statement (one round trip per batch, not per event: a round trip waits behind whatever else
      the event loop does, e.g. a fan-out to a thousand followers). `flush` (awaited by the run
      before it commits a step) returns once everything sent before it is out, so a step's live
      events are notified before the step's own commit notification: a listener never sees a
      step's text delta after the step's stored text.
    - Every payload names its origin (one per process): the listener of the same process skips it,
      because that process already published the event to its own followers. It also carries a
      serial number, unique per origin: PostgreSQL delivers identical payloads notified in one
      transaction only once, and two equal text deltas in one batch must both arrive.
    - A payload stays under PostgreSQL's 8,000-byte NOTIFY limit: a long text delta is split into
      several deltas; any other event that does not fit is dropped.

Design decisions:
    - One dedicated asyncpg connection, outside the SQLAlchemy pool (a relay must not take a
      connection a request or a step needs), opened on first use and again after a failure.
    - The payload is compact JSON: {"o": origin, "n": serial, "s": session id, "t": event type,
      "d": data}; the origin comes first so a listener skips its own without parsing
      (`origin_prefix`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import msgspec

from forge.core.domain_types import SessionId
from forge.core.session import events as ev
from forge.core.session.events import EventType, SessionEvent

log = logging.getLogger(__name__)

LIVE_CHANNEL = "forge_live_events"
MAX_PAYLOAD_BYTES = 7_900  # PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more
QUEUE_LIMIT = 2_048
BATCH_LIMIT = 256  # payloads per NOTIFY statement (each under the 8,000-byte limit)
FLUSH_TIMEOUT_SECONDS = 2.0


def encode_live(origin: str, session_id: SessionId, event: SessionEvent, serial: int = 0) -> list[str]:
    """The payloads for one live event, numbered from `serial`: one, several for a long text delta
    (split in halves until each fits), none if it cannot fit."""
    payload = _payload(origin, serial, session_id, event)
    if len(payload.encode()) <= MAX_PAYLOAD_BYTES:
        return [payload]
    if event.type is not EventType.AGENT_TEXT_DELTA:
        return []
    text: str = event.data["text"]
    half = len(text) // 2
    if half == 0:
        return []
    first = encode_live(origin, session_id, ev.agent_text_delta(text[:half]), serial)
    if not first:
        return []
    second = encode_live(origin, session_id, ev.agent_text_delta(text[half:]), serial + len(first))
    return [*first, *second] if second else []


def _payload(origin: str, serial: int, session_id: SessionId, event: SessionEvent) -> str:
    body = {"o": origin, "n": serial, "s": str(session_id), "t": event.type.value, "d": event.data}
    return msgspec.json.encode(body).decode()  # compact, UTF-8 kept: as json.dumps(separators=(",", ":"))


def origin_prefix(origin: str) -> str:
    """How every payload relayed by `origin` begins: a listener skips its own by this prefix, without
    parsing them (computed once per listener)."""
    return json.dumps({"o": origin}, ensure_ascii=False, separators=(",", ":"))[:-1] + ","


def parse_live(payload: str) -> tuple[str, SessionId, SessionEvent] | None:
    """Origin, session and event of a payload, or None when it is not one of ours."""
    try:
        body = json.loads(payload)
        return body["o"], SessionId(uuid.UUID(body["s"])), SessionEvent(EventType(body["t"]), body["d"])
    except (ValueError, KeyError, TypeError):
        return None


class PostgresLiveRelay:
    def __init__(self, dsn: str, origin: str, *, connect_timeout_seconds: float = 5.0) -> None:
        self.origin = origin
        self._dsn = dsn
        self._connect_timeout = connect_timeout_seconds
        self._queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_LIMIT)
        self._sender: asyncio.Task[None] | None = None
        self._connection: Any = None
        self._dropped = 0
        self._serial = 0

    def send(self, session_id: SessionId, event: SessionEvent) -> None:
        payloads = encode_live(self.origin, session_id, event, self._serial)
        self._serial += len(payloads)
        if not payloads:
            log.info("live %s event too large to relay; dropped", event.type.value)
        for payload in payloads:
            try:
                self._queue.put_nowait(payload)
            except asyncio.QueueFull:
                self._dropped += 1
                if self._dropped % 100 == 1:
                    log.warning("live relay queue full: %d live events dropped so far", self._dropped)
                return
        if payloads and (self._sender is None or self._sender.done()):
            self._sender = asyncio.get_running_loop().create_task(self._send_all(), name="forge-live-relay")

    async def flush(self) -> None:
        """Wait (at most FLUSH_TIMEOUT_SECONDS) until every event sent before this call is out."""
        try:
            async with asyncio.timeout(FLUSH_TIMEOUT_SECONDS):
                await self._queue.join()
        except TimeoutError:
            log.warning("live relay did not flush within %.1f s; the step commits anyway", FLUSH_TIMEOUT_SECONDS)

    async def aclose(self) -> None:
        sender, self._sender = self._sender, None
        if sender is not None:
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)
        await self._disconnect()

    async def _send_all(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH_LIMIT and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self._notify(batch)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _notify(self, payloads: list[str]) -> None:
        try:
            if self._connection is None or self._connection.is_closed():
                self._connection = await asyncpg.connect(self._dsn, timeout=self._connect_timeout)
            # One statement, one transaction: the rows of a function scan come in array order, and
            # PostgreSQL delivers one transaction's notifications in the order they were sent.
            await self._connection.execute(
                "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload", LIVE_CHANNEL, payloads
            )
        except Exception as exc:  # best effort: live events are lost, the run goes on
            log.warning(
                "live relay could not notify (%s: %s); %d live events dropped", type(exc).__name__, exc, len(payloads)
            )
            await self._disconnect()

    async def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                await connection.close(timeout=self._connect_timeout)
            except Exception:
                connection.terminate()
