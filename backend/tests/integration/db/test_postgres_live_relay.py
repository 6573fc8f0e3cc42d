"""Live events across processes (PostgreSQL NOTIFY): a relay in one process, the listener of another.

The payload rules are checked without a server; the relay and the listener talk through the real
PostgreSQL on 127.0.0.1, and a worker-mode run shows its live events to an API process's follower.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from support.fresh_database import migrated_database_url

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.review.inputs import DecomposeReview
from forge.core.session import events as ev
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.record import StoredEvent
from forge.core.session.run_tickets import ClaimKind, ticket_of
from forge.db.postgres_event_notifications import PostgresEventListener, asyncpg_dsn
from forge.db.postgres_live_relay import (
    MAX_PAYLOAD_BYTES,
    PostgresLiveRelay,
    encode_live,
    origin_prefix,
    parse_live,
)
from forge.services.broadcast.messages import LiveEvent
from forge.services.service_results import ServiceFailure

pytestmark = pytest.mark.postgres
SID = SessionId(uuid.UUID(int=7))
PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def test_a_payload_names_its_origin_session_and_event() -> None:
    event = ev.engine_progress("biso", 2, 5, 0)
    [payload] = encode_live("origin-a", SID, event)
    assert parse_live(payload) == ("origin-a", SID, event)
    assert parse_live("not json") is None and parse_live('{"o": "x"}') is None


def test_a_long_text_delta_is_split_into_payloads_that_fit_and_join_back() -> None:
    text = "Queueing theory says utilisation drives waits; 急诊 " * 900
    payloads = encode_live("origin-a", SID, ev.agent_text_delta(text))
    assert len(payloads) > 1 and all(len(p.encode()) <= MAX_PAYLOAD_BYTES for p in payloads)
    parts = [parse_live(p) for p in payloads]
    assert "".join(part[2].data["text"] for part in parts if part is not None) == text


def test_payloads_are_numbered_so_equal_events_stay_distinct() -> None:
    first, second = (
        encode_live("a", SID, ev.agent_text_delta("the "), 7),
        encode_live("a", SID, ev.agent_text_delta("the "), 8),
    )
    assert first != second  # PostgreSQL would deliver two identical payloads of one transaction once
    text = "y" * 20_000
    assert [json.loads(p)["n"] for p in encode_live("a", SID, ev.agent_text_delta(text), 3)] == [3, 4, 5, 6]


def test_a_listener_recognises_its_own_payloads_without_parsing_them() -> None:
    [payload] = encode_live("origin-a", SID, ev.engine_progress("biso", 1, 2, 0))
    assert payload.startswith(origin_prefix("origin-a"))
    assert not payload.startswith(origin_prefix("origin-"))  # a prefix of the origin is another origin
    assert not payload.startswith(origin_prefix("origin-ab"))


def test_another_event_too_large_for_a_notification_is_dropped() -> None:
    huge = SessionEvent(EventType.ENGINE_PROGRESS, {"stage": "x" * 10_000, "done": 1, "total": 1, "failed": 0})
    assert encode_live("origin-a", SID, huge) == []


@pytest.fixture
async def pg_url(tmp_path: Path) -> AsyncIterator[str]:
    async with migrated_database_url("postgresql", tmp_path, prefix="forge_test_live") as url:
        yield url


async def _until(condition: Callable[[], object], seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():  # noqa: ASYNC110 -- callbacks from another connection; polled briefly
            await asyncio.sleep(0.02)


async def test_another_process_hears_the_live_events_in_order_and_its_own_are_skipped(pg_url: str) -> None:
    dsn = asyncpg_dsn(pg_url)
    heard: list[tuple[SessionId, SessionEvent]] = []
    mine: list[tuple[SessionId, SessionEvent]] = []
    other = PostgresEventListener(
        dsn, lambda *_: None, lambda: None, on_live=lambda s, e: heard.append((s, e)), origin="b"
    )
    same = PostgresEventListener(
        dsn, lambda *_: None, lambda: None, on_live=lambda s, e: mine.append((s, e)), origin="a"
    )
    relay = PostgresLiveRelay(dsn, "a")
    await other.start()
    await same.start()
    try:
        long_text = "x" * 20_000
        sent = [ev.engine_progress("biso", 1, 3, 0), ev.agent_text_delta(long_text), ev.agent_text_discarded("cut")]
        for event in sent:
            relay.send(SID, event)
        await relay.flush()
        await _until(lambda: heard and heard[-1][1].type is EventType.AGENT_TEXT_DISCARDED)
        assert heard[0] == (SID, sent[0]) and heard[-1] == (SID, sent[2])
        assert "".join(e.data["text"] for _, e in heard[1:-1]) == long_text
        # Many small events queued at once go out in one statement: all of them, equal ones too, in order.
        heard.clear()
        words = [ev.agent_text_delta(word) for word in ("a ", "b ", "a ", "a ", *(f"{n} " for n in range(300)))]
        for event in words:
            relay.send(SID, event)
        await relay.flush()
        await _until(lambda: len(heard) >= len(words))
        assert heard == [(SID, event) for event in words]
        assert mine == []  # the relaying process published them to its own followers already
    finally:
        await relay.aclose()
        await other.stop()
        await same.stop()


async def test_a_relay_that_cannot_reach_the_server_drops_live_events_and_flushes(pg_url: str) -> None:
    relay = PostgresLiveRelay("postgresql://postgres@127.0.0.1:1/nothing", "a", connect_timeout_seconds=0.5)
    try:
        relay.send(SID, ev.engine_progress("biso", 1, 1, 0))
        await relay.flush()  # returns: the event is dropped, nothing waits on it
    finally:
        await relay.aclose()


def _settings(url: str, tmp_path: Path) -> Settings:
    return Settings(embedder="hashed", database_url=url, runner="workers", run_lease_seconds=2, data_dir=tmp_path)


async def _ticket(api: Container, sid: SessionId) -> str:
    record = await api.service.get(sid)
    assert not isinstance(record, ServiceFailure) and record.run_lease is not None
    return ticket_of(record.run_lease)


async def test_a_workers_run_shows_its_live_progress_to_an_api_process_follower(pg_url: str, tmp_path: Path) -> None:
    api: Container = build_container(_settings(pg_url, tmp_path), heartbeat_seconds=0.05)
    worker: Container = build_container(_settings(pg_url, tmp_path))
    await api.start()
    try:
        assert worker.queued_runs is not None
        created = await api.service.create(PROBLEM)
        assert not isinstance(created, ServiceFailure)
        started = await api.service.start_run(created.id)
        assert not isinstance(started, ServiceFailure) and started.started
        assert await worker.queued_runs.run_job(created.id, await _ticket(api, created.id)) == ClaimKind.TAKE
        after = await api.service.submit_review(created.id, DecomposeReview((0,)))  # EXPLORE: BISO reports progress
        assert not isinstance(after, ServiceFailure)
        seen: list[object] = []

        async def follow() -> None:
            async for batch in api.service.follow_batches(created.id, after):
                seen.extend(batch)

        follower = asyncio.get_running_loop().create_task(follow())
        await _until(lambda: bool(seen))  # connected (a heartbeat) before the worker starts
        assert await worker.queued_runs.run_job(created.id, await _ticket(api, created.id)) == ClaimKind.TAKE
        async with asyncio.timeout(30):
            await follower
        live = [item.event.type for item in seen if isinstance(item, LiveEvent)]
        assert EventType.ENGINE_PROGRESS in live
        stored = [item.seq for item in seen if isinstance(item, StoredEvent)]
        assert stored == list(range(after + 1, after + 1 + len(stored)))  # every stored event once, in order
    finally:
        await worker.close()
        await api.close()
